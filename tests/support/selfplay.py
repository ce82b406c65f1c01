"""Self-play hand records (API.md "Hand records", RULES.md §9), written apart from the replay.

Four simple players play a hand of Zung Jung on a shuffled wall: East holds 14 and discards
first, then each seat in turn draws and discards; the others claim the last discard to win, to
pung or kong it, the next seat alone to chow it (win over pung or kong over chow, two wins going
to the seat first in turn after the discarder); a seat in turn may declare a concealed kong or
add to its pung (which another may rob), each with a replacement draw (14 at most), lay out a
bonus tile where the mod is on, or win on its draw. The wall gives ``wall`` ordinary draws (69,
77 with bonus tiles); the discard after the last tile may be claimed only to win, and passed it
ends the hand in a washout.

The generator keeps its own books (what each seat holds and shows, the table's discards, the
wall's ordinary and replacement draws) and from them writes: the record as API.md specifies, each
seat's own view of it, the position of each discard (a ``/v1/discards`` body with ``draws_left``,
for a review) and, at a win, the ``/v1/score`` body the record amounts to: every flag and the
go-around are worked out from the play itself, never by the replay code. A win is taken only
where ``oracle.wins`` finds a winning shape and ``engine.score`` lets it stand (the minimum).

Knobs: each seat's ``Style`` (how readily it claims, kongs and wins), a ``Rig`` (tiles dealt,
drawn, discarded or kept by a seat, the wall's last tiles, the replacement tiles), the wall's
size and the rules. ``forced(ending)`` rigs and plays hands until that ending happens, so every
ending of ``ENDINGS`` can be had on demand.

Where the contract is silent, this generator's reading (the tests hold the replay to it):
- a bonus tile is written as its ``flower`` / ``season`` event in place of the draw that
  brought it (mpsz has no notation for it), then the seat's replacement ``draw``; a draw counts
  against ``wall`` when it is the first of a seat's turn, not after a kong or a bonus tile;
- Heaven's ``win`` names one of East's 14 dealt tiles; a self-draw's names the seat's last draw;
- ``go_around`` counts every discard event, claimed or not, and a robbed kong's tile as the last;
- Final Draw: a self-draw once the wall's last ordinary tile is drawn (a bonus tile's
  replacement after it included); no seat declares a kong after the last tile;
- Win on Kong: the draw right after the seat's own kong (claimed or declared);
- Blessing of Earth: no kong by East before its first discard (RULES.md §4.13).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from service import engine
from service.problems import Problem

from . import oracle
from .handgen import compact, single

__all__ = [
    "ENDINGS",
    "Played",
    "Position",
    "Rig",
    "Setup",
    "Style",
    "chows",
    "corpus",
    "forced",
    "generate",
    "go_around",
    "play",
]

SEATS: Final = "ESWN"
FORMS: Final = frozenset({"standard", "seven_pairs", "thirteen_terminals"})
KINDS: Final = 34
BONUS: Final = tuple(range(KINDS, KINDS + 8))  # flowers 1-4, then seasons 1-4
REPLACEMENTS: Final = 14
ORPHANS: Final = frozenset(oracle.ORPHANS)
FLAGS: Final = ("last_tile", "kong_replacement", "robbing_kong", "first_turn")
# Every ending and feature the tests need at least one record of (``Played.endings``).
ENDINGS: Final = (
    "self_draw",
    "discard",
    "robbing_kong",
    "kong_replacement",
    "final_draw",
    "final_discard",
    "heaven",
    "earth",
    "washout",
    "skipped_seat",
    "bonus_tiles",
    "contested",
)


def after(wind: str, steps: int = 1) -> str:
    return SEATS[(SEATS.index(wind) + steps) % 4]


OTHERS: Final = {wind: tuple(after(wind, steps) for steps in (1, 2, 3)) for wind in SEATS}


def others(wind: str) -> tuple[str, ...]:
    """The other seats in turn after ``wind``."""
    return OTHERS[wind]


def _bonus_event(tile: int) -> tuple[str, int]:
    return ("flower", tile - KINDS + 1) if tile < KINDS + 4 else ("season", tile - KINDS - 3)


@dataclass(frozen=True)
class Style:
    """How readily a seat takes each chance (a probability each; 1 always, 0 never)."""

    win: float = 1.0  # on a discard, or robbing a kong
    self_draw: float = 1.0
    pung: float = 0.8
    kong: float = 0.8  # a claimed kong
    chow: float = 0.5
    concealed_kong: float = 0.9
    added_kong: float = 0.9


QUIET: Final = Style(win=0, self_draw=0, pung=0, kong=0, chow=0, concealed_kong=0, added_kong=0)


@dataclass
class Rig:
    """A stacked deal and wall. Tiles are ints 0-33 (as ``handgen``), 34-41 the bonus tiles.

    ``deal``: tiles dealt to a seat first (the rest at random); ``draws``: a seat's next draws,
    in order (swapped in from the wall where it still holds them); ``discards``: tiles a seat
    discards first whenever it holds them; ``keep``: tiles a seat never discards; ``last``: the
    wall's last ordinary tiles; ``replacements``: the first replacement tiles, ``aside`` the
    last ones (in practice never drawn).
    """

    deal: dict[str, list[int]] = field(default_factory=dict)
    draws: dict[str, list[int]] = field(default_factory=dict)
    discards: dict[str, list[int]] = field(default_factory=dict)
    keep: dict[str, list[int]] = field(default_factory=dict)
    last: list[int] = field(default_factory=list)
    replacements: list[int] = field(default_factory=list)
    aside: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Position:
    """A seat about to discard (``event``: the discard's index): its concealed tiles, melds,
    bonus tiles, the tiles it can see and the ordinary draws still coming to it."""

    event: int
    seat: str
    tiles: tuple[int, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[int, ...]
    visible: tuple[int, ...]
    draws_left: int

    def body(self, rules: dict[str, Any]) -> dict[str, Any]:
        """The ``/v1/discards`` request that asks this seat's question."""
        hand: dict[str, Any] = {
            "tiles": compact(self.tiles),
            "melds": [meld.body() for meld in self.melds],
        }
        if rules.get("bonus_tiles"):
            hand["flowers"] = numbers(self.bonus, KINDS)
            hand["seasons"] = numbers(self.bonus, KINDS + 4)
        return {
            "hand": hand,
            "win": {"seat": self.seat},
            "visible": compact(self.visible),
            "expect": {"draws_left": self.draws_left},
            "rules": rules,
        }


@dataclass(frozen=True)
class Played:
    """One hand: the record, its end and, for a win, the ``/v1/score`` body it amounts to."""

    record: dict[str, Any]
    rules: dict[str, Any]
    end: str  # "win" | "washout"
    wall_left: int
    request: dict[str, Any] | None
    views: dict[str, dict[str, Any]]  # each seat's own view of the record
    positions: list[Position]
    endings: frozenset[str]
    census: dict[str, list[int]]  # where every tile is at the end: stock, table, each seat
    drawn: tuple[int, ...]  # the ordinary draws taken, after each event

    def payload(self, seat: str | None = None) -> dict[str, Any]:
        """The ``/v1/replay`` body of the record, or of ``seat``'s view of it."""
        return {"record": self.record if seat is None else self.views[seat], "rules": self.rules}


def numbers(bonus: Iterable[int], first: int) -> list[int]:
    """The flowers (``first`` 34) or seasons (38) among bonus tiles, as numbers 1-4."""
    return sorted(tile - first + 1 for tile in bonus if first <= tile < first + 4)


@dataclass(frozen=True)
class Meld:
    kind: str  # chow, pung, kong
    tiles: tuple[int, ...]
    concealed: bool = False

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"kind": self.kind, "tiles": compact(self.tiles)}
        if self.concealed:
            body["concealed"] = True
        return body


