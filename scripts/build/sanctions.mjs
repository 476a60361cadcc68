#!/usr/bin/env node
/**
 * Derives data/sanctions/ from the original list files in ../shared/data:
 *
 *   OFAC SDN: sdn.csv (primary rows, 2024-05-03) + alt_2026-06.csv (aliases) + add_2026-06.csv (addresses)
 *   UN SC consolidated list: un_consolidated.xml (dateGenerated 2025-11-18)
 *
 * Output (committed, so a clone works on its own):
 *   lists.json   the lists with their versions, plus the dataset version the loader records
 *   sdn.jsonl.gz one entry per line, gzipped (7 MB of JSON, mostly remarks and addresses, is 1.3 MB)
 *   un.jsonl.gz  one entry per line, gzipped
 *
 * An entry: {ref, name, alt_names, type, programs, addresses, remarks}; `alt_names` are the strong aliases
 * (what the screening engine matches on); weak aliases stay visible in `remarks` only (see SOURCE.md).
 * Run only to refresh the files: `node scripts/build/sanctions.mjs`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { dataDir, root } from "../data/lib.mjs";
import { parseCsv } from "./csv.mjs";

const shared = join(root, "..", "shared", "data");
const outDir = join(dataDir, "sanctions");

/** Bump when this script's output changes for the same list versions. */
const BUILD_REVISION = 1;

const OFAC_DIR = join(shared, "sanctions-ofac-sdn-2024");
const SDN_DATE = "2024-05-03";
const ALT_ADD_DATE = "2026-06-02";

// ------------------------------------------------------------------------------------------------ OFAC

const nul = (v) => {
  const s = (v ?? "").trim();
  return s === "" || s === "-0-" ? null : s;
};

function readCsv(file) {
  // The legacy OFAC files end with a DOS end-of-file byte (0x1A) on a line of its own.
  return parseCsv(readFileSync(join(OFAC_DIR, file), "utf8")).filter((r) => r.length > 1);
}

function ofacEntries() {
  const sdn = readCsv("sdn.csv");
  const alt = readCsv("alt_2026-06.csv");
  const add = readCsv("add_2026-06.csv");

  const aliases = new Map(); // ent_num → [{num, type, name}]
  for (const [ent, num, type, name] of alt) {
    const n = nul(name);
    if (!n) continue;
    const list = aliases.get(ent) ?? [];
    list.push({ num: Number(num), type: nul(type) ?? "aka", name: n });
    aliases.set(ent, list);
  }
  const addresses = new Map();
  for (const [ent, num, street, city, country, remarks] of add) {
    const a = compact({ address: nul(street), city: nul(city), country: nul(country), note: nul(remarks) });
    if (Object.keys(a).length === 0) continue;
    const list = addresses.get(ent) ?? [];
    list.push({ num: Number(num), a });
    addresses.set(ent, list);
  }
  const addressesOf = (ent) => (addresses.get(ent) ?? []).sort((x, y) => x.num - y.num).map((x) => x.a);
  const aliasNames = (list, exclude) =>
    unique(list.sort((x, y) => x.num - y.num).map((x) => x.name)).filter((n) => n !== exclude);

  const entries = [];
  const seen = new Set();
  for (const [ent, name, type, program, title, callSign, vessType, tonnage, grt, flag, owner, remarks] of sdn) {
    seen.add(ent);
    const extra = [];
    if (nul(title)) extra.push(`Title: ${nul(title)}`);
    const vessel = [
      nul(vessType) && `type ${nul(vessType)}`,
      nul(flag) && `flag ${nul(flag)}`,
      nul(callSign) && `call sign ${nul(callSign)}`,
      nul(tonnage) && `tonnage ${nul(tonnage)}`,
      nul(grt) && `GRT ${nul(grt)}`,
      nul(owner) && `owner ${nul(owner)}`,
    ].filter(Boolean);
    if (vessel.length) extra.push(`Vessel: ${vessel.join(", ")}`);
    const t = nul(type)?.toLowerCase();
    entries.push({
      ref: ent,
      name: name.trim(),
      alt_names: aliasNames(aliases.get(ent) ?? [], name.trim()),
      type: t === "individual" || t === "vessel" || t === "aircraft" ? t : "entity",
      programs: programsOf(program),
      addresses: addressesOf(ent),
      remarks: [nul(remarks), ...extra].filter(Boolean).join("; ") || null,
    });
  }

  // Aliases whose primary row is missing: entries designated (or renamed) after the 2024-05-03 sdn.csv.
  // They are real designations, so they are kept: the name is the current alias ("nka" first, then "aka",
  // then "fka", lowest alt_num within each), the other aliases stay alt_names, and type and programs are
  // unknown (the type filter keeps `unknown` entries in scope, so they are never filtered out).
  const rank = { nka: 0, aka: 1, fka: 2 };
  let orphans = 0;
  for (const [ent, list] of [...aliases].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    if (seen.has(ent)) continue;
    orphans++;
    const ordered = [...list].sort((x, y) => (rank[x.type] ?? 3) - (rank[y.type] ?? 3) || x.num - y.num);
    const name = ordered[0].name;
    entries.push({
      ref: ent,
      name,
      alt_names: aliasNames(list, name),
      type: "unknown",
      programs: [],
      addresses: addressesOf(ent),
      remarks:
        `Primary record not in the SDN file of ${SDN_DATE} (designated or changed later); ` +
        `name taken from its alias rows of ${ALT_ADD_DATE}; type and programs unknown.`,
    });
  }
  const addressOnly = [...addresses.keys()].filter((e) => !seen.has(e) && !aliases.has(e)).length;
  return { entries, stats: { primary: sdn.length, orphans, addressOnly } };
}

