"""Tiles: the 34 kinds, the compact "mpsz" notation and Unicode glyphs.

A tile kind is an ``int`` from 0 to 33: 0-8 characters (1m-9m), 9-17 circles (1p-9p),
18-26 bamboo (1s-9s), 27-33 honours (East, South, West, North, White, Green, Red).
Plain ints keep the hot scoring path cheap: counts are lists indexed by kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final, NoReturn

from mypy_extensions import i64

from ..memo import SUIT_SLOTS, SlotMemo

SUITS: Final = "mpsz"
KINDS: Final = 34
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (WHITE, GREEN, RED)
SEATS: Final = "ESWN"
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
ORPHANS: Final = (*TERMINALS, *WINDS, *DRAGONS)

HONOUR_NAMES: Final = ("East", "South", "West", "North", "White", "Green", "Red")
SUIT_NAMES: Final = ("Characters", "Circles", "Bamboo")

# The U+1F000 block runs winds, then Red, Green, White, then characters, bamboo, circles:
# neither its suit order nor its dragon order is mpsz's.
_GLYPH_OFFSET = (
    *range(0x07, 0x10),  # 1m-9m
    *range(0x19, 0x22),  # 1p-9p
    *range(0x10, 0x19),  # 1s-9s
    0x00, 0x01, 0x02, 0x03,  # East South West North
    0x06, 0x05, 0x04,  # White Green Red
)  # fmt: skip
GLYPHS: Final = tuple(chr(0x1F000 + offset) for offset in _GLYPH_OFFSET)
# Read back: the tile of each glyph of the block that is one (U+1F000 to U+1F021), by offset.
_GLYPH_TILES: Final = tuple(_GLYPH_OFFSET.index(offset) for offset in range(KINDS))
FIRST_GLYPH: Final = 0x1F000
LAST_GLYPH: Final = FIRST_GLYPH + KINDS - 1
# The block's flowers and seasons follow its tiles. They are numbered as on the tiles
# (plum 1, orchid 2, chrysanthemum 3, bamboo 4), which is not the block's order either.
_BONUS_GLYPHS: Final = {
    0x1F022: ("flowers", 1, "plum"),
    0x1F023: ("flowers", 2, "orchid"),
    0x1F024: ("flowers", 4, "bamboo"),
    0x1F025: ("flowers", 3, "chrysanthemum"),
    0x1F026: ("seasons", 1, "spring"),
    0x1F027: ("seasons", 2, "summer"),
    0x1F028: ("seasons", 3, "autumn"),
    0x1F029: ("seasons", 4, "winter"),
}

_GROUP: Final = re.compile(r"([0-9]+)([mpsz])|[\U0001F000-\U0001F021]")
# Tiles with an uppercase suit letter that would be tiles in lowercase.
_UPPERCASE: Final = re.compile(r"[1-9]+[MPS]|[1-7]+Z")


class TileError(ValueError):
    """Malformed tile notation; the message says what is wrong and how to write it."""


def suit(tile: int) -> int:
    """0 characters, 1 circles, 2 bamboo, 3 honours."""
    return tile // 9


def number(tile: int) -> int:
    """The face number: 1-9 for suited tiles, 1-7 for honours (as in mpsz)."""
    return tile % 9 + 1


def is_honour(tile: int) -> bool:
    return tile >= EAST


def seat_wind(seat: str) -> int:
    """A seat's own wind: compared with each seat's letter, which costs less than a dict
    look-up or a search."""
    if seat == "E":
        return EAST
    if seat == "S":
        return SOUTH
    if seat == "W":
        return WEST
    if seat == "N":
        return NORTH
    raise ValueError(f"{seat!r} is not a seat: one of {', '.join(SEATS)}")


def name(tile: int) -> str:
    """A readable name: ``3m``'s is "3 Characters", ``7z``'s "Red"."""
    if is_honour(tile):
        return HONOUR_NAMES[tile - EAST]
    return f"{number(tile)} {SUIT_NAMES[suit(tile)]}"


def parse(notation: str | Sequence[object]) -> list[int]:
    """Tiles from compact notation ("123m 55z"), glyphs ("🀇🀈🀉") or both ("123m🀙🀙"), in
    order (tiles held have none), or from a list of single tiles (["1m", "🀄"]), as listed.

    The list is typed ``object``: it comes straight from JSON and every item is checked.
    """
    if isinstance(notation, str):
        return list(_read_compact(notation).tiles())
    tiles = []
    for index, item in enumerate(notation):
        tile = -1
        if isinstance(item, str):
            if len(item) == 2:
                tile = written_tile(item)
            elif len(item) == 1 and FIRST_GLYPH <= ord(item) <= LAST_GLYPH:
                tile = _GLYPH_TILES[ord(item) - FIRST_GLYPH]
        if tile < 0:
            raise TileError(f"item {index} ({_shown(item)}) is not a single tile: {_how(item)}")
        tiles.append(tile)
    return tiles


def written_tile(text: str) -> int:
    """The tile a digit and a suit letter write ("4m"), or -1 (``text`` has two characters)."""
    face = ord(text[0]) - 49  # 1-9 as 0-8
    base = _suit_base(ord(text[1]))
    return base + face if base >= 0 and 0 <= face <= (6 if base == EAST else 8) else -1


def _how(item: object) -> str:
    """How to write a list item that is no tile."""
    if isinstance(item, str):
        if len(item) == 1 and ord(item) in _BONUS_GLYPHS:
            return _bonus_tile(ord(item))
        if _UPPERCASE.fullmatch(item):
            return f"suit letters are lowercase: write {item.lower()!r}"
    return "write a digit then a suit letter, 1-9 with m, p or s, 1-7 with z, or its glyph"


def _bonus_tile(code: int) -> str:
    """Where a flower or season glyph goes instead of the tiles."""
    field, number, name = _BONUS_GLYPHS[code]
    return (
        f"{field[:-1]} {number} ({name}) is a bonus tile: list its number in hand.{field},"
        f" e.g. [{number}], with rules.bonus_tiles true"
    )


def _shown(value: object) -> str:
    """A value in a message, cut short: a message never grows with the input."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 16 else repr(value[:16]) + "…"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def read_held(notation: str | Sequence[object]) -> Held:
    """Tiles held, counted (``Held``), from what ``parse`` reads: compact notation is counted
    as it is read, with no list of tiles made."""
    if isinstance(notation, str):
        return _read_compact(notation)
    return held(tuple(parse(notation)))


