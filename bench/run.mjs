#!/usr/bin/env node
/**
 * `npm run bench`: how much the full middleware chain costs compared with the bare route, measured in
 * one run against a local `wrangler dev`.
 *
 *  1. wipes bench/.state, applies the D1 migrations (and the reference data, when scripts/load-data.mjs
 *     exists) into a template there, and starts `wrangler dev` on 127.0.0.1:8799 on a fresh copy of it (again
 *     for every measured segment: the baselines, then each area, in each rate-limit mode) with fresh random
 *     secrets passed through --env-file (which makes wrangler skip .dev.vars entirely), so the developer's
 *     .wrangler/state and .dev.vars are never used. wrangler's own per-request dev tooling (the local
 *     trace collector and the per-request log line) is off unless BENCH_WRANGLER_DEFAULTS=1;
 *  2. provisions a `bench` workspace, lifts its `api` rate limit out of the way, creates an API client
 *     and gets an access token, through the platform API and the token endpoint;
 *  3. drives load with autocannon from this process (workerd is a separate process): for GET /health on
 *     the bare host (the ceiling) and GET /admin/api/v1/me on the workspace host (the whole chain), a
 *     throughput phase and a single-connection latency phase, each after a warm-up;
 *  4. writes bench/RESULTS.md and prints the same summary. Exits non-zero, leaving RESULTS.md as it was,
 *     if any request was not 2xx or if the Worker's sources changed during the run (wrangler would have
 *     rebuilt and restarted it mid-measurement).
 *
 * Environment overrides (all optional): BENCH_PORT (8799), BENCH_CONNECTIONS (10),
 * BENCH_THROUGHPUT_SECONDS (8), BENCH_LATENCY_SECONDS (5), BENCH_WARMUP_SECONDS (2), BENCH_LATENCY_ROUNDS (5),
 * BENCH_WRANGLER_DEFAULTS (unset; 1 keeps wrangler's local tracing and request logging on).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  accessSync,
  closeSync,
  cpSync,
  existsSync,
  constants as fsConstants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import os from "node:os";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { COLD_START_REPORT, CPU_REPORT, offlineReports } from "./offline-reports.mjs";

const require = createRequire(import.meta.url);
const autocannon = require("autocannon");

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH_DIR, "..");
const STATE_DIR = join(BENCH_DIR, ".state", String(intFromEnv("BENCH_PORT", 8799)));
const ENV_FILE = join(STATE_DIR, "bench.env");
/** Migrated, with the reference data loaded: prepared once, then copied fresh for every server start. */
const TEMPLATE_DIR = join(STATE_DIR, "template");
/**
 * What the running server persists into (a fresh copy of TEMPLATE_DIR each time). In memory (/dev/shm) where
 * the machine has it: the local R2 and D1 simulators create, write and rename a file for every archived body
 * and commit SQLite pages on the Worker's thread, and on a shared virtual disk those calls take a varying
 * 0.3 ms or more each (file creation alone, measured with strace), host I/O that production's R2 and D1 do
 * not put on the Worker. `BENCH_RUN_DIR` chooses another place (`BENCH_RUN_DIR=bench/.state/run` measures on
 * the disk).
 */
const { dir: RUN_DIR, created: RUN_ROOT } = runDir();
const WRANGLER_LOG = join(STATE_DIR, "wrangler.log");
const RESULTS_FILE = join(BENCH_DIR, "RESULTS.md");

/** The run directory, and the directory the bench creates for it (removed at the end; never a parent it did not create). */
function runDir() {
  if (process.env.BENCH_RUN_DIR) {
    const dir = resolve(ROOT, process.env.BENCH_RUN_DIR);
    return { dir, created: dir };
  }
  try {
    accessSync("/dev/shm", fsConstants.W_OK);
    const created = join("/dev/shm", `trade-compliance-api-bench-${intFromEnv("BENCH_PORT", 8799)}`);
    return { dir: join(created, "run"), created };
  } catch {
    const dir = join(STATE_DIR, "run");
    return { dir, created: dir };
  }
}
const WRANGLER_CLI = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const LOAD_DATA = join(ROOT, "scripts", "load-data.mjs");
/** What wrangler dev bundles or reads: a change to any of these during the run makes it rebuild the Worker. */
const WATCHED = ["src", "wrangler.jsonc", "package.json", "tsconfig.json"];

const IP = "127.0.0.1";
const PORT = intFromEnv("BENCH_PORT", 8799);
const BARE_HOST = `localhost:${PORT}`;
const SLUG = "bench";
const WORKSPACE_HOST = `${SLUG}.localhost:${PORT}`;
const BASE_URL = `http://${IP}:${PORT}`;

/** Length of the /health latency sample taken right before each route's own latency phase. */
const ADJACENT_BASELINE_SECONDS = 2;

/**
 * Shorter phases for the scenario routes (there are many), the same shape as for /health and /me. Their
 * latency is measured in rounds, each an adjacent /health sample then the route: one window is at the mercy
 * of a passing disturbance on a shared 2-core host (the local R2 and D1 simulators run on the Worker's
 * thread), so the ratio reported is the median of the rounds' ratios, every round listed beside it. Five
 * rounds of 1 s + 2 s rather than three of 2 s + 3 s: the same time per route, a few hundred responses per
 * sample (enough for a p50), and a median that two disturbed rounds cannot move instead of one.
 */
const SCENARIO_SETTINGS = {
  throughputSeconds: 4,
  latencySeconds: 2,
  adjacentSeconds: 1,
  warmupSeconds: 1,
  latencyRounds: intFromEnv("BENCH_LATENCY_ROUNDS", 5),
};

const SETTINGS = {
  connections: intFromEnv("BENCH_CONNECTIONS", 10),
  throughputSeconds: intFromEnv("BENCH_THROUGHPUT_SECONDS", 8),
  latencySeconds: intFromEnv("BENCH_LATENCY_SECONDS", 5),
  warmupSeconds: intFromEnv("BENCH_WARMUP_SECONDS", 2),
  latencyWarmupSeconds: 1,
  settleMs: 1000,
  pipelining: 1,
  requestTimeoutSeconds: 10,
};

