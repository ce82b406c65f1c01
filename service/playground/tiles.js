// Tiles in mpsz notation (API.md "Tiles"): "5s" is the 5 of Bamboo, "7z" the Red dragon.

export const SUITS = ["m", "p", "s", "z"];

// The 34 kinds in canonical order, as the API sorts them.
export const KINDS = SUITS.flatMap((suit) =>
  Array.from({ length: suit === "z" ? 7 : 9 }, (_, i) => `${i + 1}${suit}`),
);

const ORDER = new Map(KINDS.map((tile, i) => [tile, i]));

export const byOrder = (a, b) => ORDER.get(a) - ORDER.get(b);

export const isTile = (tile) => ORDER.has(tile);

// "123m 55z" -> ["1m", "2m", "3m", "5z", "5z"]; null if the text is not mpsz.
export function parse(text) {
  const compact = text.replace(/\s+/g, "");
  if (!/^(\d+[mpsz])*$/.test(compact)) return null;
  const tiles = [];
  for (const [, digits, suit] of compact.matchAll(/(\d+)([mpsz])/g)) {
    for (const digit of digits) tiles.push(digit + suit);
  }
  return tiles.every(isTile) ? tiles : null;
}

// ["1m", "2m", "5z", "3m"] -> "12m5z3m": the order kept, a suit letter after each run.
export function format(tiles) {
  let text = "";
  tiles.forEach((tile, i) => {
    text += tile[0];
    if (tiles[i + 1]?.[1] !== tile[1]) text += tile[1];
  });
  return text;
}

// The compact sorted form the API answers with.
export const canonical = (tiles) => format([...tiles].sort(byOrder));

export function count(tiles, tile) {
  return tiles.filter((t) => t === tile).length;
}

// The next tile of a suit ("4s" -> "5s"), null past 9 or for honours.
export function next(tile) {
  const n = Number(tile[0]);
  return tile[1] !== "z" && n < 9 ? `${n + 1}${tile[1]}` : null;
}

// The tiles a compact string names, in order ("777z" -> ["7z", "7z", "7z"]).
export const spell = (text) => parse(text) ?? [];

// Tile names, as a screen reader reads each tile button.
const SUIT_NAMES = {
  en: { m: "Characters", p: "Circles", s: "Bamboo" },
  zh: { m: "萬", p: "筒", s: "索" },
};
const HONOUR_NAMES = {
  en: ["East", "South", "West", "North", "White", "Green", "Red"],
  zh: ["東", "南", "西", "北", "白", "發", "中"],
};
const ZH_DIGITS = "一二三四五六七八九";

// "5s" -> "5 of Bamboo" / "五索".
export function name(tile, language) {
  const n = Number(tile[0]);
  if (tile[1] === "z") return HONOUR_NAMES[language][n - 1];
  return language === "zh"
    ? ZH_DIGITS[n - 1] + SUIT_NAMES.zh[tile[1]]
    : `${n} of ${SUIT_NAMES.en[tile[1]]}`;
}
