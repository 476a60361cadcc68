#!/usr/bin/env node
/**
 * Bundles the Worker as `wrangler deploy` would (--dry-run, nothing uploaded) and reports its size beside
 * Cloudflare's Worker size limits (https://developers.cloudflare.com/workers/platform/limits/#worker-size:
 * 3 MB on Free, 10 MB on Paid, measured after gzip compression). Exits non-zero over the Paid limit.
 * The installed wrangler has no `check startup` command, so startup time is not measured here.
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
