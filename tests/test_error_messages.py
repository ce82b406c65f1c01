"""What a client is told (issue #55, "Errors"): each message says what is wrong in the
service's words, at the right path, and the error tables list every code the service answers.

Each test here failed before its change: an integer too large was "must be an integer", a
batch item was "the body", a body in UTF-16 got the decoder's words, a key given twice or a
query parameter given twice was taken silently, a name could hold U+202E.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from flask.testing import FlaskClient
from marshmallow import Schema, ValidationError, fields, validate

from service.problems import KINDS
from service.request import schemas
from service.request.fast import _PLAIN

from .support.contract import SPEC

ROOT = Path(__file__).resolve().parent.parent
SCORE = {
    "hand": {"tiles": "123m789p23455s", "melds": [{"kind": "pung", "tiles": "777z"}],
             "winning_tile": "4s"},
    "win": {"by": "discard", "seat": "S", "discarder": "W"},
}  # fmt: skip
CLAIM_WIN = {"by": "self_draw", "seat": "E"}
PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    body: dict[str, Any] = orjson.loads(response.get_data())
    assert (response.status_code, body["code"]) == (status, code), body
    assert response.mimetype == "application/problem+json"
    return body


def errors(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(error["path"], error["message"]) for error in body["errors"]]


def post(client: FlaskClient, path: str, data: bytes) -> Any:
    return client.post(path, data=data, content_type="application/json")


# --- integers ---------------------------------------------------------------------------------

INTEGERS = [
    # Beyond 64 bits orjson reads an integer as a float: out of range, and the range said.
    ("/v1/score", b'{"rules": {"standard_value": 99999999999999999999999999}}',
     "rules.standard_value", "must be from 1 to 1000000"),
    ("/v1/claim", b'{"patterns": [{"id": "3.1", "count": 99999999999999999999}]}',
     "patterns[0].count", "must be from 1 to 99"),
    ("/v1/waits", b'{"expect": {"draws_left": 1e3}}',
     "expect.draws_left", "must be an integer, written without an exponent or point (as 1000)"),
    ("/v1/score", b'{"hand": {"flowers": [2.0]}}',
     "hand.flowers[0]", "must be an integer, written without an exponent or point (as 2)"),
    ("/v1/waits", b'{"expect": {"draws_left": 2.5}}', "expect.draws_left", "must be an integer"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "fragment", "where", "message"), INTEGERS)
def test_an_integer_written_wrong_is_told_how(
    client: FlaskClient, path: str, fragment: bytes, where: str, message: str
) -> None:
    # The fragment's fields merged into a request otherwise whole: the one error is its own.
    bases: dict[str, dict[str, Any]] = {
        "/v1/score": SCORE,
        "/v1/waits": {"hand": {"tiles": "123m789p2345s77z"}, "win": {"seat": "S"}},
        "/v1/claim": {"win": CLAIM_WIN},
    }
    base = bases[path]
    body = _merged(base, orjson.loads(fragment))
    data = orjson.dumps(body)
    if b"e3" in fragment:  # orjson writes 1000.0: the exponent, as the client wrote it
        data = data.replace(b"1000.0", b"1e3")
    found = problem(post(client, path, data), 422, "invalid_request")
    assert errors(found) == [(where, message)]


def _merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        old = merged.get(key)
        merged[key] = _merged(old, value) if isinstance(old, dict) else value
    return merged


# --- one style for every message --------------------------------------------------------------

# Values that some check of a schema refuses: a value each validator must refuse at least once
# (else it was not walked), and whatever it says must be in the house style.
PROBES: list[Any] = [-(10**9), -1, 0, 10**9, 1.5, "", "\x00", "x" * 1000, "concealed_kong",
                     "0", "\u202e", [], [1, 1], ["a", "a", "b", "c"], ["a"] * 5]  # fmt: skip
# The house style: lower case first (a quote may open it), no full stop at the end.
HOUSE_STYLE = re.compile(r"[a-z'\"].*[^.]", re.S)


def marshmallow_defaults() -> set[str]:
    """The words of marshmallow's own validators' messages, up to their first placeholder."""
    found = set()
    for name in dir(validate):
        kind = getattr(validate, name)
        if isinstance(kind, type) and issubclass(kind, validate.Validator):
            for attribute in dir(kind):
                if attribute.startswith(("message", "default_message", "error")):
                    text = getattr(kind, attribute)
                    if isinstance(text, str) and text:
                        found.add(text.split("{")[0].strip())
    return found - {""}


def schema_fields() -> Iterator[tuple[str, fields.Field[Any]]]:
    """Every field of every schema in schemas.py, lists' items and house-rule points too."""
    for name in dir(schemas):
        kind = getattr(schemas, name)
        if isinstance(kind, type) and issubclass(kind, Schema) and kind is not Schema:
            for key, field in kind().fields.items():
                yield from _within(f"{name}.{key}", field)


