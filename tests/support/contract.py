"""The contract as the tests read it: openapi.yaml, and a client that holds responses to it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import yaml
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from werkzeug.wrappers import Request

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
# openapi-core reads only application/json as JSON; problems are application/problem+json.
CONTRACT = OpenAPI.from_file_path(
    str(SPEC_PATH),
    config=Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            "application/yaml": yaml.safe_load,
        }
    ),
)


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
        return response