/**
 * wrangler dev adds per-request work of its own that is not the Worker's: a local observability collector
 * that streams every invocation's trace (one span per D1/DO call) into a SQLite trace store, and an info
 * log line per request printed by its Node process. Both are off by default so that the numbers are the
 * Worker's; BENCH_WRANGLER_DEFAULTS=1 measures with them.
 */
const WRANGLER_DEFAULTS = process.env.BENCH_WRANGLER_DEFAULTS === "1";

/** Goals for the full chain, relative to the bare route measured in the same run. */
const GOALS = { minThroughputRatio: 0.6, maxAddedP50Ms: 1 };

const STARTUP_TIMEOUT_MS = 90_000;
const WATCHDOG_MS = 1_800_000; // scenarios, their latency rounds and their quality reports included

// Variables wrangler would otherwise take from this process's environment (it merges process.env into
// the worker's vars and secrets when the config declares `secrets`), or that change which files it loads.
const SCRUBBED_ENV = [
  "PLATFORM_ADMIN_TOKEN",
  "TOKEN_SIGNING_SECRET",
  "WEBHOOK_SECRET_KEYS",
  "WORKSPACE_BASE_DOMAIN",
  "TOKEN_TTL_SECONDS",
  "RATE_LIMIT_MODE",
  "ENVIRONMENT",
  "CLOUDFLARE_ENV",
  "CLOUDFLARE_INCLUDE_PROCESS_ENV",
  "CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV",
];

function intFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return n;
}

export function log(msg) {
  process.stdout.write(`[bench] ${msg}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------
// Process lifecycle: wrangler runs in its own process group so that it and its workerd children can be
// stopped together, on success, on error, on Ctrl-C and on the watchdog.

let wrangler = null;
let wranglerExited = false;
let cleaningUp = null;

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs a measuring script's `main` (which returns its report as markdown) under a watchdog, writes the report
 * to `out` and prints it, and stops wrangler whatever happens (bench/cold-start.mjs, bench/cpu.mjs).
 */
export function runReport(what, minutes, out, main) {
  const watchdog = setTimeout(() => fail(`${what} did not finish within ${minutes} minutes`), minutes * 60_000);
  main().then(
    async (text) => {
      clearTimeout(watchdog);
      await cleanup();
      writeFileSync(out, text);
      process.stdout.write(`\n${text}\n`);
      process.exit(0);
    },
    (err) => fail(err?.stack ?? String(err)),
  );
}

/** The process group of the running `wrangler dev` (wrangler and its workerd children), or null. */
export function wranglerGroup() {
  return wrangler?.pid ?? null;
}

export async function stopWrangler() {
  if (!wrangler) return;
  const pgid = wrangler.pid;
  if (groupAlive(pgid)) {
    log("stopping wrangler dev");
    signalGroup(pgid, "SIGTERM");
    for (let i = 0; i < 50 && groupAlive(pgid); i++) await sleep(100);
    if (groupAlive(pgid)) {
      log("wrangler did not stop within 5 s; killing it");
      signalGroup(pgid, "SIGKILL");
      for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(100);
    }
  }
  wrangler = null;
}

/** The run directory may be in memory: it goes when the bench ends. */
function removeRunDir() {
  rmSync(RUN_ROOT, { recursive: true, force: true });
}

export function cleanup() {
  cleaningUp ??= stopWrangler().finally(removeRunDir);
  return cleaningUp;
}

export async function fail(message, code = 1) {
  process.stderr.write(`[bench] FAILED: ${message}\n`);
  await cleanup();
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    process.stderr.write(`\n[bench] ${signal}: stopping\n`);
    cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}
process.on("exit", () => {
  // Last resort if something exits without going through cleanup().
  if (wrangler && groupAlive(wrangler.pid)) signalGroup(wrangler.pid, "SIGKILL");
});

/** Run as `node bench/run.mjs` (not imported by bench/cold-start.mjs for its helpers). */
const IS_MAIN = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;

const watchdog = IS_MAIN
  ? setTimeout(() => {
      fail(`the bench did not finish within ${WATCHDOG_MS / 1000} s`);
    }, WATCHDOG_MS)
  : undefined;

// ---------------------------------------------------------------------------------------------------
// Setup

/**
 * Fails unless the port is free, and keeps it bound until wrangler is about to start, so that a second
 * bench started meanwhile fails here instead of wiping this run's state.
 */
export function holdPort(port) {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", (err) =>
      reject(
        new Error(`port ${port} on ${IP} is not free (${err.code}); stop whatever listens there or set BENCH_PORT`),
      ),
    );
    srv.listen({ host: IP, port, exclusive: true }, () => resolve(() => new Promise((r) => srv.close(() => r()))));
  });
}

/** A port the OS considers free, for wrangler's inspector (its default, 9229, is often taken by `npm run dev`). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen({ host: IP, port: 0 }, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function childEnv(extra = {}) {
  const env = { ...process.env };
  for (const key of SCRUBBED_ENV) delete env[key];
  // Children that run `node` (node_modules/.bin/wrangler in scripts/load-data.mjs) get this Node too.
  env.PATH = [dirname(process.execPath), env.PATH].filter(Boolean).join(delimiter);
  if (!WRANGLER_DEFAULTS) env.X_LOCAL_OBSERVABILITY = "false";
  return { ...env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", ...extra };
}

/** Path → "mtime size" for every file under WATCHED, to tell whether the sources changed during the run. */
export function sourceSnapshot() {
  const snap = new Map();
  const walk = (abs) => {
    let st;
    try {
      st = statSync(abs);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(abs)) walk(join(abs, name));
    } else {
      snap.set(relative(ROOT, abs), `${st.mtimeMs} ${st.size}`);
    }
  };
  for (const p of WATCHED) walk(join(ROOT, p));
  return snap;
}

export function changedSources(before, after) {
  const changed = [];
  for (const [path, sig] of after) if (before.get(path) !== sig) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed;
}

export function tailOfLog(lines = 40) {
  try {
    return readFileSync(WRANGLER_LOG, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no wrangler log)";
  }
}

function runStep(what, args, timeoutMs) {
  const res = spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ CI: "true" }),
    encoding: "utf8",
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (res.status !== 0)
    throw new Error(`${what} failed (${res.error ?? `exit ${res.status}`}):\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

export function prepareDatabase() {
  log(`applying D1 migrations into ${relative(ROOT, TEMPLATE_DIR)}`);
  runStep(
    "wrangler d1 migrations apply",
    [WRANGLER_CLI, "d1", "migrations", "apply", "DB", "--local", "--persist-to", TEMPLATE_DIR],
    180_000,
  );
  if (existsSync(LOAD_DATA)) {
    log("loading reference data (scripts/load-data.mjs)");
    const out = runStep("scripts/load-data.mjs", [LOAD_DATA, "--persist-to", TEMPLATE_DIR], 180_000);
    for (const line of out.trim().split("\n").filter(Boolean)) log(`  ${line}`);
  }
}

/**
 * Starts wrangler dev on a fresh copy of the prepared state. Every measured segment (the baselines, then each
 * area, in each rate-limit mode) gets its own: local R2 puts slow down as objects pile up in the simulator
 * (about 2 ms per put on a fresh bucket, about 4 ms after the 40,000 bodies a full run archives), so on one
 * shared state an area's figures would depend on how many areas ran before it.
 */
export async function startWrangler(inspectorPort, { keepState = false } = {}) {
  // keepState restarts the Worker on the state the previous server left (bench/cold-start.mjs: a cold isolate
  // that finds what an earlier one stored).
  if (!keepState) {
    rmSync(RUN_DIR, { recursive: true, force: true });
    cpSync(TEMPLATE_DIR, RUN_DIR, { recursive: true });
  }
  log(
    `starting wrangler dev on ${BASE_URL} on ${keepState ? "the previous server's state" : "a fresh copy of the prepared state"} (inspector ${IP}:${inspectorPort}, log ${relative(ROOT, WRANGLER_LOG)})`,
  );
  const out = openSync(WRANGLER_LOG, "a");
  wrangler = spawn(
    process.execPath,
    [
      WRANGLER_CLI,
      "dev",
      "--ip",
      IP,
      "--port",
      String(PORT),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      RUN_DIR,
      "--env-file",
      ENV_FILE,
      // As `npm run dev`: the configuration itself is production-safe.
      "--var",
      "ENVIRONMENT:development",
      "--show-interactive-dev-session=false",
      ...(WRANGLER_DEFAULTS ? [] : ["--log-level", "warn"]),
    ],
    { cwd: ROOT, env: childEnv(), stdio: ["ignore", out, out], detached: true },
  );
  closeSync(out);
  // Per child: the bench may stop wrangler and start it again (a second configuration).
  const child = wrangler;
  wranglerExited = false;
  child.on("exit", () => {
    if (wrangler === child) wranglerExited = true;
  });

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (wranglerExited) throw new Error(`wrangler dev exited during startup:\n${tailOfLog()}`);
    try {
      const res = await httpCall({ method: "GET", path: "/health", headers: { host: BARE_HOST } });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`GET /health did not answer 200 within ${STARTUP_TIMEOUT_MS / 1000} s:\n${tailOfLog()}`);
}

/**
 * One request with an explicit Host header. node:http, not fetch: Node's fetch (undici) drops a Host
 * header set by the caller and sends the URL's authority instead, which would lose the workspace.
 */
export function httpCall({ method, path, headers, body, timeoutMs = 10_000 }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: IP,
        port: PORT,
        method,
        path,
        headers: body ? { ...headers, "content-length": Buffer.byteLength(body) } : headers,
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on("error", reject);
    req.end(body);
  });
}

