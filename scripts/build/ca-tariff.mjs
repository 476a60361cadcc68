#!/usr/bin/env node
/**
 * Derives data/tariffs/ca.json, Canada's tariff for the calculate engine, from the schedule to the Customs Tariff
 * as the CBSA publishes it for 2026 (T2026, its tariff table exported to CSV; scripts/build/sources.mjs: --sources
 * <dir>, file ca-cbsa-tariff/ca_tariff_2026_rev_3.csv). One row per tariff item (8 digits) and per statistical
 * suffix (10 digits); the item rows carry the rates: the Most-Favoured-Nation Tariff (MFN), the General Tariff, and
 * one column per preferential tariff treatment (Customs Tariff s. 27 names them: UST, MXT, CEUT, CPTPT, UKT...).
 *
 * Read as the schedule is: a cell that is empty or "N/A" gives the treatment no rate on the item (the MFN stands);
 * "Free", "8 %", "2.82 ¢/kg", "$1.25/kg", "238 % but not less than $1.25/kg" and sums of those are computed; a rate
 * whose unit the engine cannot measure stays null, shown and not computed. A specific rate with no unit ("1.9 ¢") is
 * per the unit of measure the item's statistical lines give (KGM: per kilogram). Run only to refresh; the output is
 * committed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Big from "big.js";
import { dataDir } from "../data/lib.mjs";
import { parseCsv } from "./csv.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const FILE = "ca-cbsa-tariff/ca_tariff_2026_rev_3.csv";

/** The preferential treatments modelled (data/customs/ca-programs.json names their countries and dates). */
export const TREATMENTS = [
  "AUT",
  "NZT",
  "UST",
  "MXT",
  "CIAT",
  "CT",
  "CRT",
  "IT",
  "NT",
  "SLT",
  "PT",
  "COLT",
  "JT",
  "PAT",
  "HNT",
  "KRT",
  "CEUT",
  "CPTPT",
  "UKT",
  "UAT",
  "LDCT",
];

/** The schedule's units of measure (the statistical lines' UOM codes) as the engine's quantity units. */
const UOM = { KGM: "KG", NMB: "NO", LTR: "L", LTA: "LAL", DZN: "DOZ", TNE: "T", PAR: "PRS", PR: "PRS", NPR: "PRS" };
/** The units a specific rate is stated per, as written after the slash. */
const PER = {
  kg: "KG",
  each: "NO",
  litre: "L",
  l: "L",
  "litre of absolute ethyl alcohol": "LAL",
  "l of absolute ethyl alcohol": "LAL",
  dozen: "DOZ",
  tonne: "T",
  pair: "PRS",
};

