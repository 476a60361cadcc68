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
import { dataDir } from "./lib.mjs";

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

export async function rows({ fixture = false } = {}) {
  const entries = [];
  const lists = [];
  for (const list of manifest.lists) {
    let items = readList(list.code);
    if (fixture) items = items.filter((e, i) => i < 40 || FIXTURE_REFS.has(`${list.code}:${e.ref}`));
    lists.push([list.code, list.name, list.version, list.source, items.length]);
    for (const e of items) {
      entries.push([
        `${list.code}:${e.ref}`,
        list.code,
        e.ref,
        e.name,
        JSON.stringify(e.alt_names),
        e.type,
        JSON.stringify(e.programs),
        JSON.stringify(e.addresses),
        e.remarks,
      ]);
    }
  }
  return {
    sanction_lists: { columns: ["code", "name", "version", "source", "entry_count"], rows: lists },
    sanction_entries: {
      columns: ["id", "list_code", "source_ref", "name", "alt_names", "entry_type", "programs", "addresses", "remarks"],
      rows: entries,
    },
  };
}
