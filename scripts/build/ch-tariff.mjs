#!/usr/bin/env node
/**
 * Derives data/tariffs/ch.json, Switzerland's tariff for the calculate engine, from the Swiss customs tariff (Tares)
 * general rates as the Federal Office for Customs and Border Security (BAZG) publishes them for 2026
 * (scripts/build/sources.mjs: --sources <dir>, file ch-bazg-tariff/ch_tariff_2026_rev_901.csv). The file lists the
 * tariff in schedule order: headings and subheadings (IS_LEAF 0), untitled grouping rows (no code, SUFFIX 10) and the
 * 8-digit tariff numbers (IS_LEAF 1) with the general rate (GT_RATE) in Swiss francs per the unit in UNIT.
 *
 * Swiss duties are specific, never ad valorem (Customs Tariff Act, SR 632.10, art. 2: on the gross weight unless
 * another unit is set): "Fr. per 100 kg gross" becomes a rate per 100 kg of the engine's gross-weight unit (KGB,
 * rounded up to the next 100 g as art. 2(3) requires), "Fr. per piece(s)" a rate per piece. A rate of 0.00 is Free:
 * the industrial tariffs (chapters 25-97 but for the agricultural goods among them) were abolished on 2024-01-01.
 * A unit the engine cannot measure keeps the rate's words and is not computed.
 *
 * The copy is checked as it is read: eight fields a row, dates and rates well formed, tariff numbers unique and in
 * schedule order, each grouping row's indent within its parent's. Run only to refresh; the output is committed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../data/lib.mjs";
import { parseCsv } from "./csv.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const FILE = "ch-bazg-tariff/ch_tariff_2026_rev_901.csv";
const HEADER = ["GOODS_CODE", "SUFFIX", "INDENT", "DESCRIPTION", "UNIT", "IS_LEAF", "GT_RATE", "START_DATE"];

/** The tariff's assessment units as the engine's: [unit, per]. */
export const UNITS = {
  "Fr. per 100 kg gross": ["KGB", 100],
  "Fr. per piece(s)": ["NO", 1],
  "Fr. per litre": ["L", 1],
};

const clean = (s) =>
  String(s ?? "")
    .replace(/[\u00a0\t\r\n]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** A general rate as components: [] for Free, a specific rate, or null when its unit is not one the engine measures. */
export function parseRate(rate, unit) {
  if (!/^\d+\.\d{2}$/.test(rate)) throw new Error(`rate ${JSON.stringify(rate)} is not a number of francs`);
  if (Number(rate) === 0) return [];
  const u = UNITS[unit];
  return u ? [["sp", String(Number(rate).toFixed(2)), u[0], u[1]]] : null;
}

/** The tariff's rows, checked, as `{code, description, unit, rate, from}` per 8-digit tariff number. */
export function tariffNumbers(rows) {
  const [header, ...body] = rows;
  if (header.join(",") !== HEADER.join(",")) throw new Error(`unexpected header ${header.join(",")}`);
  const out = [];
  // The descriptions in force at each indent above the current row: a tariff number's full text is its path.
  const path = [];
  let last = "";
  body.forEach((r, i) => {
    const where = `row ${i + 2}`;
    if (r.length === 1 && r[0] === "") return;
    if (r.length !== HEADER.length) throw new Error(`${where}: ${r.length} fields`);
    const [code, suffix, indentText, description, unit, leaf, rate, from] = r;
    const indent = Number(indentText);
    if (!Number.isInteger(indent) || indent < 0 || indent > path.length)
      throw new Error(`${where}: indent ${indentText} after ${path.length} levels`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) throw new Error(`${where}: start date ${from}`);
    if (!["10", "80"].includes(suffix)) throw new Error(`${where}: suffix ${suffix}`);
    path.length = indent;
    path[indent] = clean(description).replace(/:$/, "");
    if (code === "") {
      if (suffix !== "10" || leaf !== "" || rate !== "")
        throw new Error(`${where}: a grouping row with a code's fields`);
      return;
    }
    if (!/^\d{2}(\d{2}(\d{2}(\d{2})?)?)?$/.test(code)) throw new Error(`${where}: code ${code}`);
    if (code <= last) throw new Error(`${where}: ${code} after ${last}`);
    last = code;
    if (leaf !== "1") {
      if (rate !== "") throw new Error(`${where}: a rate on heading ${code}`);
      return;
    }
    if (code.length !== 8) throw new Error(`${where}: tariff number ${code} is not 8 digits`);
    if (!/^\d+\.\d{2}$/.test(rate)) throw new Error(`${where}: rate ${JSON.stringify(rate)} is not a number of francs`);
    // From the heading down (indent 0 is the chapter's title).
    const text = path.slice(1).filter(Boolean).join(" > ");
    out.push({ code, description: text, unit: clean(unit), rate, from });
  });
  return out;
}

function main() {
  const dir = requireSources(sourcesDir(), [FILE]);
  const numbers = tariffNumbers(parseCsv(readFileSync(join(dir, FILE), "utf8")));
  const units = new Map();
  const rows = [];
  let free = 0;
  let notComputed = 0;
  for (const n of numbers) {
    units.set(n.unit, (units.get(n.unit) ?? 0) + 1);
    const comps = parseRate(n.rate, n.unit);
    if (comps?.length === 0) free++;
    if (comps === null) notComputed++;
    const text = comps?.length === 0 ? "Free" : `${n.rate} ${n.unit.replace(/^Fr\./, "CHF")}`;
    rows.push([n.code, n.description.slice(0, 300), text, comps]);
  }
  const out = {
    _note: "See data/tariffs/SOURCE.md (Switzerland). Generated by scripts/build/ch-tariff.mjs.",
    columns: ["code", "description", "general_text", "general"],
    rows,
  };
  writeFileSync(join(dataDir, "tariffs/ch.json"), `${JSON.stringify(out)}\n`);
  console.log(`ch.json: ${rows.length} tariff numbers, ${free} free, ${notComputed} not computed; units:`, units);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
