// The API's request bodies, built from the page's state, and the calls that send them.
// Only what differs from the API's defaults is sent, so a typed and a tapped hand, or a link
// reopened, build byte-for-byte the same request.

import { canonical } from "./tiles.js";
import { size, winning } from "./hand.js";

export const SEATS = ["E", "S", "W", "N"];
export const FLAGS = ["last_tile", "kong_replacement", "robbing_kong", "first_turn"];
const DEFAULT_RULES = { version: "3.3", payoff: "formal", minimum: 0, bonus_tiles: false };

function melds(hand) {
  return hand.melds.map((meld) =>
    meld.kind === "concealed_kong"
      ? { kind: "kong", tiles: meld.tiles, concealed: true }
      : { kind: meld.kind, tiles: meld.tiles },
  );
}

function handBody(state, whole) {
  const { hand } = state;
  const body = { tiles: hand.raw ?? canonical(hand.tiles) };
  if (hand.melds.length) body.melds = melds(hand);
  if (whole && hand.raw === null && winning(hand)) body.winning_tile = winning(hand);
  if (state.rules.bonus_tiles) {
    body.flowers = state.flowers;
    body.seasons = state.seasons;
  }
  return body;
}

export function rules(state) {
  const body = {};
  for (const [key, value] of Object.entries(DEFAULT_RULES)) {
    if (state.rules[key] !== value) body[key] = state.rules[key];
  }
  return body;
}

// The win as a score request gives it; `scoring` false: as /v1/waits and /v1/discards take it.
export function win(state, scoring = true) {
  const body = scoring ? { by: state.win.by, seat: state.win.seat } : { seat: state.win.seat };
  if (scoring && state.win.by === "discard") body.discarder = state.win.discarder;
  for (const flag of FLAGS) if (state.win[flag]) body[flag] = true;
  return body;
}

function withRules(body, state) {
  const chosen = rules(state);
  if (Object.keys(chosen).length) body.rules = chosen;
  return body;
}

export function score(state) {
  const body = withRules({ hand: handBody(state, true), win: win(state) }, state);
  if (state.explain) body.explain = true;
  return body;
}

// /v1/waits (13 tiles) or /v1/discards (14): the hand without a winning tile.
export function analysis(state) {
  const body = withRules({ hand: handBody(state, false), win: win(state, false) }, state);
  if (state.visible.trim()) body.visible = state.visible.trim();
  if (state.expect) body.expect = { draws_left: state.draws_left, discard_rate: state.discard_rate };
  return body;
}

// What the hand asks for: 14 tiles are scored and their discards listed, 13 show the waits;
// more than 14 (or text that is not mpsz) is sent as it is for the API to say what is wrong.
export function calls(state) {
  const n = size(state.hand);
  if (state.hand.raw !== null || n > 14) return [["score", score(state)]];
  if (n === 14) return [["score", score(state)], ["discards", analysis(state)]];
  if (n === 13) return [["waits", analysis(state)]];
  return [];
}

// POST a body; { ok, body } with the answer or its problem document.
export async function post(endpoint, body, signal) {
  const response = await fetch(`/v1/${endpoint}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  return { ok: response.ok, body: await response.json() };
}

export async function get(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}
