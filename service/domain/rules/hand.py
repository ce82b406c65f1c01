"""The hand and the win: the domain's input, and the checks that make it a legal one."""

from __future__ import annotations

from typing import Any, ClassVar, Final, Literal, Self

from mypy_extensions import i64

from ..errors import InconsistentRequest, InvalidContext, InvalidHand
from ..memo import IntTable
from . import tiles as t
from .schemes import SCHEME_NUMBERS

SetKind = Literal["chow", "pung", "kong"]
CHOW: Final[SetKind] = "chow"
PUNG: Final[SetKind] = "pung"
KONG: Final[SetKind] = "kong"


class Meld:
    """A set: a chow (three in a row), a pung (three alike) or a kong (four alike).

    ``tile`` is its lowest tile. ``concealed`` means all its tiles were drawn by the winner
    (RULES.md §4.1): a set completed by the winning discard is not, a declared kong may be.
    ``text`` writes it ("123m"), ``mask`` has a bit set for each of its kinds
    (``tiles.mask``), ``packed`` counts its tiles as a suit key does (``tiles.FACE_BITS``),
    ``code`` numbers it among all melds (``meld_code``). Melds are values, built once and
    shared by every hand and reading that holds them (the suits' reading tables, the legal
    declared melds), so a hand pays neither for building nor for writing them.
    """

    __slots__ = ("code", "concealed", "declared", "kind", "mask", "packed", "text", "tile",
                 "tiles")  # fmt: skip

    def __init__(self, kind: SetKind, tile: int, concealed: bool, declared: bool = False) -> None:
        self.kind: Final = kind
        self.tile: Final = tile
        self.concealed: Final = concealed
        self.declared: Final = declared
        self.tiles: Final = set_tiles(kind, tile)
        self.mask: Final = (7 << tile) if kind == CHOW else 1 << tile  # its kinds, as bits
        # Its suit's counts (of the chows no hand holds, from 8m, 9m ...: those in its suit).
        self.packed: Final = sum(
            [t.PLACE[x] for x in self.tiles if x < t.KINDS and x // 9 == tile // 9]
        )
        self.code: Final = meld_code(kind, tile, concealed)
        self.text: Final = _SET_TEXT[kind][tile]

    def __repr__(self) -> str:
        return f"Meld({self.kind!r}, {self.tile}, {self.concealed}, {self.declared})"

    def order(self) -> tuple[str, int, bool, bool]:
        """Declared melds are listed in this order, whatever the client's."""
        return (self.kind, self.tile, self.concealed, self.declared)


# In the order of their names: melds sort by their codes (``meld_code``) as by their kinds'
# names, tiles and concealment (``Meld.order``).
SET_KINDS: Final[tuple[SetKind, ...]] = (CHOW, KONG, PUNG)


def meld_code(kind: SetKind, tile: int, concealed: bool) -> int:
    """A meld's number among all melds (kind, lowest tile, concealed), from 0 to 203: an index
    into tables of what is said of each (``render``)."""
    return (SET_KINDS.index(kind) * t.KINDS + tile) * 2 + concealed


def set_tiles(kind: SetKind, tile: int) -> tuple[int, ...]:
    """The tiles of a set from its kind and lowest tile."""
    if kind == CHOW:
        return (tile, tile + 1, tile + 2)
    return (tile,) * (4 if kind == KONG else 3)


def set_text(kind: SetKind, tile: int) -> str:
    """A set's compact notation from its kind and lowest tile, read from a table."""
    return _SET_TEXT[kind][tile]


def _written(kind: SetKind) -> tuple[str, ...]:
    """Every set of a kind written out once, by lowest tile (the impossible chows 89m,
    9m1p ... too, never asked for; none starts at 6z or 7z)."""
    sets = (set_tiles(kind, tile) for tile in range(t.KINDS))
    return tuple(t.compact(tiles) if tiles[-1] < t.KINDS else "" for tiles in sets)


_SET_TEXT: Final = {kind: _written(kind) for kind in SET_KINDS}


class Value:
    """An immutable request value: equality, hashing, ``repr`` and copies from ``FIELDS``.

    The request's values are plain classes rather than named tuples: compiled, a named tuple
    is still built by its interpreted ``__new__`` (thousands of instructions, keywords worse),
    a plain class by one native call, and every request builds four of them.
    """

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def field_values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS])

    def as_dict(self) -> dict[str, object]:
        return dict(zip(self.FIELDS, self.field_values(), strict=True))

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes``."""
        return type(self)(**{**self.as_dict(), **changes})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value) or type(other) is not type(self):
            return NotImplemented
        return self.field_values() == other.field_values()

    def __hash__(self) -> int:
        return hash(self.field_values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.as_dict().items())
        return f"{type(self).__name__}({fields})"


class MeldSpec(Value):
    """A declared meld as the client gave it, when it spells no legal meld: kept for
    ``declared_melds`` to say what is wrong with it (``declared_meld``)."""

    FIELDS = ("kind", "tiles", "concealed")

    def __init__(self, kind: SetKind, tiles: tuple[int, ...], concealed: bool = False) -> None:
        self.kind: Final = kind
        self.tiles: Final = tiles
        self.concealed: Final = concealed


class Hand(Value):
    """The tiles held (``tiles`` includes the winning tile) and the declared melds (each the
    legal ``Meld`` it spells, or its ``MeldSpec`` when it spells none: ``declared_meld``).

    The tiles are held counted (``held``, given so or counted from a tuple), in no order:
    ``keys`` (``tiles.suit_keys``) and ``kinds`` (``tiles.mask``), its counts, are what every
    step after reads (checking the copies of each tile, decomposing and writing the hand),
    kept here to be read directly; ``tiles`` lists them in order.
    """

    FIELDS = ("tiles", "melds", "winning_tile", "flowers", "seasons")

    def __init__(
        self,
        tiles: tuple[int, ...] | t.Held,
        melds: tuple[Meld | MeldSpec, ...] = (),
        winning_tile: int = 0,
        flowers: tuple[int, ...] = (),
        seasons: tuple[int, ...] = (),
    ) -> None:
        held = tiles if isinstance(tiles, t.Held) else t.held(tiles)
        self.held: Final = held
        self.melds: Final = melds
        self.winning_tile: Final = winning_tile
        self.flowers: Final = flowers
        self.seasons: Final = seasons
        self.keys: Final = held.keys
        self.kinds: Final = held.kinds

    @property
    def tiles(self) -> tuple[int, ...]:
        return self.held.tiles()


class Win(Value):
    """How the hand was won. The flags are named at every call (keyword-only): two swapped
    bools would pass the type checker; compiled, keywords cost nothing (measured)."""

    FIELDS = ("by", "seat", "discarder", "last_tile", "kong_replacement", "robbing_kong",
              "first_turn", "responsible", "pay_as_self_draw", "go_around")  # fmt: skip

    def __init__(
        self,
        by: Literal["self_draw", "discard"] = "self_draw",
        seat: str = "E",
        discarder: str | None = None,
        *,
        last_tile: bool = False,
        kong_replacement: bool = False,
        robbing_kong: bool = False,
        first_turn: bool = False,
        responsible: str | None = None,
        pay_as_self_draw: bool = False,
        go_around: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.by: Final = by
        self.seat: Final = seat
        self.discarder: Final = discarder
        self.last_tile: Final = last_tile
        self.kong_replacement: Final = kong_replacement
        self.robbing_kong: Final = robbing_kong
        self.first_turn: Final = first_turn
        self.responsible: Final = responsible
        self.pay_as_self_draw: Final = pay_as_self_draw
        # The go-around's discards as (seat, tile), oldest first, the winning discard last.
        self.go_around: Final = go_around
        # Read by every hand's patterns and payments: worked out once per win (most are
        # shared, models.make_win), not at each reading.
        self.self_drawn: Final = by == "self_draw"
        self.wind: Final = t.seat_wind(seat)  # the seat's own wind, a tile

    def way(self, by: Literal["self_draw", "discard"], discarder: str | None) -> Win:
        """The same win by ``by`` (from ``discarder``). Built, not ``replace``d: its dict of
        keywords and call by name cost ~21,000 instructions, and a request asks for both."""
        return Win(
            by,
            self.seat,
            discarder,
            last_tile=self.last_tile,
            kong_replacement=self.kong_replacement,
            robbing_kong=self.robbing_kong,
            first_turn=self.first_turn,
            responsible=self.responsible,
            pay_as_self_draw=self.pay_as_self_draw,
            go_around=self.go_around,
        )


class Rules(Value):
    """The rules in force: version, payoff scheme, mods and house rules (RULES.md §6).

    ``values`` are the patterns whose value differs from the version's, as (id, value) pairs
    in catalogue order, and ``exclude`` the excluded ids in that order: one rule set has one
    spelling, whatever order a client wrote it in (see ``rulesets.resolve``). ``profile`` names
    the operator's profile the rules started from, if any.
    """

    FIELDS = ("version", "payoff", "standard_value", "minimum", "bonus_tiles", "values",
              "exclude", "chicken", "limit", "profile")  # fmt: skip

    def __init__(
        self,
        version: str = "3.3",
        payoff: str = "formal",
        standard_value: int = 25,
        minimum: int = 0,
        bonus_tiles: bool = False,
        values: tuple[tuple[str, int], ...] = (),
        exclude: tuple[str, ...] = (),
        chicken: int = 1,
        limit: int = 320,
        profile: str | None = None,
    ) -> None:
        self.version: Final = version
        self.payoff: Final = payoff
        self.standard_value: Final = standard_value
        self.minimum: Final = minimum
        self.bonus_tiles: Final = bonus_tiles
        self.values: Final = values
        self.exclude: Final = exclude
        self.chicken: Final = chicken
        self.limit: Final = limit
        self.profile: Final = profile
        self.scheme: Final = SCHEME_NUMBERS[payoff]  # the payoff scheme's number, for payments


def declared_melds(hand: Hand, size: int = 14, won: bool = True) -> tuple[Meld, ...]:
    """Check the declared melds, the tile count (``size``) and the copies of each tile;
    ``won``: the tiles include a winning tile (not so after a draw, for hand analysis)."""
    melds = _declared(hand.melds) if hand.melds else ()
    held = hand.held.size + 3 * len(melds)
    if held != size:
        raise InvalidHand.at("hand.tiles", _count_fault(hand, held, size, won))
    if _over_four(tile_keys(hand.keys, melds)):
        table = visible(hand.tiles, melds)
        copies = max(table)
        kind = table.index(copies)
        raise InvalidHand.at(
            "hand",
            f"{copies} copies of {t.repeated(kind)} across tiles and melds; there are only 4",
        )
    return melds


def _declared(specs: tuple[Meld | MeldSpec, ...]) -> tuple[Meld, ...]:
    """The declared melds as the client gave them (``specs``: legal melds, or specs that may
    not be), checked, in one order."""
    if len(specs) == 1:
        only = specs[0]
        if isinstance(only, Meld):  # already found legal (``declared_meld``): nothing to sort
            return (only,)
    declared = []
    for index, spec in enumerate(specs):
        if isinstance(spec, Meld):  # already found legal (``declared_meld``)
            declared.append(spec)
            continue
        meld = _LEGAL.get(_spelled(spec.kind, spec.tiles, spec.concealed))
        if meld is None:
            fault = _meld_fault(spec)
            if fault is not None:
                raise InvalidHand.at(f"hand.melds[{index}].{fault[0]}", fault[1])
            meld = _LEGAL.get(_spelled(spec.kind, tuple(sorted(spec.tiles)), spec.concealed))
            assert meld is not None  # no fault: spelled in order, it is legal
        declared.append(meld)
    if len(declared) > 1:
        _in_order(declared)
    return tuple(declared)


def _in_order(melds: list[Meld]) -> None:
    """``melds`` in one fixed order (``Meld.order``), so that the order the client listed them
    in changes nothing: by their codes, an insertion sort in place. At most four melds
    (``MAX_MELDS``), compared as ints: ``sorted`` with a key would call it per meld."""
    for index in range(1, len(melds)):
        meld = melds[index]
        code = meld.code
        at = index
        while at > 0 and melds[at - 1].code > code:
            melds[at] = melds[at - 1]
            at -= 1
        melds[at] = meld


def tile_keys(held: t.SuitKeys, melds: tuple[Meld, ...]) -> t.SuitKeys:
    """The suit keys of every tile of a hand: those ``held``, and the melds' (a kong's four)."""
    m, p, s, z = held
    for meld in melds:
        suit = meld.tile // 9
        if suit == 0:
            m += meld.packed
        elif suit == 1:
            p += meld.packed
        elif suit == 2:
            s += meld.packed
        else:
            z += meld.packed
    return m, p, s, z


def _over_four(keys: t.SuitKeys) -> bool:
    """Whether some tile is there more than 4 times. Called once the count is right, so a
    tile is there at most 18 times, which a key's 6 bits a face hold (``tiles.FACE_BITS``)."""
    m, p, s, z = keys
    # Adding 27 to every count carries into its top bit (32) exactly when it is over 4.
    return bool(((m + _OVER_FOUR) | (p + _OVER_FOUR) | (s + _OVER_FOUR) | (z + _OVER_FOUR)) & _TOP)


