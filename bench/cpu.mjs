#!/usr/bin/env node
/**
 * `node bench/cpu.mjs` (also run by `npm run bench`): CPU time per request, per route, and what it means for
 * throughput per isolate and per organization at the spec's rate limits (issue 23, item 5).
 *
 * One `wrangler dev` in the production rate-limit mode (lease), provisioned as run.mjs does. For GET /health
 * (bare host), GET /me and every scenario request (bench/scenarios/<area>.mjs, with each area's setup), after a
 * warm-up: CPU_REQUESTS requests one after another (one connection, so nothing overlaps), then a short settle
 * so work the requests left to waitUntil (audit rows, usage, archive copies) is counted too. The CPU is read
 * from Linux's per-thread scheduler statistics (/proc/<pid>/task/<tid>/schedstat, nanoseconds on the CPU)
 * of every workerd process in wrangler's process group, before and after; the idle rate of the same
 * processes, sampled first, is subtracted.
 *
 * What this counts: everything workerd did for the request, which locally includes the simulators of D1, R2,
 * the Durable Objects and Queues (they run inside the same workerd process), the HTTP parsing and
 * wrangler's entry worker. In production the storage work runs on other machines and is not billed to the
 * Worker, so the figure is an upper bound of the Worker's own CPU time; "over /health" takes off the fixed
 * cost every request pays here. The engines' own in-process times are in bench/results/classify.md and
 * index-snapshots.md.
 *
 * (The V8 sampling profiler of the Worker's isolate, read through wrangler's inspector, was tried as a
 * Worker-only measure: it attributes to the isolate about what the whole process used, GET /health included,
 * so it separates nothing here and is not used.)
 *
 * Writes bench/results/cpu.md and prints it. Linux only (it reads /proc). CPU_REQUESTS (200) sets the requests
 * per route, BENCH_SCENARIOS=screen,... the areas.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CPU_REPORT } from "./offline-reports.mjs";
import {
  BENCH_DIR,
  ENV_FILE,
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
  scenarioCall,
  startWrangler,
  WORKSPACE_HOST,
  wranglerGroup,
} from "./run.mjs";

const REQUESTS = positive("CPU_REQUESTS", 200);
const WARM = 20;
const SETTLE_MS = 500;
const OUT = join(BENCH_DIR, "results", CPU_REPORT);
/** The spec's organization limit on all API endpoints: 2,000 requests per 10 seconds. */
const ORG_LIMIT_PER_S = 200;
/** The spec's consignment-create limit: 300 per 10 seconds. */
const CREATE_LIMIT_PER_S = 30;

function positive(name, fallback) {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Nanoseconds on the CPU of every thread of every workerd process in wrangler's process group. */
function workerdCpuNs() {
  const pgid = wranglerGroup();
  if (!pgid) throw new Error("wrangler is not running");
  let ns = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp !== pgid || comm !== "workerd") continue;
      for (const tid of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // a thread or process that ended meanwhile
    }
  }
  return ns;
}

/** CPU ns per ms of wall time the workerd processes use while nothing is asked of them. */
async function idleRate() {
  const c0 = workerdCpuNs();
  const t0 = performance.now();
  await sleep(2000);
  return (workerdCpuNs() - c0) / (performance.now() - t0);
}

async function call(token, { host, method = "GET", path, body }, timeoutMs = undefined) {
  const headers = { host: host ?? WORKSPACE_HOST };
  if (token) headers.authorization = `Bearer ${token}`;
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (text !== undefined) headers["content-type"] = "application/json";
  const t0 = performance.now();
  const res = await httpCall({ method, path, headers, body: text, timeoutMs });
  const elapsed = performance.now() - t0;
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return elapsed;
}

async function measure(token, request, idle) {
  // The first request of an area may build its index (a classification index on a fresh state takes seconds):
  // it has the priming timeout, as in run.mjs, and like every warm-up request it is not measured.
  for (let i = 0; i < WARM; i++) await call(token, request, i === 0 ? PRIME_TIMEOUT_MS : undefined);
  await sleep(SETTLE_MS);
  const c0 = workerdCpuNs();
  const t0 = performance.now();
  const walls = [];
  for (let i = 0; i < REQUESTS; i++) walls.push(await call(token, request));
  await sleep(SETTLE_MS);
  const elapsed = performance.now() - t0;
  const cpuMs = Math.max(0, workerdCpuNs() - c0 - idle * elapsed) / 1e6 / REQUESTS;
  walls.sort((a, b) => a - b);
  return { cpuMs, wallP50: walls[Math.floor(walls.length / 2)] };
}

