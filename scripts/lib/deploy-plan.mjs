/**
 * The deploy as data: every wrangler command `npm run deploy` would run, built without an account so the
 * plan can be printed (--plan) and tested (scripts/deploy.test.mjs). Nothing here spawns a process.
 */

/**
 * D1's documented limits (https://developers.cloudflare.com/d1/platform/limits/): SQL statement length
 * 100,000 bytes; bound parameters per query 100; string/BLOB/row size 2,000,000 bytes; file import via
 * `d1 execute` 5 GB. The loader writes literals (no bound parameters) and keeps a margin under the statement
 * limit; files are kept small so a failed remote import is cheap to repeat and progress is visible.
 */
export const D1_LIMITS = {
  maxStatementBytes: 100_000,
  maxRowBytes: 2_000_000,
  maxImportBytes: 5 * 1024 ** 3,
};

const CHUNK_DEFAULTS = { maxStatementBytes: 90_000, maxFileBytes: 4 * 1024 ** 2, maxStatementsPerFile: 200 };

/**
 * Groups SQL statements into import files within the limits above. Refuses a statement over the statement
 * limit rather than sending one D1 would reject half-way through a load.
 */
export function chunkStatements(statements, opts = {}) {
  const { maxStatementBytes, maxFileBytes, maxStatementsPerFile } = { ...CHUNK_DEFAULTS, ...opts };
  if (maxStatementBytes > D1_LIMITS.maxStatementBytes) throw new Error("maxStatementBytes above D1's limit");
  const files = [];
  let cur = [];
  let bytes = 0;
  for (const s of statements) {
    const size = Buffer.byteLength(s, "utf8") + 2;
    if (size - 2 > maxStatementBytes)
      throw new Error(`statement of ${size - 2} bytes exceeds ${maxStatementBytes}: ${s.slice(0, 80)}…`);
    if (cur.length && (cur.length >= maxStatementsPerFile || bytes + size > maxFileBytes)) {
      files.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(s);
    bytes += size;
  }
  if (cur.length) files.push(cur);
  return files;
}

/** Names of every resource the deploy creates or reuses, read from the parsed wrangler config. */
function resourcesFrom(config) {
  const queues = new Set();
  for (const p of config.queues?.producers ?? []) queues.add(p.queue);
  for (const c of config.queues?.consumers ?? []) queues.add(c.queue);
  return {
    d1: (config.d1_databases ?? []).map((d) => d.database_name),
    r2: (config.r2_buckets ?? []).map((b) => b.bucket_name),
    queues: [...queues],
    deadLetterQueues: [...queues].map((q) => `${q}-dlq`),
    secrets: config.secrets?.required ?? [],
  };
}

/**
 * Steps in order. `existing` lists what the account already has ({ d1: [], r2: [], queues: [] }) so a
 * second deploy reuses rather than recreates; without it (plan mode) every create is shown.
 */
export function deployPlan(config, { domain, existing = {} } = {}) {
  if (!domain || !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(domain)) throw new Error(`a domain is required, got ${domain}`);
  const r = resourcesFrom(config);
  const has = (kind, name) => (existing[kind] ?? []).includes(name);
  const steps = [];
  for (const name of r.d1)
    steps.push(
      has("d1", name) ? { name: `reuse D1 ${name}` } : { name: `create D1 ${name}`, cmd: ["d1", "create", name] },
    );
  for (const name of r.r2)
    steps.push(
      has("r2", name)
        ? { name: `reuse R2 ${name}` }
        : { name: `create R2 ${name}`, cmd: ["r2", "bucket", "create", name] },
    );
  for (const name of [...r.deadLetterQueues, ...r.queues])
    steps.push(
      has("queues", name)
        ? { name: `reuse queue ${name}` }
        : { name: `create queue ${name}`, cmd: ["queues", "create", name] },
    );
  steps.push({
    name: "apply D1 migrations",
    cmd: ["d1", "migrations", "apply", "DB", "--remote", "--config", DEPLOY_CONFIG],
  });
  steps.push({ name: "load reference data", load: { remote: true } });
  for (const sec of r.secrets)
    steps.push({ name: `secret ${sec}`, secret: sec, cmd: ["secret", "put", sec, "--config", DEPLOY_CONFIG] });
  // Durable Object migrations (wrangler.jsonc "migrations") are applied by `wrangler deploy` itself.
  steps.push({ name: "deploy Worker (applies Durable Object migrations)", cmd: ["deploy", "--config", DEPLOY_CONFIG] });
  // The last step proves the deployment answers end to end (scripts/lib/smoke.mjs); it needs no wrangler.
  steps.push({ name: `smoke test https://${domain}`, smoke: { baseUrl: `https://${domain}` } });
  return steps;
}

/** Where deploy.mjs writes the account-specific config it deploys with (git-ignored; at the root so the relative paths in the config still resolve). */
export const DEPLOY_CONFIG = "wrangler.deploy.json";

/**
 * The production config with the account's real D1 id, the routes for the bare domain (custom domain) and
 * for workspace subdomains (wildcard route in the domain's zone), and a dead-letter queue on every consumer.
 * Starts from the top level of wrangler.jsonc, which is production-safe (ENVIRONMENT=production).
 */
export function deployConfig(config, { domain, databaseIds = {} }) {
  const { env: _env, $schema: _schema, ...top } = config;
  return {
    ...top,
    vars: { ...top.vars, ...config.env?.production?.vars, WORKSPACE_BASE_DOMAIN: domain, ENVIRONMENT: "production" },
    d1_databases: (top.d1_databases ?? []).map((d) => ({
      ...d,
      database_id: databaseIds[d.database_name] ?? d.database_id,
    })),
    queues: top.queues && {
      ...top.queues,
      consumers: (top.queues.consumers ?? []).map((c) => ({ ...c, dead_letter_queue: `${c.queue}-dlq` })),
    },
    // Workers AI for the `ai` and `image` classify modes: a remote service, so only deployments bind it
    // (`wrangler dev` and the tests run without it, or with a stand-in).
    ...(config.env?.production?.ai ? { ai: config.env.production.ai } : {}),
    routes: [
      { pattern: domain, custom_domain: true },
      { pattern: `*.${domain}/*`, zone_name: domain },
    ],
  };
}

/** JSONC → object: drops line and block comments and trailing commas outside strings. */
export function parseJsonc(text) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2) + 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