@dataclass
class Seat:
    wind: str
    style: Style
    held: list[int] = field(default_factory=lambda: [0] * KINDS)  # counts of each kind
    melds: list[Meld] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)
    drawn: int | None = None  # its last draw: a self-draw's winning tile
    on_kong: bool = False  # its last draw replaced its own kong
    draws: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    keep: list[int] = field(default_factory=lambda: [0] * KINDS)

    def tiles(self) -> list[int]:
        return [tile for tile in range(KINDS) for _ in range(self.held[tile])]


def _near(tile: int) -> tuple[int, ...]:
    """The suited tiles within two of ``tile``, in its suit (none for an honour)."""
    if tile >= 27:
        return ()
    place = tile % 9
    return tuple(tile + step for step in (-2, -1, 1, 2) if 0 <= place + step <= 8)


NEAR: Final = tuple(_near(tile) for tile in range(KINDS))


def may_win(held: Sequence[int]) -> bool:
    """A cheap necessary test before ``oracle.wins``: a lone tile with no suited neighbour
    within two fits no set, so only Thirteen Terminals can still hold it."""
    for tile in range(KINDS):
        if held[tile] == 1 and not any(held[kind] for kind in NEAR[tile]):
            return tile in ORPHANS and all(held[kind] for kind in ORPHANS)
    return True


def wins(held: Sequence[int], melds: int) -> bool:
    return may_win(held) and oracle.wins(held, melds, FORMS)


def stands(request: dict[str, Any]) -> bool:
    """The win scores (a winning hand at or above the minimum); any other problem is the
    generator's own fault and is raised."""
    try:
        engine.score(request)
    except Problem as problem:
        if problem.code in ("below_minimum", "not_a_winning_hand"):
            return False
        raise
    return True


