"""What a loaded request is made of: tiles read from JSON, and the domain's objects made from
a record's fields. The schemas and the fast path both build with these (compiled)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..domain.analysis.expectation import Model
from ..domain.memo import Memo
from ..domain.records.replay import ACTIONS, Event, Record
from ..domain.rules import tiles as t
from ..domain.rules.hand import Hand, Meld, MeldSpec, Rules, Value, Win, declared_meld
from ..domain.rules.rulesets import DEFAULT, resolve_fields
from ..domain.sheets.claims import Entry
from ..domain.sheets.sheets import SheetHand
from .limits import MAX_TILE_LIST, MAX_TILE_STRING

HELD: Final = (MAX_TILE_STRING, MAX_TILE_LIST)  # the longest tiles of a hand or a meld


def read_tiles(value: object, single: bool, longest: tuple[int, int] = HELD) -> tuple[int, ...]:
    """Tiles as JSON gives them: compact notation or a list of single tiles.

    Raises ``TileError`` saying what is wrong; ``single``: exactly one tile; ``longest``: the
    most characters of a string and tiles of a list.
    """
    if isinstance(value, str):
        _fits(value, longest)
        if len(value) == 2 and (tile := t.written_tile(value)) >= 0:
            return _SINGLE[tile]  # a winning tile, in every request: no table look-up
        if len(value) > _SHORT:
            tiles = t.read_held(value).tiles()
        else:
            found = _SHORT_TILES.get(value)
            tiles = _SHORT_TILES.put(value, t.read_held(value).tiles()) if found is None else found
    elif isinstance(value, list):
        _fits(value, longest)
        tiles = tuple(t.parse(value))
    else:
        raise t.TileError(_NO_TILES)
    if single and len(tiles) != 1:
        raise t.TileError("exactly one tile, e.g. '4s'")
    return tiles


def read_held(value: object, longest: tuple[int, int] = HELD) -> t.Held:
    """A hand's tiles as JSON gives them (``read_tiles``), counted as they are read, in no
    order: no tuple made, only to be counted again (``tiles.Held``)."""
    if isinstance(value, str):
        _fits(value, longest)
        return t.read_held(value)
    if isinstance(value, list):
        _fits(value, longest)
        return t.read_held(value)
    raise t.TileError(_NO_TILES)


def _fits(value: str | list[object], longest: tuple[int, int]) -> None:
    """Raises ``TileError`` for a string or list longer than ``longest`` allows."""
    if isinstance(value, str):
        if len(value) > longest[0]:
            raise t.TileError(f"at most {longest[0]} characters")
    elif len(value) > longest[1]:
        raise t.TileError(f"at most {longest[1]} tiles")


_NO_TILES: Final = "tiles are a string like '123m55z' or a list like ['1m', '5z']"


# A winning tile, a meld ("5555p") or a tile of the go-around is one of a few thousand short
# strings, sent again and again: read once. A hand's tiles are not (nor kept: a client could
# fill the table with them).
_SHORT: Final = 5
_SHORT_TILES: Final[Memo[str, tuple[int, ...]]] = Memo(4096)
# Typed as tuples of any length: compiled, a ``tuple[int]`` read from it would be unboxed into
# a C struct and boxed again, a new tuple each time.
_SINGLE: Final[tuple[tuple[int, ...], ...]] = tuple((tile,) for tile in range(t.KINDS))


class Maker:
    """A record's model made from its values (``fast.Record``), all of them, in the order of the
    model's parameters: a compiled method call, where calling the model itself goes through
    Python's calling convention (its arguments parsed and checked: ~200 instructions a
    record). ``MAKERS`` holds one for each model that requests load most."""

    def make(self, values: list[Any]) -> object:
        raise NotImplementedError


# The makers of the domain's objects, one per schema with a model (schemas.py; the rules'
# is rulesets.resolve_fields): each takes the schema's fields as its parameters, by name
# (loading.py checks it).


def make_meld(kind: str, tiles: tuple[int, ...], concealed: bool = False) -> Meld | MeldSpec:
    return declared_meld(kind, tiles, concealed)


def make_expect(
    draws_left: int = 17, discard_rate: float = 0.0, objective: str = "expected_score"
) -> Model:
    """``expect``: the question asked; the engine gives it the server's budget
    (``ZJ_EXPECT_STATES``)."""
    return Model(draws_left, discard_rate, "win_probability" if objective == "win_probability"
                 else "expected_score")  # fmt: skip


def make_hand(
    tiles: tuple[int, ...] | t.Held,
    melds: tuple[Meld | MeldSpec, ...] | list[Meld | MeldSpec] = (),
    flowers: tuple[int, ...] | list[int] = (),
    seasons: tuple[int, ...] | list[int] = (),
    winning_tile: tuple[int, ...] | None = None,  # absent in a waits request
) -> Hand:
    return Hand(
        tiles,
        tuple(melds),
        winning_tile[0] if winning_tile else 0,
        tuple(flowers),
        tuple(seasons),
    )


def make_win(
    seat: str,
    last_tile: bool = False,
    kong_replacement: bool = False,
    robbing_kong: bool = False,
    first_turn: bool = False,
    by: str = "self_draw",  # a waits request has no ``by`` and no discarder
    discarder: str | None = None,
    responsible: str | None = None,
    pay_as_self_draw: bool = False,
    go_around: tuple[tuple[str, int], ...] | list[tuple[str, int]] = (),
) -> Win:
    # A win is one of a few thousand ways without a go-around (seats by their letters' low
    # three bits, which tell the four apart; the schema allows no other): each is made once
    # and shared by the requests that give it, as rule sets are, since every request gives one.
    way = (
        (ord(seat) & 7)
        | (0 if discarder is None else ord(discarder) & 7) << 3
        | (0 if responsible is None else ord(responsible) & 7) << 6
        | (by == "discard") << 9
        | pay_as_self_draw << 10
        | last_tile << 11
        | kong_replacement << 12
        | robbing_kong << 13
        | first_turn << 14
    )
    found = None if go_around else _WINS[way]
    if found is None:
        found = Win(
            by,  # type: ignore[arg-type]
            seat,
            discarder,
            last_tile=last_tile,
            kong_replacement=kong_replacement,
            robbing_kong=robbing_kong,
            first_turn=first_turn,
            responsible=responsible,
            pay_as_self_draw=pay_as_self_draw,
            go_around=tuple(go_around),
        )
        if not go_around:
            _WINS[way] = found
    return found


_WINS: Final[list[Win | None]] = [None] * (1 << 15)  # every way, ~100 bytes a win made


def make_claimed_win(
    by: str,
    seat: str,
    discarder: str | None = None,
    responsible: str | None = None,
    pay_as_self_draw: bool = False,
    go_around: tuple[tuple[str, int], ...] | list[tuple[str, int]] = (),
) -> Win:
    return Win(
        by,  # type: ignore[arg-type]
        seat,
        discarder,
        responsible=responsible,
        pay_as_self_draw=pay_as_self_draw,
        go_around=tuple(go_around),
    )


class ScoreRequest(Value):
    """A score request loaded: the won hand, its win, the rules, and whether to explain.
    An object rather than a dict: compiled, its fields are read directly, and it is made
    from the fields' values as they are loaded, with no dict built on the way."""

    FIELDS = ("hand", "win", "rules", "explain")

    def __init__(self, hand: Hand, win: Win, rules: Rules, explain: bool) -> None:
        self.hand: Final = hand
        self.win: Final = win
        self.rules: Final = rules
        self.explain: Final = explain


