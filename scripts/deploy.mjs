#!/usr/bin/env node
/**
 * Deploys to the operator's Cloudflare account: creates or reuses D1, R2 and the queues (each with a
 * dead-letter queue), sets the secrets, applies D1 migrations and loads the reference data remotely in
 * chunks within D1's limits (staged beside the live tables, then swapped in by one import per dataset, so a
 * deployment that already serves never answers from a half-loaded table), then deploys the Worker (which applies the Durable Object migrations) with the
 * custom domain for the bare domain and a wildcard route for workspace subdomains.
 *
 *   node scripts/deploy.mjs --domain api.example.com          # needs `wrangler login` or CLOUDFLARE_API_TOKEN
 *   node scripts/deploy.mjs --domain api.example.com --plan   # prints the commands, touches nothing
 *
 * Reference data (scripts/lib/deploy-plan.mjs, loadDecisions): a dataset whose bundled version is loaded is
 * skipped, one the registry updated at run time is kept, one with more than 10 % fewer rows than the loaded
 * version is refused (`--force-data` loads it anyway); `--reload-data` reloads every dataset.
 *
 * Secrets come from the environment variable of the same name, or are asked for on the terminal.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import { loadDatasetModules, root, stagedDatasetStatements } from "./data/lib.mjs";
import {
  chunkStatements,
  DEPLOY_CONFIG,
  deployConfig,
  deployPlan,
  loadDecisions,
  parseJsonc,
} from "./lib/deploy-plan.mjs";
import { runSmoke } from "./lib/smoke.mjs";

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const domain = opt("--domain") ?? process.env.DEPLOY_DOMAIN;
const planOnly = args.includes("--plan");
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const config = parseJsonc(readFileSync(join(root, "wrangler.jsonc"), "utf8"));

function run(cmd, { input, json = false } = {}) {
  const res = spawnSync(wrangler, cmd, {
    cwd: root,
    encoding: "utf8",
    input,
    // wrangler needs the Node in node_modules/.bin (the system one may be older).
    env: { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` },
    stdio: [input === undefined ? "inherit" : "pipe", json ? "pipe" : "inherit", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`wrangler ${cmd.join(" ")} failed (exit ${res.status})`);
  return res.stdout;
}
const jsonOut = (out) =>
  JSON.parse(out.slice(Math.min(...["[", "{"].map((c) => out.indexOf(c)).filter((i) => i >= 0))));

/**
 * The import files of a load, in order: per dataset its staging files (rows beside the live tables, as many
 * as D1's limits need), then its swap as one file, which D1's import applies as one unit, so the live tables
 * change from the old version to the new in one step (scripts/data/lib.mjs, stagedDatasetStatements).
 */
export function loadPlan(statementsByDataset, chunk = {}) {
  const files = [];
  for (const [dataset, { stage, swap }] of statementsByDataset) {
    const staging = chunkStatements(stage, chunk);
    for (const [i, statements] of staging.entries())
      files.push({ dataset, statements, label: `staging ${i + 1}/${staging.length}`, swap: false });
    const swaps = chunkStatements(swap, { ...chunk, maxStatementsPerFile: Number.POSITIVE_INFINITY });
    if (swaps.length !== 1) throw new Error(`${dataset}: the swap does not fit one import file`);
    files.push({ dataset, statements: swaps[0], label: "swap", swap: true });
  }
  return files;
}

/** Writes one import file and runs it against D1 (remote, or local for testing the same path). */
export function importFile(file, { remote, configPath, persistTo, runner = run, index = 0 }) {
  const tmp = join(root, ".wrangler", "tmp", "deploy-load");
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `${file.dataset}-${String(index).padStart(4, "0")}.sql`);
  writeFileSync(path, `${file.statements.join(";\n")};\n`);
  const where = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  runner(["d1", "execute", "DB", ...where, ...(configPath ? ["--config", configPath] : []), "--yes", "--file", path]);
}

/** Loads every dataset: staged in chunked import files, then swapped in (see loadPlan). */
export function loadData(statementsByDataset, { remote, configPath, persistTo, runner = run, chunk = {} }) {
  loadPlan(statementsByDataset, chunk).forEach((file, index) => {
    importFile(file, { remote, configPath, persistTo, runner, index });
    console.log(`[deploy] ${file.dataset}: ${file.label} (${file.statements.length} statements)`);
  });
}

