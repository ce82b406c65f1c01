"""Start and stop a real gunicorn for the HTTP benchmark, the load run and the fault drills.

Always on a free loopback port (the shipped config binds 0.0.0.0; ``--bind`` on the command
line overrides it), in its own process group so that stopping it can never leave a worker
behind, and always stopped in a ``finally``: SIGTERM to the group, then SIGKILL after a bound.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import service

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "gunicorn.conf.py"
# gunicorn imports the app from its working directory: the tree this process's ``service``
# came from (build/compiled for the compiled build, see scripts/compile.sh).
SERVICE_ROOT = Path(service.__file__).parent.parent
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (gunicorn's workers), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: parse after the last ')'.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return sorted(found)


def rss_kib(pid: int) -> int | None:
    """Resident set size of ``pid`` in KiB, None if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def pss_kib(pid: int) -> int:
    """Proportional set size of ``pid`` in KiB (shared pages split among their users), 0 if it
    is gone: summed over a process tree, what a container's memory limit counts."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        return 0
    return 0


@dataclass
class Server:
    """A running gunicorn: its master process, port and error log (for worker boots)."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path
    workers_wanted: int
    started: float = field(default_factory=time.monotonic)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def workers(self) -> list[int]:
        return children(self.pid)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def boots(self) -> int:
        """Workers booted so far (the first ones included): recycles and replacements show."""
        return self.log().count("Booting worker")

    def wait_workers(self, count: int, exclude: Sequence[int] = (), seconds: float = 15) -> bool:
        """Wait until ``count`` workers, none of them in ``exclude``, are up (bounded)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            live = self.workers()
            if len(live) == count and not set(live) & set(exclude):
                return True
            time.sleep(0.05)
        return False


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)))


APP = "service:create_app()"


def command(port: int, workers: int | None, extra: Sequence[str], app: str = APP) -> list[str]:
    base = [sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{port}"]
    if CONFIG.exists():
        base += ["--config", str(CONFIG)]
    else:  # before the shipped config existed: the same model by hand
        base += ["-k", "sync", "-w", str(workers or default_workers())]
    if workers:
        base += ["--workers", str(workers)]
    return [*base, *extra, app]


@contextmanager
def gunicorn(
    workers: int | None = None,
    extra: Sequence[str] = (),
    env: dict[str, str] | None = None,
    ready_seconds: float = 30,
    app: str = APP,
) -> Iterator[Server]:
    """A gunicorn serving the app on a free loopback port; stopped on exit, whatever happens.

    ``workers`` None keeps the config's own count (one per usable CPU). The access log (stdout)
    is discarded; the error log goes to a temporary file so boots and kills can be counted.
    ``app`` is gunicorn's app argument: the service, or a bench app built around it.
    """
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="zj-gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
    full_env = {**os.environ, **(env or {})}
    process = subprocess.Popen(
        command(port, workers, extra, app),
        cwd=SERVICE_ROOT,
        env=full_env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,  # its own process group: killpg reaches every worker
    )
    server = Server(process, port, Path(log.name), workers or default_workers())
    try:
        _wait_ready(server, ready_seconds)
        yield server
    finally:
        stop(process)
        log.close()
        Path(log.name).unlink(missing_ok=True)


def _wait_ready(server: Server, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(server.url + "/livez", timeout=1) as response:
                if response.status == 200 and len(server.workers()) >= server.workers_wanted:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn not ready after {seconds} s:\n{server.log()[-2000:]}")


def stop(process: subprocess.Popen[bytes], grace: float = 10) -> None:
    """SIGTERM the process group, SIGKILL it if still there after ``grace`` seconds."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            return
    # Workers could outlive a killed master: clear the whole group either way.
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
