// The hand being built: the tiles held in the order they were entered (the last one is the
// winning tile) and the declared melds. The "Hand" field's text and the tapped tiles are two
// spellings of it: text() writes it, read() parses it, so both build the same request.

import { byOrder, canonical, count, format, next, parse, spell } from "./tiles.js";

export const MELD_KINDS = ["chow", "pung", "kong", "concealed_kong"];

export function empty() {
  return { tiles: [], melds: [], raw: null };
}

// A meld as the field writes it: [777z] declared, {7777z} a concealed kong.
const meldText = (meld) =>
  meld.kind === "concealed_kong" ? `{${meld.tiles}}` : `[${meld.tiles}]`;

export function text(hand) {
  if (hand.raw !== null) return hand.raw;
  return [format(hand.tiles), ...hand.melds.map(meldText)].filter(Boolean).join(" ");
}

// The kind of a meld from its tiles: four alike a kong, three alike a pung, else a chow.
function kindOf(tiles, concealed) {
  if (tiles.length === 4) return concealed ? "concealed_kong" : "kong";
  return tiles.length === 3 && tiles.every((t) => t === tiles[0]) ? "pung" : "chow";
}

// The field's text as a hand. Text that is not mpsz is kept as it is (raw), so that the API
// itself says what is wrong with it, at the field it names.
export function read(value) {
  const melds = [];
  const rest = value.replace(/([[{])([^\]}]*)[\]}]/g, (_, open, inside) => {
    const tiles = parse(inside);
    const concealed = open === "{";
    melds.push({ kind: tiles ? kindOf(tiles, concealed) : "chow", tiles: inside.trim() });
    return " ";
  });
  const tiles = parse(rest);
  if (tiles === null) return { tiles: [], melds, raw: value };
  return { tiles, melds: melds.map((m) => ({ ...m, tiles: canonical(spell(m.tiles)) || m.tiles })), raw: null };
}

// Tiles a hand counts: the held ones plus 3 a meld (a kong's fourth is extra).
export const size = (hand) => hand.tiles.length + 3 * hand.melds.length;

export const winning = (hand) => hand.tiles.at(-1) ?? null;

// Copies of a tile in the hand and its melds (a fifth is not offered in the palette).
export function copies(hand, tile) {
  return count(hand.tiles, tile) + hand.melds.reduce((n, m) => n + count(spell(m.tiles), tile), 0);
}

export function add(hand, tile) {
  return { ...hand, tiles: [...hand.tiles, tile] };
}

// The held tiles without one copy of each of `taken`; null if one is missing.
function without(tiles, taken) {
  const left = [...tiles];
  for (const tile of taken) {
    const at = left.lastIndexOf(tile);
    if (at < 0) return null;
    left.splice(at, 1);
  }
  return left;
}

// What tapping the `index`th held tile does in each mode; the hand unchanged if it cannot.
export function tap(hand, index, mode) {
  const tile = hand.tiles[index];
  if (mode === "remove") return { ...hand, tiles: hand.tiles.toSpliced(index, 1) };
  if (mode === "winning") return { ...hand, tiles: [...hand.tiles.toSpliced(index, 1), tile] };
  let taken;
  if (mode === "chow") {
    const second = next(tile);
    const third = second && next(second);
    taken = third ? [tile, second, third] : null;
  } else {
    // A kong takes the four copies held, or three (the fourth is then implied).
    const alike = count(hand.tiles, tile);
    taken = Array(mode === "pung" ? 3 : Math.min(4, Math.max(3, alike))).fill(tile);
  }
  const left = taken && without(hand.tiles, taken);
  if (!left) return hand;
  const tiles = mode === "pung" || mode === "chow" ? taken : Array(4).fill(tile);
  return { ...hand, tiles: left, melds: [...hand.melds, { kind: mode, tiles: canonical(tiles) }] };
}

// Tapping a meld gives its tiles back to the hand.
export function unmeld(hand, index) {
  const meld = hand.melds[index];
  return {
    ...hand,
    tiles: [...hand.tiles, ...spell(meld.tiles)],
    melds: hand.melds.toSpliced(index, 1),
  };
}

// The held tiles sorted for showing, the winning tile last and apart.
export function shown(hand, whole) {
  const held = hand.tiles.map((tile, index) => ({ tile, index }));
  if (!whole) return { held: held.sort((a, b) => byOrder(a.tile, b.tile)), win: null };
  const win = held.pop();
  return { held: held.sort((a, b) => byOrder(a.tile, b.tile)), win };
}