def _within(path: str, field: fields.Field[Any]) -> Iterator[tuple[str, fields.Field[Any]]]:
    yield path, field
    if isinstance(field, fields.List):
        yield from _within(f"{path}[]", field.inner)
    if isinstance(field, schemas.PatternValues):
        yield from _within(f"{path}.points", field.points)


def test_every_validator_speaks_in_the_house_style() -> None:
    defaults = marshmallow_defaults()
    assert {"Must be", "Longer than maximum length"} <= defaults  # the list is what it should be
    walked = 0
    for path, field in schema_fields():
        for check in field.validators:
            said: set[str] = set()
            for value in PROBES:
                try:
                    check(value)
                except ValidationError as error:
                    said.update(_texts(error.messages))
                except (TypeError, ValueError, AttributeError):
                    pass  # a probe of another type: the field's type check comes first
            assert said, f"{path}: no probe is refused by {check!r}"
            for message in said:
                assert HOUSE_STYLE.fullmatch(message), (path, message)
                assert not any(message.startswith(text) for text in defaults), (path, message)
            walked += 1
    assert walked >= 40, walked


def _reads_itself(field: fields.Field[Any]) -> bool:
    """The field's own ``_deserialize`` (schemas.py) reads the JSON value, in its own words."""
    return any(
        "_deserialize" in vars(kind) and kind.__module__ == schemas.__name__
        for kind in type(field).__mro__
    )


# The default messages of marshmallow's fields that flatten does not put in the house style
# (fast._PLAIN), and why none of them can be said: checked for each field that has one.
UNSAID: dict[str, Callable[[fields.Field[Any]], bool]] = {
    # Int, Number, Bool and the like read the JSON value themselves.
    "invalid": _reads_itself,
    "too_large": _reads_itself,
    "special": _reads_itself,
    # Said when a validator returns False: marshmallow's validators and schemas.py's own
    # functions raise their own message instead.
    "validator_failed": lambda field: all(
        isinstance(check, validate.Validator) or check.__module__ == schemas.__name__
        for check in field.validators
    ),
    # A JSON string is text already, never bytes.
    "invalid_utf8": lambda field: isinstance(field, fields.String),
    # A nested list of records: lists are BoundedLists of single records here.
    "type": lambda field: isinstance(field, fields.Nested) and not field.many,
}


def test_no_default_message_of_a_field_reaches_a_client() -> None:
    for path, field in schema_fields():
        for key, text in field.error_messages.items():
            if text not in _PLAIN:
                assert key in UNSAID and UNSAID[key](field), (path, key, text)


def _texts(messages: Any) -> Iterator[str]:
    if isinstance(messages, dict):
        for inner in messages.values():
            yield from _texts(inner)
    elif isinstance(messages, list):
        for inner in messages:
            yield from _texts(inner)
    else:
        yield str(messages)


def test_a_discard_rate_out_of_range_says_so_in_the_house_style(client: FlaskClient) -> None:
    body = {"hand": {"tiles": "123m789p2345s77z"}, "win": {"seat": "S"},
            "expect": {"discard_rate": 1.5}}  # fmt: skip
    found = problem(client.post("/v1/waits", json=body), 422, "invalid_request")
    assert errors(found) == [("expect.discard_rate", "must be from 0 to 1")]