/** What the database holds (none on a fresh one: the migrations have just created the table). */
const LOADED_VERSIONS = "SELECT dataset, version, row_count FROM data_sources";
/** Registry datasets serving a version taken at run time (upload or scheduled fetch). */
const RUN_TIME_VERSIONS = "SELECT dataset FROM dataset_versions WHERE status = 'active' AND origin <> 'bundled'";

async function main() {
  if (planOnly) {
    for (const s of deployPlan(config, { domain })) console.log(s.cmd ? `wrangler ${s.cmd.join(" ")}` : `# ${s.name}`);
    console.log(`# ${DEPLOY_CONFIG}:\n${JSON.stringify(deployConfig(config, { domain }), null, 2)}`);
    return;
  }
  const existing = {
    d1: jsonOut(run(["d1", "list", "--json"], { json: true })).map((d) => d.name),
    r2: run(["r2", "bucket", "list"], { json: true })
      .split("\n")
      .filter((l) => l.startsWith("name:"))
      .map((l) => l.slice(5).trim()),
    queues: run(["queues", "list"], { json: true })
      .split(/[\s│|]+/)
      .filter(Boolean),
  };
  const steps = deployPlan(config, { domain, existing });
  const databaseIds = {};
  const writeConfig = () => {
    const path = join(root, DEPLOY_CONFIG);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(deployConfig(config, { domain, databaseIds }), null, 2));
  };
  const secrets = {};
  const rl = process.stdin.isTTY ? createInterface({ input: process.stdin, output: process.stdout }) : null;
  for (const step of steps) {
    console.log(`[deploy] ${step.name}`);
    if (step.load) {
      writeConfig();
      const remote = (command) =>
        jsonOut(
          run(["d1", "execute", "DB", "--remote", "--config", DEPLOY_CONFIG, "--json", "--command", command], {
            json: true,
          }),
        )[0].results;
      const loaded = remote(LOADED_VERSIONS);
      const updated = remote(RUN_TIME_VERSIONS).map((r) => r.dataset);
      const mods = await loadDatasetModules();
      const bundled = [];
      for (const mod of mods) {
        const staged = await stagedDatasetStatements(mod);
        bundled.push({
          dataset: mod.dataset,
          version: mod.version,
          rows: staged.rows,
          registered: staged.registered,
          staged,
        });
      }
      const decisions = loadDecisions(bundled, loaded, {
        updated,
        force: args.includes("--force-data"),
        reload: args.includes("--reload-data"),
      });
      for (const d of decisions) console.log(`[deploy] ${d.dataset}: ${d.action} (${d.reason})`);
      const refused = decisions.filter((d) => d.action === "refuse");
      if (refused.length) throw new Error(`refused to load ${refused.map((d) => d.dataset).join(", ")}`);
      const load = new Set(decisions.filter((d) => d.action === "load").map((d) => d.dataset));
      loadData(
        bundled.filter((b) => load.has(b.dataset)).map((b) => [b.dataset, b.staged]),
        { remote: true, configPath: DEPLOY_CONFIG },
      );
    } else if (step.secret) {
      let value = process.env[step.secret];
      if (!value && rl) value = (await rl.question(`${step.secret}: `)).trim();
      if (!value) throw new Error(`${step.secret} is not set (export it or run on a terminal)`);
      secrets[step.secret] = value;
      run(step.cmd, { input: value });
    } else if (step.smoke) {
      const { ok } = await runSmoke({
        baseUrl: step.smoke.baseUrl,
        platformToken: secrets.PLATFORM_ADMIN_TOKEN,
        log: (line) => console.log(`[deploy] smoke: ${line}`),
      });
      if (!ok) throw new Error(`the smoke test failed; rerun it with: npm run smoke -- ${step.smoke.baseUrl}`);
    } else if (step.cmd) {
      run(step.cmd);
    }
    if (step.name.startsWith("create D1") || step.name.startsWith("reuse D1")) {
      const list = jsonOut(run(["d1", "list", "--json"], { json: true }));
      for (const d of list) databaseIds[d.name] = d.uuid;
      writeConfig();
    }
  }
  rl?.close();
  console.log(`[deploy] done: https://${domain}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(`[deploy] ${e.message}`);
    process.exit(1);
  });
}