class Table:
    """One hand in play: the wall, the four seats, the events written so far."""

    def __init__(
        self,
        rng: random.Random,
        rules: dict[str, Any],
        wall: int | None,
        styles: dict[str, Style],
        rig: Rig,
    ) -> None:
        self.rng = rng
        self.rules = rules
        self.bonus = bool(rules.get("bonus_tiles"))
        self.wall = wall if wall is not None else (77 if self.bonus else 69)
        self.seats = {wind: Seat(wind, styles.get(wind, Style())) for wind in SEATS}
        self.events: list[dict[str, Any]] = []
        self.drawn_by_event: list[int] = []  # the ordinary draws taken, after each event
        self.positions: list[Position] = []
        self.discarded: list[tuple[str, int]] = []  # every discard, claimed or not
        self.table: list[int] = []  # the discards no one claimed
        self.labels: set[str] = set()
        self.drawn = 0  # ordinary draws taken
        self.replaced = 0  # replacement draws taken
        self.request: dict[str, Any] | None = None
        self._set_up(rig)

    # --- the deal and the wall ----------------------------------------------------------

    def _set_up(self, rig: Rig) -> None:
        """The rig's tiles put in place first, the rest shuffled: the deal, the ordinary
        draws (``wall`` of them), the 14 replacements, and any tiles beyond (a shorter wall)."""
        ordinary = [tile for tile in range(KINDS) for _ in range(4)]
        bonus = list(BONUS) if self.bonus else []
        placed = (*rig.deal.values(), *rig.draws.values(), rig.last, rig.replacements, rig.aside)
        for tiles in placed:
            for tile in tiles:
                (bonus if tile >= KINDS else ordinary).remove(tile)
        self.rng.shuffle(ordinary)
        self.dealt: dict[str, list[int]] = {}
        for wind in SEATS:
            seat = self.seats[wind]
            hand = list(rig.deal.get(wind, []))
            size = 14 if wind == "E" else 13
            hand += [ordinary.pop() for _ in range(size - len(hand))]
            self.dealt[wind] = hand
            for tile in hand:
                seat.held[tile] += 1
            seat.draws = list(rig.draws.get(wind, []))
            seat.discards = list(rig.discards.get(wind, []))
            for tile in rig.keep.get(wind, []):
                seat.keep[tile] += 1
        rest = ordinary + bonus + [tile for tiles in rig.draws.values() for tile in tiles]
        self.rng.shuffle(rest)
        free = self.wall - len(rig.last)
        spare = REPLACEMENTS - len(rig.replacements) - len(rig.aside)
        if free < 0 or spare < 0 or len(rest) < free + spare:
            raise ValueError("the rig leaves too few tiles for this wall")
        self.ordinary = rest[:free] + rig.last
        self.pile = rig.replacements + rest[free : free + spare] + rig.aside
        self.spare = rest[free + spare :]
        self.pinned = (len(rig.last), len(rig.replacements), len(rig.aside))

    def _free_places(self) -> Iterable[tuple[list[int], int]]:
        """The undrawn places of the wall no rig has pinned."""
        last, first_replacements, aside = self.pinned
        yield from ((self.ordinary, i) for i in range(self.drawn, self.wall - last))
        start = max(self.replaced, first_replacements)
        yield from ((self.pile, i) for i in range(start, REPLACEMENTS - aside))
        yield from ((self.spare, i) for i in range(len(self.spare)))

    def _take(self, seat: Seat, replacement: bool) -> int:
        """The next tile of the wall (a replacement from the other end), or the seat's rigged
        draw swapped into its place."""
        if replacement:
            pile, index = self.pile, self.replaced
            self.replaced += 1
            pinned = index < self.pinned[1] or index >= REPLACEMENTS - self.pinned[2]
        else:
            pile, index = self.ordinary, self.drawn
            self.drawn += 1
            pinned = index >= self.wall - self.pinned[0]
        if seat.draws and not pinned:
            wanted = seat.draws.pop(0)
            place = next(((p, i) for p, i in self._free_places() if p[i] == wanted), None)
            if place is not None:
                other, at = place
                pile[index], other[at] = other[at], pile[index]
        return pile[index]

    def wall_left(self) -> int:
        return self.wall - self.drawn

    def replacement_left(self) -> bool:
        """A kong may be declared: a replacement is left beyond those the bonus tiles still
        in the wall may need."""
        waiting = sum(1 for tile in self._undrawn() if tile >= KINDS)
        return REPLACEMENTS - self.replaced > waiting

    def _undrawn(self) -> list[int]:
        return self.ordinary[self.drawn :] + self.pile[self.replaced :] + self.spare

    # --- writing the record -------------------------------------------------------------

    def _emit(self, wind: str, action: str, value: Any) -> None:
        self.events.append({"seat": wind, action: value})
        self.drawn_by_event.append(self.drawn)

    def _draw(self, seat: Seat, replacement: bool, after_kong: bool = False) -> None:
        """A draw; a bonus tile is laid out at once (its event in place of the draw) and
        replaced."""
        while True:
            tile = self._take(seat, replacement)
            if tile < KINDS:
                break
            seat.bonus.append(tile)
            self._emit(seat.wind, *_bonus_event(tile))
            self.labels.add("bonus_tiles")
            replacement, after_kong = True, False
        seat.held[tile] += 1
        seat.drawn = tile
        seat.on_kong = after_kong
        self._emit(seat.wind, "draw", single(tile))

    # --- the play -------------------------------------------------------------------------

    def play(self) -> None:
        wind, start = "E", "deal"
        while True:
            seat = self.seats[wind]
            if start == "draw":
                if self.wall_left() == 0:
                    self.labels.add("washout")
                    return
                self._draw(seat, replacement=False)
            if start != "claim" and self._act(seat):
                return
            tile = self._discard(seat)
            claimed = self._claims(seat, tile)
            if self.request is not None:
                return
            if claimed is None:
                wind, start = after(wind), "draw"
            else:
                wind, start = claimed

    def _act(self, seat: Seat) -> bool:
        """The seat in turn, before its discard: wins on its draw, or kongs (each replaced)
        as long as it likes; True if the hand is won."""
        while True:
            if self._self_draw(seat):
                return True
            kong = self._kong_choice(seat) if self.wall_left() > 0 else None
            if kong is None:
                return False
            action, tile = kong
            if action == "added_kong" and self._robbed(seat, tile):
                return True
            self._declare(seat, action, tile)
            self._draw(seat, replacement=True, after_kong=True)

    def _kong_choice(self, seat: Seat) -> tuple[str, int] | None:
        if not self.replacement_left():
            return None
        style, held = seat.style, seat.held
        for tile in range(KINDS):
            if held[tile] == 4 and self.rng.random() < style.concealed_kong:
                return "concealed_kong", tile
        for meld in seat.melds:
            tile = meld.tiles[0]
            if meld.kind == "pung" and held[tile] and self.rng.random() < style.added_kong:
                return "added_kong", tile
        return None

    def _declare(self, seat: Seat, action: str, tile: int) -> None:
        if action == "concealed_kong":
            seat.held[tile] -= 4
            seat.melds.append(Meld("kong", (tile,) * 4, concealed=True))
            self._emit(seat.wind, action, compact((tile,) * 4))
        else:
            seat.held[tile] -= 1
            at = seat.melds.index(Meld("pung", (tile,) * 3))
            seat.melds[at] = Meld("kong", (tile,) * 4)
            self._emit(seat.wind, action, single(tile))
        self.labels.add(action)

    def _self_draw(self, seat: Seat) -> bool:
        if not wins(seat.held, len(seat.melds)) or self.rng.random() >= seat.style.self_draw:
            return False
        heaven = seat.drawn is None  # East on its 14 dealt tiles: no draw, no kong yet
        tile = seat.drawn if seat.drawn is not None else self.rng.choice(seat.tiles())
        win = {
            "by": "self_draw",
            "seat": seat.wind,
            "last_tile": self.wall_left() == 0,
            "kong_replacement": seat.on_kong,
            "robbing_kong": False,
            "first_turn": heaven,
        }
        return self._won(seat, tile, win)

    def _wins_on(self, seat: Seat, tile: int) -> bool:
        seat.held[tile] += 1
        found = wins(seat.held, len(seat.melds))
        seat.held[tile] -= 1
        return found

    def _robbed(self, owner: Seat, tile: int) -> bool:
        """Another seat may win on the tile being added to a pung: the kong is then not made."""
        robbers = [w for w in others(owner.wind) if self._wins_on(self.seats[w], tile)]
        for wind in robbers:
            robber = self.seats[wind]
            if self.rng.random() >= robber.style.win:
                continue
            self._emit(owner.wind, "added_kong", single(tile))
            owner.held[tile] -= 1
            robber.held[tile] += 1
            win = self._discard_win(owner.wind, robber.wind, robbing=True)
            if self._won(robber, tile, win, discards=[*self.discarded, (owner.wind, tile)]):
                return True
            robber.held[tile] -= 1
            owner.held[tile] += 1
            self.events.pop()
            self.drawn_by_event.pop()
        return False

    def _discard_win(self, discarder: str, winner: str, robbing: bool) -> dict[str, Any]:
        first = (
            discarder == "E"
            and len(self.discarded) == 1
            and not robbing
            and not self.seats["E"].melds
        )
        return {
            "by": "discard",
            "seat": winner,
            "discarder": discarder,
            "last_tile": self.wall_left() == 0,
            "kong_replacement": False,
            "robbing_kong": robbing,
            "first_turn": first,
        }

    def _won(
        self,
        seat: Seat,
        tile: int,
        win: dict[str, Any],
        discards: list[tuple[str, int]] | None = None,
    ) -> bool:
        """Takes the win if it stands: the score body from the books, the win event;
        ``discards``: those of the hand, for a win on one."""
        if discards is not None:
            win["go_around"] = go_around(discards, seat.wind)
        hand: dict[str, Any] = {
            "tiles": compact(seat.tiles()),
            "melds": [meld.body() for meld in seat.melds],
            "winning_tile": single(tile),
        }
        if self.bonus:
            hand["flowers"] = numbers(seat.bonus, KINDS)
            hand["seasons"] = numbers(seat.bonus, KINDS + 4)
        request = {"hand": hand, "win": win, "rules": self.rules}
        if not stands(request):
            return False
        self.request = request
        self._emit(seat.wind, "win", single(tile))
        self.labels.update(_win_labels(win))
        return True

    def _discard(self, seat: Seat) -> int:
        tile = self._choose_discard(seat)
        self.positions.append(self._position(seat))
        seat.held[tile] -= 1
        self._emit(seat.wind, "discard", single(tile))
        self.discarded.append((seat.wind, tile))
        self.table.append(tile)
        return tile

    def _choose_discard(self, seat: Seat) -> int:
        held = seat.held
        for tile in seat.discards:
            if held[tile]:
                seat.discards.remove(tile)
                return tile
        choices = [tile for tile in range(KINDS) if held[tile] > seat.keep[tile]]
        if not choices:
            choices = [tile for tile in range(KINDS) if held[tile]]
        worth = {tile: _worth(held, tile) for tile in choices}
        least = min(worth.values())
        return int(self.rng.choice([tile for tile in choices if worth[tile] == least]))

    def _position(self, seat: Seat) -> Position:
        visible = list(self.table)
        for wind in others(seat.wind):
            visible += [tile for meld in self.seats[wind].melds for tile in meld.tiles]
        return Position(
            event=len(self.events),
            seat=seat.wind,
            tiles=tuple(seat.tiles()),
            melds=tuple(seat.melds),
            bonus=tuple(seat.bonus),
            visible=tuple(visible),
            # The ordinary draws still coming to this seat if no one claims: every fourth.
            draws_left=self.wall_left() // 4,
        )

    # --- claims ------------------------------------------------------------------------

    def _claims(self, discarder: Seat, tile: int) -> tuple[str, str] | None:
        """Claims of the discard, win first; the seat that plays next and how it starts."""
        ready = [w for w in others(discarder.wind) if self._wins_on(self.seats[w], tile)]
        wanting = [w for w in ready if self.rng.random() < self.seats[w].style.win]
        if len(wanting) > 1:
            self.labels.add("contested")
        for wind in wanting:
            if self._claim_win(discarder, self.seats[wind], tile):
                return None
        if self.wall_left() == 0:  # the discard after the last tile: only a win
            return None
        return self._meld_claim(discarder, tile)

    def _claim_win(self, discarder: Seat, seat: Seat, tile: int) -> bool:
        seat.held[tile] += 1
        win = self._discard_win(discarder.wind, seat.wind, robbing=False)
        if self._won(seat, tile, win, discards=self.discarded):
            self.table.pop()
            return True
        seat.held[tile] -= 1
        return False

    def _meld_claim(self, discarder: Seat, tile: int) -> tuple[str, str] | None:
        for wind in others(discarder.wind):
            seat = self.seats[wind]
            kong = seat.held[tile] == 3 and self.replacement_left()
            if kong and self.rng.random() < seat.style.kong:
                self._claim(discarder, seat, "kong", (tile,) * 4)
                self._draw(seat, replacement=True, after_kong=True)
                return wind, "kong"
            if seat.held[tile] >= 2 and self.rng.random() < seat.style.pung:
                self._claim(discarder, seat, "pung", (tile,) * 3)
                return wind, "claim"
        seat = self.seats[after(discarder.wind)]
        sequences = chows(seat.held, tile)
        if sequences and self.rng.random() < seat.style.chow:
            self._claim(discarder, seat, "chow", self.rng.choice(sequences))
            return seat.wind, "claim"
        return None

    def _claim(self, discarder: Seat, seat: Seat, kind: str, tiles: tuple[int, ...]) -> None:
        """The last discard leaves the table for the claimer's meld, with the tiles it held."""
        self.table.pop()
        from_hand = list(tiles)
        from_hand.remove(self.discarded[-1][1])
        for tile in from_hand:
            seat.held[tile] -= 1
        seat.melds.append(Meld(kind, tiles))
        self._emit(seat.wind, kind, compact(tiles))
        self.labels.add(kind)
        if seat.wind != after(discarder.wind) and kind != "chow":
            self.labels.add("skipped_seat")

    # --- the end ----------------------------------------------------------------------

    def census(self) -> dict[str, list[int]]:
        where = {"stock": self._undrawn(), "table": list(self.table)}
        for wind, seat in self.seats.items():
            where[wind] = seat.tiles() + [t for meld in seat.melds for t in meld.tiles] + seat.bonus
        return where

    def view(self, wind: str) -> dict[str, Any]:
        """The record as ``wind`` sees it: the others' deals and draws hidden, a hidden winner
        showing its tiles with its win."""
        deal = {seat: (compact(self.dealt[seat]) if seat == wind else None) for seat in SEATS}
        events = []
        for event in self.events:
            shown = dict(event)
            if event["seat"] != wind:
                if "draw" in event:
                    shown["draw"] = None
                elif "win" in event and self.request is not None:
                    shown["tiles"] = self.request["hand"]["tiles"]
            events.append(shown)
        return {"deal": deal, "wall": self.wall, "events": events}

    def played(self) -> Played:
        if self.replaced == REPLACEMENTS:
            self.labels.add("replacements_spent")
        record = {
            "deal": {wind: compact(self.dealt[wind]) for wind in SEATS},
            "wall": self.wall,
            "events": self.events,
        }
        return Played(
            record=record,
            rules=self.rules,
            end="win" if self.request is not None else "washout",
            wall_left=self.wall_left(),
            request=self.request,
            views={wind: self.view(wind) for wind in SEATS},
            positions=self.positions,
            endings=frozenset(self.labels),
            census=self.census(),
            drawn=tuple(self.drawn_by_event),
        )