_OVER_FOUR: Final = sum(27 << t.FACE_BITS * face for face in range(9))
_TOP: Final = sum(32 << t.FACE_BITS * face for face in range(9))


def declared_meld(kind: str, tiles: tuple[int, ...], concealed: bool) -> Meld | MeldSpec:
    """A meld as a client declares it: the legal meld itself when it is spelled as one
    (shared: nothing made, nothing to check again), else its spec as given, which
    ``declared_melds`` explains."""
    meld = _LEGAL.get(_spelled(kind, tiles, concealed))
    return meld if meld is not None else MeldSpec(kind, tiles, concealed)  # type: ignore[arg-type]


def _spelled(kind: str, tiles: tuple[int, ...], concealed: bool) -> int:
    """A meld as a client spells it, as one int: each tile (plus one, 6 bits) in the order
    given, then the kind and whether concealed (3 bits); one spelling, one int. An int key
    costs a fraction of a tuple's, whose hash is computed at every look-up. More than four
    tiles spell no meld: -1, which no meld is (and a native int would overflow)."""
    if len(tiles) > 4:
        return -1
    spelled: i64 = 0
    for tile in tiles:
        spelled = spelled << 6 | tile + 1
    # Compared rather than looked up: compiled, a string compared to a constant is first
    # compared by identity, where a dict look-up hashes it and probes.
    kind_bits = 0 if kind == CHOW else 2 if kind == PUNG else 4 if kind == KONG else 6
    return spelled << 3 | kind_bits | concealed


