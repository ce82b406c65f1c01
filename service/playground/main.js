// The playground: the page's controls, its state (in the address and, for the score sheet,
// in the browser) and the API's answers drawn where they belong.

import * as hands from "./hand.js";
import * as i18n from "./i18n.js";
import * as link from "./link.js";
import * as render from "./render.js";
import * as request from "./request.js";
import * as review from "./review.js";
import * as sheets from "./sheet.js";
import { KINDS, name, spell } from "./tiles.js";

const { el } = render;
const { t } = i18n;
const $ = (id) => document.getElementById(id);
const LANGUAGE_KEY = "zj-playground-language";
const MODES = ["remove", "winning", "chow", "pung", "kong", "concealed_kong"];
// Patterns counted per set or per tile, and the most a hand holds (API.md /v1/claim).
const COUNTED = { "3.1": 4, "11.1.1": 6, "11.1.2": 2 };

let values = link.initial();
let hand = hands.empty();
let mode = "remove";
let answers = []; // [endpoint, body, answer] of the last answered hand
let scored = null; // the last score request answered 200 (for the sheet)
let sheet = sheets.load();
let settled = null;
let catalogue = null;
let sequence = 0;
let timer = null;
let inFlight = null;
// What the page is waiting for ("answer", "sheet", "claim"): <html data-busy> says whether any.
const working = new Set();

function busy(what, on) {
  if (on) working.add(what);
  else working.delete(what);
  document.documentElement.dataset.busy = working.size ? "1" : "0";
}

const state = () => ({
  hand,
  win: { by: values.by, seat: values.seat, discarder: values.discarder,
         ...Object.fromEntries(request.FLAGS.map((flag) => [flag, values[flag]])) },
  rules: { version: values.version, payoff: values.payoff, minimum: values.minimum, bonus_tiles: values.bonus_tiles },
  flowers: values.flowers, seasons: values.seasons, visible: values.visible, explain: values.explain,
  expect: values.expect, draws_left: values.draws_left, discard_rate: values.discard_rate,
});

// ---- problems, shown at the field their path names -------------------------------------------

// The fields an answer's problem may name (each has a box "<field>-error"); the claim and the
// sheet have their own.
const ANSWER_FIELDS = ["hand", "win", "rules", "visible", "expect"];
const PROBLEM_FIELDS = [...ANSWER_FIELDS, "claim", "sheet"];
const INPUTS = { hand: "hand", visible: "visible", expect: "draws_left" };