def chows(held: Sequence[int], tile: int) -> list[tuple[int, int, int]]:
    """The sequences the tile makes with two tiles held."""
    if tile >= 27:
        return []
    found = []
    for low in (tile - 2, tile - 1, tile):
        if low // 9 != tile // 9 or low % 9 > 6 or low < 0:
            continue
        chow = (low, low + 1, low + 2)
        if all(held[kind] for kind in chow if kind != tile):
            found.append(chow)
    return found


def _worth(held: Sequence[int], tile: int) -> int:
    """How much a tile does for the hand: copies held, and suited neighbours within two."""
    worth = 3 * (held[tile] - 1)
    if tile < 27:
        place = tile % 9
        for step, weight in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= place + step <= 8 and held[tile + step]:
                worth += weight
        worth += place not in (0, 8)
    return worth


def go_around(discards: Sequence[tuple[str, int]], winner: str) -> list[dict[str, str]]:
    """API.md "Score sheets": the winning discard and those before it, back to the winner's
    own last discard, never a seat twice, at most four, oldest first."""
    taken: list[tuple[str, int]] = []
    for wind, tile in reversed(discards):
        if len(taken) == 4 or any(wind == seen for seen, _ in taken):
            break
        taken.append((wind, tile))
        if wind == winner:
            break
    return [{"seat": wind, "tile": single(tile)} for wind, tile in reversed(taken)]


