/**
 * Denied-party lists (OFAC SDN, UN SC consolidated) from data/sanctions/ into D1. The version comes from
 * data/sanctions/lists.json, which the build script (scripts/build/sanctions.mjs) rewrites with the lists'
 * own dates, so rebuilding from a new list version and running `npm run dev` (or load-data) reloads it:
 * the loader empties both tables and inserts the new rows, and the Worker's screening index follows the
 * new version in data_sources.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { tsImport } from "tsx/esm/api";
import { dataDir } from "./lib.mjs";

// The row hash the dataset registry diffs versions by, from the same code the Worker runs (TypeScript, so
// loaded through tsx: the loaders run under plain Node).
const { entryHash } = await tsImport("../../src/engines/datasets/sanctions.ts", import.meta.url);

const dir = join(dataDir, "sanctions");
const manifest = JSON.parse(readFileSync(join(dir, "lists.json"), "utf8"));

export const dataset = "sanctions";
export const version = manifest.version;
export const source = manifest.lists.map((l) => `${l.code}: ${l.source}`).join("; ");
export const tables = ["sanction_entries", "sanction_lists"];

/** Entries the tests name (kept in the fixture slice), besides the first few of each list. */
const FIXTURE_REFS = new Set([
  "SDN:306", // BANCO NACIONAL DE CUBA
  "SDN:17016", // Gazprombank, alias rows only
  "SDN:17022", // Rosneft, alias rows only
  "UN:CDi.001",
  "UN:CDe.001",
]);

export function readList(code) {
  const file = join(dir, `${code.toLowerCase()}.jsonl.gz`);
  return gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The registry's dataset for each list (the platform API's `/datasets/{dataset}`). */
export const LIST_DATASETS = { SDN: "sanctions-sdn", UN: "sanctions-un" };

export async function rows({ fixture = false } = {}) {
  const entries = [];
  const lists = [];
  for (const list of manifest.lists) {
    let items = readList(list.code);
    if (fixture) items = items.filter((e, i) => i < 40 || FIXTURE_REFS.has(`${list.code}:${e.ref}`));
    const version = fixture ? `${list.version}+fixture` : list.version;
    lists.push([list.code, version, list.name, list.source, items.length]);
    for (const e of items) {
      entries.push([
        `${list.code}:${e.ref}`,
        version,
        list.code,
        e.ref,
        e.name,
        JSON.stringify(e.alt_names),
        e.type,
        JSON.stringify(e.programs),
        JSON.stringify(e.addresses),
        e.remarks,
        entryHash(e),
      ]);
    }
  }
  return {
    sanction_lists: { columns: ["code", "version", "name", "source", "entry_count"], rows: lists },
    sanction_entries: {
      columns: [
        "id",
        "list_version",
        "list_code",
        "source_ref",
        "name",
        "alt_names",
        "entry_type",
        "programs",
        "addresses",
        "remarks",
        "row_hash",
      ],
      rows: entries,
    },
  };
}

/** One registry row per list, active: each list is versioned, uploaded and activated on its own. */
export function registryVersions(data) {
  return data.sanction_lists.rows.map(([code, version, , source, count]) => ({
    dataset: LIST_DATASETS[code],
    version,
    source,
    rows: count,
  }));
}