async function api(path, { host, method = "GET", token, json, form, expect }) {
  const headers = { host };
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(json);
  }
  if (form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  }
  const { status, text } = await httpCall({ method, path, headers, body });
  if (status !== expect)
    throw new Error(`${method} ${path} (Host: ${host}): expected ${expect}, got ${status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Checks an HS256 JWT's signature against the secret this run generated. */
function signedWith(token, secret) {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return false;
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  const actual = Buffer.from(signature, "base64url");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export async function provision(secrets) {
  log("provisioning workspace, rate limit, API client and access token");
  // A 201 here proves the Worker holds this run's random PLATFORM_ADMIN_TOKEN, not a .dev.vars value.
  await api("/platform/v1/workspaces", {
    host: BARE_HOST,
    method: "POST",
    token: secrets.PLATFORM_ADMIN_TOKEN,
    json: { slug: SLUG, name: "Bench", mode: "sandbox" },
    expect: 201,
  });
  await api(`/platform/v1/workspaces/${SLUG}`, {
    host: BARE_HOST,
    method: "PATCH",
    token: secrets.PLATFORM_ADMIN_TOKEN,
    json: {
      rate_limits: Object.fromEntries(
        ["api", "consignment_create", "classify_heavy", "heavy", "public_ip", "sign_in_ip"].map((b) => [
          b,
          { limit: 1_000_000_000, window_seconds: 10 },
        ]),
      ),
    },
    expect: 200,
  });
  const created = await api(`/platform/v1/workspaces/${SLUG}/api-clients`, {
    host: BARE_HOST,
    method: "POST",
    token: secrets.PLATFORM_ADMIN_TOKEN,
    json: {
      name: "bench",
      scopes: [
        "consignments:read",
        "consignments:write",
        "customers:read",
        "customers:write",
        "catalogue:read",
        "catalogue:write",
        "classify:read",
        "calculate:read",
        "restrict:read",
        "screen:read",
        "settings:read",
        "settings:write",
        "requests:read",
      ],
    },
    expect: 201,
  });
  const clientId = created?.api_client?.client_id;
  const clientSecret = created?.api_client?.client_secret;
  if (!clientId || !clientSecret)
    throw new Error(`api-clients response lacks client_id/client_secret: ${JSON.stringify(created)}`);
  const issued = await api("/admin/oauth2/token", {
    host: WORKSPACE_HOST,
    method: "POST",
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
    expect: 200,
  });
  const token = issued?.access_token;
  if (!token) throw new Error(`token response lacks access_token: ${JSON.stringify(issued)}`);
  // ...and this proves it signs with this run's TOKEN_SIGNING_SECRET.
  if (!signedWith(token, secrets.TOKEN_SIGNING_SECRET)) {
    throw new Error(
      "the access token is not signed with this run's TOKEN_SIGNING_SECRET: wrangler did not use bench.env",
    );
  }
  // One plain request through the whole chain before any load.
  const me = await api("/admin/api/v1/me", { host: WORKSPACE_HOST, token, expect: 200 });
  if (me?.workspace?.slug !== SLUG) throw new Error(`unexpected /me body: ${JSON.stringify(me)}`);
  log("secrets in use are this run's (platform token accepted, access token signed with the bench secret)");
  return token;
}

// ---------------------------------------------------------------------------------------------------
// Load

/**
 * One autocannon run. Besides autocannon's own result, keeps every response's time as autocannon measured
 * it (process.hrtime, fractional ms): autocannon's latency histogram records whole milliseconds only.
 */
function load({ path, host, token, connections, seconds, method = "GET", body }) {
  return new Promise((resolve, reject) => {
    const headers = { host };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const latencies = [];
    const statuses = {};
    const instance = autocannon(
      {
        url: `${BASE_URL}${path}`,
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        connections,
        pipelining: SETTINGS.pipelining,
        duration: seconds,
        timeout: SETTINGS.requestTimeoutSeconds,
      },
      (err, result) => (err ? reject(err) : resolve({ result, latencies, statuses })),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
}

/** How long an area's first request may take: it builds the area's indexes from the loaded data. */
export const PRIME_TIMEOUT_MS = 120_000;

/** Every bench/scenarios/*.mjs module, sorted by file name. */
export async function loadScenarios() {
  const dir = join(BENCH_DIR, "scenarios");
  if (!existsSync(dir)) return [];
  // BENCH_SCENARIOS=screen,restrict runs only those areas (a quicker look at one change).
  const only = process.env.BENCH_SCENARIOS?.split(",").map((s) => `${s.trim()}.mjs`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs") && (!only || only.includes(f)))
    .sort();
  const out = [];
  for (const f of files) out.push(await import(pathToFileURL(join(dir, f)).href));
  return out;
}

/** A scenario report's call: one authenticated request to the workspace, JSON in and out. */
export async function scenarioCall(token, method, path, body, timeoutMs) {
  const headers = { host: WORKSPACE_HOST, authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await httpCall({
    method,
    path,
    headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
    timeoutMs,
  });
  let json = null;
  try {
    json = JSON.parse(res.text);
  } catch {
    // not JSON
  }
  return { status: res.status, json };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function problemsOf(label, { result, statuses }) {
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad === 0) return null;
  return `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts (status counts ${JSON.stringify(statuses)})`;
}

async function measureRoute(route, problems, phases = SETTINGS) {
  const timing = { ...SETTINGS, ...phases };
  const base = { path: route.path, host: route.host, token: route.token, method: route.method, body: route.body };
  const c = SETTINGS.connections;

  log(`${route.label}: warm-up ${timing.warmupSeconds} s @ ${c} connections`);
  const warm = await load({ ...base, connections: c, seconds: timing.warmupSeconds });
  const wp = problemsOf(`${route.label} warm-up`, warm);
  if (wp) problems.push(wp);

  log(`${route.label}: throughput ${timing.throughputSeconds} s @ ${c} connections`);
  const tp = await load({ ...base, connections: c, seconds: timing.throughputSeconds });
  const tpp = problemsOf(`${route.label} throughput`, tp);
  if (tpp) problems.push(tpp);

  await sleep(SETTINGS.settleMs); // let waitUntil work (audit rows) queued by the load drain

  log(`${route.label}: warm-up ${SETTINGS.latencyWarmupSeconds} s @ 1 connection`);
  const warm1 = await load({ ...base, connections: 1, seconds: SETTINGS.latencyWarmupSeconds });
  const w1p = problemsOf(`${route.label} latency warm-up`, warm1);
  if (w1p) problems.push(w1p);

  // The host's speed drifts over minutes (other tenants of the machine), so each route's latency is also
  // compared with a /health sample taken right before it: the adjacent baseline. Scenario routes take
  // several rounds of the two (SCENARIO_SETTINGS.latencyRounds).
  const rounds = [];
  const lats = [];
  for (let i = 0; i < (timing.latencyRounds ?? 1); i++) {
    let adjacent = NaN;
    if (route.path !== "/health") {
      const adj = await load({
        path: "/health",
        host: BARE_HOST,
        connections: 1,
        seconds: timing.adjacentSeconds ?? ADJACENT_BASELINE_SECONDS,
      });
      const ap = problemsOf(`${route.label} adjacent baseline`, adj);
      if (ap) problems.push(ap);
      adjacent = percentile(Float64Array.from(adj.latencies).sort(), 50);
    }
    log(
      `${route.label}: latency ${timing.latencySeconds} s @ 1 connection${timing.latencyRounds > 1 ? ` (round ${i + 1} of ${timing.latencyRounds})` : ""}`,
    );
    const l = await load({ ...base, connections: 1, seconds: timing.latencySeconds });
    const lp = problemsOf(`${route.label} latency`, l);
    if (lp) problems.push(lp);
    lats.push(l);
    rounds.push({ adjacentP50: adjacent, p50: percentile(Float64Array.from(l.latencies).sort(), 50) });
  }
  const median = (xs) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  const lat = { latencies: lats.flatMap((l) => l.latencies), result: lats[lats.length - 1].result };
  const adjacentP50 = median(rounds.map((r) => r.adjacentP50));

  await sleep(SETTINGS.settleMs);

  const sorted = Float64Array.from(lat.latencies).sort();
  const tpSorted = Float64Array.from(tp.latencies).sort();
  return {
    ...route,
    reqPerSec: tp.result.requests.average,
    throughputRequests: tp.result.requests.total,
    throughputDuration: tp.result.duration,
    throughputP50: percentile(tpSorted, 50),
    throughputP99: percentile(tpSorted, 99),
    latencyRequests: sorted.length,
    latencyReqPerSec: lat.result.requests.average,
    p50: percentile(sorted, 50),
    adjacentP50,
    rounds,
    /** Median over the rounds of (route p50 / adjacent /health p50). */
    adjacentRatio: median(rounds.map((r) => r.p50 / r.adjacentP50)),
    p99: percentile(sorted, 99),
    acP50: lat.result.latency.p50,
    acP99: lat.result.latency.p99,
    bad: [warm, tp, warm1, ...lats].reduce((n, r) => n + r.result.non2xx + r.result.errors + r.result.timeouts, 0),
  };
}

/**
 * Linux only: machine-wide busy CPU ticks (/proc/stat) and the ticks of this process plus wrangler's
 * process group, so that the CPU other processes used during the measurement can be reported.
 */
function cpuSample() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    const busy = user + nice + system + irq + softirq + (steal ?? 0);
    const ticksOf = (statText) => {
      const f = statText.slice(statText.lastIndexOf(")") + 2).split(" ");
      return { pgrp: Number(f[2]), ticks: Number(f[11]) + Number(f[12]) }; // utime + stime
    };
    let ours = ticksOf(readFileSync("/proc/self/stat", "utf8")).ticks;
    const pgid = wrangler?.pid;
    if (pgid) {
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
        try {
          const t = ticksOf(readFileSync(`/proc/${name}/stat`, "utf8"));
          if (t.pgrp === pgid) ours += t.ticks;
        } catch {
          // exited meanwhile
        }
      }
    }
    return { busy, total: busy + idle + iowait, ours };
  } catch {
    return null;
  }
}

function otherCpuShare(before, after) {
  if (!before || !after || after.total <= before.total) return "n/a";
  const others = Math.max(0, after.busy - before.busy - (after.ours - before.ours));
  return `${((100 * others) / (after.total - before.total)).toFixed(1)}% of all cores`;
}

// ---------------------------------------------------------------------------------------------------
// Report

function packageVersion(name, from = ROOT) {
  try {
    const req = createRequire(join(from, "package.json"));
    return JSON.parse(readFileSync(req.resolve(`${name}/package.json`), "utf8")).version;
  } catch {
    return "unknown";
  }
}

function rateLimitMode() {
  try {
    return (
      /"RATE_LIMIT_MODE"\s*:\s*"([^"]+)"/.exec(readFileSync(join(ROOT, "wrangler.jsonc"), "utf8"))?.[1] ?? "unknown"
    );
  } catch {
    return "unknown";
  }
}

function machineFacts(loadStart, otherCpu) {
  const cpus = os.cpus();
  return {
    loadStart,
    otherCpu,
    nproc: typeof os.availableParallelism === "function" ? os.availableParallelism() : cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? "unknown",
    memGiB: os.totalmem() / 1024 ** 3,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    wrangler: packageVersion("wrangler"),
    workerd: packageVersion("workerd", join(ROOT, "node_modules", "wrangler")),
    autocannon: packageVersion("autocannon"),
  };
}

const ms = (v) => (Number.isFinite(v) ? v.toFixed(2) : "n/a");
const rps = (v) => Math.round(v).toLocaleString("en-US");

/**
 * Verdicts for the scenario routes that declare a latency goal (`maxAdjacentRatio` in their scenario: p50 at
 * most that many times the adjacent /health p50), in both modes, to two decimals so a figure that rounds to the
 * goal still shows which side of it it fell.
 */
function goalLines(exactRows, leaseRows) {
  const withGoal = exactRows.filter((r) => r.maxAdjacentRatio);
  if (!withGoal.length) return [];
  const verdict = (r, goal) => `${r.adjacentRatio.toFixed(2)}: ${r.adjacentRatio <= goal ? "**met**" : "**not met**"}`;
  return [
    "## Area latency goals",
    "",
    ...withGoal.map((r) => {
      const lease = leaseRows.find((l) => l.area === r.area && l.label === r.label);
      return `- ${r.area}, ${r.label}: p50 ≤ ${r.maxAdjacentRatio}× the adjacent /health (median of rounds) — exact mode ${verdict(r, r.maxAdjacentRatio)}${lease ? `; lease mode ${verdict(lease, r.maxAdjacentRatio)}` : ""}.`;
    }),
    "",
  ];
}

/** The rounds' ratios of a scenario route, e.g. "3.9, 4.4, 4.1". */
const roundsText = (r) => r.rounds.map((x) => (x.p50 / x.adjacentP50).toFixed(1)).join(", ");

function report(health, me, facts, startedAt) {
  const ratio = me.reqPerSec / health.reqPerSec;
  // Latency against the /health sample taken just before /me's latency phase (same host conditions).
  const addedP50 = me.p50 - me.adjacentP50;
  const throughputMet = ratio >= GOALS.minThroughputRatio;
  const latencyMet = addedP50 <= GOALS.maxAddedP50Ms;
  const verdict = (ok) => (ok ? "**met**" : "**not met**");
  const signed = (v) => `${v >= 0 ? "+" : "−"}${ms(Math.abs(v))}`;

  const lines = [
    "# Benchmark: full middleware chain vs. bare route",
    "",
    "Command: `npm run bench`  ",
    `Date (UTC): ${startedAt
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, " UTC")}`,
    "",
    "## Machine",
    "",
    `- nproc: ${facts.nproc} (${facts.cpuModel})`,
    `- total memory: ${facts.memGiB.toFixed(1)} GiB`,
    `- OS: ${facts.os}`,
    `- load average (1 min) at start: ${facts.loadStart.toFixed(2)}; CPU used by processes other than the bench and wrangler/workerd during the measurement: ${facts.otherCpu} (other work competes with the server and the load generator for the same cores)`,
    `- Node: ${facts.node} (runs the bench, autocannon and wrangler)`,
    `- wrangler: ${facts.wrangler} (workerd ${facts.workerd})`,
    `- autocannon: ${facts.autocannon}`,
    "",
    "## Settings",
    "",
    `- Server: \`wrangler dev\` on http://${IP}:${PORT}, local mode, persisted state prepared once in \`bench/.state\` (migrations${existsSync(LOAD_DATA) ? " and reference data" : ""}) and copied fresh for every server start to \`${RUN_DIR.startsWith(ROOT) ? relative(ROOT, RUN_DIR) : RUN_DIR}\`${RUN_DIR.startsWith("/dev/shm/") ? " (memory: the simulators' file and SQLite writes stay off the shared disk; `BENCH_RUN_DIR` changes it)" : ""}: the baselines, then each area, in each rate-limit mode, run on their own fresh server (local R2 puts slow down as archived bodies pile up, so a shared state would make an area's figures depend on the areas before it), RATE_LIMIT_MODE \`${rateLimitMode()}\` (wrangler.jsonc), workspace \`api\` limit raised to 1,000,000,000 per 10 s.`,
    WRANGLER_DEFAULTS
      ? "- wrangler dev tooling: defaults (BENCH_WRANGLER_DEFAULTS=1): local trace collector on, one info log line per request."
      : "- wrangler dev tooling: its local trace collector is off (`X_LOCAL_OBSERVABILITY=false`) and it runs with `--log-level warn` (no log line per request); both are per-request work of wrangler's, not the Worker's. `BENCH_WRANGLER_DEFAULTS=1` keeps them on.",
    `- Load: autocannon in the bench's Node process (workerd is a separate process on the same ${facts.nproc} cores), HTTP/1.1 keep-alive, pipelining ${SETTINGS.pipelining}, request timeout ${SETTINGS.requestTimeoutSeconds} s.`,
    `- Per route, in this order: warm-up ${SETTINGS.warmupSeconds} s @ ${SETTINGS.connections} connections → throughput ${SETTINGS.throughputSeconds} s @ ${SETTINGS.connections} connections → ${SETTINGS.settleMs / 1000} s pause → warm-up ${SETTINGS.latencyWarmupSeconds} s @ 1 connection → latency ${SETTINGS.latencySeconds} s @ 1 connection. /health first, then /me.`,
    "- req/s: autocannon's mean of per-second request counts in the throughput phase.",
    "- p50 / p99: latency phase (1 connection), nearest-rank percentiles over every 2xx response's time as autocannon measures it (process.hrtime, fractional ms). autocannon's own latency percentiles come from an HDR histogram that records whole milliseconds (values are truncated), so they cannot resolve sub-millisecond differences; they are listed under Details for reference.",
    "",
    "## Results",
    "",
    "| route | req/s | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: |",
    `| \`GET /health\` (bare host; same-run baseline) | ${rps(health.reqPerSec)} | ${ms(health.p50)} | ${ms(health.p99)} |`,
    `| \`GET /admin/api/v1/me\` (workspace host, bearer token, full chain) | ${rps(me.reqPerSec)} | ${ms(me.p50)} | ${ms(me.p99)} |`,
    "",
    "## Goals",
    "",
    `- Throughput: \`/me\` keeps ≥ ${GOALS.minThroughputRatio * 100}% of the bare route's req/s — ratio ${ratio.toFixed(2)} (${(ratio * 100).toFixed(1)}%): ${verdict(throughputMet)}.`,
    `- Latency: \`/me\` adds ≤ ${GOALS.maxAddedP50Ms} ms at p50 — delta ${signed(addedP50)} ms (${ms(me.p50)} − ${ms(me.adjacentP50)}, the /health p50 sampled for ${ADJACENT_BASELINE_SECONDS} s right before /me's latency phase; the /health row's own p50 is ${ms(health.p50)}): ${verdict(latencyMet)}.`,
    "",
    "## Details",
    "",
    "| route | throughput phase: requests / s elapsed | throughput phase p50 / p99 ms | latency phase: requests (req/s) | autocannon p50 / p99 (whole ms) | non-2xx, errors, timeouts (all phases) |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...[health, me].map(
      (r) =>
        `| \`${r.path}\` | ${r.throughputRequests.toLocaleString("en-US")} / ${r.throughputDuration} | ${ms(r.throughputP50)} / ${ms(r.throughputP99)} | ${r.latencyRequests.toLocaleString("en-US")} (${rps(r.latencyReqPerSec)}) | ${r.acP50} / ${r.acP99} | ${r.bad} |`,
    ),
    "",
  ];
  return { markdown: lines.join("\n"), throughputMet, latencyMet, ratio, addedP50 };
}