def _win_labels(win: dict[str, Any]) -> set[str]:
    self_draw = win["by"] == "self_draw"
    labels = {win["by"]}
    if win["robbing_kong"]:
        labels.add("robbing_kong")
    if win["kong_replacement"]:
        labels.add("kong_replacement")
    if win["last_tile"]:
        labels.add("final_draw" if self_draw else "final_discard")
    if win["first_turn"]:
        labels.add("heaven" if self_draw else "earth")
    go_around = win.get("go_around", [])
    if go_around and any(
        entry["seat"] == win["seat"] and entry["tile"] == go_around[-1]["tile"]
        for entry in go_around
    ):
        labels.add("paid_as_self_draw")
    return labels


def play(
    rng: random.Random,
    rules: dict[str, Any] | None = None,
    wall: int | None = None,
    styles: dict[str, Style] | None = None,
    rig: Rig | None = None,
) -> Played:
    """One hand played to its end."""
    table = Table(rng, dict(rules or {}), wall, styles or {}, rig or Rig())
    table.play()
    return table.played()


# --- hands on demand -----------------------------------------------------------------------


@dataclass
class Setup:
    """How a hand is played: the rules, the wall's size, the seats' styles, the rig."""

    rules: dict[str, Any] = field(default_factory=dict)
    wall: int | None = None
    styles: dict[str, Style] = field(default_factory=dict)
    rig: Rig = field(default_factory=Rig)


