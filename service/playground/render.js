// Drawing: tiles as labelled buttons or pictures, and the API's answers as they are given.
// Text always goes in as text (never as markup): a player's name is shown, never run.

import { current, patternName, t } from "./i18n.js";
import { name, spell } from "./tiles.js";

const SVG = "http://www.w3.org/2000/svg";

// An element with attributes (data-x as dataset) and children (strings become text).
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("data-")) element.setAttribute(key, value);
    else if (key in element && typeof value !== "string") element[key] = value;
    else element.setAttribute(key, value === true ? "" : value);
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return element;
}

// A tile face from the sprite (tiles.svg), laid on the tile's body.
export function face(tile) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 300 400");
  svg.setAttribute("aria-hidden", "true");
  for (const id of tile === "back" ? ["back"] : ["front", `t-${tile}`]) {
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", `#${id}`);
    svg.append(use);
  }
  return svg;
}

// A tile as a button: read by its name ("5 of Bamboo").
export function tileButton(tile, attributes = {}) {
  return el("button", { type: "button", class: "tile", "aria-label": name(tile, current()), "data-tile": tile, ...attributes }, face(tile));
}

// A tile as a picture in an answer.
export function tileImage(tile, small = true) {
  return el("span", { class: small ? "tile small" : "tile", role: "img", "aria-label": name(tile, current()), "data-tile": tile }, face(tile));
}

// A set's tiles in a row; a labelled row is a group ("Pair").
export const tileRow = (tiles, label = null) =>
  el("span", { class: "tiles inline", role: label && "group", "aria-label": label }, spell(tiles).map((tile) => tileImage(tile)));

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function limitWords(limit) {
  return t(`limit_${limit}`);
}

function patternRows(patterns) {
  return patterns.map((p) =>
    el("tr", { "data-pattern": p.id },
      el("td", { class: "id" }, p.id),
      el("td", {},
        el("span", { class: "name", "data-name": "" }, patternName(p)),
        p.reason ? el("span", { class: "reason" }, p.reason) : null),
      el("td", { class: "num", "data-value": "" }, String(p.value)),
      el("td", { class: "num", "data-count": "" }, p.count === undefined ? "" : `×${p.count}`),
      el("td", { class: "num", "data-points": "" }, String(p.points))),
  );
}

function patternTable(patterns, caption) {
  return el("table", { class: "patterns" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("pattern")),
      el("th", { scope: "col" }, t("value")), el("th", { scope: "col" }, t("count")),
      el("th", { scope: "col" }, t("points")))),
    el("tbody", {}, patternRows(patterns)));
}

// The decomposition drawn as tiles: concealed sets and the pair, then the melds apart.
function reading(hand, melds) {
  if (hand.form === "seven_pairs") {
    return el("div", { class: "sets" }, hand.pairs.map((pair) => tileRow(pair)));
  }
  if (hand.form !== "standard") return el("div", { class: "sets" }, tileRow(hand.tiles));
  const declared = new Set(melds.map((m) => m.tiles));
  const held = hand.sets.filter((set) => !(declared.has(set.tiles) && declared.delete(set.tiles)));
  const shown = hand.sets.filter((set) => !held.includes(set));
  return el("div", { class: "sets" },
    held.map((set) => tileRow(set.tiles)),
    tileRow(hand.pair, t("pair")),
    shown.length ? el("span", { class: "apart", role: "group", "aria-label": t("melds_apart") }, shown.map((set) => tileRow(set.tiles))) : null);
}

export function score(answer, melds) {
  const winner = Object.entries(answer.payments).find(([, n]) => n > 0)?.[0];
  return el("div", { class: "score", "data-answer": "score" },
    answer.hand ? reading(answer.hand, melds) : null,
    patternTable(answer.patterns, t("breakdown")),
    answer.not_counted?.length ? el("p", { class: "help" }, `${t("not_counted")}: `,
      answer.not_counted.map((p) => patternName(p)).join(", ")) : null,
    el("dl", { class: "totals" },
      el("dt", {}, t("points")), el("dd", { "data-field": "points" }, String(answer.points)),
      el("dt", {}, t("limit")), el("dd", { "data-field": "limit", "data-limit": answer.limit }, limitWords(answer.limit)),
      el("dt", {}, t("score")), el("dd", { class: "big", "data-field": "score" }, String(answer.score))),
    el("table", { class: "payments" },
      el("caption", {}, t("payments")),
      el("tbody", {}, el("tr", {}, Object.keys(answer.payments).map((seat) => el("th", { scope: "col", class: seat === winner ? "winner" : null }, t(seat)))),
        el("tr", {}, Object.entries(answer.payments).map(([seat, n]) => el("td", { class: "num", "data-seat": seat }, signed(n)))))),
    answer.alternatives ? readings(answer.alternatives) : null);
}

function readings(alternatives) {
  return el("section", { class: "readings", "data-answer": "alternatives" },
    el("h3", {}, t("readings")),
    alternatives.length === 0 ? el("p", {}, t("none")) : alternatives.map((alt, i) =>
      el("div", { class: "reading", "data-reading": String(i) },
        el("p", {}, `${t(alt.form)}: `, el("strong", { "data-field": "score" }, String(alt.score))),
        reading(alt, []),
        patternTable(alt.patterns, t("breakdown")))));
}

const shantenWords = (n) => (n === -1 ? t("complete") : n === 0 ? `0 (${t("ready")})` : String(n));

