"""HTTP and process checks for scripts/container-test.sh (stdlib only: runs on the host python).

    python3 scripts/container_check.py ready   PORT SESSION_PID [SECONDS]
    python3 scripts/container_check.py score   PORT ACCESS_LOG
    python3 scripts/container_check.py docs    PORT
    python3 scripts/container_check.py playground PORT
    python3 scripts/container_check.py metrics PORT
    python3 scripts/container_check.py uids    SESSION_PID
    python3 scripts/container_check.py master  SESSION_PID

Each check prints PASS:/FAIL: lines and exits non-zero if any failed. SESSION_PID is the pid of
the `setsid` process the container was started with: every process of the container is in
that session, which is how the gunicorn master and workers are found from outside.
"""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

# The API.md example: a pung of Red dragons (3.1 Value Honor, 10) won on West's discard by South.
# API.md prints hand.tiles as "123m789p2355s", 10 tiles + 3 for the meld = 13, although its own
# rule says hand.tiles includes the winning tile (14 in all); the service follows the rule and
# answers 422 to the literal text, so the winning 4s is added here.
SCORE_REQUEST = {
    "hand": {
        "tiles": "123m789p23455s",
        "melds": [{"kind": "pung", "tiles": "777z"}],
        "winning_tile": "4s",
    },
    "win": {"by": "discard", "seat": "S", "discarder": "W"},
}
EXPECTED_SCORE = 10

failures = 0


def report(ok: bool, what: str) -> None:
    global failures
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures += 1


def session_processes(sid: int) -> dict[int, tuple[int, str]]:
    """pid -> (ppid, command line) of every live process in session `sid`."""
    found: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        # Fields after the ")" that closes the command name: state ppid pgrp session ...
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == sid:
            found[int(entry.name)] = (int(fields[1]), cmdline)
    return found


def gunicorn_master(sid: int) -> int | None:
    procs = session_processes(sid)
    guns = {pid for pid, (_, cmd) in procs.items() if "gunicorn" in cmd and "buildah" not in cmd}
    masters = [pid for pid in guns if procs[pid][0] not in guns]
    return masters[0] if len(masters) == 1 else None


def uid_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[2])  # effective uid
    raise RuntimeError(f"no Uid line for {pid}")


def request(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers or {}
    )
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, dict(resp.headers.items()), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers.items()), err.read()


