// A hand record (API.md "Hand records") played out in the browser, event by event: each
// seat's tiles held, its melds, its discards still on the table and its bonus tiles. The
// record is checked by POST /v1/replay, not here: this only follows it, so that the Review
// view can show the table after any event.

import { byOrder, spell } from "./tiles.js";

export const SEATS = ["E", "S", "W", "N"];
export const CLAIMS = ["chow", "pung", "kong"];
export const ACTIONS = ["draw", "discard", ...CLAIMS, "concealed_kong", "added_kong", "flower", "season", "win"];

// An event's action: the one field besides the seat (and a hidden winner's tiles).
export const actionOf = (event) =>
  (event !== null && typeof event === "object" ? ACTIONS.find((action) => action in event) : null) ?? null;

// The table as dealt: a hidden seat (deal null) knows only how many tiles it holds.
export function deal(record) {
  const seats = {};
  SEATS.forEach((seat, i) => {
    const dealt = record.deal?.[seat] ?? null;
    const held = dealt === null ? null : spell(dealt);
    seats[seat] = { held, count: held?.length ?? (i === 0 ? 14 : 13), melds: [], discards: [], flowers: [], seasons: [] };
  });
  return { seats, last: null, adding: null, winner: null, won: null };
}

// A copy of the seat's held tiles without `tiles`; a hidden seat's count only.
function take(seat, tiles) {
  seat.count -= tiles.length;
  if (seat.held === null) return;
  for (const tile of tiles) {
    const at = seat.held.indexOf(tile);
    if (at >= 0) seat.held.splice(at, 1);
  }
}

function give(seat, tile) {
  seat.count += 1;
  if (seat.held !== null && tile) seat.held.push(tile);
}

// The table after one more event (the one before is left as it was).
export function apply(table, event) {
  const next = {
    ...table,
    seats: Object.fromEntries(SEATS.map((seat) => {
      const s = table.seats[seat];
      return [seat, { ...s, held: s.held && [...s.held], melds: s.melds.map((m) => ({ ...m })), discards: s.discards.map((d) => ({ ...d })),
                      flowers: [...s.flowers], seasons: [...s.seasons] }];
    })),
  };
  const seat = next.seats[event.seat];
  if (!seat) return next;
  const action = actionOf(event);
  const value = event[action];
  // A discard may be claimed, and an added kong's tile robbed, only by the next event.
  const { last, adding } = next;
  next.last = null;
  next.adding = null;
  if (action === "draw") give(seat, value);
  else if (action === "discard") {
    take(seat, [value]);
    seat.discards.push({ tile: value });
    next.last = { seat: event.seat, tile: value };
  } else if (CLAIMS.includes(action)) {
    // The claimed discard leaves the table for the meld; the rest of the meld was held.
    const meld = spell(value);
    const rest = [...meld];
    if (last) {
      next.seats[last.seat].discards.pop();
      rest.splice(rest.indexOf(last.tile), 1);
    }
    take(seat, rest);
    seat.melds.push({ kind: action, tiles: meld });
  } else if (action === "concealed_kong") {
    take(seat, spell(value));
    seat.melds.push({ kind: "concealed_kong", tiles: spell(value) });
  } else if (action === "added_kong") {
    take(seat, [value]);
    const pung = seat.melds.find((m) => m.kind === "pung" && m.tiles[0] === value);
    if (pung) Object.assign(pung, { kind: "kong", tiles: [...pung.tiles, value] });
    next.adding = { seat: event.seat, tile: value };
  } else if (action === "flower" || action === "season") {
    seat[`${action}s`].push(value);
  } else if (action === "win") {
    // A win on a discard takes it off the table, a robbed kong is a pung again; a hidden
    // winner shows the tiles it held (the won tile among them).
    if (last && last.seat !== event.seat) {
      next.seats[last.seat].discards.pop();
      give(seat, value);
    } else if (adding && adding.seat !== event.seat) {
      const kong = next.seats[adding.seat].melds.find((m) => m.kind === "kong" && m.tiles[0] === adding.tile);
      if (kong) Object.assign(kong, { kind: "pung", tiles: kong.tiles.slice(1) });
      give(seat, value);
    }
    if (event.tiles) seat.held = spell(event.tiles);
    next.winner = event.seat;
    next.won = value;
  }
  if (seat.held) seat.held.sort(byOrder);
  return next;
}

// The table before the first event and after each: tables[n] is the table after n events.
export function tables(record) {
  const played = [deal(record)];
  for (const event of record.events ?? []) played.push(apply(played.at(-1), event));
  return played;
}

// The event a problem's path names ("record.events[7].discard" -> 7); null for another path.
export function eventAt(path) {
  const found = /^record\.events\[(\d+)\]/.exec(path ?? "");
  return found ? Number(found[1]) : null;
}

// A /v1/replay body from what a person pasted: the body, or the record alone.
export function body(text) {
  const parsed = JSON.parse(text);
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed) && !("record" in parsed) && "events" in parsed) return { record: parsed };
  return parsed;
}
