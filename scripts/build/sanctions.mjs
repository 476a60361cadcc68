#!/usr/bin/env node
/**
 * Derives data/sanctions/ from the lists' official files, with the same parsers the dataset registry runs in
 * the Worker (src/engines/datasets/sanctions.ts), so the bundled data and an uploaded or fetched version of
 * the same files are the same entries:
 *
 *   OFAC SDN legacy CSV: sdn.csv (primary rows) + alt.csv (aliases) + add.csv (addresses)
 *   UN SC consolidated list: consolidated.xml
 *
 * Usage: node --import tsx scripts/build/sanctions.mjs [--sdn F --alt F --add F --sdn-date D --alt-date D |
 *        --sdn-advanced F] [--un F]. Without arguments it reads the snapshot beside the project in ../shared/data (the files and
 *        dates recorded in data/sanctions/SOURCE.md); a clone downloads the official files and names them.
 *
 * Output (committed, so a clone works on its own):
 *   lists.json   the lists with their versions, plus the dataset version the loader records
 *   sdn.jsonl.gz one entry per line, gzipped (7 MB of JSON, mostly remarks and addresses, is 1.3 MB)
 *   un.jsonl.gz  one entry per line, gzipped
 */
import { createReadStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ofacAdvancedEntries } from "../../src/engines/datasets/ofac-advanced.ts";
import { ofacEntries, unEntries } from "../../src/engines/datasets/sanctions.ts";
import { dataDir, root } from "../data/lib.mjs";

const shared = join(root, "..", "shared", "data");
const outDir = join(dataDir, "sanctions");

/** Bump when this script's output changes for the same list versions. */
const BUILD_REVISION = 3;

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const OFAC_DIR = join(shared, "sanctions-ofac-sdn-2024");
const files = {
  sdn: opt("--sdn", join(OFAC_DIR, "sdn.csv")),
  alt: opt("--alt", join(OFAC_DIR, "alt_2026-06.csv")),
  add: opt("--add", join(OFAC_DIR, "add_2026-06.csv")),
  un: opt("--un", join(shared, "sanctions-un", "un_consolidated.xml")),
};
const SDN_DATE = opt("--sdn-date", "2024-05-03");
const ALT_ADD_DATE = opt("--alt-date", "2026-06-02");

async function* text(file) {
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 })) yield chunk;
}

async function collect(iter) {
  const out = [];
  for await (const e of iter) out.push(e);
  return out;
}

// ------------------------------------------------------------------------------------------------ main

const issues = [];
// `--sdn-advanced F`: OFAC's advanced XML instead of the CSV trio (the same parties, names in every script).
const advanced = opt("--sdn-advanced");
const issued = { dateOfIssue: null };
const ofac = {
  entries: await collect(
    advanced
      ? ofacAdvancedEntries(text(advanced), issues, issued)
      : ofacEntries({
          sdn: text(files.sdn),
          alt: text(files.alt),
          add: text(files.add),
          issues,
          sdnDate: SDN_DATE,
          altDate: ALT_ADD_DATE,
        }),
  ),
};
const unInfo = { dateGenerated: null };
const un = { entries: await collect(unEntries(text(files.un), unInfo, issues)), generated: unInfo.dateGenerated ?? "" };
const unDate = un.generated.slice(0, 10);
const lists = [
  {
    code: "SDN",
    name: "OFAC Specially Designated Nationals and Blocked Persons List",
    version: advanced ? `${issued.dateOfIssue}+advanced` : `${SDN_DATE}+alt-add-${ALT_ADD_DATE}`,
    source: advanced
      ? `US Treasury OFAC advanced XML SDN_ADVANCED.XML (date of issue ${issued.dateOfIssue})`
      : `US Treasury OFAC legacy CSV files sdn.csv (${SDN_DATE}), alt.csv and add.csv (${ALT_ADD_DATE})`,
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
  version: `SDN-${advanced ? `${issued.dateOfIssue}+advanced` : `${SDN_DATE}+${ALT_ADD_DATE}`}.UN-${unDate}.r${BUILD_REVISION}`,
  lists,
};

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "lists.json"), `${JSON.stringify(manifest, null, 2)}\n`);
// gzip output is byte-stable (no timestamp in the header), so an unchanged build leaves git clean.
const jsonl = (entries) => gzipSync(`${entries.map((e) => JSON.stringify(e)).join("\n")}\n`, { level: 9 });
for (const f of ["sdn.jsonl", "un.jsonl"]) rmSync(join(outDir, f), { force: true });
writeFileSync(join(outDir, "sdn.jsonl.gz"), jsonl(ofac.entries));
writeFileSync(join(outDir, "un.jsonl.gz"), jsonl(un.entries));
const orphans = ofac.entries.filter((e) => e.type === "unknown").length;
console.log(
  `SDN: ${ofac.entries.length} entries (${orphans} from alias rows without a primary); UN: ${un.entries.length} ` +
    `entries; ${issues.length} records skipped${issues.length ? `: ${JSON.stringify(issues.slice(0, 5))}` : ""}`,
);
