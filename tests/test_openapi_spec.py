"""The contract file: a valid OpenAPI 3.1 document whose every example matches its schema.

The examples are what app developers copy, so they are checked like code: against the
schemas they illustrate, and for the arithmetic a score response promises (points, limit,
payments summing to zero).
"""

from __future__ import annotations

import importlib.metadata
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openapi_schema_validator import OAS31Validator, oas31_format_checker
from openapi_spec_validator import validate
from referencing import Registry
from referencing.jsonschema import DRAFT202012

import service
from service import catalogue
from service.domain.errors import InvalidContext, InvalidHand, InvalidRecord, NotAWinningHand
from service.domain.scoring.scoring import BelowMinimum
from service.problems import KINDS

from .support.contract import read_spec

ROOT = Path(__file__).parents[1]
# The URI the document is registered under, so that its "#/components/..." references resolve.
SPEC_URI = "urn:zj-service:openapi.yaml"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
LIMIT = 320


SPEC = read_spec()  # its own copy: tests here may change it
REGISTRY: Registry[Any] = Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(SPEC))


# ---- Helpers -------------------------------------------------------------------------------


def pointer_token(key: str | int) -> str:
    """One JSON Pointer reference token (RFC 6901)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def walk(node: Any, pointer: str = "") -> Iterator[tuple[str, Any]]:
    """Every node of the document with its JSON Pointer, depth first."""
    yield pointer, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, f"{pointer}/{pointer_token(key)}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{pointer}/{index}")


def resolve(node: Any) -> Any:
    """Follow a local ``$ref`` (the only kind the document uses) to its target."""
    while isinstance(node, dict) and "$ref" in node:
        reference = node["$ref"]
        assert reference.startswith("#/"), reference
        node = SPEC
        for token in reference[2:].split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


def validator(schema_pointer: str) -> OAS31Validator:
    """A validator for the schema at ``schema_pointer``, with the document's refs resolved."""
    return OAS31Validator(
        {"$ref": f"{SPEC_URI}#{schema_pointer}"},
        registry=REGISTRY,
        format_checker=oas31_format_checker,
    )


def operations() -> Iterator[tuple[str, dict[str, Any]]]:
    """("POST /v1/score", operation) for every operation."""
    for path, item in SPEC["paths"].items():
        for method in METHODS:
            if method in item:
                yield f"{method.upper()} {path}", item[method]


def by_name(pairs: Iterator[tuple[str, Any]]) -> list[Any]:
    """Parameters for pytest, each named by its first member."""
    return [pytest.param(name, value, id=name) for name, value in pairs]


def example_cases() -> Iterator[Any]:
    """(schema pointer, value) for every example, default and media-type example."""
    for pointer, node in walk(SPEC):
        if not isinstance(node, dict):
            continue
        if "schema" in node:  # a media type or a parameter
            for name, example in node.get("examples", {}).items():
                yield pytest.param(
                    f"{pointer}/schema", resolve(example)["value"], id=f"{pointer}/examples/{name}"
                )
            if "example" in node:
                yield pytest.param(f"{pointer}/schema", node["example"], id=f"{pointer}/example")
        if isinstance(node.get("examples"), list):  # a schema's own examples
            for index, value in enumerate(node["examples"]):
                yield pytest.param(pointer, value, id=f"{pointer}/examples/{index}")
        if "default" in node:
            yield pytest.param(pointer, node["default"], id=f"{pointer}/default")


def example_values() -> Iterator[tuple[str, Any]]:
    for name, example in SPEC["components"]["examples"].items():
        yield name, example["value"]


