"""Who a client is (service.clients.Identity) and its rate (Rates), alone and in the turns."""

from __future__ import annotations

import ipaddress
from typing import Any

import orjson
import pytest

from service import settings
from service.clients import Identity, Rates
from service.reading import Budget
from service.turns import Turns

from .test_openapi_spec import validator

PROBLEM = validator("/components/schemas/Problem")
INGRESS = Identity([ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("fd00::/8")])


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("203.0.113.9", None, "203.0.113.9"),
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),  # an untrusted peer's header: ignored
        ("10.1.2.3", None, "10.1.2.3"),
        ("10.1.2.3", "198.51.100.1", "198.51.100.1"),
        ("10.1.2.3", "198.51.100.1, 10.9.9.9", "198.51.100.1"),  # past two proxies
        # The client's own claim, left of the address the proxy saw: ignored.
        ("10.1.2.3", "192.0.2.66, 198.51.100.1", "198.51.100.1"),
        ("10.1.2.3", "10.4.4.4, 10.5.5.5", "10.4.4.4"),  # all proxies: the leftmost
        ("10.1.2.3", "not-an-address, 10.5.5.5", "10.5.5.5"),  # the last address read
        ("10.1.2.3", " ", "10.1.2.3"),
        ("2001:db8:1:2:3:4:5:6", None, "2001:db8:1:2::/64"),  # one host's block
        ("fd00::1", "2001:db8:1:2::9", "2001:db8:1:2::/64"),
    ],
)
def test_the_client_is_the_first_untrusted_address_right_to_left(
    peer: str, forwarded: str | None, client: str
) -> None:
    assert INGRESS.of(peer, forwarded) == client


def test_without_trusted_proxies_a_client_cannot_choose_its_identity() -> None:
    assert Identity().of("127.0.0.1", "198.51.100.1") == "127.0.0.1"
    assert not Identity().trusts("127.0.0.1")


def test_a_burst_then_the_rate() -> None:
    rates = Rates(rate=2.0, burst=3)
    assert [rates.admit("a", now=100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rates.admit("a", now=100.0) == 0.5  # a token in half a second
    assert rates.admit("b", now=100.0) == 0.0  # another client has its own bucket
    assert rates.admit("a", now=100.5) == 0.0  # refilled: one token
    assert rates.admit("a", now=100.5) == 0.5
    assert [rates.admit("a", now=110.0) for _ in range(4)] == [0.0, 0.0, 0.0, 0.5]  # burst, no more


def test_a_flood_of_distinct_clients_cannot_grow_the_buckets_past_their_bound() -> None:
    rates = Rates(rate=1.0, burst=1, remembered=100)
    rates.admit("a", now=0.0)
    for n in range(99):
        rates.admit(f"10.0.0.{n}", now=0.0)
    assert rates.admit("a", now=0.0) > 0  # seen again: the most recently seen now
    for n in range(10_000):
        rates.admit(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", now=0.0)
        assert len(rates.buckets) <= 100
    assert rates.admit("a", now=0.0) == 0.0  # forgotten, the least recently seen: a full bucket


def test_a_client_past_its_rate_is_answered_429_with_retry_after_before_it_waits() -> None:
    computed: list[str] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        computed.append(environ["REMOTE_ADDR"])
        start_response("200 OK", [])
        return [b"scored"]

    turns = Turns(app, wait=1, budget=Budget(1000), rates=Rates(rate=0.4, burst=2))

    def call(peer: str, path: str = "/v1/score") -> tuple[str, dict[str, str], bytes]:
        seen: dict[str, Any] = {}
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "REMOTE_ADDR": peer,
                   "HTTP_X_FORWARDED_FOR": "198.51.100.7"}  # fmt: skip
        body = b"".join(turns(environ, lambda s, h: seen.update(status=s, headers=dict(h))))
        return seen["status"], seen["headers"], body

    assert [call("192.0.2.1")[0] for _ in range(2)] == ["200 OK"] * 2
    status, headers, body = call("192.0.2.1")
    document = orjson.loads(body)
    PROBLEM.validate(document)
    assert status == "429 Too Many Requests" and document["code"] == "rate_limited"
    assert headers["Retry-After"] == "3"  # 2.5 s to the next token, rounded up
    assert call("192.0.2.2")[0] == "200 OK"  # another address: its own rate
    assert call("192.0.2.1", "/livez")[0] == "200 OK"  # probes are never limited
    assert computed == ["192.0.2.1", "192.0.2.1", "192.0.2.2", "192.0.2.1"]


def test_the_settings_of_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (settings.TRUSTED_PROXIES, settings.CLIENT_RATE, settings.CLIENT_BURST):
        monkeypatch.delenv(name, raising=False)
    assert settings.setting(settings.TRUSTED_PROXIES) == ()
    assert settings.client_rate() is None  # off by default
    monkeypatch.setenv(settings.TRUSTED_PROXIES, "10.0.0.0/8, 192.0.2.7,fd00::/8")
    assert settings.setting(settings.TRUSTED_PROXIES) == tuple(
        map(ipaddress.ip_network, ("10.0.0.0/8", "192.0.2.7/32", "fd00::/8"))
    )
    monkeypatch.setenv(settings.CLIENT_RATE, "2.5")
    assert settings.client_rate() == (2.5, 3)  # a second's worth, rounded up
    monkeypatch.setenv(settings.CLIENT_BURST, "20")
    assert settings.client_rate() == (2.5, 20)


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        (settings.TRUSTED_PROXIES, "10.0.0.0/33", "must be comma-separated addresses or CIDR"
         " ranges such as 10.0.0.0/8 (default none)"),
        (settings.TRUSTED_PROXIES, "ingress", "must be comma-separated addresses or CIDR"
         " ranges such as 10.0.0.0/8 (default none)"),
        (settings.CLIENT_RATE, "0", "must be a positive number of requests a second (default off)"),
        (settings.CLIENT_BURST, "0", "must be a whole number of requests 1-1000000"
         " (default one second's worth)"),
    ],
)  # fmt: skip
def test_a_bad_client_setting_stops_with_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, allowed: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        settings.setting(name)
    assert str(stopped.value) == f"{name}={value!r}: {allowed}"
