#!/usr/bin/env node
/**
 * Loads the reference datasets (scripts/data/*.mjs) into the local D1 database, skipping any dataset whose
 * version is already loaded. Usage: node scripts/load-data.mjs [--persist-to DIR] [--force]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { datasetStatements, loadDatasetModules, root } from "./data/lib.mjs";

const args = process.argv.slice(2);
const persistIdx = args.indexOf("--persist-to");
const persist = persistIdx >= 0 ? ["--persist-to", args[persistIdx + 1]] : [];
const force = args.includes("--force");
const wrangler = join(root, "node_modules", ".bin", "wrangler");

function d1(extra) {
  const res = spawnSync(wrangler, ["d1", "execute", "DB", "--local", ...persist, ...extra], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`wrangler d1 execute failed:\n${res.stderr || res.stdout}`);
  return res.stdout;
}

function loadedVersions() {
  const out = d1(["--json", "--command", "SELECT dataset, version FROM data_sources"]);
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return Object.fromEntries((parsed[0]?.results ?? []).map((r) => [r.dataset, r.version]));
}

const mods = await loadDatasetModules();
if (mods.length === 0) {
  console.log("[data] no datasets defined");
  process.exit(0);
}
const loaded = loadedVersions();
const tmp = join(root, ".wrangler", "tmp");
mkdirSync(tmp, { recursive: true });
for (const mod of mods) {
  if (!force && loaded[mod.dataset] === mod.version) {
    console.log(`[data] ${mod.dataset} ${mod.version}: already loaded`);
    continue;
  }
  const started = Date.now();
  const statements = await datasetStatements(mod);
  const file = join(tmp, `data-${mod.dataset}.sql`);
  writeFileSync(file, `${statements.join(";\n")};\n`);
  d1(["--file", file]);
  console.log(
    `[data] ${mod.dataset} ${mod.version}: loaded (${statements.length} statements, ${Date.now() - started} ms)`,
  );
}