def _read_compact(text: str, given: str | None = None) -> Held:
    """One pass over the characters, from the last: read backwards, a group's suit letter
    comes before its digits, so each digit's tile is known as it is read, and counted into
    its suit's key. A glyph is a tile on its own, where a group may start: at the first one,
    the text is read again with its glyphs written as compact tiles between spaces
    (``given`` is then the text as given), which reads alike.

    What this accepts is ``(?:[1-9]+[mps]|[1-7]+z|[🀀-🀡]| )*``; anything else goes to
    ``_explain``. Character codes rather than characters: this runs for every tile of every
    request, and compiled, ``ord(text[i])`` reads a code without making a string.
    """
    shown = text if given is None else given
    # Native ints: compiled, no overflow checked on the way.
    m: i64 = 0  # each suit's key, as ``tally``'s
    p: i64 = 1 << SUIT_SHIFT
    s: i64 = 2 << SUIT_SHIFT
    z: i64 = 3 << SUIT_SHIFT
    kinds: i64 = 0
    size: i64 = 0
    base: i64 = -1  # the first tile of the suit of the group being read, -1 between groups
    top: i64 = -1  # its highest face (0-8), -1 between groups: then no digit is a tile
    letter_at: i64 = 0  # how many tiles were read when the group's letter was
    last: i64 = len(text) - 1
    for index in range(last, -1, -1):
        code: i64 = ord(text[index])
        face = code - 49  # 1-9 as 0-8
        if 0 <= face <= 8:
            if face > top:
                _explain(shown)
            kinds |= bit(base + face)
            count = bit(FACE_BITS * face)
            if base == 0:
                m += count
            elif base == 9:
                p += count
            elif base == 18:
                s += count
            else:
                z += count
            size += 1
            continue
        if top >= 0 and size == letter_at:  # a letter with no digit before it
            _explain(shown)
        base = _suit_base(code)
        if base >= 0:
            top = 6 if base == EAST else 8
            letter_at = size
        elif code == 32:  # a space between groups only
            top = -1
        elif code > 127 and given is None:  # a glyph, or no tile: read the glyphs written
            return _read_compact(text.translate(_GLYPHS_WRITTEN), text)
        else:
            _explain(shown)
    if top >= 0 and size == letter_at:
        _explain(shown)
    return Held(m, p, s, z, kinds, size)


