// The Review view: a hand record (a /v1/replay body) pasted or loaded, replayed by the API
// (reviewed for one seat on request), then stepped through event by event: the table drawn
// from the record (record.js), the reviewed seat's decisions with their grades and figures,
// each position a link into the calculator, and the hand's end as the API answered it.

import * as i18n from "./i18n.js";
import * as link from "./link.js";
import * as records from "./record.js";
import * as render from "./render.js";
import * as request from "./request.js";
import { isTile, name, spell } from "./tiles.js";

const { el } = render;
const { t } = i18n;
const $ = (id) => document.getElementById(id);

let replayed = null; // { body, tables, answer: {ok, body}, fault: event index or null, seat }
let step = 0;
let busy = () => {};

// ---- words ---------------------------------------------------------------------------------

const tileWords = (tiles) => spell(tiles).map((tile) => name(tile, i18n.current())).join(i18n.current() === "zh" ? "" : ", ");

// "South discards 9 of Characters": an event in the page's language.
export function eventWords(event) {
  const action = records.actionOf(event);
  const seat = records.SEATS.includes(event?.seat) ? t(event.seat) : JSON.stringify(event?.seat ?? event);
  if (action === null) return t("event_unknown", seat);
  const value = event[action];
  if (action === "draw" && value === null) return t("event_hidden_draw", seat);
  if (action === "flower" || action === "season") return t(`event_${action}`, seat, value);
  return t(`event_${action}`, seat, tileWords(String(value)));
}

// A decision's choice: a tile discarded, or what was done with a discard ("chow 345p").
function choice(played) {
  if (isTile(played)) return render.tileImage(played);
  const [action, tiles] = String(played).split(" ");
  return el("span", {}, t(`choice_${action}`), tiles ? [" ", render.tileRow(tiles)] : null);
}

// ---- the table after `step` events ----------------------------------------------------------

function tileOrBack(tile) {
  if (tile !== null) return render.tileImage(tile);
  return el("span", { class: "tile small", role: "img", "aria-label": t("hidden_tile") }, render.face("back"));
}

function seatView(seat, table, reviewed) {
  const s = table.seats[seat];
  const held = s.held ?? Array(Math.max(s.count, 0)).fill(null);
  const group = (key, children, attributes = {}) =>
    el("div", { class: "tiles inline", role: "group", "aria-label": `${t(seat)}: ${t(key)}`, ...attributes }, children);
  const melds = s.melds.map((meld) => el("span", { class: "meld-shown", "data-meld": meld.tiles.join("") },
    meld.tiles.map((tile, i) => tileOrBack(meld.kind === "concealed_kong" && (i === 0 || i === 3) ? null : tile))));
  const bonus = [...s.flowers.map((n) => `${t("flower")} ${n}`), ...s.seasons.map((n) => `${t("season")} ${n}`)];
  return el("div", { class: `seat-view${seat === reviewed ? " reviewed" : ""}`, "data-seat": seat },
    el("p", { class: "seat-name" }, t(seat), seat === "E" ? ` (${t("dealer")})` : "",
      table.winner === seat ? el("strong", { class: "won" }, ` · ${t("end_win")}`) : null,
      seat === reviewed ? el("span", { class: "reviewed-mark" }, ` · ${t("reviewed")}`) : null),
    group("held", held.map(tileOrBack), { "data-held": s.held ? s.held.join("") : "", "data-count": String(held.length) }),
    melds.length ? group("melds", melds, { "data-melds": "" }) : null,
    bonus.length ? el("p", { class: "help", "data-bonus": "" }, bonus.join(" · ")) : null,
    group("river", s.discards.map((d) => render.tileImage(d.tile)), { "data-discards": s.discards.map((d) => d.tile).join("") }));
}

// ---- the review ------------------------------------------------------------------------------

// The reviewed seat's part of the answer (API.md "review": per seat, summary and decisions).
const seatReview = (answer, seat) => answer?.review?.seats?.[seat] ?? null;

const percent = (p) => `${(p * 100).toFixed(2)}%`;

// A decision's figures, the played choice beside the best, one row each.
function figureTable(decision) {
  const rows = [
    ["shanten", (f) => f?.shanten],
    ["useful_remaining", (f) => f?.useful_remaining],
    ["expected_score", (f) => f?.expected?.expected_score],
    ["win_chance", (f) => (f?.expected?.win_probability === undefined ? undefined : percent(f.expected.win_probability))],
  ];
  const cell = (value, field, side) => el("td", { class: "num", "data-field": field, "data-side": side },
    value === undefined || value === null ? el("span", { "aria-label": t("none") }, "\u2014") : String(value));
  return el("table", { class: "figures-compared" },
    el("thead", {}, el("tr", {}, el("td", {}), el("th", { scope: "col", class: "num" }, t("played")), el("th", { scope: "col", class: "num" }, t("best")))),
    el("tbody", {}, rows.map(([key, read]) => el("tr", {},
      el("th", { scope: "row" }, t(key)),
      cell(read(decision.played_figures), key, "played"),
      cell(read(decision.best_figures), key, "best")))));
}

