#!/usr/bin/env node
import { join } from "node:path";
import {
  BENCH_DIR,
  freePort,
  freshState,
  holdPort,
  httpCall,
  loadScenarios,
  log,
  PORT,
  PRIME_TIMEOUT_MS,
  prepareDatabase,
  provision,
  runReport,
  startWrangler,
  stopWrangler,
  WORKSPACE_HOST,
} from "./run.mjs";

// COLD_START_AREAS=classify,screen measures only those (a quicker look at one change).
const AREAS = process.env.COLD_START_AREAS?.split(",").map((a) => a.trim()) ?? [
  "classify",
  "screen",
  "restrict",
  "calculate",
];
const ROUNDS = positive("COLD_START_ROUNDS", 3);
const WARM = positive("COLD_START_WARM", 15);
/** The goal of issue 23: a cold isolate's first request costs at most this much more than a warm one. */
const GOAL_MS = 100;
const OUT = join(BENCH_DIR, "results", "cold-start.md");

function positive(name, fallback) {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const ms = (v) => v.toFixed(0);

async function timed(token, { method, path, body }) {
  const headers = { host: WORKSPACE_HOST, authorization: `Bearer ${token}` };
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (text !== undefined) headers["content-type"] = "application/json";
  const t0 = performance.now();
  // A first request after a data load builds the area's index: it may take the priming timeout (run.mjs).
  const res = await httpCall({ method: method ?? "GET", path, headers, body: text, timeoutMs: PRIME_TIMEOUT_MS });
  const elapsed = performance.now() - t0;
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return elapsed;
}

/** First call, then the warm median, on the server just started. */
async function firstAndWarm(token, request) {
  const first = await timed(token, request);
  const warm = [];
  for (let i = 0; i < WARM; i++) warm.push(await timed(token, request));
  return { first, warm: median(warm) };
}

async function setUp() {
  const releasePort = await holdPort(PORT);
  const secrets = freshState();
  prepareDatabase();
  await releasePort();
  return secrets;
}

async function measureArea(secrets, request) {
  await startWrangler(await freePort());
  const token = await provision(secrets);
  const afterLoad = await firstAndWarm(token, request);
  // Work the first isolate left to waitUntil (storing what it built) finishes before it is stopped.
  await new Promise((r) => setTimeout(r, 2000));
  await stopWrangler();
  await startWrangler(await freePort(), { keepState: true });
  await timed(token, { method: "GET", path: "/admin/api/v1/me" });
  const restart = await firstAndWarm(token, request);
  await stopWrangler();
  return { afterLoad, restart };
}

/**
 * wrangler dev rebuilds and restarts the Worker when a source file changes; a request caught by that restart
 * answers 503 and the round is measured again on a new server.
 */
async function withRetry(round) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await round();
    } catch (err) {
      await stopWrangler();
      if (attempt >= 3 || !/restarted mid-request/.test(String(err?.message))) throw err;
      log(`the Worker restarted mid-request (a source file changed?); measuring the round again`);
    }
  }
}

function markdown(results, startedAt) {
  const deltaOf = (rounds, kind) => median(rounds.map((r) => r[kind].first - r[kind].warm));
  const each = (rounds, kind) => rounds.map((r) => `${ms(r[kind].first)} / ${ms(r[kind].warm)}`).join("; ");
  const lines = [
    "# Cold start: an area's first request on a fresh isolate",
    "",
    `Command: \`node bench/cold-start.mjs\` (also run by \`npm run bench\`); ${ROUNDS} rounds, warm median of ${WARM} requests; ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    "Each round starts `wrangler dev` (a new workerd process, so a new isolate) twice per area: **after load** on a fresh copy of the prepared state (reference data loaded into D1 directly, nothing derived from it stored), then **restart** on the state that server left (prebuilt indexes it stored included: the production case after a dataset activation). Before the timed request the chain is warmed (provisioning, or GET /me), so the difference is the area's own first-use cost. Requests: the first of each `bench/scenarios/<area>.mjs`.",
    "",
    "| area | request | start | first − warm ms (median of rounds) | rounds: first / warm median ms |",
    "| --- | --- | --- | ---: | --- |",
  ];
  const verdicts = [];
  for (const { area, label, rounds } of results) {
    lines.push(
      `| ${area} | ${label} | after load | ${ms(deltaOf(rounds, "afterLoad"))} | ${each(rounds, "afterLoad")} |`,
      `| ${area} | ${label} | restart | ${ms(deltaOf(rounds, "restart"))} | ${each(rounds, "restart")} |`,
    );
    const d = deltaOf(rounds, "restart");
    verdicts.push(`${area} ${ms(d)} ms${d <= GOAL_MS ? "" : " (over)"}`);
  }
  lines.push("", `Goal (issue 23): first − warm ≤ ${GOAL_MS} ms on a restarted Worker: ${verdicts.join(", ")}.`, "");
  return lines.join("\n");
}

async function main() {
  const startedAt = new Date();
  const scenarios = new Map((await loadScenarios()).map((sc) => [sc.area, sc]));
  const secrets = await setUp();
  const results = [];
  for (const area of AREAS) {
    const sc = scenarios.get(area);
    if (!sc) throw new Error(`bench/scenarios/${area}.mjs is missing`);
    const [request] = sc.requests();
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      log(`cold start: ${area}, round ${i + 1} of ${ROUNDS}`);
      rounds.push(await withRetry(() => measureArea(secrets, request)));
    }
    results.push({ area, label: request.label, rounds });
  }
  return markdown(results, startedAt);
}

runReport("the cold-start bench", 20, OUT, main);
