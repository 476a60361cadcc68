import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { insertStatements, loadDatasetModules, root, stagedDatasetStatements } from "./data/lib.mjs";
import { importFile, loadData, loadPlan } from "./deploy.mjs";
import { chunkStatements, D1_LIMITS, deployConfig, deployPlan, loadDecisions, parseJsonc } from "./lib/deploy-plan.mjs";

const config = parseJsonc(readFileSync(join(root, "wrangler.jsonc"), "utf8"));

test("plan creates every resource on a fresh account, in dependency order", () => {
  const cmds = deployPlan(config, { domain: "api.example.org" })
    .filter((s) => s.cmd)
    .map((s) => s.cmd.join(" "));
  assert.ok(cmds.includes("d1 create trade-compliance"));
  assert.ok(cmds.includes("r2 bucket create trade-compliance-archive"));
  for (const q of ["trade-compliance-webhooks", "trade-compliance-flows"]) {
    assert.ok(cmds.indexOf(`queues create ${q}-dlq`) >= 0, q);
    assert.ok(cmds.indexOf(`queues create ${q}-dlq`) < cmds.indexOf(`queues create ${q}`));
  }
  const migrate = cmds.findIndex((c) => c.startsWith("d1 migrations apply DB --remote"));
  const deploy = cmds.findIndex((c) => c.startsWith("deploy "));
  assert.ok(migrate >= 0 && deploy > migrate, "migrations before deploy");
  for (const s of config.secrets.required)
    assert.ok(cmds.indexOf(`secret put ${s} --config wrangler.deploy.json`) < deploy);
  const last = deployPlan(config, { domain: "api.example.org" }).at(-1);
  assert.deepEqual(last.smoke, { baseUrl: "https://api.example.org" }, "ends with the smoke test");
});

test("plan reuses what the account already has", () => {
  const plan = deployPlan(config, {
    domain: "api.example.org",
    existing: { d1: ["trade-compliance"], r2: ["trade-compliance-archive"], queues: ["trade-compliance-flows"] },
  });
  const cmds = plan.filter((s) => s.cmd).map((s) => s.cmd.join(" "));
  assert.ok(!cmds.some((c) => c.startsWith("d1 create") || c.startsWith("r2 bucket create")));
  assert.ok(!cmds.includes("queues create trade-compliance-flows"));
  assert.ok(cmds.includes("queues create trade-compliance-flows-dlq"));
  assert.throws(() => deployPlan(config, { domain: "not a domain" }));
});

test("deploy config: production vars, real D1 id, routes, dead-letter queues", () => {
  const c = deployConfig(config, { domain: "trade.example.net", databaseIds: { "trade-compliance": "abc-123" } });
  assert.equal(c.vars.ENVIRONMENT, "production");
  assert.equal(c.vars.WORKSPACE_BASE_DOMAIN, "trade.example.net");
  assert.equal(c.vars.RATE_LIMIT_MODE, config.env.production.vars.RATE_LIMIT_MODE);
  assert.equal(c.d1_databases[0].database_id, "abc-123");
  assert.deepEqual(c.routes, [
    { pattern: "trade.example.net", custom_domain: true },
    { pattern: "*.trade.example.net/*", zone_name: "trade.example.net" },
  ]);
  for (const q of c.queues.consumers) assert.equal(q.dead_letter_queue, `${q.queue}-dlq`);
  assert.deepEqual(c.ai, { binding: "AI" }, "Workers AI bound for the ai and image classify modes");
  assert.equal(c.env, undefined);
  assert.deepEqual(c.migrations, config.migrations, "Durable Object migrations carried over");
});

test("chunker keeps statements and files within D1's limits and loses nothing", () => {
  const stmts = Array.from({ length: 1000 }, (_, i) => `INSERT INTO t VALUES (${i}, '${"x".repeat(i % 50_000)}')`);
  const files = chunkStatements(stmts, { maxFileBytes: 1_000_000, maxStatementsPerFile: 100 });
  assert.deepEqual(files.flat(), stmts);
  for (const f of files) {
    assert.ok(f.length <= 100);
    assert.ok(f.reduce((n, s) => n + Buffer.byteLength(s) + 2, 0) <= 1_000_000 || f.length === 1);
  }
  assert.throws(() => chunkStatements(["x".repeat(D1_LIMITS.maxStatementBytes)]), /exceeds/);
  assert.throws(() => chunkStatements([], { maxStatementBytes: 200_000 }), /above D1/);
});