def check_ready(port: int, sid: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    last = "no answer"
    while time.monotonic() < deadline:
        if not session_processes(sid):
            report(False, f"container exited before /readyz answered ({last})")
            return
        try:
            status, _, _ = request(port, "GET", "/readyz")
            if status == 200:
                report(True, f"/readyz answered 200 on port {port}")
                return
            last = f"status {status}"
        except OSError as err:
            last = str(err)
        time.sleep(0.5)
    report(False, f"/readyz not 200 within {seconds:.0f} s ({last})")


def check_score(port: int, access_log: Path) -> None:
    request_id = f"container-test-{uuid.uuid4()}"
    status, headers, raw = request(
        port, "POST", "/v1/score", SCORE_REQUEST, {"X-Request-ID": request_id}
    )
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    report(
        status == 200,
        f"POST /v1/score status {status}" + ("" if status == 200 else f": {raw[:300]!r}"),
    )
    score = body.get("score") if isinstance(body, dict) else None
    report(score == EXPECTED_SCORE, f"score of the API.md example hand is {score!r} (want 10)")
    if isinstance(body, dict) and isinstance(body.get("payments"), dict):
        payments = body["payments"]
        report(sum(payments.values()) == 0, f"payments sum to 0: {payments}")
    report(
        lower.get("x-request-id") == request_id,
        f"X-Request-ID echoed ({lower.get('x-request-id')!r})",
    )
    server = lower.get("server", "")
    report(not any(c.isdigit() for c in server), f"Server header carries no version ({server!r})")

    # The access log line for that request: valid JSON, with the response's request id.
    deadline = time.monotonic() + 5
    line: dict[str, Any] | None = None
    bad: list[str] = []
    while time.monotonic() < deadline and line is None:
        bad = []
        for text in access_log.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(text)
            except ValueError:
                bad.append(text)
                continue
            if entry.get("request_id") == request_id:
                line = entry
        time.sleep(0.2)
    report(not bad, f"every stdout line is JSON ({len(bad)} not: {bad[:2]})")
    report(
        line is not None
        and line.get("path") == "/v1/score"
        and line.get("status") == 200
        and line.get("method") == "POST"
        and isinstance(line.get("duration_ms"), float),
        f"JSON access-log line with the request id: {line}",
    )


def check_docs(port: int) -> None:
    """GET /docs, and every script and stylesheet it names, from the image itself."""
    status, _, raw = request(port, "GET", "/docs")
    page = raw.decode(errors="replace")
    report(status == 200 and "swagger-ui" in page, f"GET /docs status {status}")
    assets = re.findall(r'(?:src|href)="([^"]*)"', page)
    report(
        bool(assets) and all(asset.startswith("/docs/") for asset in assets),
        f"/docs names only its own assets: {assets}",
    )
    for asset in assets:
        status, _, body = request(port, "GET", asset)
        report(status == 200 and len(body) > 100, f"GET {asset}: {status}, {len(body)} bytes")


def check_playground(port: int) -> None:
    """GET /, the playground, and every asset it names, from the image itself (package data)."""
    status, headers, raw = request(port, "GET", "/")
    page = raw.decode(errors="replace")
    policy = {k.lower(): v for k, v in headers.items()}.get("content-security-policy", "")
    report(status == 200 and 'id="palette"' in page, f"GET / (the playground) status {status}")
    report("script-src 'self'" in policy, f"GET / carries a strict CSP ({policy!r})")
    assets = re.findall(r'(?:src|href)="(/playground/[^"]*)"', page)
    report(len(assets) >= 4, f"/ names its own assets: {assets}")
    for asset in assets:
        status, _, body = request(port, "GET", asset)
        report(status == 200 and len(body) > 100, f"GET {asset}: {status}, {len(body)} bytes")
    modules = ("tiles.js", "hand.js", "request.js", "render.js", "sheet.js", "i18n.js", "link.js")
    base = assets[0].rsplit("/", 1)[0] if assets else "/playground/none"
    for name in modules:
        status, _, body = request(port, "GET", f"{base}/{name}")
        report(status == 200 and b"export" in body, f"GET {base}/{name}: {status}")


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a Prometheus text exposition (0 if absent)."""
    for line in text.splitlines():
        if not line.startswith(name + "{"):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line[: line.rindex("}")]))
        if found == labels:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def check_metrics(port: int) -> None:
    """GET /metrics counts across the workers: N more scored hands, N more in the count."""
    before = request(port, "GET", "/metrics")[2].decode()
    labels = {"method": "POST", "route": "/v1/score", "status": "200"}
    sent = 6  # new connections: both workers answer some
    for _ in range(sent):
        request(port, "POST", "/v1/score", SCORE_REQUEST)
    status, headers, raw = request(port, "GET", "/metrics")
    after = raw.decode()
    kind = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
    report(status == 200 and kind.startswith("text/plain"), f"GET /metrics {status} {kind}")
    grew = metric(after, "zj_http_requests_total", **labels) - metric(
        before, "zj_http_requests_total", **labels
    )
    report(grew == sent, f"zj_http_requests_total for POST /v1/score 200 grew by {grew} (want 6)")
    hands = metric(after, "zj_hands_scored_total", endpoint="score")
    report(hands >= sent, f"zj_hands_scored_total{{endpoint=score}} is {hands}")


def check_uids(sid: int) -> None:
    master = gunicorn_master(sid)
    if master is None:
        report(False, "gunicorn master process not found")
        return
    procs = session_processes(sid)
    workers = [pid for pid, (ppid, _) in procs.items() if ppid == master]
    uids = {pid: uid_of(pid) for pid in [master, *workers]}
    report(
        all(uid != 0 for uid in uids.values()) and bool(workers),
        f"gunicorn master {master} and {len(workers)} workers run as non-root, uids {uids}",
    )


def main(argv: list[str]) -> int:
    what = argv[1]
    if what == "ready":
        check_ready(int(argv[2]), int(argv[3]), float(argv[4]) if len(argv) > 4 else 60.0)
    elif what == "score":
        check_score(int(argv[2]), Path(argv[3]))
    elif what == "docs":
        check_docs(int(argv[2]))
    elif what == "playground":
        check_playground(int(argv[2]))
    elif what == "metrics":
        check_metrics(int(argv[2]))
    elif what == "uids":
        check_uids(int(argv[2]))
    elif what == "master":
        master = gunicorn_master(int(argv[2]))
        if master is None:
            return 1
        print(master)
    else:
        raise SystemExit(f"unknown check {what!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