const clean = (s) =>
  String(s ?? "")
    .replace(/[\u00a0\t\r\n]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * One rate cell → components, [] for Free, "n/a" for a treatment that does not apply, or null when the words cannot
 * be computed. `unit`: the item's unit of measure, for a specific rate written without one.
 */
export function parseRate(text, unit = null) {
  const t = clean(text);
  if (!t || /^n\/?a$/i.test(t)) return "n/a";
  if (/^free$/i.test(t)) return [];
  // "5 % but not less than 4.74 ¢/kg or more than 9.48 ¢/kg": the higher of the first two, capped by the third.
  const band = /^(.+?),? but not less than (.+?) or more than (.+)$/i.exec(t);
  if (band) {
    const [a, lo, hi] = [band[1], band[2], band[3]].map((x) => parseRate(x, unit));
    if (![a, lo, hi].every(Array.isArray)) return null;
    return [["alt", "min", [[["alt", "max", [a, lo]]], hi]]];
  }
  const but = /^(.+?),? but not (less|more) than (.+)$/i.exec(t);
  if (but) {
    const a = parseRate(but[1], unit);
    const b = parseRate(but[3], unit);
    if (!Array.isArray(a) || !Array.isArray(b)) return null;
    return [["alt", but[2].toLowerCase() === "less" ? "max" : "min", [a, b]]];
  }
  const plus = /^(.+?) (?:plus|\+) (.+)$/i.exec(t);
  if (plus) {
    const a = parseRate(plus[1], unit);
    const b = parseRate(plus[2], unit);
    return Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : null;
  }
  const av = /^(\d+(?:\.\d+)?) ?%$/.exec(t);
  if (av) return [["av", new Big(av[1]).div(100).toString()]];
  const sp = /^(\$ ?)?(\d[\d,]*(?:\.\d+)?|\.\d+) ?(¢)? ?(?:\/ ?|per )?(.*)$/.exec(t);
  if (sp && (sp[1] || sp[3])) {
    let amount = new Big(sp[2].replace(/,/g, ""));
    if (sp[3]) amount = amount.div(100);
    const per = sp[4].trim().toLowerCase();
    // Per hectolitre: the litre rate per 100 l.
    if (per === "hl") return [["sp", amount.toString(), "L", 100]];
    const u = per === "" ? unit : PER[per];
    if (!u) return null;
    return [["sp", amount.toString(), u]];
  }
  return null;
}

/**
 * The tariff items. A description that only says "Other" (or is short) is read under its parent's, the nearest
 * shorter code, as the schedule's indentation does. The item's unit of measure is its first statistical line's.
 */
function items(rows, checked) {
  const [header, ...body] = rows;
  const col = Object.fromEntries(header.map((h, i) => [h.trim(), i]));
  for (const name of ["TARIFF", "DESC1", "UOM", "MFN", "General Tariff", "row_id", ...TREATMENTS])
    if (!(name in col)) throw new Error(`${FILE}: no column ${name}`);
  const get = (r, name) => clean(r[col[name]]);
  const parents = new Map();
  const units = new Map();
  const out = new Map();
  // The copy is checked as it is read: every row whole, each row id once (the export numbers its rows; later
  // additions carry later ids, so they are unique but not in order), the codes in the schedule's order.
  const ids = new Set();
  let lastCode = "";
  for (const r of body) {
    if (r.length === 1 && r[0] === "") continue;
    if (r.length !== header.length) throw new Error(`${FILE}: row ${get(r, "TARIFF")} has ${r.length} fields`);
    const id = get(r, "row_id");
    if (!/^\d+$/.test(id) || ids.has(id)) throw new Error(`${FILE}: row id ${id} missing or repeated`);
    ids.add(id);
    const code = get(r, "TARIFF").replace(/\D/g, "");
    if (code.padEnd(10, "0") < lastCode.padEnd(10, "0"))
      throw new Error(`${FILE}: ${get(r, "TARIFF")} after ${lastCode}: rows out of order`);
    lastCode = code;
    const own = get(r, "DESC1").replace(/:$/, "");
    if (code.length < 8) parents.set(code, own);
    if (code.length === 10) {
      const u = UOM[get(r, "UOM")];
      if (u && !units.has(code.slice(0, 8))) units.set(code.slice(0, 8), u);
      // A statistical line that repeats its item's MFN rate must repeat it exactly: a second reading of the rate.
      const item = out.get(code.slice(0, 8));
      const mfn = get(r, "MFN");
      if (item && mfn) {
        checked.n++;
        if (mfn.replace(/\s/g, "") !== get(item.row, "MFN").replace(/\s/g, "")) checked.differ.push(get(r, "TARIFF"));
      }
      continue;
    }
    if (code.length !== 8) continue;
    const parent = [7, 6, 5, 4].map((n) => parents.get(code.slice(0, n))).find(Boolean);
    const description = (own.length < 20 || /^other$/i.test(own)) && parent ? `${parent} > ${own}` : own;
    out.set(code, { description, row: r });
  }
  return [...out].map(([code, { description, row }]) => {
    const unit = units.get(code) ?? null;
    const rate = (name) => {
      const text = get(row, name);
      return { text, comps: parseRate(text, unit) };
    };
    return { code, description, mfn: rate("MFN"), general: rate("General Tariff"), prefs: TREATMENTS.map(rate) };
  });
}

function main() {
  const dir = requireSources(sourcesDir(), [FILE]);
  const checked = { n: 0, differ: [] };
  const lines = items(parseCsv(readFileSync(join(dir, FILE), "utf8")), checked);
  console.log(
    `statistical lines repeating their item's MFN rate: ${checked.n}, differing: ${checked.differ.length}`,
    checked.differ.slice(0, 20),
  );
  const stats = { lines: lines.length, mfn: 0, unparsed: new Map() };
  const rows = [];
  for (const l of lines) {
    if (Array.isArray(l.mfn.comps)) stats.mfn++;
    else stats.unparsed.set(l.mfn.text, (stats.unparsed.get(l.mfn.text) ?? 0) + 1);
    const prefs = {};
    TREATMENTS.forEach((name, i) => {
      const p = l.prefs[i];
      if (p.comps !== "n/a") prefs[name] = [p.text, p.comps];
    });
    const general = l.general.comps === "n/a" ? null : [l.general.text, l.general.comps];
    rows.push([
      l.code,
      l.description.slice(0, 300),
      l.mfn.text,
      l.mfn.comps === "n/a" ? null : l.mfn.comps,
      general,
      prefs,
    ]);
  }
  const out = {
    _note: "See data/tariffs/SOURCE.md (Canada). Generated by scripts/build/ca-tariff.mjs.",
    columns: ["code", "description", "mfn_text", "mfn", "general_tariff", "preferences"],
    treatments: TREATMENTS,
    rows,
  };
  writeFileSync(join(dataDir, "tariffs/ca.json"), `${JSON.stringify(out)}\n`);
  const top = [...stats.unparsed].sort((a, b) => b[1] - a[1]).slice(0, 20);
  console.log(`ca.json: ${stats.lines} items, MFN computed on ${stats.mfn}; unparsed MFN rates:`, top);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
