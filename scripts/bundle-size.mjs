#!/usr/bin/env node
/**
 * Bundles the Worker as `wrangler deploy` would (--dry-run, nothing uploaded) and reports its size beside
 * Cloudflare's Worker size limits (https://developers.cloudflare.com/workers/platform/limits/#worker-size:
 * 3 MB on Free, 10 MB on Paid, measured after gzip compression). Exits non-zero over the Paid limit.
 * Then `wrangler check startup` profiles the bundle's startup (the global scope: module evaluation, route
 * and schema construction) locally and reports its active CPU time beside the 1 s startup limit of the same
 * page; it fails above half of it, since the machine that measures is not the one that runs it.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./data/lib.mjs";

const LIMITS = { free: 3 * 1024 ** 2, paid: 10 * 1024 ** 2 };
const outdir = join(root, ".wrangler", "bundle");
rmSync(outdir, { recursive: true, force: true });
const res = spawnSync(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, CI: "true", PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` },
});
if (res.status !== 0) {
  console.error(res.stderr || res.stdout);
  process.exit(1);
}
let raw = 0;
let gz = 0;
for (const f of readdirSync(outdir, { recursive: true })) {
  const p = join(outdir, f);
  if (!statSync(p).isFile() || f.endsWith(".map")) continue;
  const buf = readFileSync(p);
  raw += buf.length;
  gz += gzipSync(buf, { level: 9 }).length;
}
const mb = (n) => `${(n / 1024 ** 2).toFixed(2)} MB`;
console.log(
  `[bundle] ${mb(raw)} raw, ${mb(gz)} gzip; limits (gzip): Free ${mb(LIMITS.free)} (${((100 * gz) / LIMITS.free).toFixed(0)}%), Paid ${mb(LIMITS.paid)} (${((100 * gz) / LIMITS.paid).toFixed(0)}%)`,
);
if (gz > LIMITS.paid) process.exit(1);

const STARTUP_LIMIT_MS = 1000;
const profile = join(root, ".wrangler", "startup.cpuprofile");
const startup = spawnSync(join(root, "node_modules", ".bin", "wrangler"), ["check", "startup", "--outfile", profile], {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, CI: "true", PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` },
});
const active = /Active:\s*([\d.]+)\s*ms/.exec(`${startup.stdout}${startup.stderr}`);
if (startup.status !== 0 || !active) {
  console.error(`[startup] wrangler check startup failed:\n${startup.stderr || startup.stdout}`);
  process.exit(1);
}
const ms = Number(active[1]);
console.log(
  `[startup] ${ms} ms active CPU at startup (local profile ${profile}); limit ${STARTUP_LIMIT_MS} ms (${((100 * ms) / STARTUP_LIMIT_MS).toFixed(0)}%)`,
);
if (ms > STARTUP_LIMIT_MS / 2) process.exit(1);
