"""A hand as played (API.md "Hand records", RULES.md §9): a record checked event by event
against the rules of play, and what it decides: how it ended, and for a win, the hand and the
win (every flag, the go-around) that ``scoring.score`` then scores as a score request.

``replay`` runs a record to its end. ``play`` runs the same checks and yields the ``Table``
before each event: what a review of the seats' decisions reads (``Table.position``: a seat's
tiles and melds, what it sees on the table and the ordinary draws still coming to it), without
a copy made for the events it does not ask about.

A record that breaks a rule raises ``InvalidRecord`` at the first event at fault
(``record.events[N]``, or ``record.deal.S`` for a deal), its message in the game's words.
Seats whose deal is ``None`` are hidden (a player's own view of a hand): their draws are
``None``, their tiles are counted, not known, until a win reveals them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..errors import InvalidRecord, ScoringError
from ..rules import tiles as t
from ..rules.hand import CHOW, KONG, PUNG, Hand, Meld, Rules, Win, declared_meld
from ..scoring import scoring

# Every action an event may take, in the order the contract lists them.
DRAW: Final = "draw"
DISCARD: Final = "discard"
CONCEALED_KONG: Final = "concealed_kong"
ADDED_KONG: Final = "added_kong"
FLOWER: Final = "flower"
SEASON: Final = "season"
WIN: Final = "win"
ACTIONS: Final = (DRAW, DISCARD, CHOW, PUNG, KONG, CONCEALED_KONG, ADDED_KONG, FLOWER, SEASON, WIN)

WALL: Final = 69  # ordinary draws after the deal (RULES.md §8): 136 - 53 dealt - 14 kept back
BONUS_WALL: Final = 77  # with the 8 bonus tiles (144 tiles)
REPLACEMENTS: Final = 14  # tiles kept back for replacement draws
DEALT: Final = (14, 13, 13, 13)  # East's 14, the others' 13

# How a hand ended: "open" is a record that stops before its end.
WON: Final = "win"
WASHOUT: Final = "washout"
OPEN: Final = "open"

# Where play stands, between two events.
_TURN: Final = 0  # the seat in turn holds its draw: it discards, declares a kong or wins
_DISCARDED: Final = 1  # a discard lies: the next seat draws, or a seat claims it
_REPLACE: Final = 2  # the seat in turn draws a replacement (after a kong or a bonus tile)
_ADDING: Final = 3  # the seat in turn adds to its pung: robbed, or its replacement draw

# What the seat in turn last drew: nothing this turn (a claim, East's deal), from the wall,
# or a replacement after its kong or after a bonus tile.
_NOTHING: Final = 0
_FROM_WALL: Final = 1
_AFTER_KONG: Final = 2
_AFTER_BONUS: Final = 3


class Event:
    """One event of a record: a seat and the actions ``given`` (exactly one is legal, which
    ``play`` checks), with the action's ``tiles`` (a draw's, discard's, meld's or win's;
    ``None`` for a hidden seat's draw) or ``number`` (a flower's or season's, 1-4), and the
    ``revealed`` tiles of a hidden winner (as a score request's ``hand.tiles``)."""

    __slots__ = ("given", "number", "revealed", "seat", "tiles")

    def __init__(
        self,
        seat: str,
        given: tuple[str, ...],
        tiles: tuple[int, ...] | None = None,
        number: int = 0,
        revealed: tuple[int, ...] | None = None,
    ) -> None:
        self.seat: Final = seat
        self.given: Final = given
        self.tiles: Final = tiles
        self.number: Final = number
        self.revealed: Final = revealed

    def __repr__(self) -> str:
        return f"Event({self.seat!r}, {self.given!r}, {self.tiles!r}, {self.number})"


class Record:
    """A hand as played: each seat's ``deal`` in E S W N order (``None``: hidden), the ``wall``
    of ordinary draws (``None``: the default of the rules, ``WALL`` or ``BONUS_WALL``) and the
    events in order."""

    __slots__ = ("deal", "events", "wall")

    def __init__(
        self,
        deal: tuple[tuple[int, ...] | None, ...],
        events: tuple[Event, ...],
        wall: int | None = None,
    ) -> None:
        self.deal: Final = deal
        self.events: Final = events
        self.wall: Final = wall


class Won:
    """A record's win: the event it is (its index), and the hand and win it amounts to, as a
    score request gives them."""

    __slots__ = ("event", "hand", "win")

    def __init__(self, event: int, hand: Hand, win: Win) -> None:
        self.event: Final = event
        self.hand: Final = hand
        self.win: Final = win


class Replayed:
    """A record run to its end: ``end`` (``WON``, ``WASHOUT``, ``OPEN``), the ordinary draws
    left in the wall, the number of events, and the win (None unless ``end`` is ``WON``)."""

    __slots__ = ("end", "events", "wall_left", "won")

    def __init__(self, end: str, events: int, wall_left: int, won: Won | None) -> None:
        self.end: Final = end
        self.events: Final = events
        self.wall_left: Final = wall_left
        self.won: Final = won


class Position:
    """What one seat has and sees at a moment of play (a review's question, RULES.md §9):
    its concealed ``tiles`` (``None`` if hidden) and ``melds``, the tiles it can see elsewhere
    (``visible``: the discards no one claimed, the others' melds, concealed kongs included),
    and the ordinary draws still coming to it if no one claims (``draws_left``)."""

    __slots__ = ("draws_left", "melds", "seat", "tiles", "visible")

    def __init__(
        self,
        seat: str,
        tiles: tuple[int, ...] | None,
        melds: tuple[Meld, ...],
        visible: tuple[int, ...],
        draws_left: int,
    ) -> None:
        self.seat: Final = seat
        self.tiles: Final = tiles
        self.melds: Final = melds
        self.visible: Final = visible
        self.draws_left: Final = draws_left


def replay(record: Record, bonus_tiles: bool = False) -> Replayed:
    """The record checked to its last event, and how it ended; ``bonus_tiles``: the rules'
    mod (flowers and seasons may be laid out, and the wall is ``BONUS_WALL`` by default).
    Raises ``InvalidRecord`` at the first fault."""
    table = Table(record, bonus_tiles)
    for index, event in enumerate(record.events):
        table.apply(index, event)
    return table.ended()


def scored(won: Won, rules: Rules) -> scoring.Score:
    """A record's win scored as the score request it amounts to; a win that does not stand
    (``not_a_winning_hand``, ``below_minimum``, ...) is the win event's fault."""
    try:
        return scoring.score(won.hand, won.win, rules)
    except ScoringError as error:
        raise error.moved(f"record.events[{won.event}]", f"{won.win.seat}'s win") from None


def play(record: Record, bonus_tiles: bool = False) -> Iterator[tuple[int, Event, Table]]:
    """Each event with its index and the table as it stands before it (the same ``Table``,
    changed as play goes on: read it, or take a ``position``, before the next step). Raises
    ``InvalidRecord`` as ``replay`` does, when it reaches the event at fault; after the last
    event, ``Table.ended`` says how the hand ended."""
    table = Table(record, bonus_tiles)
    for index, event in enumerate(record.events):
        yield index, event, table
        table.apply(index, event)


def _next(seat: int) -> int:
    return (seat + 1) % 4


class Table:
    """The hand in play: each seat's concealed tiles (counts by tile, or ``None`` when hidden,
    with their number in ``sizes``), melds and bonus tiles, the discards, the wall, and whose
    turn it is. ``apply`` plays one event, checked."""

    def __init__(self, record: Record, bonus_tiles: bool) -> None:
        self.bonus_tiles: Final = bonus_tiles
        self.wall: Final = (
            record.wall if record.wall is not None else BONUS_WALL if bonus_tiles else WALL
        )
        self.wall_left = self.wall
        self.replacements = 0  # replacement draws taken
        self.hands: list[list[int] | None] = []
        self.sizes: list[int] = []
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.flowers: list[list[int]] = [[], [], [], []]
        self.seasons: list[list[int]] = [[], [], [], []]
        self.laid: set[int] = set()  # bonus tiles laid out: flowers 1-4, seasons 5-8
        self.seen = [0] * t.KINDS  # copies of each tile the record has shown somewhere
        # Every discard in order: (seat, tile, claimed).
        self.discards: list[tuple[int, int, bool]] = []
        self.claims = 0  # claims made (pung, chow, kong of a discard)
        self.phase = _TURN
        self.turn = 0  # East holds 14 and plays first
        self.drew = _NOTHING
        self.drawn = -1  # the tile the seat in turn last drew (-1: none, or hidden)
        self.claimed = False  # the seat in turn claimed a pung or chow: it discards at once
        self.adding = -1  # the tile of the kong being added (``_ADDING``)
        self.won: Won | None = None
        self.played = 0  # events played
        self.last_tile_at = ""  # the path of the event that drew the wall's last tile
        for seat in range(4):
            dealt = record.deal[seat]
            path = f"record.deal.{t.SEATS[seat]}"
            if dealt is None:
                self.hands.append(None)
                self.sizes.append(DEALT[seat])
                continue
            if len(dealt) != DEALT[seat]:
                raise InvalidRecord.at(
                    path,
                    f"{t.SEATS[seat]} is dealt {DEALT[seat]} tiles (East 14, the others 13):"
                    f" {len(dealt)} given",
                )
            self.hands.append(t.counts(dealt))
            self.sizes.append(len(dealt))
            for tile in dealt:
                self._show(tile, path)

    # What a review reads

    def position(self, seat: str) -> Position:
        """What ``seat`` has and sees now (``Position``)."""
        at = t.SEATS.index(seat)
        held = self.hands[at]
        tiles = None if held is None else tuple(_listed(held))
        visible = [tile for _, tile, claimed in self.discards if not claimed]
        for other in range(4):
            if other != at:
                for meld in self.melds[other]:
                    visible.extend(meld.tiles)
        return Position(
            seat, tiles, tuple(self.melds[at]), tuple(sorted(visible)), self.draws_left(at)
        )

    def draws_left(self, seat: int) -> int:
        """The ordinary draws still coming to ``seat`` if no one claims: the wall's, in turn
        from the seat after the one in turn (or from the seat to draw, a discard lying)."""
        first = _next(self.turn) if self.phase != _DISCARDED else _next(self._discarder())
        offset = (seat - first) % 4
        return max(0, (self.wall_left - offset + 3) // 4)

    def ended(self) -> Replayed:
        """How the record ends as far as it has been played."""
        if self.won is not None:
            return Replayed(WON, self.played, self.wall_left, self.won)
        end = WASHOUT if self.phase == _DISCARDED and self.wall_left == 0 else OPEN
        return Replayed(end, self.played, self.wall_left, None)

    # Playing an event

    def apply(self, index: int, event: Event) -> None:
        """Plays ``event`` (the record's ``index``-th), or raises ``InvalidRecord`` there."""
        path = f"record.events[{index}]"
        seat = t.SEATS.index(event.seat)
        if len(event.given) != 1:
            given = " and ".join(event.given) if event.given else "none"
            raise InvalidRecord.at(
                path, f"an event is a seat and exactly one action ({', '.join(ACTIONS)}): {given}"
            )
        action = event.given[0]
        if event.revealed is not None and action != WIN:
            raise InvalidRecord.at(path, "tiles are revealed with a win only")
        if self.won is not None:
            raise InvalidRecord.at(
                path,
                f"an event after the end: the hand ended with {self.won.win.seat}'s win at"
                f" record.events[{self.won.event}]",
            )
        if action == DRAW:
            self._draw(path, seat, event.tiles)
        elif action == DISCARD:
            self._discard(path, seat, _tile(event))
        elif action in (CHOW, PUNG, KONG):
            self._claim(path, seat, action, _sorted(event))
        elif action == CONCEALED_KONG:
            self._concealed_kong(path, seat, _sorted(event))
        elif action == ADDED_KONG:
            self._added_kong(path, seat, _tile(event))
        elif action in (FLOWER, SEASON):
            self._bonus(path, seat, action, event.number)
        else:
            self._win(path, index, seat, _tile(event), event.revealed)
        self.played = index + 1

    def _draw(self, path: str, seat: int, drawn: tuple[int, ...] | None) -> None:
        name = t.SEATS[seat]
        replacing = self.phase != _DISCARDED
        self._drawing(path, seat, DRAW)
        held = self.hands[seat]
        if held is None:
            if drawn is not None:
                raise InvalidRecord.at(
                    path,
                    f"{name}'s tiles are hidden (record.deal.{name} is null): its draws are null",
                )
            self.drawn = -1
        else:
            if drawn is None:
                raise InvalidRecord.at(
                    path, f"{name}'s tiles are known (record.deal.{name}): its draw is a tile"
                )
            tile = drawn[0]
            self._show(tile, path)
            held[tile] += 1
            self.drawn = tile
        self.sizes[seat] += 1
        if not replacing:
            self.drew = _FROM_WALL
        elif self.drew != _AFTER_BONUS:
            self.drew = _AFTER_KONG
        self.phase = _TURN

    def _drawing(self, path: str, seat: int, action: str) -> None:
        """``seat`` draws (a tile, or a bonus tile in its place): the next seat from the wall
        after a discard, or the seat in turn a replacement after its kong or bonus tile."""
        if self.phase == _DISCARDED and seat == _next(self._discarder()):
            if self.wall_left == 0:
                raise InvalidRecord.at(path, f"a draw past the wall: {self._spent()}")
            self.wall_left -= 1
            if self.wall_left == 0:
                self.last_tile_at = path
        elif (self.phase == _REPLACE or self.phase == _ADDING) and seat == self.turn:
            self.replacements += 1
        else:
            self._out_of_turn(path, seat, action)
        self.turn = seat
        self.claimed = False

    def _discard(self, path: str, seat: int, tile: int) -> None:
        if self.phase != _TURN or seat != self.turn:
            self._out_of_turn(path, seat, DISCARD)
        self._take(path, seat, (tile,), f"{t.SEATS[seat]} discards {t.repeated(tile)}")
        self.discards.append((seat, tile, False))
        self.phase = _DISCARDED
        self.drawn = -1

    def _claim(self, path: str, seat: int, kind: str, tiles: tuple[int, ...]) -> None:
        name = t.SEATS[seat]
        meld = declared_meld(kind, tiles, False)
        if not isinstance(meld, Meld):
            raise InvalidRecord.at(path, f"{t.compact(tiles)} is not a {kind}")
        self._claimable(path, seat, kind, meld)
        discarder, tile, _ = self.discards[-1]
        if kind == CHOW and seat != _next(discarder):
            raise InvalidRecord.at(
                path,
                f"{name} cannot chow the {t.repeated(tile)} discarded by {t.SEATS[discarder]}:"
                f" only {t.SEATS[_next(discarder)]}, the next seat, may chow",
            )
        if self.wall_left == 0:
            raise InvalidRecord.at(
                path,
                f"{name} cannot {kind} the {t.repeated(tile)}: the discard after the wall's"
                " last tile may be claimed only to win",
            )
        if kind == KONG:
            self._replacement_left(path, name)
        rest = list(meld.tiles)
        rest.remove(tile)
        self._take(path, seat, tuple(rest), f"{name} makes a {kind} {meld.text}")
        self.discards[-1] = (discarder, tile, True)
        self.claims += 1
        self.melds[seat].append(meld)
        self.turn = seat
        self.drawn = -1
        self.drew = _NOTHING
        if kind == KONG:
            self.phase = _REPLACE
        else:
            self.phase = _TURN
            self.claimed = True

    def _claimable(self, path: str, seat: int, kind: str, meld: Meld) -> None:
        """The last discard lies, is another seat's, and is in ``meld``; else what is wrong."""
        name = t.SEATS[seat]
        if not self.discards:
            raise InvalidRecord.at(path, f"{name} cannot {kind} {meld.text}: no tile discarded yet")
        discarder, tile, claimed = self.discards[-1]
        last = f"the last discard, {t.repeated(tile)} by {t.SEATS[discarder]},"
        if self.phase != _DISCARDED:
            if claimed:
                raise InvalidRecord.at(
                    path, f"{name} cannot {kind} {meld.text}: {last} was claimed already"
                )
            if self.phase == _TURN and self.turn != discarder:
                raise InvalidRecord.at(
                    path,
                    f"{name} cannot {kind} {meld.text}: {last} was passed when"
                    f" {t.SEATS[self.turn]} drew",
                )
            self._out_of_turn(path, seat, kind)
        if seat == discarder:
            raise InvalidRecord.at(path, f"{name} cannot claim its own discard")
        if tile not in meld.tiles:
            raise InvalidRecord.at(
                path, f"{name} cannot {kind} {meld.text}: {last[:-1]}, is not in it"
            )

    def _concealed_kong(self, path: str, seat: int, tiles: tuple[int, ...]) -> None:
        name = t.SEATS[seat]
        meld = declared_meld(KONG, tiles, True)
        if not isinstance(meld, Meld):
            raise InvalidRecord.at(path, f"{t.compact(tiles)} is not a kong: 4 identical tiles")
        self._declaring(path, seat, CONCEALED_KONG)
        self._no_kong_after_wall(path, name)
        self._replacement_left(path, name)
        self._take(path, seat, meld.tiles, f"{name} declares a concealed kong {meld.text}")
        self.melds[seat].append(meld)
        self.phase = _REPLACE
        self.drew = _NOTHING

    def _added_kong(self, path: str, seat: int, tile: int) -> None:
        name = t.SEATS[seat]
        self._declaring(path, seat, ADDED_KONG)
        melds = self.melds[seat]
        at = next((i for i, m in enumerate(melds) if m.kind == PUNG and m.tile == tile), -1)
        if at < 0:
            raise InvalidRecord.at(
                path, f"{name} has no exposed pung of {t.repeated(tile)} to add a tile to"
            )
        self._no_kong_after_wall(path, name)
        self._replacement_left(path, name)
        self._take(path, seat, (tile,), f"{name} adds {t.repeated(tile)} to its pung")
        kong = declared_meld(KONG, (tile,) * 4, False)
        assert isinstance(kong, Meld)
        melds[at] = kong
        self.phase = _ADDING
        self.adding = tile
        self.drew = _NOTHING

    def _bonus(self, path: str, seat: int, kind: str, number: int) -> None:
        """A bonus tile drawn, in place of the draw it was (from the wall, or a replacement),
        and laid out: a replacement draw follows. Or one dealt, laid out by the seat in turn
        before its first discard: its replacement is among the tiles dealt."""
        name = t.SEATS[seat]
        if not self.bonus_tiles:
            raise InvalidRecord.at(
                path, f"a {kind} is laid out only with the bonus-tile mod (rules.bonus_tiles)"
            )
        code = number if kind == FLOWER else number + 4
        if code in self.laid:
            raise InvalidRecord.at(path, f"a second {kind} {number}: there is one of each")
        dealt = self.phase == _TURN and seat == self.turn
        if dealt:
            self._declaring(path, seat, kind)
            if self.melds[seat] or any(other == seat for other, _, _ in self.discards):
                raise InvalidRecord.at(
                    path,
                    f"{name} lays out a {kind} it did not just draw: a bonus tile is laid out"
                    " in place of the draw that drew it, or, dealt, before its seat's first"
                    " discard",
                )
            self._replacement_left(path, name)
            self.replacements += 1
        else:
            self._drawing(path, seat, kind)
            self._replacement_left(path, name)
            self.phase = _REPLACE
            self.drew = _AFTER_BONUS
        self.laid.add(code)
        (self.flowers if kind == FLOWER else self.seasons)[seat].append(number)

    def _win(
        self, path: str, index: int, seat: int, tile: int, revealed: tuple[int, ...] | None
    ) -> None:
        name = t.SEATS[seat]
        if self.phase == _TURN and seat == self.turn:
            if self.claimed:
                raise InvalidRecord.at(
                    path,
                    f"{name} has just claimed a meld: it discards (a win on that discard is"
                    " a win event in place of the claim)",
                )
            if self.drawn >= 0 and tile != self.drawn:
                raise InvalidRecord.at(
                    path,
                    f"{name} wins on {t.repeated(tile)}, but its last draw was"
                    f" {t.repeated(self.drawn)}",
                )
            held = self._revealed(path, seat, revealed, tile, False)
            first_turn = seat == 0 and not self.discards and not self.melds[0]
            win = Win(
                "self_draw",
                name,
                last_tile=self.wall_left == 0,
                kong_replacement=self.drew == _AFTER_KONG,
                first_turn=first_turn,
            )
        elif self.phase == _DISCARDED or self.phase == _ADDING:
            robbing = self.phase == _ADDING
            discarder = self.turn if robbing else self._discarder()
            won_on = self.adding if robbing else self.discards[-1][1]
            if seat == discarder:
                raise InvalidRecord.at(
                    path,
                    f"{name} cannot win on its own {'kong' if robbing else 'discard'}",
                )
            if tile != won_on:
                raise InvalidRecord.at(
                    path,
                    f"{name} wins on {t.repeated(tile)}, but the tile"
                    f" {'added to a pung' if robbing else 'discarded'} is {t.repeated(won_on)}",
                )
            if robbing:  # the kong is not made: the pung stays, the tile goes to the winner
                melds = self.melds[discarder]
                at = next(i for i, m in enumerate(melds) if m.kind == KONG and m.tile == tile)
                pung = declared_meld(PUNG, (tile,) * 3, False)
                assert isinstance(pung, Meld)
                melds[at] = pung
            held = self._revealed(path, seat, revealed, tile, True)
            first_turn = (
                seat != 0
                and discarder == 0
                and len(self.discards) == 1
                and self.claims == 0
                and not robbing
            )
            win = Win(
                "discard",
                name,
                t.SEATS[discarder],
                last_tile=self.wall_left == 0,
                robbing_kong=robbing,
                first_turn=first_turn,
                go_around=self._go_around(seat, discarder, tile, robbing),
            )
        else:
            self._out_of_turn(path, seat, WIN)
        hand = Hand(
            held,
            tuple(self.melds[seat]),
            tile,
            tuple(self.flowers[seat]),
            tuple(self.seasons[seat]),
        )
        self.won = Won(index, hand, win)

    def _revealed(
        self, path: str, seat: int, revealed: tuple[int, ...] | None, tile: int, claimed: bool
    ) -> tuple[int, ...]:
        """The winner's concealed tiles, the winning ``tile`` among them (``claimed``: a
        discard or a robbed tile, not held yet), known or revealed by the win event."""
        name = t.SEATS[seat]
        held = self.hands[seat]
        size = self.sizes[seat] + claimed
        if held is None:
            if revealed is None:
                raise InvalidRecord.at(
                    path,
                    f"{name}'s tiles are hidden: its win reveals them, as"
                    f' {{"seat": "{name}", "win": "...", "tiles": "..."}}',
                )
            if len(revealed) != size:
                raise InvalidRecord.at(
                    path,
                    f"{name} holds {size} tiles, the winning tile included: {len(revealed)}"
                    " revealed",
                )
            if claimed:  # shown already, as the discard or the tile added: shown again below
                self.seen[tile] -= 1
            for shown in revealed:
                self._show(shown, path)
            tiles = tuple(sorted(revealed))
        else:
            counts = held.copy()
            if claimed:
                counts[tile] += 1
            tiles = tuple(_listed(counts))
            if revealed is not None and tuple(sorted(revealed)) != tiles:
                raise InvalidRecord.at(
                    path, f"{name} reveals {t.compact(revealed)} but holds {t.compact(tiles)}"
                )
        if tile not in tiles:
            raise InvalidRecord.at(
                path, f"{name}'s tiles do not include the {t.repeated(tile)} it wins on"
            )
        return tiles

    def _go_around(
        self, winner: int, discarder: int, tile: int, robbing: bool
    ) -> tuple[tuple[str, int], ...]:
        """The winning discard (a robbed tile counts as one) and the discards before it, back
        to the winner's own last discard, stopping before a seat would come twice; oldest
        first (API.md "Score sheets")."""
        found = [(discarder, tile)] if robbing else []
        for seat, discarded, _ in reversed(self.discards):
            if any(seat == other for other, _ in found):
                break
            found.append((seat, discarded))
            if seat == winner:
                break
        return tuple((t.SEATS[seat], discarded) for seat, discarded in reversed(found))

    # The checks shared by the actions

    def _declaring(self, path: str, seat: int, action: str) -> None:
        """A kong or a bonus tile is declared by the seat in turn, before it discards, and
        not right after claiming a pung or chow."""
        if self.phase != _TURN or seat != self.turn:
            self._out_of_turn(path, seat, action)
        if self.claimed:
            raise InvalidRecord.at(
                path, f"{t.SEATS[seat]} has just claimed a meld: it discards at once"
            )

    def _no_kong_after_wall(self, path: str, name: str) -> None:
        if self.wall_left == 0:
            raise InvalidRecord.at(
                path, f"{name} cannot make a kong: the wall's last tile has been drawn"
            )

    def _replacement_left(self, path: str, name: str) -> None:
        if self.replacements >= REPLACEMENTS:
            raise InvalidRecord.at(
                path,
                f"{name} cannot take a replacement tile: all {REPLACEMENTS} have been drawn",
            )

    def _take(self, path: str, seat: int, tiles: tuple[int, ...], doing: str) -> None:
        """``tiles`` leave ``seat``'s concealed tiles (``doing``: what for, in a fault)."""
        held = self.hands[seat]
        name = t.SEATS[seat]
        if held is None:
            if self.sizes[seat] < len(tiles):
                raise InvalidRecord.at(path, f"{doing}, but holds {self.sizes[seat]} tiles")
            for tile in tiles:
                self._show(tile, path)
        else:
            for tile in set(tiles):
                if held[tile] < tiles.count(tile):
                    raise InvalidRecord.at(
                        path,
                        f"{doing}, which {name} does not hold"
                        if len(tiles) == 1
                        else f"{doing} with {t.repeated(tile, tiles.count(tile))}, which"
                        f" {name} does not hold",
                    )
            for tile in tiles:
                held[tile] -= 1
        self.sizes[seat] -= len(tiles)

    def _show(self, tile: int, path: str) -> None:
        """One more copy of ``tile`` shown by the record: never a fifth."""
        if self.seen[tile] == 4:
            raise InvalidRecord.at(path, f"a fifth {t.repeated(tile)}")
        self.seen[tile] += 1

    def _spent(self) -> str:
        """How the wall came to be spent."""
        if self.last_tile_at:
            return f"its last tile was drawn at {self.last_tile_at}"
        return "it has no draws (record.wall is 0)"

    def _discarder(self) -> int:
        return self.discards[-1][0]

    def _out_of_turn(self, path: str, seat: int, action: str) -> None:
        """Raises the fault of ``seat`` acting when another was to (or no one may)."""
        name = t.SEATS[seat]
        if self.phase == _DISCARDED:
            discarder, tile, _ = self.discards[-1]
            if self.wall_left == 0:
                expected = (
                    f"the wall is spent ({self._spent()}): {t.SEATS[discarder]}'s"
                    f" {t.repeated(tile)} may be claimed only to win"
                )
            else:
                expected = f"{t.SEATS[_next(discarder)]} was to draw"
        elif self.phase == _TURN:
            expected = f"{t.SEATS[self.turn]} was to discard"
            if seat == self.turn:
                expected = (
                    f"{name} has drawn already and was to discard"
                    if action == DRAW
                    else f"{name} was to discard"
                )
        elif self.phase == _REPLACE:
            expected = f"{t.SEATS[self.turn]} was to draw a replacement tile"
        else:
            expected = (
                f"{t.SEATS[self.turn]} adds to its pung: its replacement draw, or a win robbing"
                " the kong, comes next"
            )
        raise InvalidRecord.at(path, f"{name} acts out of turn: {expected}")


def _tile(event: Event) -> int:
    tiles = event.tiles
    assert tiles is not None and len(tiles) == 1  # the schema's single tile
    return tiles[0]


def _sorted(event: Event) -> tuple[int, ...]:
    tiles = event.tiles
    assert tiles is not None
    return tuple(sorted(tiles))


def _listed(counts: list[int]) -> list[int]:
    """The tiles ``counts`` holds, in order."""
    listed = []
    for tile in range(t.KINDS):
        for _ in range(counts[tile]):
            listed.append(tile)
    return listed
