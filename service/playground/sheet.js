// The score sheet: four players, the hands of a session, kept in the browser (localStorage,
// written at every change) and settled whole by POST /v1/settle, whose body it exports.

import { el } from "./render.js";
import { t } from "./i18n.js";
import { SEATS } from "./request.js";

const KEY = "zj-playground-sheet";

export function fresh() {
  return { players: ["Player 1", "Player 2", "Player 3", "Player 4"], dealer: 0, hands: [] };
}

// The sheet kept by this browser; one that cannot be read is kept aside, never overwritten.
export function load(storage = localStorage) {
  const text = storage.getItem(KEY);
  if (text === null) return fresh();
  try {
    const sheet = JSON.parse(text);
    if (Array.isArray(sheet.players) && sheet.players.length === 4 && Array.isArray(sheet.hands)) return sheet;
  } catch {
    // kept aside below
  }
  storage.setItem(`${KEY}-unreadable-${Date.now()}`, text);
  return fresh();
}

export function save(sheet, storage = localStorage) {
  storage.setItem(KEY, JSON.stringify(sheet));
}

// Seat -> player with `dealer` (an index of players) sitting East.
export function seats(sheet, dealer = sheet.dealer) {
  return Object.fromEntries(SEATS.map((seat, i) => [seat, sheet.players[(dealer + i) % 4]]));
}

// The deal passes (the seats move one place) unless East won or no one did.
function after(sheet, winner) {
  return winner === undefined || winner === "E" ? sheet.dealer : (sheet.dealer + 1) % 4;
}

export function add(sheet, entry) {
  const winner = (entry.score ?? entry.claim)?.win.seat;
  return { ...sheet, hands: [...sheet.hands, { dealer: sheet.dealer, ...entry }], dealer: after(sheet, winner) };
}

export const move = (sheet) => ({ ...sheet, dealer: (sheet.dealer + 1) % 4 });

export function undo(sheet) {
  const last = sheet.hands.at(-1);
  return last ? { ...sheet, hands: sheet.hands.slice(0, -1), dealer: last.dealer } : sheet;
}

export const rename = (sheet, index, value) => ({ ...sheet, players: sheet.players.with(index, value) });

// The sheet as a /v1/settle body, under the page's rules.
export function body(sheet, rules) {
  const settle = { players: sheet.players };
  if (Object.keys(rules).length) settle.rules = rules;
  settle.hands = sheet.hands.map(({ dealer, ...entry }) => ({ seats: seats(sheet, dealer), ...entry }));
  return settle;
}

function what(entry) {
  if (entry.draw) return t("draw");
  const { win } = entry.score ?? entry.claim;
  return `${t(win.seat)}${entry.claim ? ` (${t("claim")})` : ""}`;
}

// The hands and totals as settled (`settled`: the /v1/settle answer, or null before it).
export function render(sheet, settled) {
  if (!sheet.hands.length) return el("p", {}, t("empty_sheet"));
  const names = sheet.players;
  const head = el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("winner")),
    el("th", { scope: "col" }, t("score")), names.map((n) => el("th", { scope: "col" }, n)));
  const rows = sheet.hands.map((entry, i) => {
    const answer = settled?.hands[i];
    return el("tr", { "data-hand": String(i) },
      el("td", { class: "num" }, String(i + 1)), el("td", {}, what(entry)),
      el("td", { class: "num", "data-field": "score" }, answer?.score === undefined ? "" : String(answer.score)),
      names.map((n) => el("td", { class: "num", "data-player": n }, answer?.payments ? String(answer.payments[n]) : "")));
  });
  const totals = el("tr", { class: "sum", "data-totals": "" },
    el("th", { scope: "row", colspan: "3" }, t("totals")),
    names.map((n) => el("td", { class: "num", "data-player": n }, settled ? String(settled.totals[n]) : "")));
  return el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, totals));
}