/**
 * What the deployment's load does with each bundled dataset, against what the database already holds
 * (`loaded`: data_sources rows `{dataset, version, row_count}`; `updated`: the registry datasets whose active
 * version came from an upload or a fetch):
 * - `skip` when that version is loaded (a second deploy reloads nothing);
 * - `keep` when the registry holds a version of one of its parts taken at run time (a fetched sanctions list,
 *   an uploaded tariff): the bundle is older than what serves, and a deploy must not roll it back;
 * - `refuse` when the bundled version has more than `shrinkLimit` fewer rows than the loaded one (a truncated
 *   build must not empty a table), the check the registry makes on an upload (DATASET_SHRINK_LIMIT);
 * - `load` otherwise. `force` passes the shrink check; `reload` loads every dataset, run-time versions included.
 */
export function loadDecisions(
  bundled,
  loaded,
  { updated = [], force = false, reload = false, shrinkLimit = 0.1 } = {},
) {
  const byName = new Map(loaded.map((r) => [r.dataset, r]));
  const runTime = new Set(updated);
  return bundled.map(({ dataset, version, rows, registered = [dataset] }) => {
    const have = byName.get(dataset);
    if (reload) return { dataset, action: "load", reason: "--reload-data" };
    if (have && have.version === version) return { dataset, action: "skip", reason: `version ${version} is loaded` };
    const taken = registered.filter((r) => runTime.has(r));
    if (taken.length)
      return {
        dataset,
        action: "keep",
        reason: `${taken.join(", ")} has a version uploaded or fetched at run time; --reload-data replaces it with the bundle's`,
      };
    if (have && have.row_count > 0 && !force) {
      const shrink = (have.row_count - rows) / have.row_count;
      if (shrink > shrinkLimit)
        return {
          dataset,
          action: "refuse",
          reason: `${version} has ${rows} rows, ${(shrink * 100).toFixed(1)} % fewer than the loaded ${have.version} (${have.row_count}); limit ${shrinkLimit * 100} %, --force-data to load it anyway`,
        };
    }
    return { dataset, action: "load", reason: have ? `replaces ${have.version}` : "not loaded yet" };
  });
}