def _legal_melds() -> IntTable[Meld]:
    """Every meld a hand may declare, by its spelling (``_spelled``, tiles in order): a
    declared meld is one look-up (by its slot: no object made), and ``_meld_fault`` explains
    the rest. Melds are values, shared by hands. All 123 are kept: the table is never full."""
    legal: IntTable[Meld] = IntTable(1024, 1021)
    for tile in range(t.KINDS):
        for kind in (CHOW, PUNG, KONG):
            for concealed in (False, True) if kind == KONG else (False,):
                tiles = set_tiles(kind, tile)
                if tiles[-1] < t.KINDS and _meld_fault(MeldSpec(kind, tiles, concealed)) is None:
                    legal.put(_spelled(kind, tiles, concealed), Meld(kind, tile, concealed, True))
    return legal


def _count_fault(hand: Hand, held: int, size: int, won: bool) -> str:
    """Why ``held`` tiles are not ``size``; one short of a win, whether the winning tile is
    missing from ``tiles``, the likeliest cause (API.md's own example leaves it out)."""
    melds = len(hand.melds)
    tiles = hand.held.size  # not ``len(hand.tiles)``: a count past 63 overflows its key
    counted = (
        f"the hand has {tiles} tile{'' if tiles == 1 else 's'} and {melds}"
        f" meld{'' if melds == 1 else 's'},"
        f" which count as {held} tiles"
    )
    if not won or size != 14 or held != 13:
        return (
            f"{counted}; it needs {size} (the tiles held"
            f"{', winning tile included,' if won and size == 14 else ''} + 3 per meld; a kong"
            " counts 3)"
        )
    winning = t.repeated(hand.winning_tile)
    if not hand.kinds >> hand.winning_tile & 1:
        return (
            f"{counted}, one short of 14: the winning tile {winning} is missing from hand.tiles"
            " (they include the winning tile): add it there"
        )
    return (
        f"{counted}, one short of 14: the winning tile {winning} is in hand.tiles, so another"
        f" tile is missing (if {winning} completed the hand as one more copy, list that copy"
        " too; a meld counts 3, a kong too)"
    )