function printSummary(health, me, facts, outcome) {
  const row = (label, r) =>
    `  ${label.padEnd(22)} ${rps(r.reqPerSec).padStart(8)} req/s   p50 ${ms(r.p50).padStart(6)} ms   p99 ${ms(r.p99).padStart(6)} ms`;
  process.stdout.write(
    [
      "",
      `Benchmark (${facts.nproc} cores, ${facts.memGiB.toFixed(1)} GiB, Node ${facts.node}, wrangler ${facts.wrangler}; load average ${facts.loadStart.toFixed(2)} at start; other processes' CPU during the load ${facts.otherCpu})`,
      row("GET /health (baseline)", health),
      row("GET /admin/api/v1/me", me),
      `  throughput ratio ${outcome.ratio.toFixed(2)} (goal ≥ ${GOALS.minThroughputRatio}): ${outcome.throughputMet ? "met" : "NOT met"}`,
      `  added p50 ${outcome.addedP50 >= 0 ? "+" : "-"}${ms(Math.abs(outcome.addedP50))} ms (goal ≤ ${GOALS.maxAddedP50Ms} ms): ${outcome.latencyMet ? "met" : "NOT met"}`,
      `  written to ${relative(ROOT, RESULTS_FILE)}`,
      "",
    ].join("\n"),
  );
}

