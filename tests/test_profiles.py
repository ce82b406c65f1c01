"""House-rule profiles of a deployment (ZJ_PROFILES): the file, the app, a real gunicorn, k8s.

A bad file must stop the server at start with one line naming the fault and a non-zero exit,
never a traceback; the gunicorn checks run the shipped config, whatever its worker class.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench import server
from service import create_app, profiles
from service.domain.rules.rulesets import install_profiles
from service.profiles import ProfileError

from .support import live as live_server

ROOT = Path(__file__).resolve().parents[1]
CLUB = {"club": {"minimum": 5, "values": {"2.1.2": 100}}}


def write(tmp_path: Path, content: Any) -> str:
    path = tmp_path / "profiles.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


BAD_FILES = [
    pytest.param(
        {"club": {"values": {"2.1.9": 100}}},
        "club.values.2.1.9: '2.1.9' is not a pattern id: the ids are those of GET /v1/patterns,"
        " 1.1 to 11.2.2 (2.1.x: 2.1.1, 2.1.2)",
        id="unknown pattern id",
    ),
    pytest.param(
        {"club": {"values": {"2.1.2": 10_001}}},
        "club.values.2.1.2: must be from 0 to 10000",
        id="bad value",
    ),
    pytest.param(
        {"club": {"minimum": 5, "colour": "red"}},
        "club.colour: unknown field: remove it",
        id="unknown field",
    ),
    pytest.param(
        {"club": {"profile": "pub"}},
        "club.profile: unknown field: remove it",
        id="a profile naming another",
    ),
    pytest.param(
        {"club": {"exclude": ["10.2", "10.9"], "limit": 0}},
        "club.exclude[1]: '10.9' is not a pattern id: the ids are those of GET /v1/patterns,"
        " 1.1 to 11.2.2 (10.x: 10.1, 10.2); club.limit: must be from 1 to 10000",
        id="two faults",
    ),
    pytest.param({"club": 5}, "club: wrong type: expected an object", id="not an object"),
    pytest.param(
        {"the club": {}},
        "profile name 'the club' must be 1-64 letters, digits, '_', '-' or '.', starting with a"
        " letter or digit",
        id="bad name",
    ),
    pytest.param(
        '{"club": {"minimum": 5,}}',
        "not valid JSON: Expecting property name enclosed in double quotes: line 1 column 24"
        " (char 23)",
        id="unreadable JSON",
    ),
    pytest.param(
        ["club"],
        "must be a JSON object mapping each profile's name to a rules object, e.g."
        ' {"club": {"minimum": 5, "values": {"2.1.2": 100}}}',
        id="a list",
    ),
]


@pytest.mark.parametrize(("content", "fault"), BAD_FILES)
def test_a_bad_file_names_its_fault_in_one_line(tmp_path: Path, content: Any, fault: str) -> None:
    path = write(tmp_path, content)
    with pytest.raises(ProfileError) as info:
        profiles.read(path)
    assert str(info.value) == f"{path}: {fault}"


def test_a_missing_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.json")
    with pytest.raises(ProfileError) as info:
        profiles.read(missing)
    assert str(info.value) == f"{missing}: cannot be read: [Errno 2] No such file or directory:" \
        f" '{missing}'"  # fmt: skip


def test_a_good_file_is_each_profile_s_fields(tmp_path: Path) -> None:
    text = {"club": {"minimum": 5, "values": {"2.1.2": 100}, "exclude": ["10.1"]}, "home": {}}
    assert profiles.read(write(tmp_path, text)) == text


def test_the_app_loads_the_file_named_by_zj_profiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZJ_PROFILES", write(tmp_path, CLUB))
    try:
        client = create_app().test_client()
        listed = client.get("/v1/rules").get_json()["profiles"]
        assert [profile["name"] for profile in listed] == ["club"]
    finally:
        install_profiles({})


def test_the_app_refuses_a_bad_file(tmp_path: Path) -> None:
    with pytest.raises(ProfileError):
        create_app({"PROFILES": write(tmp_path, {"club": {"values": {"0": 1}}})})


# ---- a real gunicorn ----------------------------------------------------------------------------


def start_gunicorn(profiles_path: str) -> subprocess.CompletedProcess[str]:
    """Run the shipped command with ZJ_PROFILES; it must exit by itself (bounded)."""
    env = {**os.environ, "PORT": str(server.free_port()), "ZJ_PROFILES": profiles_path}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(server.CONFIG), server.APP],
        cwd=server.SERVICE_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=30)
    finally:
        server.stop(process)  # a no-op once it has stopped by itself
    return subprocess.CompletedProcess(
        process.args, process.returncode, stdout.decode(), stderr.decode()
    )


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.parametrize(
    ("content", "fault"),
    [param for param in BAD_FILES if param.id in ("unknown pattern id", "bad value",
                                                 "unknown field", "unreadable JSON")],
)  # fmt: skip
def test_gunicorn_stops_on_a_bad_file_with_one_line(
    tmp_path: Path, content: Any, fault: str
) -> None:
    path = write(tmp_path, content)
    result = start_gunicorn(path)
    assert result.returncode == 1
    assert result.stderr == f"zj-service: ZJ_PROFILES: {path}: {fault}\n"
    assert result.stdout == ""


@pytest.mark.slow
@pytest.mark.server
def test_gunicorn_stops_on_a_missing_file(tmp_path: Path) -> None:
    result = start_gunicorn(str(tmp_path / "nowhere.json"))
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert "cannot be read: [Errno 2] No such file or directory" in result.stderr


@pytest.mark.slow
@pytest.mark.server
def test_gunicorn_serves_the_profiles_of_a_good_file(tmp_path: Path) -> None:
    with live_server.gunicorn(ZJ_PROFILES=write(tmp_path, CLUB)) as running:
        with urllib.request.urlopen(running.url + "/v1/rules", timeout=10) as response:
            listed = json.load(response)["profiles"]
        with urllib.request.urlopen(running.url + "/v1/patterns?profile=club") as response:
            catalogue = json.load(response)
    assert listed == [
        {"name": "club", "rules": {"version": "3.3", "payoff": "formal", "standard_value": 25,
                                   "minimum": 5, "bonus_tiles": False, "values": {"2.1.2": 100},
                                   "exclude": [], "chicken": 1, "limit": 320, "profile": "club"}}
    ]  # fmt: skip
    assert {p["id"]: p["value"] for p in catalogue["patterns"]}["2.1.2"] == 100


# ---- Kubernetes ---------------------------------------------------------------------------------


def test_the_manifest_mounts_the_profiles_config_map_read_only(tmp_path: Path) -> None:
    with (ROOT / "deploy" / "kubernetes.yaml").open(encoding="utf-8") as stream:
        documents = [doc for doc in yaml.safe_load_all(stream) if doc]
    (config_map,) = [doc for doc in documents if doc["kind"] == "ConfigMap"]
    (deployment,) = [doc for doc in documents if doc["kind"] == "Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    (mount,) = [
        m for m in container["volumeMounts"] if env["ZJ_PROFILES"].startswith(m["mountPath"])
    ]
    assert mount["readOnly"] is True
    (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    assert volume["configMap"]["name"] == config_map["metadata"]["name"]
    # The file the pod reads is the ConfigMap's key, and it is a good profiles file.
    key = env["ZJ_PROFILES"].removeprefix(mount["mountPath"]).strip("/")
    loaded = profiles.read(write(tmp_path, config_map["data"][key]))
    assert "club" in loaded