def visible(held: tuple[int, ...], melds: tuple[Meld, ...]) -> list[int]:
    """Counts of every tile in the hand, kongs with four."""
    table = t.counts(held)
    for meld in melds:
        tile = meld.tile
        if meld.kind == CHOW:
            table[tile] = table[tile] + 1
            table[tile + 1] = table[tile + 1] + 1
            table[tile + 2] = table[tile + 2] + 1
        else:
            table[tile] = table[tile] + (4 if meld.kind == KONG else 3)
    return table


def check_winning_tile(hand: Hand) -> None:
    if not hand.kinds >> hand.winning_tile & 1:  # the mask, not the tiles: no int boxed
        raise InvalidHand.at(
            "hand.winning_tile",
            f"{t.repeated(hand.winning_tile)} is not among hand.tiles; list the winning tile"
            " there too",
        )


def _meld_fault(spec: MeldSpec) -> tuple[str, str] | None:
    """What makes a declared meld impossible, as (field, message), or None."""
    tiles = sorted(spec.tiles)
    first = tiles[0] if tiles else 0
    if spec.kind == CHOW:
        suited = len(tiles) == 3 and not t.is_honour(first) and t.number(first) <= 7
        if not suited or tiles != [first, first + 1, first + 2]:
            return "tiles", (
                f"{t.compact(tiles) or 'nothing'} is not a chow: three consecutive numbers of"
                " one suit, e.g. '345p'"
            )
    else:
        size = 4 if spec.kind == KONG else 3
        if len(tiles) != size or tiles.count(first) != size:
            return "tiles", (
                f"{t.compact(tiles) or 'nothing'} is not a {spec.kind}: {size} identical tiles"
            )
    if spec.concealed and spec.kind != KONG:
        return "concealed", (
            f"only a kong can be declared concealed; a declared {spec.kind} is exposed"
        )
    return None