test("insert statements stay under the statement limit in bytes, not characters", () => {
  // Three bytes a character in UTF-8: 2,000 rows of 40 kana are 240 KB of literals, 80 K characters.
  const rows = Array.from({ length: 2000 }, (_, i) => [i, "ア".repeat(40)]);
  const stmts = insertStatements("t", ["id", "text"], rows, 90_000);
  assert.ok(stmts.length >= 3);
  for (const s of stmts) assert.ok(Buffer.byteLength(s) <= 90_000, `${Buffer.byteLength(s)} bytes`);
  assert.equal(stmts.join("").match(/\(\d+, '/g)?.length, 2000);
});

test("staged load into LOCAL D1 with the remote limits: every row, and readers see the old version until the swap", {
  timeout: 600_000,
}, async () => {
  const persist = mkdtempSync(join(tmpdir(), "deploy-d1-"));
  const wrangler = join(root, "node_modules", ".bin", "wrangler");
  const run = (cmd) => {
    const res = spawnSync(wrangler, cmd, {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, CI: "true", PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` },
    });
    assert.equal(res.status, 0, res.stderr || res.stdout);
    return res.stdout;
  };
  const query = (sql) => {
    const out = run(["d1", "execute", "DB", "--local", "--persist-to", persist, "--json", "--command", sql]);
    return JSON.parse(out.slice(out.indexOf("[")))[0].results;
  };
  run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist]);
  const mods = (await loadDatasetModules()).filter((m) => ["fx", "vat"].includes(m.dataset));
  const all = [];
  for (const m of mods) all.push([m.dataset, await stagedDatasetStatements(m)]);
  // Few statements per file so the datasets span several import files, as the large ones do remotely.
  loadData(all, { remote: false, persistTo: persist, runner: run, chunk: { maxStatementsPerFile: 10 } });
  const rows = query("SELECT dataset, version, row_count FROM data_sources");
  for (const m of mods) {
    const expected = Object.values(await m.rows({ fixture: false })).reduce((n, t) => n + t.rows.length, 0);
    assert.equal(rows.find((r) => r.dataset === m.dataset)?.row_count, expected, m.dataset);
  }
  assert.deepEqual(query("SELECT COUNT(*) AS n FROM dataset_staged_rows"), [{ n: 0 }], "the staged copy is dropped");
  const before = query("SELECT * FROM calc_vat_rates ORDER BY id");
  const bundled = await mods.find((m) => m.dataset === "vat").rows({ fixture: false });
  assert.equal(before.length, bundled.calc_vat_rates.rows.length);
  // The bundle's values survive the JSON round trip: a JSON column stays text, a boolean is 0/1.
  const es = bundled.calc_vat_rates.rows.findIndex((r) => r[0] === "ES" && r[1] === "");
  assert.equal(before[es].reduced, bundled.calc_vat_rates.rows[es][6]);
  assert.equal(typeof query("SELECT vat_includes_duty AS d FROM calc_destination_rules LIMIT 1")[0].d, "number");

  // A next version with one rate changed: after every staging file the live table still holds the old one.
  const vat = mods.find((m) => m.dataset === "vat");
  const next = {
    ...vat,
    version: "next",
    rows: async (o) => {
      const data = await vat.rows(o);
      const rates = data.calc_vat_rates.rows.map((r) =>
        r[0] === "ES" && r[1] === "" ? [...r.slice(0, 5), "22", r[6]] : r,
      );
      return { ...data, calc_vat_rates: { ...data.calc_vat_rates, rows: rates } };
    },
  };
  const plan = loadPlan([["vat", await stagedDatasetStatements(next)]], { maxStatementsPerFile: 2 });
  assert.ok(plan.length > 2 && plan.at(-1).swap && plan.filter((f) => f.swap).length === 1);
  const spain = "SELECT standard FROM calc_vat_rates WHERE country = 'ES' AND region = '' AND valid_to IS NULL";
  plan.forEach((file, index) => {
    if (file.swap) {
      assert.deepEqual(query(spain), [{ standard: "21" }]);
      assert.deepEqual(query("SELECT version FROM data_sources WHERE dataset = 'vat'"), [{ version: vat.version }]);
    }
    importFile(file, { remote: false, persistTo: persist, runner: run, index });
  });
  assert.deepEqual(query(spain), [{ standard: "22" }]);
  assert.deepEqual(query("SELECT version FROM data_sources WHERE dataset = 'vat'"), [{ version: "next" }]);
  assert.equal(query("SELECT COUNT(*) AS n FROM calc_vat_rates")[0].n, before.length);
});

test("the load skips loaded versions, keeps run-time updates, refuses a shrink unless forced", () => {
  const bundled = [
    { dataset: "vat", version: "v2", rows: 180 },
    { dataset: "fx", version: "f1", rows: 1000 },
    { dataset: "hs", version: "h2", rows: 1000 },
    { dataset: "sanctions", version: "s2", rows: 18_000, registered: ["sanctions-sdn", "sanctions-un"] },
    { dataset: "restrictions", version: "r1", rows: 300 },
  ];
  const loaded = [
    { dataset: "vat", version: "v1", row_count: 179 },
    { dataset: "fx", version: "f1", row_count: 1000 },
    { dataset: "hs", version: "h1", row_count: 35_000 },
    { dataset: "sanctions", version: "SDN-x.UN-y", row_count: 19_000 },
  ];
  const by = (ds) => Object.fromEntries(ds.map((d) => [d.dataset, d.action]));
  assert.deepEqual(by(loadDecisions(bundled, loaded, { updated: ["sanctions-sdn"] })), {
    vat: "load",
    fx: "skip",
    hs: "refuse",
    sanctions: "keep",
    restrictions: "load",
  });
  const refused = loadDecisions(bundled, loaded).find((d) => d.dataset === "hs");
  assert.match(refused.reason, /97\.1 % fewer than the loaded h1/);
  assert.equal(by(loadDecisions(bundled, loaded, { force: true })).hs, "load");
  assert.deepEqual(Object.values(by(loadDecisions(bundled, loaded, { updated: ["sanctions-sdn"], reload: true }))), [
    "load",
    "load",
    "load",
    "load",
    "load",
  ]);
});
