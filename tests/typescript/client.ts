// A TypeScript app calling the service as an integrator would: the types are generated from
// openapi.yaml by openapi-typescript (schema.d.ts), the calls made by openapi-fetch, both at
// their default settings. tests/test_typescript.py compiles it with strict tsc and runs it
// against a live server: `node build/client.js http://127.0.0.1:PORT`. Any mismatch throws,
// and node exits non-zero.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const baseUrl = process.argv[2];
if (baseUrl === undefined) throw new Error("usage: node build/client.js BASE_URL");
const client = createClient<paths>({ baseUrl });

function expect(what: string, got: unknown, wanted: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(wanted)) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(wanted)}`);
  }
}

async function main(): Promise<void> {
  // A score request naming only what it must: every flag and rule left to its default.
  const scored = await client.POST("/v1/score", {
    body: {
      hand: { tiles: "123m789p23455s", melds: [{ kind: "pung", tiles: "777z" }], winning_tile: "4s" },
      win: { by: "discard", seat: "S", discarder: "W" },
    },
  });
  if (scored.data === undefined) throw new Error(`score: ${JSON.stringify(scored.error)}`);
  expect("score", scored.data.score, 10);
  expect("payments", scored.data.payments, { E: -10, S: 30, W: -10, N: -10 });
  const first = scored.data.patterns[0];
  expect("first pattern", first?.id, "3.1");

  const waits = await client.POST("/v1/waits", {
    body: { hand: { tiles: "123m456p789s2355s" }, win: { seat: "S" } },
  });
  if (waits.data === undefined) throw new Error(`waits: ${JSON.stringify(waits.error)}`);
  expect("waits", waits.data.waits.map((wait) => wait.tile), ["1s", "4s"]);
  expect("shanten", waits.data.shanten, 0);

  // An expected score: each discard's chance to win and the score to expect, typed.
  const melds = [
    { kind: "chow" as const, tiles: "123m" },
    { kind: "chow" as const, tiles: "456p" },
    { kind: "pung" as const, tiles: "777z" },
  ];
  const expected = await client.POST("/v1/discards", {
    body: { hand: { tiles: "2355s9s", melds }, win: { seat: "S" }, expect: { draws_left: 2, discard_rate: 0.5 } },
  });
  if (expected.data === undefined) throw new Error(`expect: ${JSON.stringify(expected.error)}`);
  expect("model", expected.data.expectation?.model, "solo-v1");
  const best = expected.data.discards[0];
  expect("best discard", best?.tile, "9s");
  const figures = best?.expected;
  if (figures === undefined || figures === null) throw new Error("the best discard has no figures");
  const ways = figures.win_by.self_draw + figures.win_by.discard;
  expect("win_by sums to win_probability", Math.abs(ways - figures.win_probability) <= 2e-4, true);

  const batch = await client.POST("/v1/score/batch", {
    body: {
      items: [
        { hand: { tiles: "19m19p19s12345677z", winning_tile: "7z" }, win: { by: "self_draw", seat: "E" } },
        { hand: { tiles: "123m" }, win: { by: "self_draw", seat: "E" } },
      ],
    },
  });
  if (batch.data === undefined) throw new Error(`batch: ${JSON.stringify(batch.error)}`);
  expect("batch statuses", batch.data.results.map((result) => result.status), [200, 422]);

  // A 422: the problem document, typed, with the path of the field at fault.
  const refused = await client.POST("/v1/score", {
    body: { hand: { tiles: "123m789p2345s8z", winning_tile: "4s" }, win: { by: "self_draw", seat: "E" } },
  });
  expect("422 status", refused.response.status, 422);
  if (refused.error === undefined) throw new Error("a bad hand was scored");
  expect("422 code", refused.error.code, "invalid_request");
  expect("422 path", refused.error.errors.map((error) => error.path), ["hand.tiles"]);
  console.log("typescript client: score, waits, expected scores, batch and a 422 as typed");
}

await main();