function decisionView(decision) {
  return el("div", { class: "decision", "data-event": String(decision.event), "data-grade": decision.grade },
    el("p", { class: "decision-head" },
      el("strong", { class: `grade grade-${decision.grade}`, "data-field": "grade" }, t(`grade_${decision.grade}`)),
      ` · ${t(`kind_${decision.kind}`)} · ${t("draws_left")} ${decision.draws_left}`),
    el("dl", { class: "figures" },
      el("dt", {}, t("played")), el("dd", { "data-field": "played" }, choice(decision.played)),
      el("dt", {}, t("best")), el("dd", { "data-field": "best" }, choice(decision.best)),
      el("dt", {}, t("fastest")), el("dd", { "data-field": "fastest" }, choice(decision.fastest)),
      el("dt", {}, t("rank")), el("dd", { "data-field": "rank" }, t("rank_of", decision.rank, decision.of)),
      el("dt", {}, t("loss")), el("dd", { "data-field": "loss" }, decision.loss === null ? t("none") : String(decision.loss))),
    figureTable(decision),
    el("a", { href: `#${link.fromPosition(decision.position)}`, class: "position", "data-position": String(decision.event),
              onclick: () => setTimeout(() => $("hand-heading").scrollIntoView({ block: "start" })) }, t("open_position")));
}

function summaryView(seat, part, model) {
  const { summary } = part;
  return el("div", { class: "review-summary", "data-seat": seat },
    el("h3", {}, t("review_of", t(seat))),
    el("dl", { class: "figures" },
      el("dt", {}, t("decisions")), el("dd", { "data-field": "decisions" }, String(summary.decisions)),
      el("dt", {}, t("assessed")), el("dd", { "data-field": "assessed" }, String(summary.assessed)),
      el("dt", {}, t("best_played")), el("dd", { "data-field": "best" }, String(summary.best)),
      el("dt", {}, t("expected_lost")), el("dd", { "data-field": "expected_lost" }, String(summary.expected_lost))),
    el("p", { class: "grades" }, Object.entries(summary.grades).map(([grade, n]) =>
      el("span", { class: `grade grade-${grade}`, "data-grade": grade }, `${t(`grade_${grade}`)} ${n}`))),
    el("table", { class: "decisions" },
      el("caption", { class: "help" }, t("decisions_help")),
      el("thead", {}, el("tr", {}, ["event", "played", "best", "loss", "grade"].map((key) =>
        el("th", { scope: "col", class: key === "loss" ? "num" : null }, t(key))))),
      el("tbody", {}, part.decisions.map((d) => el("tr", { "data-event": String(d.event), "aria-current": d.event === step ? "step" : null },
        el("th", { scope: "row" }, el("button", { type: "button", class: "go", "aria-label": t("go_to_event", d.event + 1), onclick: () => show(d.event) }, String(d.event + 1))),
        el("td", {}, choice(d.played)),
        el("td", {}, choice(d.best)),
        el("td", { class: "num" }, d.loss === null ? "\u2014" : String(d.loss)),
        el("td", {}, el("span", { class: `grade grade-${d.grade}` }, t(`grade_${d.grade}`))))))),
    el("p", { class: "help" }, t("model_limits", model)));
}

// ---- the end ---------------------------------------------------------------------------------

function endView(answer) {
  const words = el("p", { "data-end": answer.end }, el("strong", {}, t(`end_${answer.end}`)), " · ", t("wall_left", answer.wall_left));
  if (answer.end !== "win") return el("div", {}, words);
  return el("div", {}, words, render.score(answer.score, answer.request.hand.melds ?? []));
}

// ---- drawing ---------------------------------------------------------------------------------