function programsOf(raw) {
  const s = nul(raw);
  if (!s) return [];
  return unique(
    s
      .split(/\]\s*\[/)
      .map((p) => p.replace(/[[\]]/g, "").trim())
      .filter(Boolean),
  );
}

// -------------------------------------------------------------------------------------------------- UN

const decode = (s) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&");

/** Text of every direct `<tag>` in a block (the UN file is flat and regular enough for this). */
const all = (block, tag) => [...block.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
const one = (block, tag) => {
  const v = all(block, tag)[0];
  return v === undefined ? null : clean(decode(v));
};
const clean = (s) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t === "" ? null : t;
};

function unEntries() {
  const xml = readFileSync(join(shared, "sanctions-un", "un_consolidated.xml"), "utf8");
  const generated = /dateGenerated="([^"]+)"/.exec(xml)?.[1] ?? "";
  const entries = [];
  let weak = 0;
  for (const [kind, type] of [
    ["INDIVIDUAL", "individual"],
    ["ENTITY", "entity"],
  ]) {
    for (const m of xml.matchAll(new RegExp(`<${kind}>([\\s\\S]*?)</${kind}>`, "g"))) {
      const b = m[1];
      const name = ["FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME"]
        .map((t) => one(b, t))
        .filter(Boolean)
        .join(" ");
      const strong = [];
      const weakNames = [];
      for (const a of all(b, `${kind}_ALIAS`)) {
        const n = one(a, "ALIAS_NAME");
        if (!n) continue;
        if ((one(a, "QUALITY") ?? "").toLowerCase() === "low") weakNames.push(n);
        else strong.push(n);
      }
      weak += weakNames.length;
      const original = one(b, "NAME_ORIGINAL_SCRIPT");
      if (original) strong.push(original);
      const addresses = all(b, `${kind}_ADDRESS`)
        .map((a) =>
          compact({
            address: one(a, "STREET"),
            city: one(a, "CITY"),
            state: one(a, "STATE_PROVINCE"),
            postal_code: one(a, "ZIP_CODE"),
            country: one(a, "COUNTRY"),
            note: one(a, "NOTE"),
          }),
        )
        .filter((a) => Object.keys(a).length > 0);
      const listValues = (tag) =>
        all(b, tag)
          .flatMap((v) => all(v, "VALUE").map((x) => clean(decode(x))))
          .filter(Boolean);
      const dobs = all(b, "INDIVIDUAL_DATE_OF_BIRTH")
        .map(
          (d) =>
            one(d, "DATE") ??
            one(d, "YEAR") ??
            (one(d, "FROM_YEAR") ? `${one(d, "FROM_YEAR")}-${one(d, "TO_YEAR")}` : null),
        )
        .filter(Boolean);
      const remarks = [
        one(b, "LISTED_ON") && `Listed on ${one(b, "LISTED_ON")}`,
        dobs.length && `DOB ${dobs.join(", ")}`,
        listValues("NATIONALITY").length && `Nationality ${listValues("NATIONALITY").join(", ")}`,
        listValues("TITLE").length && `Title ${listValues("TITLE").join(", ")}`,
        listValues("DESIGNATION").length && `Designation ${listValues("DESIGNATION").join(", ")}`,
        weakNames.length && `Low-quality a.k.a. (not screened): ${weakNames.join("; ")}`,
        one(b, "COMMENTS1"),
      ].filter(Boolean);
      entries.push({
        ref: one(b, "REFERENCE_NUMBER"),
        name,
        alt_names: unique(strong).filter((n) => n !== name),
        type,
        programs: [one(b, "UN_LIST_TYPE")].filter(Boolean),
        addresses,
        remarks: remarks.join("; ") || null,
      });
    }
  }
  return { entries, generated, stats: { weak } };
}

// ----------------------------------------------------------------------------------------------- utils

function compact(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ""));
}
function unique(a) {
  return [...new Set(a)];
}

// ------------------------------------------------------------------------------------------------ main

const ofac = ofacEntries();
const un = unEntries();
const unDate = un.generated.slice(0, 10);
const lists = [
  {
    code: "SDN",
    name: "OFAC Specially Designated Nationals and Blocked Persons List",
    version: `${SDN_DATE}+alt-add-${ALT_ADD_DATE}`,
    source: "US Treasury OFAC legacy CSV files sdn.csv (2024-05-03), alt.csv and add.csv (2026-06-02)",
    entry_count: ofac.entries.length,
  },
  {
    code: "UN",
    name: "UN Security Council Consolidated List",
    version: unDate,
    source: `UN Security Council consolidated list XML, dateGenerated ${un.generated}`,
    entry_count: un.entries.length,
  },
];
const manifest = {
  version: `SDN-${SDN_DATE}+${ALT_ADD_DATE}.UN-${unDate}.r${BUILD_REVISION}`,
  lists,
};

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "lists.json"), `${JSON.stringify(manifest, null, 2)}\n`);
// gzip output is byte-stable (no timestamp in the header), so an unchanged build leaves git clean.
const jsonl = (entries) => gzipSync(`${entries.map((e) => JSON.stringify(e)).join("\n")}\n`, { level: 9 });
for (const f of ["sdn.jsonl", "un.jsonl"]) rmSync(join(outDir, f), { force: true });
writeFileSync(join(outDir, "sdn.jsonl.gz"), jsonl(ofac.entries));
writeFileSync(join(outDir, "un.jsonl.gz"), jsonl(un.entries));
console.log(
  `SDN: ${ofac.entries.length} entries (${ofac.stats.primary} primary rows, ${ofac.stats.orphans} from alias rows without a primary, ` +
    `${ofac.stats.addressOnly} ent_nums with only addresses dropped); UN: ${un.entries.length} entries (${un.stats.weak} low-quality aliases kept in remarks only)`,
);
