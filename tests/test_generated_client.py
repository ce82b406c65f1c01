"""A Python client generated from openapi.yaml by openapi-python-client, as an integrator makes
one, scoring a hand, a batch and a waits call against the app (httpx over WSGI, no server).

The generator reads the contract's schemas into typed models only if they are plain enough:
an ``if``/``then`` in the score response once made it ``Any``, nameless ``oneOf`` members made
``BatchResultType0``, and properties named ``E``... made ``Payments.e``. These tests hold the
contract to the typed, readable form.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from service import create_app

from .support.contract import SPEC_PATH
from .support.hands import EXAMPLE

PACKAGE = "zj_generated_client"
# One pytest-xdist worker runs the module: the client is generated once.
pytestmark = [pytest.mark.xdist_group("generated-client"), pytest.mark.client_side]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    where = tmp_path_factory.mktemp("client")
    config = where / "config.yaml"
    config.write_text("post_hooks: []\n", encoding="utf-8")  # no ruff run over the output
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(SPEC_PATH),
         "--meta", "none", "--output-path", str(where / PACKAGE), "--config", str(config)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    # The one thing it cannot read: the YAML text of GET /openapi.yaml (not JSON).
    said = done.stdout + done.stderr
    warnings = re.findall(r"^WARNING parsing (.+?) within", said, flags=re.MULTILINE)
    assert warnings == ["GET /openapi.yaml"], said
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def module(generated: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{generated.__name__}.{name}")


@pytest.fixture
def client(generated: ModuleType) -> Any:
    transport = httpx.WSGITransport(app=create_app({"TESTING": True}))
    return generated.Client(base_url="http://zj.test", httpx_args={"transport": transport})


def returns(function: Any) -> set[Any]:
    return set(typing.get_args(typing.get_type_hints(function)["return"]))


def test_models_have_readable_names(generated: ModuleType) -> None:
    models = Path(generated.__file__).parent / "models"
    names = sorted(path.stem for path in models.glob("*.py"))
    assert not [name for name in names if re.search(r"type_[0-9]+$", name)], names
    for expected in ("score_response", "scored_item", "rejected_item", "standard_hand",
                     "score_breakdown", "payments", "wait"):  # fmt: skip
        assert expected in names
    payments = module(generated, "models").Payments
    assert not {"e", "s", "w", "n"} & set(payments.__annotations__)


def test_score_a_hand(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    score_hand = module(generated, "api.scoring.score_hand")
    assert returns(score_hand.sync) == {models.ScoreResponse, models.Problem, type(None)}
    answer = score_hand.sync(client=client, body=models.ScoreRequest.from_dict(EXAMPLE))
    assert isinstance(answer, models.ScoreResponse)
    assert answer.score == 10 and answer.limit == models.Limit.NONE
    assert [pattern.id for pattern in answer.patterns] == ["3.1"]
    assert isinstance(answer.hand, models.StandardHand)
    assert answer.hand.pair == "55s" and answer.hand.sets[0].tiles == "777z"
    payments = answer.payments
    assert (payments["E"], payments["S"], payments["W"], payments["N"]) == (-10, 30, -10, -10)


def test_a_problem_is_a_typed_problem(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    score_hand = module(generated, "api.scoring.score_hand")
    request = models.ScoreRequest.from_dict(
        {**EXAMPLE, "hand": {**EXAMPLE["hand"], "tiles": "123m789p23456s"}}
    )
    answer = score_hand.sync(client=client, body=request)
    assert isinstance(answer, models.Problem)
    assert answer.code == models.ProblemCode.NOT_A_WINNING_HAND and answer.status == 422


def test_score_a_batch_of_models(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    score_batch = module(generated, "api.scoring.score_batch")
    assert returns(score_batch.sync) == {models.BatchResponse, models.Problem, type(None)}
    body = models.BatchRequest(items=[models.ScoreRequest.from_dict(EXAMPLE), {"hand": {}}])
    answer = score_batch.sync(client=client, body=body)
    assert isinstance(answer, models.BatchResponse)
    scored, rejected = answer.results
    assert isinstance(scored, models.ScoredItem) and scored.body.score == 10
    assert isinstance(rejected, models.RejectedItem)
    assert rejected.body.code == models.ProblemCode.INVALID_REQUEST
    assert [error.path for error in rejected.body.errors] == ["hand.tiles", "hand.winning_tile",
                                                              "win"]  # fmt: skip


def test_list_waits(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    list_waits = module(generated, "api.scoring.list_waits")
    assert returns(list_waits.sync) == {models.WaitsResponse, models.Problem, type(None)}
    request = models.WaitsRequest.from_dict(
        {"hand": {"tiles": "123m456p789s2355s"}, "win": {"seat": "S"}}
    )
    answer = list_waits.sync(client=client, body=request)
    assert isinstance(answer, models.WaitsResponse)
    assert [(wait.tile, wait.remaining) for wait in answer.waits] == [("1s", 4), ("4s", 4)]
    first = answer.waits[0]
    assert isinstance(first.self_draw, models.ScoreBreakdown)
    assert isinstance(first.discard, models.ScoreBreakdown)
    assert first.self_draw.score == first.discard.score == 10
    assert answer.shanten == 0 and answer.useful_remaining == 8
    assert [(useful.tile, useful.remaining) for useful in answer.useful] == [("1s", 4), ("4s", 4)]


def test_analyse_discards(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    analyse = module(generated, "api.scoring.analyse_discards")
    assert returns(analyse.sync) == {models.DiscardsResponse, models.Problem, type(None)}
    request = models.WaitsRequest.from_dict(
        {"hand": {"tiles": "123m456p789s11233s"}, "win": {"seat": "E"}, "visible": "4s4s"}
    )
    answer = analyse.sync(client=client, body=request)
    assert isinstance(answer, models.DiscardsResponse)
    assert answer.shanten == 0
    best = answer.discards[0]
    assert isinstance(best, models.DiscardAnalysis)
    assert (best.tile, best.shanten, best.useful_remaining) == ("3s", 0, 4)
    wait = best.waits[0]
    assert isinstance(wait, models.DiscardWait) and isinstance(wait.self_draw, models.WaitScore)
    assert (wait.tile, wait.self_draw.score, wait.self_draw.patterns) == ("1s", 10, ["1.1", "1.2"])


def test_expected_scores_are_typed(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    analyse = module(generated, "api.scoring.analyse_discards")
    list_waits = module(generated, "api.scoring.list_waits")
    melds = [{"kind": "chow", "tiles": "123m"}, {"kind": "chow", "tiles": "456p"},
             {"kind": "pung", "tiles": "777z"}]  # fmt: skip
    hand = {"hand": {"tiles": "2355s9s", "melds": melds}, "win": {"seat": "S"}}
    expect = models.Expect(
        draws_left=2, discard_rate=0.5, objective=models.Objective.EXPECTED_SCORE
    )
    request = models.WaitsRequest.from_dict(hand)
    request.expect = expect
    answer = analyse.sync(client=client, body=request)
    assert isinstance(answer, models.DiscardsResponse)
    assert isinstance(answer.expectation, models.Expectation)
    assert (answer.expectation.model, answer.expectation.draws_left) == ("solo-v1", 2)
    best = answer.discards[0]
    assert best.tile == "9s" and isinstance(best.expected, models.Expected)
    assert isinstance(best.expected.win_by, models.ExpectedWinBy)
    figures = best.expected
    assert figures.win_probability == pytest.approx(
        figures.win_by.self_draw + figures.win_by.discard, abs=2e-4
    )
    # The 13 tiles the best discard leaves, the discard seen: the same figures.
    left = {**hand, "hand": {**hand["hand"], "tiles": "2355s"}, "visible": "9s"}
    request = models.WaitsRequest.from_dict({**left, "expect": expect.to_dict()})
    waited = list_waits.sync(client=client, body=request)
    assert isinstance(waited, models.WaitsResponse) and waited.expected == figures


def test_claim_and_settle(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    score_claim = module(generated, "api.score_sheets.score_claim")
    settle = module(generated, "api.score_sheets.settle_sheet")
    assert returns(score_claim.sync) == {models.ClaimResponse, models.Problem, type(None)}
    claim = {"patterns": [{"id": "4.1"}], "win": {"by": "discard", "seat": "W", "discarder": "S"}}
    answer = score_claim.sync(client=client, body=models.ClaimRequest.from_dict(claim))
    assert isinstance(answer, models.ClaimResponse) and answer.score == 30
    sheet = {"players": ["Ann", "Bob", "Cat", "Dan"], "hands": [{"claim": claim}, {"draw": True}]}
    settled = settle.sync(client=client, body=models.SettleRequest.from_dict(sheet))
    assert isinstance(settled, models.SettleResponse)
    won, drawn = settled.hands
    assert isinstance(won, models.WonHand) and won.winner == "Cat"
    assert isinstance(drawn, models.DrawnHand)
    assert settled.totals["Cat"] == 90


def test_the_rules_say_the_service_version(generated: ModuleType, client: Any) -> None:
    models = module(generated, "models")
    get_rules = module(generated, "api.catalogue.get_rules")
    answer = get_rules.sync(client=client)
    assert isinstance(answer, models.RulesCatalogue)
    import service

    assert answer.service_version == service.__version__
    assert answer.limits.body_bytes == 2 * 1024 * 1024