function useful(list) {
  return el("span", { class: "useful" }, list.map((u) =>
    el("span", { class: "with-count", "data-useful": u.tile }, tileImage(u.tile),
      el("span", { class: "left", "data-remaining": "" }, `×${u.remaining}`))));
}

// A wait's score one way: the score, or why the rules do not allow the win.
const wayScore = (way) => (way === null ? t("cannot_win") : String(way.score));

function waitTable(waits) {
  return el("table", { class: "waits" },
    el("caption", {}, t("waits")),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("tile")), el("th", { scope: "col" }, t("remaining")),
      el("th", { scope: "col" }, t("self_draw")), el("th", { scope: "col" }, t("discard")))),
    el("tbody", {}, waits.map((w) => el("tr", { "data-wait": w.tile },
      el("td", {}, tileImage(w.tile)),
      el("td", { class: "num", "data-remaining": "" }, String(w.remaining)),
      el("td", { class: "num", "data-self-draw": "" }, wayScore(w.self_draw)),
      el("td", { class: "num", "data-discard": "" }, wayScore(w.discard))))));
}

// An `expected` object (API.md "Expected score"); the win chance as a percentage.
function expected(figures) {
  if (!figures) return null;
  return el("dl", { class: "expected" },
    el("dt", {}, t("expected_score")), el("dd", { "data-field": "expected_score" }, String(figures.expected_score)),
    el("dt", {}, t("win_chance")), el("dd", { "data-field": "win_probability" }, `${(figures.win_probability * 100).toFixed(2)}%`));
}

function figures(answer) {
  return [
    el("dt", {}, t("shanten")), el("dd", { "data-field": "shanten" }, shantenWords(answer.shanten)),
    el("dt", {}, t("useful")), el("dd", {}, useful(answer.useful)),
    el("dt", {}, t("useful_remaining")), el("dd", { "data-field": "useful_remaining" }, String(answer.useful_remaining)),
  ];
}

// What the expected figures are (API.md "Expected score"): exact or a lower bound, and why
// some discards have none.
function expectation(about) {
  if (!about) return null;
  const words = [t(about.search === "bounded" ? "expect_bounded" : "expect_exhaustive")];
  if (about.limited) words.push(t(`limited_${about.limited}`));
  return el("p", { class: "help", "data-expectation": about.search }, words.join(" "));
}

export function waits(answer) {
  return el("div", { "data-answer": "waits" },
    el("dl", { class: "figures" }, figures(answer)),
    answer.waits.length ? waitTable(answer.waits) : el("p", {}, t("no_waits")),
    expected(answer.expected), expectation(answer.expectation));
}

// A figure the API left out (null): a dash to the eye, a word to a screen reader.
const missing = () => [el("span", { "aria-hidden": "true" }, "\u2014"), el("span", { class: "visually-hidden" }, t("none"))];

// Each discard in one row, as the API ranks them (best first), to compare at a glance; its
// tile opens the row below it: the useful tiles and, once ready, the waits scored.
function discardTable(answer) {
  const expecting = Boolean(answer.expectation);
  const heads = ["tile", "shanten", "useful_remaining", ...(expecting ? ["expected_score", "win_chance"] : [])];
  const rows = answer.discards.flatMap((d) => {
    const id = `discard-${d.tile}`;
    const more = el("tr", { id, class: "more", hidden: true },
      el("td", { colspan: String(heads.length) },
        el("dl", { class: "figures" }, el("dt", {}, t("useful")), el("dd", {}, useful(d.useful))),
        d.waits?.length ? waitTable(d.waits) : null));
    const open = el("button", { type: "button", class: "open", "aria-expanded": "false", "aria-controls": id,
                                "aria-label": name(d.tile, current()), "data-tile": d.tile },
      el("span", { class: "tile small" }, face(d.tile)), el("span", { class: "chevron", "aria-hidden": "true" }));
    open.addEventListener("click", () => {
      more.hidden = !more.hidden;
      open.setAttribute("aria-expanded", String(!more.hidden));
    });
    const chance = d.expected && `${(d.expected.win_probability * 100).toFixed(2)}%`;
    return [
      el("tr", { "data-discarded": d.tile },
        el("th", { scope: "row" }, open),
        el("td", { class: "num", "data-field": "shanten" }, String(d.shanten)),
        el("td", { class: "num", "data-field": "useful_remaining" }, String(d.useful_remaining)),
        expecting ? el("td", { class: "num", "data-field": "expected_score" }, d.expected ? String(d.expected.expected_score) : missing()) : null,
        expecting ? el("td", { class: "num", "data-field": "win_probability" }, chance ?? missing()) : null),
      more,
    ];
  });
  return el("table", { class: "discards" },
    el("caption", { class: "help" }, t("discards_help")),
    el("thead", {}, el("tr", {}, heads.map((key) => el("th", { scope: "col", class: key === "tile" ? null : "num" }, t(key))))),
    el("tbody", {}, rows));
}

// The discards; folded away under a hand that already wins (its score is above).
export function discards(answer) {
  const table = discardTable(answer);
  return el("div", { "data-answer": "discards" },
    el("dl", { class: "figures" }, el("dt", {}, t("shanten")), el("dd", { "data-field": "shanten" }, shantenWords(answer.shanten))),
    expectation(answer.expectation),
    answer.shanten === -1
      ? el("details", {}, el("summary", {}, t("discards")), table)
      : [el("h3", {}, t("discards")), table]);
}