_LEGAL: Final = _legal_melds()


def check_context(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> None:
    """Reject a win context that cannot happen (RULES.md §4 items 11-13, 15)."""
    check_win(hand, melds, win, rules)
    check_robbed_tile(hand, melds, win)
    check_go_around(win, hand.winning_tile)


def check_go_around(win: Win, winning_tile: int | None) -> None:
    """The go-around (API.md "Score sheets") ends in the winning discard, by the discarder, and
    names each seat once; it replaces ``responsible`` and ``pay_as_self_draw``.
    ``winning_tile`` None: a claim, whose winning tile is the go-around's last."""
    if not win.go_around:
        return
    if win.responsible is not None or win.pay_as_self_draw:
        field = "responsible" if win.responsible is not None else "pay_as_self_draw"
        raise InconsistentRequest.at(
            f"win.{field}",
            "the go-around says who is responsible: give win.go_around or win.responsible"
            " and win.pay_as_self_draw, not both",
        )
    if win.self_drawn:
        raise InvalidContext.at("win.go_around", "a self-drawn win has no go-around; remove it")
    last = len(win.go_around) - 1
    seat, tile = win.go_around[last]
    if seat != win.discarder or (winning_tile is not None and tile != winning_tile):
        wanted = "the winning tile" if winning_tile is None else t.repeated(winning_tile)
        raise InvalidContext.at(
            f"win.go_around[{last}]",
            f"the go-around ends with the winning discard: {wanted} discarded by"
            f" {win.discarder} (win.discarder)",
        )
    seen: set[str] = set()
    for index, (seat, _) in enumerate(win.go_around):
        if seat in seen:
            raise InvalidContext.at(
                f"win.go_around[{index}].seat", f"{seat} discards once in a go-around"
            )
        seen.add(seat)


def check_robbed_tile(hand: Hand, melds: tuple[Meld, ...], win: Win) -> None:
    """The other three copies of a robbed tile are in the robber's pung (RULES.md §4.12)."""
    if not win.robbing_kong:
        return
    if t.copies(tile_keys(hand.keys, melds), hand.winning_tile) > 1:
        raise InvalidContext.at(
            "win.robbing_kong",
            f"the other three {t.repeated(hand.winning_tile)} are in the robbed pung, so"
            " the winner cannot hold another copy",
        )


def check_win(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> None:
    """The checks of the win context that do not depend on the winning tile."""
    check_way(win)
    if win.kong_replacement and not any(meld.kind == KONG for meld in melds):
        raise InvalidContext.at(
            "win.kong_replacement", "a win on a kong's replacement tile needs a kong"
        )
    if win.robbing_kong and win.last_tile:
        raise InvalidContext.at(
            "win.robbing_kong", "no kong can be added once the wall is exhausted"
        )
    if win.first_turn:
        if melds:
            raise InvalidContext.at("win.first_turn", "a first-turn win is made with no melds")
        if win.last_tile:
            raise InvalidContext.at("win.first_turn", "a first-turn win cannot be on the last tile")
        if win.seat == "E" and not win.self_drawn:
            raise InvalidContext.at(
                "win.first_turn", "East's first-turn win (Heaven) is a self-draw"
            )
        if win.seat != "E" and (win.self_drawn or win.discarder != "E"):
            raise InvalidContext.at(
                "win.first_turn", "another seat's first-turn win (Earth) is on East's discard"
            )
    if not rules.bonus_tiles and (hand.flowers or hand.seasons):
        field = "flowers" if hand.flowers else "seasons"
        raise InvalidContext.at(
            f"hand.{field}",
            f"{field} count only with the bonus-tile mod: set rules.bonus_tiles to true",
        )


def check_way(win: Win) -> None:
    """How the hand was won, and who pays for it, agree: a self-draw has no discarder, a
    discard has one who is not the winner, a kong's replacement tile is drawn."""
    if win.self_drawn:
        if win.discarder is not None:
            raise InvalidContext.at("win.discarder", "a self-drawn win has no discarder; remove it")
        if win.robbing_kong:
            raise InvalidContext.at(
                "win.robbing_kong", "robbing a kong is a win on a discard, not a self-draw"
            )
        if win.responsible is not None:
            raise InvalidContext.at("win.responsible", "a self-drawn win has no responsible player")
        if win.pay_as_self_draw:
            raise InvalidContext.at("win.pay_as_self_draw", "the win is a self-draw already")
    else:
        if win.discarder is None:
            raise InvalidContext.at(
                "win.discarder",
                "a win on a discard needs the discarder: the seat that discarded the winning"
                ' tile, e.g. "discarder": "W" (a self-drawn win is "by": "self_draw")',
            )
        if win.discarder == win.seat:
            raise InvalidContext.at("win.discarder", "the winner cannot win on their own discard")
        if win.kong_replacement:
            raise InvalidContext.at(
                "win.kong_replacement", "a kong's replacement tile is drawn, not discarded"
            )
        if win.responsible == win.seat:
            raise InvalidContext.at(
                "win.responsible", "the winner cannot be the responsible player"
            )
        if win.responsible is not None and win.pay_as_self_draw:
            raise InvalidContext.at(
                "win.responsible", "a win paid as a self-draw has no responsible player"
            )