def _take_sets(rng: random.Random, count: int, used: list[int], avoid: int) -> list[int]:
    """``count`` random chows and pungs, none holding ``avoid``, within the copies left."""
    tiles: list[int] = []
    while len(tiles) < 3 * count:
        low = rng.randrange(KINDS)
        chow = low < 27 and low % 9 <= 6 and rng.random() < 0.6
        group = (low, low + 1, low + 2) if chow else (low, low, low)
        if avoid in group or any(used[t] + group.count(t) > 4 for t in group):
            continue
        for tile in group:
            used[tile] += 1
        tiles += group
    return tiles


def _take_pair(rng: random.Random, used: list[int], avoid: int) -> list[int]:
    tile = rng.choice([t for t in range(KINDS) if t != avoid and used[t] <= 2])
    used[tile] += 2
    return [tile, tile]


def _counts(tiles: Iterable[int]) -> list[int]:
    held = [0] * KINDS
    for tile in tiles:
        held[tile] += 1
    return held


def waits(tiles: Sequence[int], melds: int = 0) -> list[int]:
    """The tiles that complete these (13 less 3 per meld)."""
    held = _counts(tiles)
    found = []
    for tile in range(KINDS):
        if held[tile] < 4:
            held[tile] += 1
            if wins(held, melds):
                found.append(tile)
            held[tile] -= 1
    return found