# Each glyph as its tile in compact notation, a group of its own: " 1m ".
_GLYPHS_WRITTEN: Final = {
    FIRST_GLYPH + offset: f" {tile % 9 + 1}{SUITS[tile // 9]} "
    for offset, tile in enumerate(_GLYPH_TILES)
}


def _suit_base(code: i64) -> i64:
    """The first tile of the suit whose letter has character code ``code``, or -1."""
    if code == 109:  # m
        return 0
    if code == 112:  # p
        return 9
    if code == 115:  # s
        return 18
    if code == 122:  # z
        return EAST
    return -1


def _explain(text: str) -> NoReturn:
    """Raise the TileError that says where ``text`` goes wrong, and how to write it: at which
    character, counted as a person counts them (the first is character 1)."""
    position = 1
    for group in text.split(" "):
        if not group:
            position += 1
            continue
        end = 0
        for match in _GROUP.finditer(group):
            if match.start() != end:
                break
            digits, letter = match.groups()
            for offset, digit in enumerate(digits or ""):
                face = int(digit)
                if face == 0 or (letter == "z" and face > 7):
                    where = position + match.start() + offset
                    allowed = "z takes 1-7" if letter == "z" else f"{letter} takes 1-9"
                    raise TileError(
                        f"'{digit}{letter}' at character {where} is not a tile: {allowed}"
                    )
            end = match.end()
        if end != len(group):
            rest = group[end:]
            where = position + end
            if ord(rest[0]) in _BONUS_GLYPHS:
                bonus = _bonus_tile(ord(rest[0]))
                raise TileError(f"cannot read {rest[0]!r} at character {where}: {bonus}")
            upper = _UPPERCASE.match(rest)
            if upper:
                raise TileError(
                    f"cannot read {upper[0]!r} at character {where}: suit letters are"
                    f" lowercase: write {upper[0].lower()!r}"
                )
            raise TileError(
                f"cannot read {_shown(rest)} at character {where}: tiles are written as"
                " digits followed by a suit letter m, p, s or z, e.g. '123m456p1155z', or as"
                " glyphs, e.g. '🀇🀈🀉'"
            )
        position += len(group) + 1
    raise TileError(f"cannot read {text!r} as tiles")  # not reached: a wrong text fails above


def repeated(tile: int, copies: int = 1) -> str:
    """``copies`` (1 to 4) of one tile in compact notation: "5m", "55m", "777z"."""
    return _REPEATED[copies][tile]


def compact(tiles: Iterable[int]) -> str:
    """The canonical sorted compact form: "123m456p1155z"."""
    out = []
    run_suit = -1
    for tile in sorted(tiles):
        if tile // 9 != run_suit:
            if run_suit >= 0:
                out.append(SUITS[run_suit])
            run_suit = tile // 9
        out.append(_DIGITS[tile])
    if run_suit >= 0:
        out.append(SUITS[run_suit])
    return "".join(out)