def score_breakdowns() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every score response, breakdown or other reading (``alternatives``) in the examples."""
    for name, value in example_values():
        for pointer, node in walk(value):
            # A discard's wait scores are compact: their patterns are ids only.
            if (
                isinstance(node, dict)
                and {"patterns", "points", "limit", "score"} <= node.keys()
                and all(isinstance(pattern, dict) for pattern in node["patterns"])
            ):
                yield f"{name}{pointer}", node


# ---- The document --------------------------------------------------------------------------


def test_is_a_valid_openapi_3_1_document() -> None:
    assert SPEC["openapi"] == "3.1.0"
    validate(SPEC)


def test_info_matches_the_package() -> None:
    with (ROOT / "pyproject.toml").open("rb") as stream:
        project = tomllib.load(stream)["project"]
    assert SPEC["info"]["title"] == "Zung Jung Scoring Service"
    # The version is written once, in service/__init__.py; pyproject reads it from there.
    assert project["dynamic"] == ["version"] and "version" not in project
    with (ROOT / "pyproject.toml").open("rb") as stream:
        dynamic = tomllib.load(stream)["tool"]["setuptools"]["dynamic"]
    assert dynamic["version"] == {"attr": "service.__version__"}
    assert SPEC["info"]["version"] == service.__version__
    assert SPEC["components"]["examples"]["RulesCatalogue"]["value"]["service_version"] == (
        service.__version__
    )
    assert SPEC["info"]["license"]["identifier"] == "MIT"


def test_the_installed_distribution_has_the_same_version() -> None:
    assert importlib.metadata.version("zj-service") == service.__version__


def test_servers_include_the_serving_host() -> None:
    assert SPEC["servers"][0]["url"] == "/"
    assert all(server["description"] for server in SPEC["servers"])


def test_documents_every_endpoint() -> None:
    assert {name for name, _ in operations()} == {
        "POST /v1/score",
        "POST /v1/waits",
        "POST /v1/score/batch",
        "POST /v1/discards",
        "POST /v1/claim",
        "POST /v1/settle",
        "POST /v1/replay",
        "GET /v1/patterns",
        "GET /v1/rules",
        "GET /livez",
        "GET /readyz",
        "GET /openapi.yaml",
        "GET /docs",
        "GET /metrics",
    }


@pytest.mark.parametrize(("name", "operation"), by_name(operations()))
def test_every_operation_documents_its_responses(name: str, operation: dict[str, Any]) -> None:
    responses = operation["responses"]
    expected = {"200", "405", "500"}
    if name.startswith("POST"):
        expected |= {"400", "413", "415", "422"}
    if name not in ("GET /livez", "GET /readyz", "GET /metrics"):  # never limited (turns.py)
        expected.add("429")
    assert expected <= responses.keys()
    parameters = [resolve(parameter) for parameter in operation["parameters"]]
    assert any(p["in"] == "header" and p["name"] == "X-Request-ID" for p in parameters)
    for status, response in responses.items():
        headers = resolve(response)["headers"]
        assert headers["X-Request-ID"] == {"$ref": "#/components/headers/X-Request-ID"}, status
        if status == "405":
            assert "Allow" in headers
        if status in ("429", "503") and name != "GET /readyz":
            assert headers["Retry-After"] == {"$ref": "#/components/headers/Retry-After"}
        if status != "200":
            assert resolve(response)["content"].keys() == {"application/problem+json"}, status


def closed_objects(schema: Any, seen: set[int]) -> Iterator[dict[str, Any]]:
    """Every object schema with properties reachable from ``schema`` through schema keywords."""
    if not isinstance(schema, dict) or id(schema) in seen:
        return
    seen.add(id(schema))
    if "properties" in schema:
        yield schema
    if "$ref" in schema:
        yield from closed_objects(resolve(schema), seen)
    for child in schema.get("properties", {}).values():
        yield from closed_objects(child, seen)
    for keyword in ("items", "additionalProperties"):
        yield from closed_objects(schema.get(keyword), seen)
    for keyword in ("oneOf", "anyOf", "allOf"):
        for child in schema.get(keyword, []):
            yield from closed_objects(child, seen)


REQUESTS = [
    "ScoreRequest", "WaitsRequest", "BatchRequest", "ClaimRequest", "SettleRequest",
    "ReplayRequest",
]  # fmt: skip


@pytest.mark.parametrize("request_schema", REQUESTS)
def test_requests_reject_unknown_fields(request_schema: str) -> None:
    root = {"$ref": f"#/components/schemas/{request_schema}"}
    objects = list(closed_objects(root, set()))
    assert objects
    for schema in objects:
        assert schema.get("additionalProperties") is False, sorted(schema["properties"])


def test_batch_accepts_a_malformed_item() -> None:
    # Each item is validated on its own; a bad one must not make the envelope invalid.
    batch = {"items": [{"hand": {"tiles": "123x"}}, 42, None]}
    validator("/components/schemas/BatchRequest").validate(batch)
    too_many = {"items": [{}] * 1001}
    assert not validator("/components/schemas/BatchRequest").is_valid(too_many)


@pytest.mark.parametrize(
    ("tiles", "valid"),
    [
        ("123m456p789s1155z", True),
        ("123m 456p  789s 1155z ", True),
        ("7z", True),
        (["1m", "2m", "5z"], True),
        ("0m", False),
        ("8z", False),
        ("12 3m", False),
        ("123", False),
        ("123M", False),
        ("🀇🀈🀉🀟🀠🀡🀑🀒🀓🀔🀔", True),
        ("123m🀟🀠🀡 23455s", True),
        (["🀄", "7z", "🀆"], True),
        ("🀢", False),
        (["🀢"], False),
        ("🀪", False),
        ("1🀇m", False),
        ("1" * 64 + "m", False),
        (["1m"] * 19, False),
        (["12m"], False),
    ],
)
def test_tile_notation(tiles: Any, valid: bool) -> None:
    assert validator("/components/schemas/Tiles").is_valid(tiles) is valid


# ---- Examples ------------------------------------------------------------------------------


def test_an_explained_example_has_alternatives_and_catalogue_examples_score() -> None:
    # The contract's own catalogue examples are what GET /v1/patterns serves.
    served = {p["id"]: p["example"] for p in catalogue.patterns({"version": "3.3"})["patterns"]}
    for _, value in example_values():
        for entry in value.get("patterns", []) if isinstance(value, dict) else []:
            if "example" in entry:
                assert entry["example"] == served[entry["id"]], entry["id"]
    explained = SPEC["components"]["examples"]["ScoreResponseExplained"]["value"]
    assert [a["score"] for a in explained["alternatives"]] == [115]


@pytest.mark.parametrize(("schema_pointer", "value"), list(example_cases()))
def test_example_matches_its_schema(schema_pointer: str, value: Any) -> None:
    validator(schema_pointer).validate(value)


def test_every_component_example_is_used() -> None:
    used = {
        node["$ref"].rsplit("/", 1)[1]
        for _, node in walk(SPEC)
        if isinstance(node, dict) and node.get("$ref", "").startswith("#/components/examples/")
    }
    assert used == SPEC["components"]["examples"].keys()


def test_the_problem_codes_are_the_services() -> None:
    codes = SPEC["components"]["schemas"]["ProblemCode"]["enum"]
    assert sorted(codes) == sorted(KINDS)
    # Every error the domain raises is answered with a problem of its own code.
    domain = (InvalidHand, InvalidContext, NotAWinningHand, BelowMinimum, InvalidRecord)
    assert all(error.code in KINDS for error in domain)


def test_every_problem_code_has_an_example() -> None:
    codes = set(SPEC["components"]["schemas"]["ProblemCode"]["enum"])
    shown = {value["code"] for _, value in example_values() if "code" in value}
    assert codes <= shown


def test_every_operation_has_a_200_example() -> None:
    for name, operation in operations():
        for media in resolve(operation["responses"]["200"])["content"].values():
            assert media.get("examples"), name


def test_the_limit_rule_can_fail() -> None:
    rule = validator("/components/schemas/LimitConsistency")
    counted = {"id": "1.1", "name": "All Sequences", "chinese": "平和", "value": 5,
               "count": 1, "points": 5, "reason": "all chows"}  # fmt: skip
    assert rule.is_valid({"limit": "single_pattern", "patterns": [counted],
                          "not_counted": [counted]})  # fmt: skip
    assert not rule.is_valid({"limit": "single_pattern", "patterns": [counted, counted],
                              "not_counted": []})  # fmt: skip
    assert rule.is_valid({"limit": "capped", "patterns": [counted], "not_counted": []})
    assert not rule.is_valid({"limit": "none", "patterns": [counted], "not_counted": [counted]})


@pytest.mark.parametrize(("where", "breakdown"), by_name(score_breakdowns()))
def test_example_scores_add_up(where: str, breakdown: dict[str, Any]) -> None:
    validator("/components/schemas/LimitConsistency").validate(breakdown)
    patterns = breakdown["patterns"] + breakdown.get("not_counted", [])  # a reading has none
    for pattern in patterns:
        assert pattern["points"] == pattern["value"] * pattern["count"], pattern["id"]
    points = sum(pattern["points"] for pattern in breakdown["patterns"])
    assert breakdown["points"] == points
    # A house rule may set another limit; the examples' other readings are under the defaults.
    limit = breakdown.get("rules", {}).get("limit", LIMIT)
    if breakdown["limit"] == "single_pattern":
        assert len(breakdown["patterns"]) == 1
        assert breakdown["patterns"][0]["value"] >= limit
        assert breakdown["score"] == points
    else:
        assert all(pattern["value"] < limit for pattern in breakdown["patterns"])
        assert breakdown["limit"] == ("capped" if points > limit else "none")
        assert breakdown["score"] == min(points, limit)
    if "payments" in breakdown:
        payments = breakdown["payments"]
        assert sum(payments.values()) == 0
        if breakdown["rules"]["payoff"] == "formal_double":
            # B = min(value, S), E = the excess: the winner collects 3B + 12E.
            value, standard = breakdown["score"], breakdown["rules"]["standard_value"]
            base, excess = min(value, standard), max(0, value - standard)
            assert max(payments.values()) == 3 * base + 12 * excess
        else:
            # Under the other schemes the winner collects a whole multiple of the score.
            assert max(payments.values()) % breakdown["score"] == 0
