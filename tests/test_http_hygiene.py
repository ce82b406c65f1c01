"""HTTP hygiene at the production server (issue #26): what a request must be before it is
answered, checked against a real gunicorn with the service's worker on loopback.

The app's own hygiene (CORS preflights, `Vary: Origin`, standard reason phrases) is in
test_api.py, in process.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator

import pytest

from bench import drills, server

from .support import live as live_server

pytestmark = [pytest.mark.slow, pytest.mark.server]


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with live_server.gunicorn() as live:
        yield live.port


def ask(port: int, raw: str) -> tuple[str, dict[str, str], bytes]:
    """The one answer to ``raw`` on a fresh connection: its status line, headers, body."""
    answered = drills.exchange(port, raw.encode("latin-1"), seconds=5)
    ((_, headers, body),) = drills.answers(answered)
    return answered.split(b"\r\n", 1)[0].decode(), headers, body


@pytest.mark.parametrize("version", ["HTTP/1.2", "HTTP/2.0", "HTTP/3.0", "HTTP/0.9", "HTTP/2"])
def test_a_version_the_server_does_not_speak_is_505(port: int, version: str) -> None:
    status, headers, body = ask(port, f"GET /livez {version}\r\nHost: x:{port}\r\n\r\n")
    # Answered in HTTP/1.1 (never echoing the version) with the standard phrase, as a problem
    # in the service's words (gunicorn's said 400 "Invalid HTTP Version 'Invalid HTTP
    # Version: (2, 0)'" for all but 1.x), with a request id as every answer has.
    assert status == "HTTP/1.1 505 HTTP Version Not Supported"
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert (problem["code"], problem["status"]) == ("bad_request", 505)
    assert problem["detail"] == (
        f"'{version}' is not an HTTP version this server speaks: send HTTP/1.1"
    )
    assert re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"])
    assert problem["request_id"] == headers["x-request-id"]


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        ("HELLO", "the request line 'HELLO' is not of the form 'POST /v1/score HTTP/1.1'"),
        (
            "GET /livez HTTP/1.1 now",
            "the request line ends in 'HTTP/1.1 now', not an HTTP version: send HTTP/1.1",
        ),
        ("GE(T /livez HTTP/1.1", "'GE(T' is not an HTTP method: GET or POST, say"),
    ],
    ids=["no-parts", "no-version", "no-method"],
)
def test_a_bad_request_line_is_told_once_with_a_request_id(
    port: int, line: str, detail: str
) -> None:
    status, headers, body = ask(port, f"{line}\r\nHost: x\r\n\r\n")
    problem = json.loads(body)
    assert (status, problem["code"]) == ("HTTP/1.1 400 Bad Request", "bad_request")
    assert problem["detail"] == detail
    assert problem["request_id"] == headers["x-request-id"]


def test_gunicorn_s_own_answers_carry_a_request_id(port: int) -> None:
    headers = "".join(f"X-{n}: {n}\r\n" for n in range(60))  # over its 50
    status, answer_headers, body = ask(port, f"GET /livez HTTP/1.1\r\nHost: x\r\n{headers}\r\n")
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert json.loads(body)["request_id"] == answer_headers["x-request-id"]


@pytest.mark.parametrize(
    "hosts",
    ["", "Host: a\r\nHost: b\r\n"],
    ids=["no-host", "two-hosts"],
)
def test_an_http_1_1_request_needs_one_host(port: int, hosts: str) -> None:
    status, _, body = ask(port, f"GET /livez HTTP/1.1\r\n{hosts}\r\n")
    assert status == "HTTP/1.1 400 Bad Request"
    assert json.loads(body)["code"] == "bad_request"
    assert "host" in json.loads(body)["detail"].lower()


def test_http_1_0_without_host_and_1_1_with_it_are_served(port: int) -> None:
    old, _, _ = ask(port, "GET /livez HTTP/1.0\r\n\r\n")
    assert old.endswith("200 OK")
    status, _, _ = ask(port, "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == "HTTP/1.1 200 OK"


def test_status_lines_carry_the_standard_phrase_on_the_wire(port: int) -> None:
    raw = "DELETE /v1/score HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    status, headers, _ = ask(port, raw)
    assert status == "HTTP/1.1 405 Method Not Allowed"
    assert "POST" in headers["allow"]


def test_a_preflight_on_the_wire_is_204_without_a_body(port: int) -> None:
    raw = (
        "OPTIONS /v1/discards HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\n"
        "Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n"
    )
    status, headers, body = ask(port, raw)
    assert status == "HTTP/1.1 204 No Content"
    assert body == b"" and "content-type" not in headers
    assert headers["access-control-allow-origin"] == "*"


def test_a_refused_upload_can_finish_sending_and_read_its_answer() -> None:
    # A client trickling its body past the read timeout is answered 408 while it is still
    # sending, as uploaders do, reading only once done. The server must keep reading (and
    # dropping) what comes, not close: a close on unread bytes resets the connection, the
    # client's next send fails and the 408 is lost (the slow-clients drill lost both of its
    # tricklers' answers so in one run of about ten).
    with live_server.gunicorn(ZJ_CLIENT_TIMEOUT="1") as live:
        body = b'{"hand": ' + b" " * 40_000
        raw = drills.head("POST", "/v1/score", live.port, length=len(body))
        with socket.create_connection((server.HOST, live.port), timeout=5) as sock:
            sock.sendall(raw + body[:10])
            time.sleep(1.5)  # past the timeout: the 408 is sent
            for start in range(10, len(body), 8_000):  # the rest, as an uploader sends it
                sock.sendall(body[start : start + 8_000])
                time.sleep(0.1)
            answered = drills.read_until_closed(sock, 3)
    ((status, _, problem),) = drills.answers(answered)
    assert status == 408 and json.loads(problem)["code"] == "request_timeout"