# --- batch items, bodies not UTF-8 ------------------------------------------------------------


def test_a_batch_item_that_is_no_object_is_told_it_is_the_item(client: FlaskClient) -> None:
    answer = client.post("/v1/score/batch", json={"items": [1, "x", SCORE]})
    assert answer.status_code == 200
    first, second, third = answer.get_json()["results"]
    message = "the item must be a JSON object (a score request)"
    for index, result in enumerate((first, second)):
        assert result["status"] == 422
        assert result["body"]["detail"] == f"items[{index}]: {message}"
        assert errors(result["body"]) == [("$", message)]
    assert third["status"] == 200


@pytest.mark.parametrize(
    ("data", "byte"),
    [
        (orjson.dumps(SCORE).decode().encode("utf-16"), 1),  # its byte-order mark
        (orjson.dumps(SCORE).decode().encode("utf-16-be"), 1),  # the NUL before the "{"
        (b'{"hand": "\xed\xa0\x80"}', 11),  # a surrogate encoded: not UTF-8
        (b'{"hand": "caf\xe9"}', 14),  # Latin-1
    ],
    ids=["utf-16", "utf-16-be", "surrogate", "latin-1"],
)
def test_a_body_not_in_utf_8_is_told_so(client: FlaskClient, data: bytes, byte: int) -> None:
    found = problem(post(client, "/v1/score", data), 400, "malformed_json")
    assert found["detail"].startswith(f"the body must be JSON in UTF-8, and byte {byte} is ")


# --- the Chicken Hand claimed ---------------------------------------------------------------


def test_the_chicken_hand_claimed_alone_is_a_claim_of_no_patterns(client: FlaskClient) -> None:
    chicken = client.post("/v1/claim", json={"patterns": [{"id": "0"}], "win": CLAIM_WIN})
    nothing = client.post("/v1/claim", json={"patterns": [], "win": CLAIM_WIN})
    assert chicken.status_code == nothing.status_code == 200
    assert chicken.get_json() == nothing.get_json()
    assert [p["id"] for p in chicken.get_json()["patterns"]] == ["0"]


@pytest.mark.parametrize(
    ("patterns", "where", "message"),
    [
        ([{"id": "1.1"}, {"id": "0"}], "patterns[1].id",
         "the Chicken Hand (0) is a hand with no other pattern: claim it alone, or claim no"
         " patterns"),
        ([{"id": "0", "count": 2}], "patterns[0].count",
         "the Chicken Hand (0) is counted once: give no count"),
    ],
)  # fmt: skip
def test_the_chicken_hand_claimed_with_more_is_refused(
    client: FlaskClient, patterns: list[dict[str, Any]], where: str, message: str
) -> None:
    answer = client.post("/v1/claim", json={"patterns": patterns, "win": CLAIM_WIN})
    assert errors(problem(answer, 422, "invalid_claim")) == [(where, message)]


# --- keys and query parameters given twice ----------------------------------------------------

TWICE = "a key given twice in one object: give each key once"


@pytest.mark.parametrize(
    ("path", "data", "where"),
    [
        ("/v1/score", b'{"hand": {"tiles": "1m", "tiles": "123m789p23455s"}, "win": {}}',
         "hand.tiles"),
        ("/v1/score", b'{"win": {}, "win": {"by": "discard"}}', "win"),
        ("/v1/score/batch", b'{"items": [{}, {"win": {"seat": "E", "seat": "S"}}]}',
         "items[1].win.seat"),
        # A colon in a string (the fast count doubts) and a key twice after it.
        ("/v1/settle", b'{"players": ["A:1", "B", "C", "D"], "hands": [], "hands": []}',
         "hands"),
    ],
)  # fmt: skip
def test_a_key_given_twice_is_refused_at_its_path(
    client: FlaskClient, path: str, data: bytes, where: str
) -> None:
    found = problem(post(client, path, data), 400, "malformed_json")
    assert found["detail"] == f"{where}: {TWICE}"
    assert errors(found) == [(where, TWICE)]


