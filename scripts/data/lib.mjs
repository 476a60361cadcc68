/**
 * Helpers for dataset modules (scripts/data/<dataset>.mjs). A dataset module exports:
 *
 *   export const dataset = "sanctions";       // key in the data_sources table
 *   export const version = "2026-06";         // bump whenever the files under data/ change
 *   export const source = "OFAC SDN (…); UN SC consolidated list (…)";
 *   export const tables = ["sanction_entries", ...];   // tables this dataset owns (emptied on reload)
 *   export async function rows({ fixture })   // → { [table]: { columns: [...], rows: [[...], ...] } }
 *   export function registryVersions(data, { fixture })  // optional: the dataset registry's rows
 *                                                          // ([{dataset, version, source, rows}]) when the
 *                                                          // registry's datasets are not this one dataset
 *
 * `fixture: true` asks for a small slice for tests that do not need the full data; a module may ignore it.
 * Everything here runs in Node (npm run dev, the vitest config, the bench), never in the Worker.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const dataDir = join(root, "data");

/** SQL literal for a JS value: strings quoted, booleans as 0/1, null/undefined as NULL. */
export function sqlValue(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === "object") v = JSON.stringify(v);
  return `'${String(v).replaceAll("'", "''")}'`;
}

/** Multi-row INSERTs kept under D1's statement size limit (100 KB); literals, so no bound-parameter limit. */
export function insertStatements(table, columns, rows, maxBytes = 90_000) {
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const out = [];
  let parts = [];
  let size = head.length;
  for (const row of rows) {
    if (row.length !== columns.length)
      throw new Error(`${table}: row has ${row.length} values for ${columns.length} columns`);
    const tuple = `(${row.map(sqlValue).join(", ")})`;
    // The limit is on bytes (UTF-8), not characters: a Japanese description takes three bytes a character.
    const bytes = Buffer.byteLength(tuple);
    if (parts.length && size + bytes + 2 > maxBytes) {
      out.push(head + parts.join(", "));
      parts = [];
      size = head.length;
    }
    parts.push(tuple);
    size += bytes + 2;
  }
  if (parts.length) out.push(head + parts.join(", "));
  return out;
}

/** Every statement that replaces one dataset: delete its tables, insert its rows, record its version. */
export async function datasetStatements(mod, { fixture = false, importedAt = new Date().toISOString() } = {}) {
  const data = await mod.rows({ fixture });
  const statements = mod.tables.map((t) => `DELETE FROM ${t}`);
  let count = 0;
  for (const table of mod.tables) {
    const t = data[table];
    if (!t) continue;
    statements.push(...insertStatements(table, t.columns, t.rows));
    count += t.rows.length;
  }
  return [...statements, ...recordStatements(mod, data, count, { fixture, importedAt })];
}

/** The staging table's name for a load by the deployment (never a registry dataset: no `~` there). */
const loadKey = (mod) => `~load:${mod.dataset}`;

/**
 * The same replacement in two phases, for a database that serves while it loads (`npm run deploy`):
 * `stage` writes the rows beside the live tables (dataset_staged_rows, one JSON array per row) in as many
 * import files as their size needs, changing nothing a reader sees; `swap` (a few statements, sent as one
 * import file, which D1's import applies as one unit) empties the dataset's tables, copies the staged rows in
 * with INSERT … SELECT, records the version and drops the staged copy. A load that dies before the swap leaves
 * the old version serving; run again, `stage` starts by clearing what the dead one wrote.
 */
export async function stagedDatasetStatements(mod, { fixture = false, importedAt = new Date().toISOString() } = {}) {
  const data = await mod.rows({ fixture });
  const key = sqlValue(loadKey(mod));
  const version = sqlValue(fixture ? `${mod.version}+fixture` : mod.version);
  const stage = [`DELETE FROM dataset_staged_rows WHERE dataset = ${key}`];
  const swap = [];
  let count = 0;
  for (const table of mod.tables) {
    swap.push(`DELETE FROM ${table}`);
    const t = data[table];
    if (!t) continue;
    const staged = t.rows.map((row, i) => [
      loadKey(mod),
      fixture ? `${mod.version}+fixture` : mod.version,
      table,
      i,
      JSON.stringify(row.map(jsonValue)),
    ]);
    stage.push(...insertStatements("dataset_staged_rows", ["dataset", "version", "tbl", "seq", "row"], staged));
    const picks = t.columns.map((_, i) => `json_extract(row, '$[${i}]')`).join(", ");
    swap.push(
      `INSERT INTO ${table} (${t.columns.join(", ")}) SELECT ${picks} FROM dataset_staged_rows WHERE dataset = ${key} AND version = ${version} AND tbl = ${sqlValue(table)} ORDER BY seq`,
    );
    count += t.rows.length;
  }
  swap.push(...recordStatements(mod, data, count, { fixture, importedAt }));
  swap.push(`DELETE FROM dataset_staged_rows WHERE dataset = ${key}`);
  return { stage, swap, rows: count, registered: registeredVersions(mod, data, count, fixture).map((r) => r.dataset) };
}

/** A value as the staged JSON array holds it so json_extract gives back what sqlValue would have written. */
function jsonValue(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && !Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
  return typeof v === "object" ? JSON.stringify(v) : v;
}

/** The registry's rows for a bundled dataset: its own, or the module's (one per sanctions list...). */
function registeredVersions(mod, data, count, fixture) {
  const version = fixture ? `${mod.version}+fixture` : mod.version;
  return mod.registryVersions
    ? mod.registryVersions(data, { fixture })
    : [{ dataset: mod.dataset, version, source: mod.source, rows: count }];
}

/** The dataset's data_sources row and its registry rows, written with its tables. */
function recordStatements(mod, data, count, { fixture, importedAt }) {
  const version = fixture ? `${mod.version}+fixture` : mod.version;
  const statements = [
    `INSERT OR REPLACE INTO data_sources (dataset, version, source, imported_at, row_count) VALUES (${[mod.dataset, version, mod.source, importedAt, count].map(sqlValue).join(", ")})`,
  ];
  // The dataset registry: the bundled version is the active one, and a reload replaces every version the
  // registry held (uploads and fetches included), since the tables were emptied.
  for (const r of registeredVersions(mod, data, count, fixture)) {
    statements.push(`DELETE FROM dataset_versions WHERE dataset = ${sqlValue(r.dataset)}`);
    // Staged and kept versions of the registry go with it, and so does the data_sources row of a part the
    // registry swapped in on its own (an uploaded `tariffs-us`): the bundle's rows stand again.
    statements.push(`DELETE FROM dataset_staged_rows WHERE dataset = ${sqlValue(r.dataset)}`);
    if (r.dataset !== mod.dataset) statements.push(`DELETE FROM data_sources WHERE dataset = ${sqlValue(r.dataset)}`);
    statements.push(
      `INSERT INTO dataset_versions (dataset, version, status, source, origin, rows, staged_rows, imported_at, activated_at, updated_at) VALUES (${[r.dataset, r.version, "active", r.source, "bundled", r.rows, r.rows, importedAt, importedAt, importedAt].map(sqlValue).join(", ")})`,
    );
  }
  return statements;
}

/** All dataset modules in scripts/data, sorted by name. */
export async function loadDatasetModules() {
  const dir = join(root, "scripts", "data");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs") && f !== "lib.mjs")
    .sort();
  const mods = [];
  for (const f of files) mods.push(await import(pathToFileURL(join(dir, f)).href));
  return mods;
}