// ---------------------------------------------------------------------------------------------------

/**
 * A fresh bench/.state with fresh random secrets in its env file (wrangler reads them through --env-file, so the
 * developer's .dev.vars is never used); returns the secrets.
 */
export function freshState() {
  rmSync(STATE_DIR, { recursive: true, force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  const secrets = {
    PLATFORM_ADMIN_TOKEN: `pat_${randomBytes(24).toString("base64url")}`,
    TOKEN_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString("base64url")}`,
  };
  const lines = Object.entries(secrets).map(([k, v]) => `${k}=${v}`);
  writeFileSync(ENV_FILE, `${lines.join("\n")}\n`, { mode: 0o600 });
  return secrets;
}

async function main() {
  const startedAt = new Date();
  const loadStart = os.loadavg()[0];
  if (!existsSync(WRANGLER_CLI)) throw new Error("wrangler is not installed: run npm install");

  const releasePort = await holdPort(PORT);

  const secrets = freshState();
  if (existsSync(join(ROOT, ".dev.vars")))
    log(".dev.vars exists; wrangler is pointed at bench/.state/bench.env instead");

  prepareDatabase();
  const sourcesBefore = sourceSnapshot();
  await releasePort();

  /** A server in `mode` on fresh state, provisioned: returns the access token. */
  const fresh = async (mode) => {
    writeFileSync(
      ENV_FILE,
      `${Object.entries({ ...secrets, ...(mode === "lease" ? { RATE_LIMIT_MODE: "lease" } : {}) })
        .map(([k, v]) => `${k}=${v}`)
        .join("\n")}\n`,
      { mode: 0o600 },
    );
    await startWrangler(await freePort());
    return provision(secrets);
  };
  const stop = async () => {
    if (wranglerExited) throw new Error(`wrangler dev exited during the run:\n${tailOfLog()}`);
    await stopWrangler();
  };
  const scenarios = await loadScenarios();
  const problems = [];

  /**
   * One area on its own fresh server: its setup, its routes (each beside an adjacent /health sample), then,
   * when asked, its quality report.
   */
  const runArea = async (sc, mode, withReport) => {
    const token = await fresh(mode);
    const callAs = (method, path, body) => scenarioCall(token, method, path, body);
    const context = typeof sc.setup === "function" ? await sc.setup({ call: callAs }) : undefined;
    // An area's first request builds what the area reads from the loaded data (the classification index and its
    // heading model take seconds on this fresh state): sent once and awaited here, so that the warm-up and the
    // throughput phase measure the warm route. First requests are measured apart (bench/cold-start.mjs).
    const [first] = sc.requests(context);
    if (first) {
      const primed = await scenarioCall(token, first.method ?? "GET", first.path, first.body, PRIME_TIMEOUT_MS);
      if (primed.status < 200 || primed.status > 299)
        problems.push(`${sc.area} first request: status ${primed.status}`);
    }
    const rows = [];
    for (const r of sc.requests(context)) {
      const label = mode === "lease" ? `${r.label} (lease mode)` : r.label;
      const row = await measureRoute(
        { label, path: r.path, host: WORKSPACE_HOST, token, method: r.method ?? "GET", body: r.body },
        problems,
        SCENARIO_SETTINGS,
      );
      rows.push({ area: sc.area, ...row, label: r.label, maxAdjacentRatio: r.maxAdjacentRatio });
    }
    let report = null;
    if (withReport && typeof sc.report === "function") {
      log(`${sc.area}: quality report`);
      try {
        report = { area: sc.area, markdown: await sc.report({ call: callAs, context }) };
      } catch (err) {
        problems.push(`${sc.area} report failed: ${err?.message ?? err}`);
      }
    }
    if (typeof sc.teardown === "function") await sc.teardown(context);
    await stop();
    return { rows, report };
  };

  // Exact mode (wrangler.jsonc's development setting): the baselines, then each area.
  let token = await fresh("exact");
  const cpuBefore = cpuSample();
  const health = await measureRoute({ label: "/health", path: "/health", host: BARE_HOST }, problems);
  const me = await measureRoute({ label: "/me", path: "/admin/api/v1/me", host: WORKSPACE_HOST, token }, problems);
  const otherCpu = otherCpuShare(cpuBefore, cpuSample());
  await stop();
  const scenarioRows = [];
  const reports = [];
  for (const sc of scenarios) {
    const { rows, report } = await runArea(sc, "exact", true);
    scenarioRows.push(...rows);
    if (report) reports.push(report);
  }

  // The production rate-limit configuration: isolates spend leases instead of asking the Durable Object.
  token = await fresh("lease");
  const leaseHealth = await measureRoute({ label: "/health (lease mode)", path: "/health", host: BARE_HOST }, problems);
  const leaseMe = await measureRoute(
    { label: "/me (lease mode)", path: "/admin/api/v1/me", host: WORKSPACE_HOST, token },
    problems,
  );
  await stop();
  // The scenario requests again, in the production mode: every API request spends the organization's `api`
  // bucket (consignment create also `consignment_create`), which exact mode asks the Durable Object about each time.
  const leaseRows = [];
  for (const sc of scenarios) leaseRows.push(...(await runArea(sc, "lease", false)).rows);
  await cleanup();

  // Cold start (bench/cold-start.mjs): a fresh Worker per area, after the load measurements, on the same port.
  log("cold start: bench/cold-start.mjs");
  const cold = spawnSync(process.execPath, [join(BENCH_DIR, "cold-start.mjs")], {
    cwd: ROOT,
    env: process.env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (cold.status !== 0) problems.push(`bench/cold-start.mjs failed (exit ${cold.status})`);
  const coldStart = cold.status === 0 ? readFileSync(join(BENCH_DIR, "results", COLD_START_REPORT), "utf8") : "";

  // CPU time per request (bench/cpu.mjs): one more Worker, every route measured sequentially.
  log("cpu time: bench/cpu.mjs");
  const cpu = spawnSync(process.execPath, [join(BENCH_DIR, "cpu.mjs")], {
    cwd: ROOT,
    env: process.env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (cpu.status !== 0) problems.push(`bench/cpu.mjs failed (exit ${cpu.status})`);
  const cpuReport = cpu.status === 0 ? readFileSync(join(BENCH_DIR, "results", CPU_REPORT), "utf8") : "";

  const changed = changedSources(sourcesBefore, sourceSnapshot());
  if (changed.length > 0) {
    throw new Error(
      `the Worker's sources changed during the run, so wrangler rebuilt and restarted it mid-measurement; RESULTS.md left unchanged. Changed: ${changed.slice(0, 10).join(", ")}${changed.length > 10 ? ", ..." : ""}`,
    );
  }

  if (problems.length > 0) {
    throw new Error(
      `some requests did not get a 2xx answer, so the numbers would measure errors; RESULTS.md left unchanged:\n  ${problems.join("\n  ")}`,
    );
  }

  const facts = machineFacts(loadStart, otherCpu);
  const outcome = report(health, me, facts, startedAt);
  const extra = [
    "## Production rate-limit mode (lease)",
    "",
    "The same two routes after restarting the Worker with `RATE_LIMIT_MODE=lease` (wrangler.jsonc's production setting): isolates spend short allowances reserved by the organization's Durable Object instead of asking it on every request (README, Rate limits).",
    "",
    "| route | req/s | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: |",
    `| \`GET /health\` (lease run's baseline) | ${rps(leaseHealth.reqPerSec)} | ${ms(leaseHealth.p50)} | ${ms(leaseHealth.p99)} |`,
    `| \`GET /admin/api/v1/me\` | ${rps(leaseMe.reqPerSec)} | ${ms(leaseMe.p50)} | ${ms(leaseMe.p99)} |`,
    "",
    `- Throughput ratio ${(leaseMe.reqPerSec / leaseHealth.reqPerSec).toFixed(2)} (goal ≥ ${GOALS.minThroughputRatio}): ${leaseMe.reqPerSec / leaseHealth.reqPerSec >= GOALS.minThroughputRatio ? "**met**" : "**not met**"}; added p50 against the adjacent /health sample ${ms(leaseMe.p50 - leaseMe.adjacentP50)} ms (goal ≤ ${GOALS.maxAddedP50Ms} ms): ${leaseMe.p50 - leaseMe.adjacentP50 <= GOALS.maxAddedP50Ms ? "**met**" : "**not met**"}.`,
    ...(leaseRows.length
      ? [
          "",
          "The area routes in the same lease-mode run (phases as in the exact-mode area table below). Every API request spends the organization's `api` bucket, so in exact mode each one waits for a Durable Object round trip that production's lease mode mostly avoids:",
          "",
          "| area | route | req/s | p50 ms | p99 ms | adjacent /health p50 ms | × adjacent /health (median of rounds) | rounds: × adjacent /health | × lease run /health |",
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
          ...leaseRows.map(
            (r) =>
              `| ${r.area} | ${r.label} | ${rps(r.reqPerSec)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.adjacentP50)} | ${r.adjacentRatio.toFixed(1)} | ${roundsText(r)} | ${(r.p50 / leaseHealth.p50).toFixed(1)} |`,
          ),
        ]
      : []),
    "",
    "## Area routes (exact mode, beside the /health baseline above)",
    "",
    `Phases per route: warm-up ${SCENARIO_SETTINGS.warmupSeconds} s @ ${SETTINGS.connections} connections → throughput ${SCENARIO_SETTINGS.throughputSeconds} s → warm-up ${SETTINGS.latencyWarmupSeconds} s @ 1 connection → ${SCENARIO_SETTINGS.latencyRounds} rounds of (a ${SCENARIO_SETTINGS.adjacentSeconds} s /health sample, then the route's latency ${SCENARIO_SETTINGS.latencySeconds} s @ 1 connection). Requests are defined in \`bench/scenarios/<area>.mjs\`. A round's ratio is the route's p50 over the p50 of the /health sample taken right before it (the host's speed drifts over minutes); "× adjacent /health" is the median of the rounds' ratios, each listed beside it (one window can catch a passing disturbance of a shared 2-core host). p50 and p99 pool the rounds' responses; "adjacent /health p50" is the rounds' median; "× run /health" uses the /health row above.`,
    "",
    "| area | route | req/s | p50 ms | p99 ms | adjacent /health p50 ms | × adjacent /health (median of rounds) | rounds: × adjacent /health | × run /health |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...scenarioRows.map(
      (r) =>
        `| ${r.area} | ${r.label} | ${rps(r.reqPerSec)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.adjacentP50)} | ${r.adjacentRatio.toFixed(1)} | ${roundsText(r)} | ${(r.p50 / health.p50).toFixed(1)} |`,
    ),
    "",
    ...goalLines(scenarioRows, leaseRows),
    ...reports.flatMap((r) => [`## ${r.area}: quality`, "", r.markdown.trim(), ""]),
    ...[coldStart, cpuReport].flatMap((text) => [
      ...text
        .trim()
        .split("\n")
        .map((l) => (/^#{1,5} /.test(l) ? `#${l}` : l)),
      "",
    ]),
    ...offlineReports(BENCH_DIR),
  ];
  writeFileSync(RESULTS_FILE, `${outcome.markdown}\n${extra.join("\n")}`);
  printSummary(health, me, facts, outcome);
}

export { BENCH_DIR, ENV_FILE, PORT, ROOT, STATE_DIR, WORKSPACE_HOST };

if (IS_MAIN)
  main().then(
    async () => {
      await cleanup();
      clearTimeout(watchdog);
      process.exit(0);
    },
    (err) => fail(err?.stack ?? String(err)),
  );