_DIGITS: Final = tuple(str(tile % 9 + 1) for tile in range(KINDS))
# Written once: every response names its winning tile and pair this way.
_REPEATED: Final = tuple(
    tuple(_DIGITS[tile] * copies + SUITS[tile // 9] for tile in range(KINDS)) for copies in range(5)
)


def glyphs(tiles: Iterable[int]) -> str:
    """The same tiles as Unicode glyphs, in canonical order."""
    return "".join([GLYPHS[tile] for tile in sorted(tiles)])


# A suit's counts as one integer, 6 bits a face (the count of face f at bit 6f) and the suit
# above them, so that one int names both: a cheap key for tables, and counts that add as ints
# do (a meld's tiles to the hand's). 6 bits hold 18 copies, the most a wrong hand of the right
# size has (four kongs of a tile and its pair): checking it is an addition (hand._over_four).
FACE_BITS: Final = 6
SUIT_SHIFT: Final = 9 * FACE_BITS
FACES: Final = (1 << SUIT_SHIFT) - 1  # a key's counts, without its suit
PLACE: Final[tuple[int, ...]] = tuple(1 << FACE_BITS * (tile % 9) for tile in range(KINDS))

SuitKeys = tuple[int, int, int, int]


def suit_keys(tiles: tuple[int, ...]) -> SuitKeys:
    """The key of each suit's counts (see FACE_BITS)."""
    m, p, s, z, _ = tally(tiles)
    return m, p, s, z


class Held:
    """Tiles held, counted, in no order: each suit's key (``FACE_BITS``), the kinds held as a
    mask (``mask``) and how many there are. A request's hand is read into one as its text is
    read (``read_held``), with no list of tiles made and counted again; ``tiles`` lists them,
    in order, for what asks for them."""

    __slots__ = ("_tiles", "keys", "kinds", "size")

    def __init__(self, m: int, p: int, s: int, z: int, kinds: int, size: int) -> None:
        self.keys: Final = (m, p, s, z)
        self.kinds: Final = kinds
        self.size: Final = size
        self._tiles: tuple[int, ...] | None = None

    def tiles(self) -> tuple[int, ...]:
        """The tiles, in order (listed once, when first asked)."""
        if self._tiles is None:
            listed: list[int] = []
            m, p, s, z = self.keys
            _list_suit(listed, m, 0)
            _list_suit(listed, p, 9)
            _list_suit(listed, s, 18)
            _list_suit(listed, z, EAST)
            self._tiles = tuple(listed)
        return self._tiles


def _list_suit(listed: list[int], key: i64, first: i64) -> None:
    """Adds to ``listed`` the tiles a suit's key counts, in order (``first``: its 1)."""
    counts = key & FACES
    tile = first
    while counts:
        for _ in range(counts & _FACE):
            listed.append(tile)
        counts >>= FACE_BITS
        tile += 1


def held(tiles: tuple[int, ...]) -> Held:
    """``tiles`` counted."""
    m, p, s, z, kinds = tally(tiles)
    return Held(m, p, s, z, kinds, len(tiles))


def copies(keys: SuitKeys, tile: int) -> int:
    """How many of ``tile`` the suit keys count."""
    m, p, s, z = keys
    suit = tile // 9
    key = m if suit == 0 else p if suit == 1 else s if suit == 2 else z
    return key >> FACE_BITS * (tile % 9) & _FACE


def tally(tiles: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """The suit keys of ``tiles`` and their mask (``mask``), counted in one pass, in native
    64-bit ints (compiled: no overflow checked, nothing looked up, for every tile of every
    hand)."""
    m: i64 = 0
    p: i64 = 1 << SUIT_SHIFT
    s: i64 = 2 << SUIT_SHIFT
    z: i64 = 3 << SUIT_SHIFT
    kinds: i64 = 0
    for tile in tiles:
        kind: i64 = tile
        kinds |= bit(kind)
        if kind < 9:
            m += bit(FACE_BITS * kind)
        elif kind < 18:
            p += bit(FACE_BITS * (kind - 9))
        elif kind < EAST:
            s += bit(FACE_BITS * (kind - 18))
        else:
            z += bit(FACE_BITS * (kind - EAST))
    return m, p, s, z, kinds


def bit(n: i64) -> i64:
    """``1 << n`` for ``n`` from 0 to 61. Compiled, ``1 << n`` would shift a C int (wrong
    from bit 32 on), and ``1 << 62`` is boxed (above a tagged int): ``1 << 61`` is a 64-bit
    constant."""
    return (1 << 61) >> (61 - n)


def bit_count(mask: i64) -> i64:
    """How many bits ``mask`` has set (compiled, ``int.bit_count`` is a call by name)."""
    count: i64 = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def key_suit(key: int) -> int:
    """The suit of a suit key: 0-2 for the number suits, 3 for honours."""
    return key >> SUIT_SHIFT


def written(keys: SuitKeys) -> tuple[str, str]:
    """A hand's tiles, from their suit keys (at most four of a kind), as ``compact`` and
    ``glyphs`` write them.

    Read suit by suit from a table filled as suits come: every response writes the hand, and
    the few thousand suits hands are made of come back again and again. The four suits are
    joined by an f-string: compiled, one string built from four, where adding them makes
    one for each addition.
    """
    m, p, s, z = keys
    a, b, c, d = _suit_written(m), _suit_written(p), _suit_written(s), _suit_written(z)
    return f"{a[0]}{b[0]}{c[0]}{d[0]}", f"{a[1]}{b[1]}{c[1]}{d[1]}"


def _suit_written(key: int) -> tuple[str, str]:
    """The suit of ``key`` written both ways (nothing, for a suit without tiles)."""
    if not key & FACES:
        return _NOTHING_WRITTEN
    suit = _WRITTEN.get(key)
    return _WRITTEN.put(key, _suit_text(key)) if suit is None else suit


_NOTHING_WRITTEN: Final = ("", "")


def _suit_text(key: int) -> tuple[str, str]:
    """A suit's tiles as ``compact`` and ``glyphs`` write them, from its key: three faces at
    a time, each three read from a table of the ways they can be held (``_THREES``). A hand
    not seen before writes a suit not seen before about once in four."""
    suit = key_suit(key)
    low = _three(key, suit, 0)
    middle = _three(key, suit, 1)
    high = _three(key, suit, 2)
    # One f-string each: compiled, one string built from four, with no list joined.
    return (
        f"{_THREES[low]}{_THREES[middle]}{_THREES[high]}{SUITS[suit]}",
        f"{_THREES_SHOWN[low]}{_THREES_SHOWN[middle]}{_THREES_SHOWN[high]}",
    )


def _three(key: i64, suit: i64, group: i64) -> i64:
    """The place in ``_THREES`` of how a suit key holds a group of three faces: its three
    counts (0 to 4) read as a number in base 5, after the suit's and group's 125. Native
    ints: compiled, no overflow checked on the way."""
    counts = key >> _GROUP_BITS * group & _THREE_FACES
    return (3 * suit + group) * 125 + (
        (counts & _FACE) + 5 * (counts >> FACE_BITS & _FACE) + 25 * (counts >> _TWO)
    )


_FACE: Final = (1 << FACE_BITS) - 1
_TWO: Final = 2 * FACE_BITS
_GROUP_BITS: Final = 3 * FACE_BITS
_THREE_FACES: Final = (1 << _GROUP_BITS) - 1


def _threes(faces: tuple[str, ...]) -> tuple[str, ...]:
    """For each suit and group of three faces (0-2, 3-5, 6-8), every way they can be held,
    0 to 4 of each (125), written with ``faces`` (a string per tile): 1,500 short strings.
    The honours' last group holds one face; its other counts are never asked for."""
    written = []
    for suit in range(4):
        for group in range(3):
            first = 9 * suit + 3 * group
            for index in range(125):
                counts = (index % 5, index // 5 % 5, index // 25)
                written.append(
                    "".join([faces[first + face] * n
                             for face, n in enumerate(counts) if first + face < KINDS])
                )  # fmt: skip
    return tuple(written)


_THREES: Final = _threes(_DIGITS)
_THREES_SHOWN: Final = _threes(GLYPHS)


_WRITTEN: Final[SlotMemo[tuple[str, str]]] = SlotMemo(SUIT_SLOTS)


def mask(tiles: tuple[int, ...]) -> int:
    """The tiles as a mask: bit n set for tile n (a tuple: compiled, a loop over an abstract
    iterable goes through the generic iterator)."""
    found = 0
    for tile in tiles:
        found |= 1 << tile
    return found


def counts(tiles: tuple[int, ...]) -> list[int]:
    table = [0] * KINDS
    for tile in tiles:
        # Spelled out: compiled, ``table[tile] += 1`` is a generic in-place add on objects.
        table[tile] = table[tile] + 1
    return table