function draw() {
  $("review-steps").hidden = replayed === null;
  $("review-end").replaceChildren();
  $("review-summary").replaceChildren();
  if (replayed === null) return;
  const { body, tables, answer, fault, seat } = replayed;
  const events = body.record.events;
  const last = tables.length - 1;
  $("step").max = String(last);
  $("step").value = String(step);
  $("step").setAttribute("aria-valuetext", step === 0 ? t("step_deal") : t("step_words", step, events.length));
  $("step-back").disabled = step === 0;
  $("step-next").disabled = step === last;
  const done = step === 0 ? t("step_deal") : t("step_done", step, events.length, eventWords(events[step - 1]));
  const coming = step < events.length
    ? el("p", { class: step === fault ? "problem" : "help", "data-next": String(step) },
        t("next_event", step + 1, eventWords(events[step])),
        step === fault ? `\n${problemWords(answer.body)}` : "")
    : null;
  $("step-words").replaceChildren(el("p", { "data-step": String(step) }, done), coming);
  const part = answer.ok && seat ? seatReview(answer.body, seat) : null;
  $("review-table").replaceChildren(...records.SEATS.map((s) => seatView(s, tables[step], seat)));
  $("review-decision").replaceChildren(...(part?.decisions ?? []).filter((d) => d.event === step).map(decisionView));
  if (part) $("review-summary").append(summaryView(seat, part, answer.body.review.model));
  if (answer.ok) $("review-end").append(endView(answer.body));
}

function problemWords(problem) {
  const messages = problem.errors?.length ? problem.errors : [{ path: "", message: problem.detail }];
  return messages.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join("\n");
}

function show(at) {
  step = Math.max(0, Math.min(at, replayed.tables.length - 1));
  draw();
}

function showError(words) {
  $("review-error").textContent = words;
  $("review-error").hidden = !words;
  if (words) $("review-record").setAttribute("aria-invalid", "true");
  else $("review-record").removeAttribute("aria-invalid");
}

// ---- asking ----------------------------------------------------------------------------------

function asked() {
  let body;
  try {
    body = records.body($("review-record").value);
  } catch (error) {
    return { problem: `${t("record_not_json")} ${error.message}` };
  }
  if (!body?.record || !Array.isArray(body.record.events)) return { problem: t("record_not_record") };
  const seat = $("review-seat").value;
  // The seat picked here decides the review, whatever the pasted body asked.
  const { review: _pasted, ...rest } = body;
  if (!seat) return { body: rest, seat: null };
  const expect = { discard_rate: $("review-rate").valueAsNumber || 0, objective: $("review-objective").value };
  return { body: { ...rest, review: { seats: [seat], expect } }, seat };
}

async function replay() {
  const { body, seat, problem } = asked();
  showError(problem ?? "");
  if (problem) {
    replayed = null;
    return draw();
  }
  busy("review", true);
  $("replay").disabled = true;
  const answer = await request.post("replay", body);
  $("replay").disabled = false;
  busy("review", false);
  // A record refused at an event is shown up to that event, the fault pointed at; refused
  // elsewhere (its deal, its rules), it is not stepped through.
  const fault = answer.ok ? null : (answer.body.errors ?? []).map((e) => records.eventAt(e.path)).find((n) => n !== null) ?? null;
  if (!answer.ok) showError(problemWords(answer.body));
  if (!answer.ok && fault === null) {
    replayed = null;
    return draw();
  }
  const events = fault === null ? body.record.events : body.record.events.slice(0, fault);
  replayed = { body, tables: records.tables({ ...body.record, events }), answer, fault, seat };
  step = fault ?? 0;
  draw();
}

// The seats a review can judge: those whose deal is known.
function offerSeats() {
  let deal = null;
  try {
    deal = records.body($("review-record").value)?.record?.deal ?? null;
  } catch {
    // not JSON yet: every seat offered; the API says what is wrong once replayed
  }
  const chosen = $("review-seat").value;
  $("review-seat").replaceChildren(el("option", { value: "" }, t("no_review")),
    ...records.SEATS.map((seat) => el("option", { value: seat, disabled: deal !== null && deal[seat] === null }, t(seat))));
  $("review-seat").value = chosen;
  $("review-expect").hidden = !$("review-seat").value;
}

function fillObjectives() {
  const chosen = $("review-objective").value || "expected_score";
  $("review-objective").replaceChildren(...["expected_score", "win_probability"].map((o) => el("option", { value: o }, t(`objective_${o}`))));
  $("review-objective").value = chosen;
}

// Everything drawn in words, again in the page's language.
export function relabel() {
  offerSeats();
  fillObjectives();
  draw();
}

export function start(markBusy) {
  busy = markBusy;
  $("review-seat").addEventListener("change", () => { $("review-expect").hidden = !$("review-seat").value; });
  $("review-record").addEventListener("input", offerSeats);
  $("review-file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (!file) return;
    $("review-record").value = await file.text();
    offerSeats();
  });
  $("replay").addEventListener("click", replay);
  $("step-back").addEventListener("click", () => show(step - 1));
  $("step-next").addEventListener("click", () => show(step + 1));
  $("step").addEventListener("input", (event) => show(Number(event.target.value)));
  relabel();
}
