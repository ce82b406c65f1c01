"""The contract as the tests read it: openapi.yaml, and a client that holds responses to it."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any, Final

import yaml
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_schema_validator import OAS31Validator
from werkzeug.wrappers import Request

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
# libyaml's loader (in PyYAML's wheels), read once: PyYAML's pure one spent ~4 s of CPU on
# openapi.yaml in every collection, that is in every pytest-xdist worker.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_spec() -> dict[str, Any]:
    with SPEC_PATH.open(encoding="utf-8") as stream:
        spec: dict[str, Any] = yaml.load(stream, Loader=_LOADER)
    return spec


SPEC: Final = read_spec()  # shared: a test that changes it changes its own deep copy
# openapi-core reads only application/json as JSON; problems are application/problem+json.
CONTRACT = OpenAPI.from_dict(
    copy.deepcopy(SPEC),
    config=Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            "application/yaml": yaml.safe_load,
            "text/html": lambda data: data.decode() if isinstance(data, bytes) else data,
            "text/plain": lambda data: data.decode() if isinstance(data, bytes) else data,
        }
    ),
)


# The rule the score schemas leave out so that code generators read them as plain objects
# (openapi.yaml, LimitConsistency): every score and breakdown answered keeps it.
LIMIT_RULE = OAS31Validator(SPEC["components"]["schemas"]["LimitConsistency"])


def check_limit_rule(node: Any) -> int:
    """Every score response or breakdown within ``node`` keeps LimitConsistency; how many."""
    checked = 0
    if isinstance(node, dict):
        if {"patterns", "not_counted", "limit", "score"} <= node.keys():
            LIMIT_RULE.validate(node)
            checked += 1
        for value in node.values():
            checked += check_limit_rule(value)
    elif isinstance(node, list):
        for value in node:
            checked += check_limit_rule(value)
    return checked


class ContractClient(FlaskClient):
    """A test client that fails the test on any response openapi.yaml does not describe."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        # The body was read by the app; the response check needs only the method and path.
        environ = dict(response.request.environ, CONTENT_LENGTH="0")
        environ["wsgi.input"] = io.BytesIO()
        request = WerkzeugOpenAPIRequest(Request(environ))
        try:
            CONTRACT.validate_response(request, WerkzeugOpenAPIResponse(response))
        except (PathNotFound, OperationNotFound):
            # Unknown paths and methods (and CORS preflights) have no operation; their
            # answers are checked by the tests that make them.
            assert response.status_code in (404, 405) or response.request.method == "OPTIONS"
        if response.is_json:
            check_limit_rule(response.get_json())
        return response
