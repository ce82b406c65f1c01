"""What an operator relies on: the settings (one line for a bad one), /metrics across gunicorn's
workers, /v1/rules saying the limits in force, and /docs rendered in a real browser."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from werkzeug.serving import make_server

import service
from bench import server
from service import create_app, settings

from .support import live as live_server
from .support.hands import EXAMPLE
from .support.tools import chromium

# ---- settings --------------------------------------------------------------------------------

BAD = [
    ("WEB_CONCURRENCY", "two", "must be a whole number of worker processes 1-256 (default one"
     " per usable CPU)"),
    ("ZJ_MAX_CONTENT_LENGTH", "2MB", "must be a whole number of bytes 1-1073741824 (default"
     " 2097152)"),
    ("PORT", "http", "must be a whole number 1-65535 (default 8000)"),
    ("PORT", "70000", "must be a whole number 1-65535 (default 8000)"),
    ("GUNICORN_TIMEOUT", "0", "must be a whole number of seconds 1-86400 (default 30)"),
    ("LOG_LEVEL", "loud", "must be one of debug, info, warning, error, critical (default info)"),
    ("ZJ_CLIENT_TIMEOUT", "-1", "must be a positive number (default 10)"),
    ("ZJ_QUEUE_TIMEOUT", "soon", "must be a positive number (default 0.2)"),
    ("ZJ_BUFFER_BYTES", "8MiB", "must be a positive number (default 8388608)"),
    ("ZJ_CORS_ORIGINS", "example.com", "must be * or comma-separated origins such as"
     " https://example.com:8443 (default *)"),
    ("ZJ_METRICS", "yes", "must be 1 (on) or 0 (off) (default 1)"),
    ("ZJ_PLAYGROUND", "off", "must be 1 (on) or 0 (off) (default 1)"),
    ("ZJ_EXPECT_STATES", "0", "must be a whole number of hands 1-10000000 (default 50000)"),
    ("ZJ_EXPECT_STATES", "lots", "must be a whole number of hands 1-10000000 (default 50000)"),
    ("ZJ_TRUSTED_PROXIES", "10.0.0.0/33", "must be comma-separated addresses or CIDR ranges"
     " such as 10.0.0.0/8 (default none)"),
    ("ZJ_CLIENT_RATE", "fast", "must be a positive number of requests a second (default off)"),
    ("ZJ_CLIENT_BURST", "1.5", "must be a whole number of requests 1-1000000 (default one"
     " second's worth)"),
]  # fmt: skip


def test_every_documented_variable_is_checked() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Configuration\n")[1].split("\n## ")[0]
    documented = {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}
    assert documented == set(settings.SETTINGS)
    assert {name for name, _, _ in BAD} | {"ZJ_PROFILES", "PROMETHEUS_MULTIPROC_DIR"} == set(
        settings.SETTINGS
    )


@pytest.mark.parametrize(("name", "value", "allowed"), BAD)
def test_a_bad_value_is_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, allowed: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        settings.check_all()
    assert str(stopped.value) == f"{name}={value!r}: {allowed}"


def test_settings_and_their_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in settings.SETTINGS:
        monkeypatch.delenv(name, raising=False)
    assert settings.setting("PORT") == 8000
    assert settings.setting("WEB_CONCURRENCY") == len(os.sched_getaffinity(0))
    assert settings.setting("ZJ_MAX_CONTENT_LENGTH") == 2097152
    assert settings.setting("ZJ_METRICS") is True
    monkeypatch.setenv("LOG_LEVEL", " WARNING ")
    monkeypatch.setenv("ZJ_METRICS", "0")
    monkeypatch.setenv("ZJ_CORS_ORIGINS", "https://a.example, http://localhost:3000")
    assert settings.setting("LOG_LEVEL") == "warning"
    assert settings.setting("ZJ_METRICS") is False
    assert settings.setting("ZJ_CORS_ORIGINS") == "https://a.example, http://localhost:3000"


def start(argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Run a server command that must stop by itself (bounded), in its own process group."""
    process = subprocess.Popen(
        argv,
        cwd=server.SERVICE_ROOT,
        env={**os.environ, "PORT": str(server.free_port()), **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=30)
    finally:
        server.stop(process)  # type: ignore[arg-type]  # a no-op once it stopped
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


GUNICORN = [sys.executable, "-m", "gunicorn", "--config", str(server.CONFIG), server.APP]
ZJ_SERVE = [sys.executable, "-m", "service.serve", "--config", str(server.CONFIG), server.APP]


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.parametrize(
    ("command", "name", "value", "allowed"),
    [(ZJ_SERVE, *BAD[0]), (ZJ_SERVE, *BAD[1]), (GUNICORN, *BAD[1]), (GUNICORN, *BAD[5]),
     (ZJ_SERVE, *BAD[10])],
    ids=["zj-serve WEB_CONCURRENCY", "zj-serve ZJ_MAX_CONTENT_LENGTH",
         "gunicorn ZJ_MAX_CONTENT_LENGTH", "gunicorn LOG_LEVEL", "zj-serve ZJ_METRICS"],
)  # fmt: skip
def test_the_server_stops_with_one_line(
    command: list[str], name: str, value: str, allowed: str
) -> None:
    done = start(command, **{name: value})
    assert done.returncode == 1
    assert done.stderr == f"{name}={value!r}: {allowed}\n"
    assert done.stdout == ""


def test_the_rules_say_the_limits_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZJ_MAX_CONTENT_LENGTH", "1000")
    client = create_app({"TESTING": True}).test_client()
    rules = client.get("/v1/rules").get_json()
    assert rules["limits"]["body_bytes"] == 1000
    assert rules["service_version"] == service.__version__
    small = client.post("/v1/score", json=EXAMPLE)
    assert small.status_code == 200
    padded = json.dumps(EXAMPLE).ljust(1001)
    large = client.post("/v1/score", data=padded, content_type="application/json")
    assert large.status_code == 413
    assert large.get_json()["detail"].endswith("(at most 1000 bytes)")


# ---- metrics, in process -----------------------------------------------------------------------


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """{(sample name, sorted labels): value} of a scrape."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(scrape: dict[Any, float], name: str, **labels: str) -> float:
    return scrape.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_in_process(client: FlaskClient) -> None:
    before = samples(client.get("/metrics").get_data(as_text=True))
    client.post("/v1/score", json=EXAMPLE)
    client.post("/v1/score", json={"hand": {}})
    client.get("/nowhere/at/all")
    client.open("/v1/rules", method="BREW")
    after = samples(client.get("/metrics").get_data(as_text=True))

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    requests = "zj_http_requests_total"
    assert grew(requests, route="/v1/score", method="POST", status="200") == 1
    assert grew(requests, route="/v1/score", method="POST", status="422") == 1
    assert grew(requests, route="other", method="GET", status="404") == 1
    assert grew(requests, route="/v1/rules", method="other", status="405") == 1
    assert grew(requests, route="/metrics", method="GET", status="200") == 1
    assert grew("zj_http_request_duration_seconds_count", route="/v1/score") == 2
    assert grew("zj_hands_scored_total", endpoint="score") == 1
    assert grew("zj_problems_total", code="invalid_request") == 1
    assert grew("zj_problems_total", code="not_found") == 1


def test_metrics_off_is_a_404() -> None:
    client = create_app({"TESTING": True, "METRICS": False}).test_client()
    response = client.get("/metrics")
    assert response.status_code == 404
    assert response.get_json()["code"] == "not_found"


# ---- metrics, a real gunicorn with two workers ---------------------------------------------------


def get(url: str, body: Any = None) -> int:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def scrape(url: str) -> dict[Any, float]:
    with urllib.request.urlopen(url + "/metrics", timeout=10) as response:
        return samples(response.read().decode())


def pids_with_files(directory: Path) -> set[str]:
    return {path.stem.rsplit("_", 1)[1] for path in directory.glob("*.db")}


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.parametrize(
    ("how", "stop"),
    [(os.kill, signal.SIGTERM), (os.killpg, signal.SIGINT)],
    ids=["SIGTERM to the master, as an orchestrator stops it", "Ctrl-C in a terminal"],
)
def test_a_server_stops_cleanly(how: Any, stop: signal.Signals) -> None:
    """A stop logs the worker's exit and no traceback (gevent's patched threading, torn down
    with the worker's interpreter, printed two per worker), status 0. One worker, which has
    answered (a stop while it boots: the next test)."""
    with live_server.gunicorn(workers=1) as running:
        assert get(running.url + "/v1/score", EXAMPLE) == 200
        how(running.pid, stop)
        assert running.process.wait(timeout=15) == 0
        log = running.log()
    assert log.count("Worker exiting") == 1 and "Shutting down: Master" in log, log
    assert "Traceback" not in log and "Exception ignored" not in log, log


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_stop_while_the_workers_boot_is_not_missed(stop: signal.Signals) -> None:
    """A stop sent the moment the first worker is forked, before gunicorn has set its
    handlers in it: every worker still stops at once. Missed, a worker served on until the
    master killed it at the end of the graceful timeout (20 s here, 30 by default)."""
    grace = 20
    argv = server.command(server.free_port(), 2, ["--graceful-timeout", str(grace)])
    with subprocess.Popen(
        argv, cwd=server.SERVICE_ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    ) as process:  # fmt: skip
        try:
            while not server.children(process.pid):
                assert process.poll() is None, process.communicate()
                time.sleep(0.001)
            asked = time.monotonic()
            os.killpg(process.pid, stop)  # as a terminal or a container runtime sends it
            _, log = process.communicate(timeout=grace + 15)
            took = time.monotonic() - asked
        finally:
            server.stop(process)  # type: ignore[arg-type]  # a no-op once it stopped
    assert took < grace / 2, log
    assert process.returncode == 0, log
    assert "Traceback" not in log, log


@pytest.mark.slow
@pytest.mark.server
def test_metrics_add_up_across_workers_and_a_replaced_one(tmp_path: Path) -> None:
    directory = tmp_path / "metrics"
    env = {"PROMETHEUS_MULTIPROC_DIR": str(directory)}
    # An earlier run's counts: a restart starts from 0 (the directory is emptied at start).
    with live_server.gunicorn(**env) as first:
        assert get(first.url + "/v1/score", EXAMPLE) == 200
    assert pids_with_files(directory)
    with live_server.gunicorn(workers=2, **env) as running:
        # Probes until both workers have answered (each keeps its own files), counted.
        probes = 0
        deadline = time.monotonic() + 20
        while len(pids_with_files(directory) & {str(p) for p in running.workers()}) < 2:
            assert time.monotonic() < deadline, "one worker answered everything"
            assert get(running.url + "/readyz") == 200
            probes += 1
        for _ in range(3):
            assert get(running.url + "/v1/score", EXAMPLE) == 200
        assert get(running.url + "/v1/score", {"hand": {}}) == 422
        assert get(running.url + "/v1/score/batch", {"items": [EXAMPLE, EXAMPLE, 42]}) == 200
        for _ in range(2):
            waits = {"hand": {"tiles": "123m456p789s2355s"}, "win": {"seat": "S"}}
            assert get(running.url + "/v1/waits", waits) == 200
        assert get(running.url + "/nowhere") == 404
        # A worker replaced (as a crash or a recycle would): what it counted stays counted.
        gone = running.workers()[0]
        os.kill(gone, signal.SIGTERM)
        assert running.wait_workers(2, exclude=[gone])
        counts = scrape(running.url)
    requests = "zj_http_requests_total"
    assert value(counts, requests, route="/readyz", method="GET", status="200") == probes
    assert value(counts, requests, route="/v1/score", method="POST", status="200") == 3
    assert value(counts, requests, route="/v1/score", method="POST", status="422") == 1
    assert value(counts, requests, route="/v1/score/batch", method="POST", status="200") == 1
    assert value(counts, requests, route="/v1/waits", method="POST", status="200") == 2
    assert value(counts, requests, route="other", method="GET", status="404") == 1
    assert value(counts, "zj_http_request_duration_seconds_count", route="/v1/score") == 4
    assert value(counts, "zj_hands_scored_total", endpoint="score") == 3
    assert value(counts, "zj_hands_scored_total", endpoint="batch") == 2
    assert value(counts, "zj_hands_scored_total", endpoint="waits") == 2
    assert value(counts, "zj_problems_total", code="invalid_request") == 1
    assert value(counts, "zj_problems_total", code="not_found") == 1
    # The operator's directory is kept (emptied at the next start); a server's own is removed.
    assert directory.is_dir()


@pytest.mark.slow
@pytest.mark.server
def test_metrics_off_in_gunicorn_and_no_directory_left(tmp_path: Path) -> None:
    with live_server.gunicorn(ZJ_METRICS="0") as running:
        assert get(running.url + "/metrics") == 404
        assert not list(Path("/dev/shm").glob(f"zj-metrics-{running.pid}"))
    with live_server.gunicorn() as running:
        own = Path("/dev/shm") / f"zj-metrics-{running.pid}"
        assert get(running.url + "/metrics") == 200 and own.is_dir()
    assert not own.exists()


# ---- /docs in a real browser -------------------------------------------------------------------


@pytest.fixture
def live_url() -> Iterator[str]:
    """The app on a free loopback port (werkzeug's server in a thread), for the browser."""
    httpd = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)


def test_docs_assets_are_served_by_the_service(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    assert "http:" not in page and "https:" not in page  # nothing from elsewhere
    links = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert len(links) == 6 and all(link.startswith("/docs/") for link in links), links
    for asset in ("/docs/swagger-ui.css", "/docs/index.css", "/docs/swagger-ui-bundle.js",
                  "/docs/swagger-ui-standalone-preset.js"):  # fmt: skip
        assert f'"{asset}"' in page
        # The assets are not operations of the contract: a plain client.
        with create_app({"TESTING": True}).test_client().get(asset) as response:
            assert response.status_code == 200 and len(response.data) > 100, asset
    assert '"url": "/openapi.yaml"' in page


@pytest.mark.slow
@pytest.mark.client_side
@pytest.mark.xdist_group("browser")  # beside the playground's, not another Chromium at once
def test_docs_render_every_operation_in_chromium(live_url: str, tmp_path: Path) -> None:
    browser = chromium()
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=15000",
         "--dump-dom", live_url + "/docs"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    dom = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Zung Jung Scoring Service" in dom
    for path in ("/v1/score", "/v1/waits", "/v1/score/batch", "/v1/patterns", "/v1/rules",
                 "/livez", "/readyz", "/openapi.yaml", "/docs", "/metrics"):  # fmt: skip
        assert f'data-path="{path}"' in dom, path
    assert "opblock-summary-path" in dom
