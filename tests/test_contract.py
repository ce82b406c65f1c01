"""Schemathesis over the whole openapi.yaml, in process against the Flask app (WSGI, no server).

Every operation, with schemathesis' three phases (the spec's examples, coverage of its
boundaries, then fuzzing, in both positive and negative generation) and every check but one:
``positive_data_acceptance``. A schema-valid score request is almost never a legal winning
hand (14 random tiles), so the service rightly answers it 422 (``invalid_hand``,
``not_a_winning_hand`` ...) and that check would flag correct behaviour. Every other check
stays on: no 5xx, status codes, content types, headers and bodies as documented, negative
data rejected, ``Allow`` on 405s, and so on.

``derandomize`` makes the runs identical from one CI run to the next; ``database=None`` keeps a
local example database from changing what CI sees. Wall time on 2 cores: ~20 s.
"""

from __future__ import annotations

import copy

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service import create_app

from .support.contract import SPEC

# What a client made from the contract sees: on the compiled build only (make test; conftest.py's
# MARKED_MODULES spares the other build's collection the ~11 s schemathesis takes).
pytestmark = pytest.mark.client_side

APP = create_app({"TESTING": True})
SCHEMA = schemathesis.openapi.from_dict(copy.deepcopy(SPEC))
SCHEMA.app = APP

# The scoring operations take bodies worth fuzzing; the catalogue and operations endpoints take
# only a header (and /v1/patterns a query parameter), so fewer examples cover them.
SCORING = SCHEMA.include(method="POST")
OTHERS = SCHEMA.exclude(method="POST")

# Generating request bodies for the nested score schema is slow-ish, and the schema's
# patterns and ``oneOf``s make hypothesis filter; neither is a problem worth failing on.
HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much]
EXCLUDED = [positive_data_acceptance]


@SCORING.parametrize()
@settings(
    max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=HEALTH
)
def test_scoring_operations_keep_the_contract(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=EXCLUDED)


@OTHERS.parametrize()
@settings(
    max_examples=50, deadline=None, derandomize=True, database=None, suppress_health_check=HEALTH
)
def test_other_operations_keep_the_contract(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=EXCLUDED)