@pytest.mark.parametrize("inner", [b"{}", b'{"a": 1}', b'{"a": 1, "a": 2}', b'"a:"'])
def test_a_body_nested_near_the_parser_s_limit_is_answered_alike_on_both_builds(
    client: FlaskClient, inner: bytes
) -> None:
    # 1000 levels: within orjson's 1024, past Python's recursion limit (the interpreted count
    # of keys, Python's json when a colon is more than a key's).
    data = b'{"items": ' + b"[" * 998 + inner + b"]" * 998 + b"}"
    answer = post(client, "/v1/score/batch", data)
    if inner == b'"a:"' or inner.count(b"a") > 1:
        found = problem(answer, 400, "malformed_json")
        assert found["detail"] == "the body nests too deeply to be read"
    else:
        assert answer.status_code == 200  # the one item is refused on its own
        assert answer.get_json()["results"][0]["status"] == 422


def test_a_colon_in_a_string_is_no_key_given_twice(client: FlaskClient) -> None:
    sheet = {"players": ["Ann: E", "B:o:b", "Cat", "Dan"], "hands": [{"draw": True}]}
    answer = client.post("/v1/settle", json=sheet)
    assert answer.status_code == 200, answer.get_json()


def test_a_query_parameter_given_twice_is_refused(client: FlaskClient) -> None:
    found = problem(client.get("/v1/patterns?version=3.3&version=2.51"), 422, "invalid_request")
    assert errors(found) == [("version", "given 2 times: give a query parameter once")]
    assert client.get("/v1/patterns?version=2.51").status_code == 200


# --- players' names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "shown"),
    [("A\x00", "U+0000 at character 2"), ("\u202eAnn", "U+202E at character 1"),
     ("Ann\u2066", "U+2066 at character 4"), ("A\u0085", "U+0085 at character 2")],
)  # fmt: skip
def test_a_name_with_a_control_character_is_refused(
    client: FlaskClient, name: str, shown: str
) -> None:
    message = f"must not hold a control character or bidirectional control ({shown})"
    sheet = {"players": [name, "Bob", "Cat", "Dan"], "hands": [{"draw": True}]}
    found = problem(client.post("/v1/settle", json=sheet), 422, "invalid_request")
    assert errors(found) == [("players[0]", message)]
    seats = {"E": "Bob", "S": "Cat", "W": "Dan", "N": name}
    sheet = {"hands": [{"seats": seats, "draw": True}]}
    found = problem(client.post("/v1/settle", json=sheet), 422, "invalid_request")
    assert errors(found) == [("hands[0].seats.N", message)]


def test_names_in_any_script_and_emoji_sequences_are_taken(client: FlaskClient) -> None:
    names = ["陳大文", "Zoë", "👩\u200d👩\u200d👧", "עדי"]  # the joiner is no control
    answer = client.post("/v1/settle", json={"players": names, "hands": [{"draw": True}]})
    assert answer.status_code == 200, answer.get_json()


# --- the error tables -----------------------------------------------------------------------


def table(text: str) -> dict[str, set[int]]:
    """The error table in ``text`` (the one headed ``| status | code | when |``): each code
    and the statuses of its row."""
    rows = text.split("| status | ", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    found: dict[str, set[int]] = {}
    for row in rows:
        statuses, codes = row.strip().strip("|").split("|")[:2]
        for code in re.findall(r"`(\w+)`", codes):
            found.setdefault(code, set()).update(int(s) for s in re.findall(r"\d{3}", statuses))
    return found


@pytest.mark.parametrize(
    "text",
    [
        (ROOT / "README.md").read_text(),
        SPEC["info"]["description"],
    ],
    ids=["README", "openapi"],
)
def test_the_error_tables_list_every_code_the_service_answers(text: str) -> None:
    found = table(text)
    assert set(found) == set(KINDS)
    for code, (status, _) in KINDS.items():
        assert status in found[code], code
    # bad_request also stands for the statuses gunicorn and the worker answer it with.
    assert {400, 414, 431, 505} <= found["bad_request"]