function markdown(rows, health, idle, startedAt) {
  const f = (v, d = 2) => v.toFixed(d);
  const own = (r) => Math.max(0.01, r.cpuMs - health.cpuMs);
  const lines = [
    "# CPU time per request",
    "",
    `Command: \`node bench/cpu.mjs\` (also run by \`npm run bench\`); ${REQUESTS} sequential requests per route after ${WARM} warm-up requests, one \`wrangler dev\` in lease mode (production's rate-limit setting); ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    `- **CPU ms / request**: every workerd thread's time on the CPU over the requests and a ${SETTLE_MS} ms settle after them (so work left to \`waitUntil\` counts), from Linux's scheduler statistics, less the processes' idle rate (${f(idle / 1e3, 3)} ms per second). Locally that includes the simulators of D1, R2, the Durable Objects and Queues, which run inside the same workerd process, and the HTTP handling; production runs the storage elsewhere and does not bill it to the Worker, so this is an **upper bound** of the Worker's CPU time. **Over /health** takes off what every request pays here (connection, HTTP parsing, wrangler's entry worker).`,
    "- **requests/s per isolate**: an isolate runs one request's JavaScript at a time, so one that only served this route would be CPU-bound at 1,000 / (over /health) requests a second. **Isolates busy at the org limit**: an organization sending only this request at the spec's 2,000 requests per 10 s (200/s; every API request shares that bucket) keeps this many isolates' worth of CPU busy.",
    "",
    "| area | route | wall p50 ms | CPU ms / request | over /health | requests/s per isolate (CPU-bound) | isolates busy at the org limit |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  lines.push(`| - | ${health.label} | ${f(health.wallP50)} | ${f(health.cpuMs)} | - | - | - |`);
  for (const r of rows)
    lines.push(
      `| ${r.area} | ${r.label} | ${f(r.wallP50)} | ${f(r.cpuMs)} | ${f(r.cpuMs - health.cpuMs)} | ${Math.floor(1000 / own(r)).toLocaleString("en-US")} | ${f((ORG_LIMIT_PER_S * own(r)) / 1000)} |`,
    );
  const create = rows.find((r) => /POST \/consignments \(/.test(r.label));
  if (create)
    lines.push(
      "",
      `Consignment create also has its own limit of 300 per 10 s (30/s): ${f((CREATE_LIMIT_PER_S * own(create)) / 1000)} isolates busy at that rate.`,
    );
  lines.push("");
  return lines.join("\n");
}

async function main() {
  const startedAt = new Date();
  const releasePort = await holdPort(PORT);
  const secrets = freshState();
  writeFileSync(ENV_FILE, `${readFileSync(ENV_FILE, "utf8").trimEnd()}\nRATE_LIMIT_MODE=lease\n`, { mode: 0o600 });
  prepareDatabase();
  await releasePort();
  await startWrangler(await freePort());
  const token = await provision(secrets);
  const idle = await idleRate();
  log(`idle workerd CPU: ${(idle / 1e3).toFixed(3)} ms per second`);
  const health = {
    area: "-",
    label: "GET /health (bare host)",
    ...(await measure(null, { host: `localhost:${PORT}`, path: "/health" }, idle)),
  };
  const rows = [
    {
      area: "-",
      label: "GET /admin/api/v1/me (full chain)",
      ...(await measure(token, { path: "/admin/api/v1/me" }, idle)),
    },
  ];
  for (const sc of await loadScenarios()) {
    const context =
      typeof sc.setup === "function"
        ? await sc.setup({ call: (method, path, body) => scenarioCall(token, method, path, body) })
        : undefined;
    for (const r of sc.requests(context)) {
      log(`cpu: ${r.label}`);
      rows.push({ area: sc.area, label: r.label, ...(await measure(token, r, idle)) });
    }
    if (typeof sc.teardown === "function") await sc.teardown(context);
  }
  return markdown(rows, health, idle, startedAt);
}

runReport("the CPU bench", 15, OUT, main);