// Where a problem's path is shown: its first name, a hand's bonus tiles with the rules that
// turn them on, anything else at the hand.
function fieldOf(path) {
  if (/^hand\.(flowers|seasons)/.test(path)) return "rules";
  const first = path.split(/[.[]/)[0];
  return ANSWER_FIELDS.includes(first) ? first : "hand";
}

function clearProblems(fields = PROBLEM_FIELDS) {
  for (const field of fields) {
    $(`${field}-error`).hidden = true;
    $(`${field}-error`).textContent = "";
    if (INPUTS[field]) $(INPUTS[field]).removeAttribute("aria-invalid");
  }
}

// A problem document's messages, each at its field (`at` forces one: the claim, the sheet).
function showProblem(problem, at = null) {
  const messages = problem.errors?.length ? problem.errors : [{ path: "", message: problem.detail }];
  for (const { path, message } of messages) {
    const field = at ?? fieldOf(path);
    const box = $(`${field}-error`);
    const line = at && path ? `${path}: ${message}` : message;
    if (!box.textContent.split("\n").includes(line)) box.textContent += (box.textContent ? "\n" : "") + line;
    box.hidden = false;
    if (INPUTS[field]) $(INPUTS[field]).setAttribute("aria-invalid", "true");
  }
}

// ---- the hand ------------------------------------------------------------------------------

function drawHand() {
  const whole = hands.size(hand) >= 14 && hand.raw === null;
  const { held, win } = hands.shown(hand, whole);
  const button = ({ tile, index }, winning) => render.tileButton(tile, {
    class: winning ? "tile winning" : "tile",
    "aria-label": winning ? `${name(tile, i18n.current())} (${t("winning")})` : name(tile, i18n.current()),
    "data-index": String(index), onclick: () => tapHand(index),
  });
  $("hand-tiles").replaceChildren(...held.map((h) => button(h, false)), ...(win ? [button(win, true)] : []));
  $("hand-melds").replaceChildren(...hand.melds.map((meld, index) => {
    const tiles = spell(meld.tiles);
    const faces = tiles.map((tile, i) => render.face(meld.kind === "concealed_kong" && (i === 0 || i === 3) ? "back" : tile));
    const label = `${t(meld.kind)}: ${tiles.map((tile) => name(tile, i18n.current())).join(", ")}`;
    return el("button", { type: "button", class: "meld", "aria-label": label, "data-meld": String(index), onclick: () => setHand(hands.unmeld(hand, index)) },
      faces.map((svg) => el("span", { class: "tile small" }, svg)));
  }));
  for (const button of $("palette").querySelectorAll("button")) {
    button.disabled = hand.raw === null && hands.copies(hand, button.dataset.tile) >= 4;
  }
  const n = hands.size(hand);
  $("hand-count").textContent = hand.raw !== null ? "" : n === 13 ? t("count_13") : n === 14 ? t("count_14") : t("tiles_count", n);
}

// A new hand; `typed`: the field's text it was read from (kept as typed, in the link too).
function setHand(next, typed = null) {
  hand = next;
  values.text = typed ?? hands.text(hand);
  if (typed === null) $("hand").value = values.text;
  drawHand();
  changed(typed === null ? 0 : 300);
}

function tapHand(index) {
  const before = hand;
  setHand(hands.tap(hand, index, mode));
  if (hand !== before && mode !== "remove") setMode("remove");
}

function setMode(chosen) {
  mode = chosen;
  for (const button of $("modes").children) button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
}

// ---- answers ------------------------------------------------------------------------------

function changed(delay = 0) {
  busy("answer", true);
  history.replaceState(null, "", `#${link.toHash(values)}`);
  clearTimeout(timer);
  timer = setTimeout(ask, delay);
}

async function ask() {
  const mine = ++sequence;
  inFlight?.abort();
  inFlight = new AbortController();
  const calls = request.calls(state());
  let results;
  try {
    results = await Promise.all(calls.map(async ([endpoint, body]) =>
      [endpoint, body, await request.post(endpoint, body, inFlight.signal)]));
  } catch (error) {
    if (error.name === "AbortError") return;
    throw error;
  }
  if (mine !== sequence) return;
  answers = results;
  scored = results.find(([endpoint, , answer]) => endpoint === "score" && answer.ok)?.[1] ?? null;
  $("add-hand").disabled = scored === null;
  drawAnswers();
  busy("answer", false);
}

// A 14-tile hand that is not (yet) a win, or is below the minimum, still has discards.
const HAND_ONLY = new Set(["not_a_winning_hand", "below_minimum"]);

function drawAnswers() {
  clearProblems(ANSWER_FIELDS);
  const problems = answers.filter(([, , answer]) => !answer.ok).map(([, , answer]) => answer.body);
  const fatal = problems.some((problem) => !HAND_ONLY.has(problem.code));
  problems.forEach((problem) => showProblem(problem));
  const shown = (endpoint) => answers.find(([e, , answer]) => e === endpoint && answer.ok && !fatal)?.[2].body;
  const score = shown("score");
  const analysis = shown("waits") ?? shown("discards");
  $("score").replaceChildren(...(score ? [render.score(score, hand.melds)] : []));
  $("analysis").replaceChildren(...(analysis ? [(shown("waits") ? render.waits : render.discards)(analysis)] : []));
  summarise(score, analysis, problems[0]);
}

// The answer in one line at the foot of the screen, wherever the player has scrolled to.
function summarise(score, analysis, problem) {
  const bar = $("summary");
  const seats = (payments) => Object.entries(payments).map(([seat, n]) => `${t(`short_${seat}`)} ${n > 0 ? "+" : ""}${n}`).join("  ");
  let line = "";
  if (score) line = `${t("score")} ${score.score} · ${seats(score.payments)}`;
  else if (analysis?.waits?.length) line = `${t("waits")}: ${analysis.waits.map((w) => w.tile).join(" ")}`;
  else if (analysis) line = `${t("shanten")} ${analysis.shanten}`;
  else if (problem) line = problem.errors?.[0]?.message ?? problem.detail;
  bar.textContent = line;
  bar.classList.toggle("problem-line", !score && !analysis && Boolean(problem));
  bar.dataset.empty = String(line === "");
  showSummary();
}

// The line is shown only while the answer itself is out of sight.
let answerInSight = false;
function showSummary() {
  $("summary").hidden = answerInSight || $("summary").dataset.empty !== "false";
}

// ---- the score sheet ----------------------------------------------------------------------

function drawPlayers() {
  $("players").replaceChildren(...sheet.players.map((player, i) => {
    const id = `player-${i}`;
    return el("div", { class: "pair" },
      el("label", { for: id }, `${t("player")} ${i + 1}`),
      el("input", { id, type: "text", maxlength: "40", autocomplete: "off", value: player,
                   onchange: (event) => updateSheet(sheets.rename(sheet, i, event.target.value.trim())) }));
  }));
}

function drawSheet() {
  const seated = sheets.seats(sheet);
  $("seating").replaceChildren(...request.SEATS.map((seat) =>
    el("span", { class: "seat", "data-seat": seat }, `${t(seat)}${seat === "E" ? ` (${t("dealer")})` : ""}: `, el("strong", {}, seated[seat]))));
  $("sheet-table").replaceChildren(sheets.render(sheet, settled));
  $("undo-hand").disabled = sheet.hands.length === 0;
}

async function updateSheet(next) {
  sheet = next;
  sheets.save(sheet);
  settled = null;
  $("sheet-export").hidden = $("sheet-export").previousElementSibling.hidden = true;
  clearProblems(["sheet"]);
  drawSheet();
  busy("sheet", sheet.hands.length > 0);
  if (!sheet.hands.length) return;
  const answer = await request.post("settle", sheets.body(sheet, request.rules(state())));
  if (next !== sheet) return;
  if (answer.ok) settled = answer.body;
  else showProblem(answer.body, "sheet");
  drawSheet();
  busy("sheet", false);
}

function addScored() {
  if (!scored) return;
  const { rules, explain, ...body } = scored;
  updateSheet(sheets.add(sheet, { score: body }));
}

async function drawClaim() {
  if (!$("claim").open) return;
  if (catalogue?.version !== values.version) catalogue = await request.get(`/v1/patterns?version=${encodeURIComponent(values.version)}`);
  const ticked = new Map([...$("claim-patterns").querySelectorAll("input")].map((input) => [input.dataset.id, input.type === "checkbox" ? input.checked : input.value]));
  const groups = Map.groupBy(catalogue.patterns.filter((p) => !p.excluded), (p) => p.category);
  $("claim-patterns").replaceChildren(...[...groups].map(([category, patterns]) =>
    el("fieldset", { class: "claim-group" }, el("legend", {}, t(category)), patterns.map((p) => {
      const id = `claim-${p.id}`;
      const words = `${p.id} ${i18n.patternName(p)} (${p.value})`;
      const input = COUNTED[p.id]
        ? el("input", { id, type: "number", min: "0", max: String(COUNTED[p.id]), value: ticked.get(p.id) ?? "0", "data-id": p.id, inputmode: "numeric" })
        : el("input", { id, type: "checkbox", "data-id": p.id, checked: ticked.get(p.id) === true });
      return el("div", { class: COUNTED[p.id] ? "pair" : "check" }, COUNTED[p.id] ? [el("label", { for: id }, words), input] : el("label", {}, input, " ", words));
    }))));
}

async function addClaim() {
  clearProblems(["claim"]);
  const patterns = [...$("claim-patterns").querySelectorAll("input")].flatMap((input) => {
    if (input.type === "checkbox") return input.checked ? [{ id: input.dataset.id }] : [];
    const n = Number(input.value);
    return n > 0 ? [{ id: input.dataset.id, count: n }] : [];
  });
  const claim = { patterns, win: request.win(state()) };
  const body = { ...claim };
  const rules = request.rules(state());
  if (Object.keys(rules).length) body.rules = rules;
  busy("claim", true);
  const answer = await request.post("claim", body);
  busy("claim", false);
  if (!answer.ok) return showProblem(answer.body, "claim");
  for (const input of $("claim-patterns").querySelectorAll("input")) {
    if (input.type === "checkbox") input.checked = false;
    else input.value = "0";
  }
  updateSheet(sheets.add(sheet, { claim }));
}

function exportSheet() {
  const box = $("sheet-export");
  box.value = JSON.stringify(sheets.body(sheet, request.rules(state())), null, 1);
  box.hidden = box.previousElementSibling.hidden = false;
  box.focus();
  box.select();
}

let clearing = false;
function newSheet() {
  if (!clearing && sheet.hands.length) {
    clearing = true;
    $("new-sheet").textContent = t("new_sheet_again");
    return;
  }
  clearing = false;
  $("new-sheet").textContent = t("new_sheet");
  updateSheet({ ...sheets.fresh(), players: sheet.players });
}

// ---- controls -----------------------------------------------------------------------------

function fillSelects(payoffs) {
  const seatOptions = (select) => select.replaceChildren(...request.SEATS.map((seat) => el("option", { value: seat }, t(seat))));
  seatOptions($("seat"));
  seatOptions($("discarder"));
  $("payoff").replaceChildren(...payoffs.map((id) => el("option", { value: id }, t(`payoff_${id}`))));
}

function showValues() {
  $("hand").value = values.text;
  for (const input of document.getElementsByName("by")) input.checked = input.value === values.by;
  for (const id of ["seat", "discarder", "version", "payoff", "minimum", "visible", "draws_left", "discard_rate"]) $(id).value = values[id];
  for (const id of [...request.FLAGS, "bonus_tiles", "explain", "expect"]) $(id).checked = values[id];
  $("discarder").disabled = values.by !== "discard";
  $("bonus").hidden = !values.bonus_tiles;
  $("expect-fields").hidden = !values.expect;
  for (const input of $("bonus").querySelectorAll("input")) input.checked = values[input.name].includes(Number(input.value));
}

function bind() {
  $("hand").addEventListener("input", (event) => setHand(hands.read(event.target.value), event.target.value));
  $("visible").addEventListener("input", (event) => { values.visible = event.target.value; changed(300); });
  for (const input of document.getElementsByName("by")) {
    input.addEventListener("change", () => { values.by = input.value; showValues(); changed(); });
  }
  $("seat").addEventListener("change", (event) => {
    values.seat = event.target.value;
    // The discarder is another seat: the next one if they would be the same.
    if (values.discarder === values.seat) values.discarder = request.SEATS[(request.SEATS.indexOf(values.seat) + 1) % 4];
    showValues();
    changed();
  });
  for (const id of ["discarder", "version", "payoff"]) {
    $(id).addEventListener("change", (event) => { values[id] = event.target.value; changed(); if (id === "version") drawClaim(); });
  }
  for (const id of ["minimum", "draws_left", "discard_rate"]) {
    $(id).addEventListener("input", (event) => {
      const n = event.target.valueAsNumber;
      if (Number.isFinite(n)) { values[id] = n; changed(300); }
    });
  }
  for (const id of [...request.FLAGS, "bonus_tiles", "explain", "expect"]) {
    $(id).addEventListener("change", (event) => { values[id] = event.target.checked; showValues(); changed(); });
  }
  $("bonus").addEventListener("change", (event) => {
    const { name: kind, value, checked } = event.target;
    const rest = values[kind].filter((n) => n !== Number(value));
    values[kind] = (checked ? [...rest, Number(value)] : rest).sort();
    changed();
  });
  $("clear").addEventListener("click", () => setHand(hands.empty()));
  $("add-hand").addEventListener("click", addScored);
  $("add-draw").addEventListener("click", () => updateSheet(sheets.add(sheet, { draw: true })));
  $("move-seats").addEventListener("click", () => updateSheet(sheets.move(sheet)));
  $("undo-hand").addEventListener("click", () => updateSheet(sheets.undo(sheet)));
  $("export").addEventListener("click", exportSheet);
  $("new-sheet").addEventListener("click", newSheet);
  $("claim").addEventListener("toggle", drawClaim);
  $("summary").addEventListener("click", () => $("answer").scrollIntoView({ block: "start" }));
  new IntersectionObserver(([entry]) => {
    answerInSight = entry.isIntersecting;
    showSummary();
  }, { threshold: 0.25 }).observe($("answer"));
  $("add-claim").addEventListener("click", addClaim);
  // A link opened in this tab changes only the part after #: the page follows it.
  window.addEventListener("hashchange", () => {
    readLink();
    showValues();
    drawHand();
    drawClaim();
    changed();
  });
  $("language").addEventListener("click", () => {
    const next = i18n.current() === "en" ? "zh" : "en";
    localStorage.setItem(LANGUAGE_KEY, next);
    relabel(next);
  });
}

function buildControls(payoffs) {
  $("modes").replaceChildren(...MODES.map((m) =>
    el("button", { type: "button", "data-mode": m, "data-i18n": m, "aria-pressed": String(m === mode), onclick: () => setMode(m) }, t(m))));
  $("palette").replaceChildren(...["m", "p", "s", "z"].map((suit) =>
    el("div", { class: "suit" }, KINDS.filter((tile) => tile[1] === suit).map((tile) =>
      render.tileButton(tile, { onclick: () => setHand(hands.add(hand, tile)) })))));
  $("bonus").replaceChildren(...["flowers", "seasons"].flatMap((kind) => [1, 2, 3, 4].map((n) =>
    el("label", {}, el("input", { type: "checkbox", name: kind, value: String(n) }), " ",
      el("span", { "data-i18n": kind === "flowers" ? "flower" : "season" }, t(kind === "flowers" ? "flower" : "season")), ` ${n}`))));
  fillSelects(payoffs);
}

// Everything drawn in words, again in the chosen language.
function relabel(language) {
  i18n.use(language);
  fillSelects([...$("payoff").options].map((option) => option.value));
  showValues();
  for (const button of $("palette").querySelectorAll("button")) button.setAttribute("aria-label", name(button.dataset.tile, language));
  $("new-sheet").textContent = t(clearing ? "new_sheet_again" : "new_sheet");
  drawHand();
  drawAnswers();
  drawPlayers();
  drawSheet();
  drawClaim();
  review.relabel();
}

// The position the address names (a fresh page's for what it leaves out).
function readLink() {
  values = link.fromHash(location.hash);
  hand = hands.read(values.text);
}

async function loadSprite(url) {
  const text = await (await fetch(url)).text();
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  $("sprite").append(document.importNode(svg, true));
}

async function start() {
  const assets = new URL(".", import.meta.url);
  const sprite = loadSprite(new URL("tiles.svg", assets));
  i18n.use(localStorage.getItem(LANGUAGE_KEY) ?? (navigator.language.startsWith("zh") ? "zh" : "en"));
  const offered = await request.get("/v1/rules");
  buildControls(offered.payoffs.map((p) => p.id));
  $("version").replaceChildren(...offered.versions.map((v) => el("option", { value: v }, v)));
  readLink();
  bind();
  review.start(busy);
  relabel(i18n.current());
  await sprite;
  if (sheet.hands.length) updateSheet(sheet);
  changed();
}

start();
