#!/usr/bin/env node
/**
 * `node bench/put-floor.mjs`: what the local simulators cost a route by themselves, with none of this
 * project's code. It starts `wrangler dev` on a throwaway Worker that has only the bindings and three routes:
 *
 *   GET  /hello  answers at once (the bare route);
 *   POST /put    puts its body into R2, then answers (what every archived POST must do before a 2xx);
 *   POST /rpc    makes one Durable Object RPC call, then answers (an exact-mode rate-limit decision);
 *   POST /rpc-put  both, one after the other (what an archived POST waits for in exact mode today);
 *   POST /journal  one Durable Object call that admits the request and writes its body to the object's SQLite
 *                storage (the design issue 23 item 3 asks about: bodies copied to R2 later by an alarm).
 *
 * and measures their p50 at one connection in alternating rounds, each round's ratio against the /hello
 * sample right before it. The figures say how much of an archived route's time under wrangler dev is the
 * simulator's and not the Worker's: bench/README.md ("The floor") quotes a run.
 *
 * Environment: FLOOR_PORT (8851), FLOOR_ROUNDS (5), FLOOR_SECONDS (2).
 */
import { spawn } from "node:child_process";
import { accessSync, constants as fsConstants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const autocannon = require("autocannon");
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.FLOOR_PORT ?? 8851);
const ROUNDS = Number(process.env.FLOOR_ROUNDS ?? 5);
const SECONDS = Number(process.env.FLOOR_SECONDS ?? 2);
const BODY = JSON.stringify({
  hs_code: "6109.10.00",
  origin_country: "CN",
  destination_country: "US",
  declared_value: 1000,
  currency: "USD",
  entry_date: "2026-03-02",
});

const WORKER = `import { DurableObject } from "cloudflare:workers";
export class Counter extends DurableObject {
  hit() { return 1; }
  journal(key, body) {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS journal (key TEXT PRIMARY KEY, body BLOB)");
    this.ctx.storage.sql.exec("INSERT INTO journal (key, body) VALUES (?, ?)", key, body);
    return 1;
  }
}
let n = 0;
export default {
  async fetch(req, env) {
    const path = new URL(req.url).pathname;
    if (path === "/hello") return new Response("ok");
    const body = await req.arrayBuffer();
    if (path === "/put") {
      await env.ARCHIVE.put("floor/" + Date.now() + "/" + n++, body, { httpMetadata: { contentType: "application/json" } });
      return new Response("ok");
    }
    if (path === "/rpc") {
      await env.COUNTER.get(env.COUNTER.idFromName("org")).hit();
      return new Response("ok");
    }
    if (path === "/rpc-put") {
      await env.COUNTER.get(env.COUNTER.idFromName("org")).hit();
      await env.ARCHIVE.put("floor/" + Date.now() + "/" + n++, body, { httpMetadata: { contentType: "application/json" } });
      return new Response("ok");
    }
    if (path === "/journal") {
      await env.COUNTER.get(env.COUNTER.idFromName("org")).journal("j/" + Date.now() + "/" + n++, body);
      return new Response("ok");
    }
    return new Response("not found", { status: 404 });
  },
};
`;

const dir = mkdtempSync(join(os.tmpdir(), "put-floor-"));
writeFileSync(join(dir, "worker.js"), WORKER);
writeFileSync(
  join(dir, "wrangler.jsonc"),
  JSON.stringify({
    name: "put-floor",
    main: "worker.js",
    compatibility_date: "2025-09-01",
    r2_buckets: [{ binding: "ARCHIVE", bucket_name: "put-floor" }],
    durable_objects: { bindings: [{ name: "COUNTER", class_name: "Counter" }] },
    migrations: [{ tag: "v1", new_sqlite_classes: ["Counter"] }],
  }),
);
// The same place for the simulators' state as the bench (run.mjs, runDir): memory where the machine has it.
const state = join(writable("/dev/shm") ? "/dev/shm" : dir, `put-floor-${PORT}`);
function writable(path) {
  try {
    accessSync(path, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const wrangler = spawn(
  process.execPath,
  [
    join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(PORT),
    "--persist-to",
    state,
    "--log-level",
    "warn",
    "--show-interactive-dev-session=false",
  ],
  { cwd: dir, env: { ...process.env, X_LOCAL_OBSERVABILITY: "false" }, stdio: "ignore", detached: true },
);
const stop = () => {
  try {
    process.kill(-wrangler.pid, "SIGTERM");
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
};
process.on("exit", stop);

function run(path, seconds) {
  return new Promise((resolve, reject) => {
    const times = [];
    const post = path !== "/hello";
    const inst = autocannon(
      {
        url: `http://127.0.0.1:${PORT}${path}`,
        connections: 1,
        duration: seconds,
        method: post ? "POST" : "GET",
        ...(post ? { body: BODY, headers: { "content-type": "application/json" } } : {}),
      },
      (err) => (err ? reject(err) : resolve(times)),
    );
    // As in run.mjs: a figure over failed requests would measure the failure, so any non-2xx stops the run.
    inst.on("response", (_c, status, _b, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
      else reject(new Error(`${path} answered ${status}`));
    });
    inst.on("reqError", (err) => reject(err));
  });
}
/** Nearest-rank median (the p50 of a sample, and the median of the rounds). */
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length / 2) - 1)];

for (let i = 0; ; i++) {
  try {
    const res = await fetch(`http://127.0.0.1:${PORT}/hello`);
    if (res.ok) break;
  } catch {}
  if (i > 120) throw new Error("wrangler dev did not start");
  await new Promise((r) => setTimeout(r, 500));
}
const ROUTES = ["/put", "/rpc", "/rpc-put", "/journal"];
for (const path of ["/hello", ...ROUTES]) await run(path, 1); // warm-up

const ratios = Object.fromEntries(ROUTES.map((r) => [r, []]));
const hellos = [];
for (let round = 0; round < ROUNDS; round++) {
  const hello = p50(await run("/hello", SECONDS));
  hellos.push(hello);
  for (const path of ROUTES) ratios[path].push(p50(await run(path, SECONDS)) / hello);
}
console.log(`p50 of /hello (median of ${ROUNDS} rounds): ${p50(hellos).toFixed(2)} ms`);
for (const [path, xs] of Object.entries(ratios)) {
  console.log(`${path}: ${p50(xs).toFixed(2)}x /hello (rounds: ${xs.map((x) => x.toFixed(2)).join(", ")})`);
}
process.exit(0);