def make_score_request(
    hand: Hand,
    win: Win,
    rules: Rules | None = None,  # not DEFAULT: compiled, only a literal keeps the signature
    explain: bool = False,
) -> ScoreRequest:
    return ScoreRequest(hand, win, DEFAULT if rules is None else rules, explain)


def make_entry(id: str, count: int | None = None) -> Entry:
    return Entry(id, count)


def make_sheet_hand(
    seats: dict[str, str] | None = None,
    score: dict[str, Any] | None = None,
    claim: dict[str, Any] | None = None,
    draw: bool = False,
    record: Record | None = None,
) -> SheetHand:
    return SheetHand(
        seats,
        None if score is None else (score["hand"], score["win"]),
        None if claim is None else (tuple(claim["patterns"]), claim["win"]),
        draw,
        record,
    )


def make_event(**given: Any) -> Event:
    """A record's event as given: its seat and the actions it names (``replay`` checks that
    there is exactly one), a hidden winner's ``tiles``. Keywords: a hidden seat's draw is
    given as null, which must not read as a draw left out."""
    actions = tuple([action for action in ACTIONS if action in given])
    value = given[actions[0]] if len(actions) == 1 else None
    return Event(
        given["seat"],
        actions,
        value if isinstance(value, tuple) else None,
        value if isinstance(value, int) else 0,
        given.get("tiles"),
    )


def make_record(
    deal: dict[str, tuple[int, ...] | None],
    events: tuple[Event, ...] | list[Event] = (),
    wall: int | None = None,
) -> Record:
    return Record(tuple([deal[seat] for seat in t.SEATS]), tuple(events), wall)


def make_discard(seat: str, tile: tuple[int, ...]) -> tuple[str, int]:
    return seat, tile[0]


# The makers of the records every score request holds, called natively (``fast.Maker``): each
# passes a record's values (all of them, in its parameters' order) to its model.


class _Meld(Maker):
    def make(self, values: list[Any]) -> object:
        return make_meld(values[0], values[1], values[2])


class _Hand(Maker):
    def make(self, values: list[Any]) -> object:
        return make_hand(values[0], values[1], values[2], values[3], values[4])


class _Win(Maker):
    def make(self, values: list[Any]) -> object:
        return make_win(values[0], values[1], values[2], values[3], values[4],
                        values[5], values[6], values[7], values[8], values[9])  # fmt: skip


class _Rules(Maker):
    def make(self, values: list[Any]) -> object:
        return resolve_fields(values[0], values[1], values[2], values[3], values[4],
                              values[5], values[6], values[7], values[8], values[9])  # fmt: skip


class _ScoreRequest(Maker):
    def make(self, values: list[Any]) -> object:
        return make_score_request(values[0], values[1], values[2], values[3])


MAKERS: Final[dict[Callable[..., object], Maker]] = {
    make_meld: _Meld(),
    make_hand: _Hand(),
    make_win: _Win(),
    resolve_fields: _Rules(),
    make_score_request: _ScoreRequest(),
}