def _winning(rng: random.Random, used: list[int]) -> list[int]:
    return _take_sets(rng, 4, used, -1) + _take_pair(rng, used, -1)


def _ready(rng: random.Random, wait: int, used: list[int]) -> list[int]:
    """13 concealed tiles waiting on ``wait`` alone (in the middle of a chow), holding none
    of it; ``used`` takes their copies."""
    while True:
        trial = list(used)
        trial[wait - 1] += 1
        trial[wait + 1] += 1
        if max(trial) > 4:
            raise ValueError("no room for the wait")
        tiles = [wait - 1, wait + 1, *_take_sets(rng, 3, trial, wait)]
        tiles += _take_pair(rng, trial, wait)
        if waits(tiles) == [wait]:
            used[:] = trial
            return tiles


def _middle(rng: random.Random) -> int:
    """A suited tile 2-8: a chow can wait on it from both sides."""
    return rng.randrange(3) * 9 + rng.randrange(1, 8)


def _only(wind: str, style: Style) -> dict[str, Style]:
    """``wind`` plays ``style``, the others make no claim, no kong and no win."""
    return {seat: style if seat == wind else QUIET for seat in SEATS}


def _heaven(rng: random.Random) -> Setup:
    return Setup(rig=Rig(deal={"E": _winning(rng, [0] * KINDS)}))


def _earth(rng: random.Random) -> Setup:
    wait = _middle(rng)
    used = [0] * KINDS
    used[wait] = 1
    south = _ready(rng, wait, used)
    return Setup(rig=Rig(deal={"E": [wait], "S": south}, discards={"E": [wait]}))


def _contested(rng: random.Random) -> Setup:
    """N and S both wait on the tile W discards: N, first in turn after W, takes it."""
    wait = _middle(rng)
    used = [0] * KINDS
    used[wait] = 4
    north, south = _ready(rng, wait, used), _ready(rng, wait, used)
    waiting = replace_style(QUIET, win=1)
    rig = Rig(
        deal={"W": [wait], "N": north, "S": south},
        discards={"W": [wait]},
        keep={"N": north, "S": south},
        aside=[wait] * 3,
    )
    return Setup(styles={"N": waiting, "S": waiting}, rig=rig)


def _robbing(rng: random.Random) -> Setup:
    """S pungs E's first discard and later draws the fourth copy; W, ready on it by then
    (its first draw for a spare honour), robs the kong."""
    robbed = _middle(rng)
    used = [0] * KINDS
    used[robbed] = 4
    west = _ready(rng, robbed, used)
    missing = rng.choice(west)
    spare = rng.choice([t for t in range(27, KINDS) if not used[t]])
    dealt = list(west)
    dealt.remove(missing)
    rig = Rig(
        deal={"E": [robbed], "S": [robbed, robbed], "W": [*dealt, spare]},
        draws={"S": [robbed], "W": [missing]},
        discards={"E": [robbed], "W": [spare]},
        keep={"S": [robbed, robbed], "W": west},
    )
    styles = {
        "S": replace_style(QUIET, pung=1, added_kong=1),
        "W": replace_style(QUIET, win=1),
    }
    return Setup(styles=styles, rig=rig)


def _kong_replacement(rng: random.Random) -> Setup:
    """S holds a concealed kong dealt; its draw and the kong's replacement complete it."""
    quad = rng.randrange(KINDS)
    used = [0] * KINDS
    used[quad] = 4
    rest = _take_sets(rng, 3, used, quad) + _take_pair(rng, used, quad)
    rng.shuffle(rest)
    first, replacement, dealt = rest[0], rest[1], rest[2:]
    rig = Rig(
        deal={"S": [quad] * 4 + dealt},
        draws={"S": [first, replacement]},
        keep={"S": [quad] * 4 + dealt},
    )
    return Setup(styles=_only("S", replace_style(QUIET, self_draw=1, concealed_kong=1)), rig=rig)


def _last_draw_wall(rng: random.Random) -> int:
    """A wall whose last tile S draws when no one claims (S draws first, every fourth)."""
    return rng.choice((21, 45, 69))


