// The state in the address (after #), so that a link reproduces the hand and its answer:
// only what differs from a fresh page is written.

import { text } from "./hand.js";
import { FLAGS } from "./request.js";
import { spell } from "./tiles.js";

export function initial() {
  return {
    text: "", by: "self_draw", seat: "E", discarder: "S",
    ...Object.fromEntries(FLAGS.map((flag) => [flag, false])),
    version: "3.3", payoff: "formal", minimum: 0, bonus_tiles: false, flowers: [], seasons: [],
    visible: "", explain: false, expect: false, draws_left: 17, discard_rate: 0,
  };
}

// Short keys keep links short; each value written as text.
const KEYS = {
  text: "hand", by: "by", seat: "seat", discarder: "from", last_tile: "last", kong_replacement: "kr",
  robbing_kong: "rob", first_turn: "first", version: "v", payoff: "pay", minimum: "min",
  bonus_tiles: "bonus", flowers: "fl", seasons: "se", visible: "seen", explain: "explain",
  expect: "expect", draws_left: "draws", discard_rate: "rate",
};

const write = (value) => (Array.isArray(value) ? value.join("") : typeof value === "boolean" ? (value ? "1" : "0") : String(value));

export function toHash(values) {
  const fresh = initial();
  const params = new URLSearchParams();
  for (const [field, key] of Object.entries(KEYS)) {
    if (write(values[field]) !== write(fresh[field])) params.set(key, write(values[field]));
  }
  return params.toString();
}

// The values a hash gives, a fresh page's for what it does not name or names wrongly.
export function fromHash(hash) {
  const values = initial();
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  for (const [field, key] of Object.entries(KEYS)) {
    const text = params.get(key);
    if (text === null) continue;
    const fresh = values[field];
    if (Array.isArray(fresh)) values[field] = [...new Set(text.replace(/[^1-4]/g, ""))].map(Number).sort();
    else if (typeof fresh === "boolean") values[field] = text === "1";
    else if (typeof fresh === "number") values[field] = Number.isFinite(Number(text)) ? Number(text) : fresh;
    else values[field] = text;
  }
  return values;
}

// The address that opens a request body in the calculator (a reviewed decision's `position`:
// a /v1/discards body, or the /v1/waits or /v1/score body of a claim's option): its hand, the
// winning tile last, the win, the tiles seen, the expect figures and the rules. The
// calculator ranks by the default objective; it shows the expected score and the win chance alike.
export function fromPosition(position) {
  const values = initial();
  const { hand, win = {}, visible, expect, rules } = position;
  const tiles = spell(hand.tiles);
  if (hand.winning_tile) tiles.push(...tiles.splice(tiles.indexOf(hand.winning_tile), 1));
  const melds = (hand.melds ?? []).map((m) => ({ kind: m.concealed ? "concealed_kong" : m.kind, tiles: m.tiles }));
  values.text = text({ tiles, melds, raw: null });
  for (const key of ["by", "seat", "discarder", ...FLAGS]) if (win[key] !== undefined) values[key] = win[key];
  values.visible = visible ?? "";
  if (expect) Object.assign(values, { expect: true, draws_left: expect.draws_left ?? values.draws_left, discard_rate: expect.discard_rate ?? 0 });
  for (const key of ["version", "payoff", "minimum", "bonus_tiles"]) if (rules?.[key] !== undefined) values[key] = rules[key];
  values.flowers = hand.flowers ?? [];
  values.seasons = hand.seasons ?? [];
  return toHash(values);
}