def _final_draw(rng: random.Random) -> Setup:
    wait = _middle(rng)
    used = [0] * KINDS
    used[wait] = 4
    south = _ready(rng, wait, used)
    rig = Rig(deal={"S": south}, keep={"S": south}, last=[wait], aside=[wait] * 3)
    styles = _only("S", replace_style(QUIET, self_draw=1))
    return Setup(wall=_last_draw_wall(rng), styles=styles, rig=rig)


def _final_discard(rng: random.Random) -> Setup:
    wait = _middle(rng)
    used = [0] * KINDS
    used[wait] = 4
    west = _ready(rng, wait, used)
    rig = Rig(
        deal={"W": west},
        keep={"W": west},
        discards={"S": [wait]},
        last=[wait],
        aside=[wait] * 3,
    )
    styles = _only("W", replace_style(QUIET, win=1))
    return Setup(wall=_last_draw_wall(rng), styles=styles, rig=rig)


def _replacements_spent(rng: random.Random) -> Setup:
    """All 14 replacements drawn: E and S kong three dealt quads each, the 8 bonus tiles
    coming first as replacements; W still holds a quad it may not kong."""
    quads = rng.sample(range(KINDS), 7)
    deal = {
        "E": [t for t in quads[:3] for _ in range(4)],
        "S": [t for t in quads[3:6] for _ in range(4)],
        "W": [quads[6]] * 4,
    }
    kongs = replace_style(QUIET, concealed_kong=1)
    rig = Rig(deal=deal, keep={"W": deal["W"]}, replacements=list(BONUS))
    styles = {"E": kongs, "S": kongs, "W": kongs}
    return Setup(rules={"bonus_tiles": True}, styles=styles, rig=rig)


def replace_style(style: Style, **chances: float) -> Style:
    return Style(**{**style.__dict__, **chances})


SCENARIOS: Final[dict[str, Callable[[random.Random], Setup]]] = {
    "self_draw": lambda rng: Setup(styles=dict.fromkeys(SEATS, Style(win=0))),
    "discard": lambda rng: Setup(styles=dict.fromkeys(SEATS, Style(self_draw=0))),
    "robbing_kong": _robbing,
    "kong_replacement": _kong_replacement,
    "final_draw": _final_draw,
    "final_discard": _final_discard,
    "heaven": _heaven,
    "earth": _earth,
    "washout": lambda rng: Setup(styles=dict.fromkeys(SEATS, Style(win=0, self_draw=0))),
    "skipped_seat": lambda rng: Setup(styles=dict.fromkeys(SEATS, Style(pung=1))),
    "bonus_tiles": lambda rng: Setup(rules={"bonus_tiles": True}),
    "contested": _contested,
    "replacements_spent": _replacements_spent,
}


def forced(ending: str, seed: int = 0, attempts: int = 50) -> Played:
    """A hand with ``ending`` (a name of ``SCENARIOS``): its scenario, played until it happens."""
    for attempt in range(attempts):
        rng = random.Random(f"{ending}/{seed}/{attempt}")
        setup = SCENARIOS[ending](rng)
        played = play(rng, setup.rules, setup.wall, setup.styles, setup.rig)
        if ending in played.endings:
            return played
    raise RuntimeError(f"no {ending} in {attempts} hands")


def _natural_style(rng: random.Random) -> Style:
    return Style(
        win=rng.choice((1.0, 1.0, 0.7)),
        pung=rng.uniform(0.3, 1),
        kong=rng.uniform(0.5, 1),
        chow=rng.uniform(0, 0.8),
        concealed_kong=rng.uniform(0.5, 1),
        added_kong=rng.uniform(0.5, 1),
    )


def _natural(rng: random.Random) -> Played:
    """A hand of simple players, with the mod, the minimum, another payoff or a shorter
    wall now and then."""
    rules: dict[str, Any] = {}
    if rng.random() < 0.25:
        rules["bonus_tiles"] = True
    if rng.random() < 0.1:
        rules["minimum"] = 5
    if rng.random() < 0.2:
        rules["payoff"] = rng.choice(("uniform", "discarder_pays_all", "discarder_pays_double"))
    wall = rng.randrange(4, 60) if rng.random() < 0.15 else None
    return play(rng, rules, wall, {wind: _natural_style(rng) for wind in SEATS})


def generate(n: int, seed: int = 0) -> list[Played]:
    """``n`` hands of natural play, the i-th from its own seed (any one can be made again)."""
    return [_natural(random.Random(seed * 1_000_003 + i)) for i in range(n)]


def corpus(n: int, seed: int = 0) -> list[Played]:
    """``n`` natural hands and one forced hand of each of ``ENDINGS``."""
    return generate(n, seed) + [forced(ending, seed) for ending in ENDINGS]
