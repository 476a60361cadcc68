#!/usr/bin/env node
/**
 * Derives data/tariffs/au.json, Australia's tariff for the calculate engine, from the ABF Working Tariff as
 * published (scripts/build/sources.mjs: --sources <dir>; files under au-abf-tariff/):
 *   tariff-schedule3.json      Schedule 3 of the Customs Tariff Act 1995: 8-digit lines, general rate and the
 *                              third column's preference codes (CA, NZ, PG, FI, LDC, DCS, DCT, SG...)
 *   tariff-schedules-fta.json  Schedules 4A-16, one per free trade agreement: the goods an agreement does not make
 *                              free, with their rate
 *   tariff-schedule1.json      Schedule 1: the countries behind the Forum Island (FI) and least-developed (LDC) codes
 *
 * Rules taken from the Act's structure (Part 3): goods originating under an agreement are Free unless its schedule
 * lists them; goods of New Zealand, Papua New Guinea, a Forum Island country or a least developed country are Free
 * unless Schedule 3's third column gives their code a rate; Canada's rate is the CA entry of that column where there
 * is one. A rate the parser cannot read (per-use or alcohol-content formulas) stays null: the engine shows it and
 * does not compute it. Run only to refresh; the output is committed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Big from "big.js";
import { dataDir } from "../data/lib.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const dir = join(
  requireSources(sourcesDir(), [
    "au-abf-tariff/tariff-schedule3.json",
    "au-abf-tariff/tariff-schedules-fta.json",
    "au-abf-tariff/tariff-schedule1.json",
  ]),
  "au-abf-tariff",
);
const read = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));

/** The scraped text carries zero-width spaces, non-breaking spaces, tabs and HTML entities for ":" and spaces. */
export const clean = (s) =>
  String(s ?? "")
    .replace(/&#58;/g, ":")
    .replace(/&#160;/g, " ")
    .replace(/[\u200b\u00a0\t]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const UNITS = { kg: "KG", l: "L", "l of alcohol": "LAL", each: "NO", no: "NO" };

/** One rate ("5%", "Free", "$0.526/L", "5%, and $107.99/L of alcohol", "5%, or, if lower, $0.45/kg") → components or null. */
export function parseRate(text) {
  const t = clean(text).replace(/\s*\/\s*/g, "/");
  if (/^free$/i.test(t)) return [];
  const av = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (av) return [["av", new Big(av[1]).div(100).toString()]];
  const sp = /^\$([\d,]+(?:\.\d+)?)(?:\/| )(kg|L|L of alcohol|each)$/i.exec(t);
  if (sp) return [["sp", new Big(sp[1].replace(/,/g, "")).toString(), UNITS[sp[2].toLowerCase()]]];
  const and = /^(.+?), and (.+)$/.exec(t);
  if (and) {
    const a = parseRate(and[1]);
    const b = parseRate(and[2]);
    return a && b ? [...a, ...b] : null;
  }
  const lower = /^(.+?), or, if lower, (.+)$/.exec(t);
  if (lower) {
    const a = parseRate(lower[1]);
    const b = parseRate(lower[2]);
    return a && b ? [["alt", "min", [a, b]]] : null;
  }
  return null;
}

/** Third-column codes; a group such as "NZ/PG/FI/DC/LDC/SG" gives each of them the rate that follows. */
const CODE = /(?:^|\s)((?:NZ|PG|FI|DCS|DCT|DC|LDC|SG|CA|MY)(?:\/(?:NZ|PG|FI|DCS|DCT|DC|LDC|SG|CA|MY))*)\s?(?=[\d$F])/g;

/**
 * Schedule 3's rate cell: the general rate, then the preference codes with theirs. A cell that phases rates in
 * ("5% From1July2018 3.75% From1July2019 Free") is read from its last phase, the one in force now.
 */
export function parseCell(text) {
  let t = clean(text);
  const phases = t.split(/From ?\d{1,2} ?[A-Za-z]+ ?\d{4}:?/);
  if (phases.length > 1) t = clean(phases[phases.length - 1]);
  const marks = [...t.matchAll(CODE)];
  const general = clean(marks.length ? t.slice(0, marks[0].index) : t);
  const prefs = {};
  marks.forEach((mark, i) => {
    const start = (mark.index ?? 0) + mark[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index : t.length;
    const rate = clean(t.slice(start, end));
    for (const code of mark[1].split("/")) prefs[code] = { text: rate, comps: parseRate(rate) };
  });
  return { text: general, comps: parseRate(general), prefs };
}

/**
 * The 8-digit lines. A line may repeat once per statistical code under it: the first row with a rate is the line's.
 * A description that only says "Other" is read under its parent (the nearest shorter code), as the schedule's
 * indentation does.
 */
function scheduleLines() {
  const out = new Map();
  for (const section of read("tariff-schedule3.json"))
    for (const chapter of section.chapters)
      for (const heading of chapter.headings) {
        const parents = new Map();
        for (const c of heading.classifications) {
          const code = clean(c.referenceNumber).replace(/\D/g, "");
          const own = clean(c.description).replace(/^[-\s]+/, "");
          if (code.length < 8) parents.set(code, own);
          const rate = clean(c.dutyRate);
          if (code.length !== 8 || !rate || out.has(code)) continue;
          const parent = [7, 6, 5, 4].map((n) => parents.get(code.slice(0, n))).find(Boolean);
          const description = own.length < 20 && parent ? `${parent} > ${own}` : own;
          out.set(code, { description, cell: parseCell(rate), rate });
        }
      }
  return out;
}

/**
 * The agreements: per schedule, the goods listed with their rate. A listed rate that is staged from a date ("From
 * 30 December 2018: 5%") is kept out: the scraped schedules carry only one step of such staging, so the rate in
 * force cannot be told; on those lines the agreement is not offered and the general rate stands.
 */
function agreements() {
  const out = {};
  for (const [schedule, rows] of Object.entries(read("tariff-schedules-fta.json"))) {
    if (schedule === "Schedule 4") continue; // concessional items (by-law goods), not an agreement
    for (const r of rows) {
      const name = clean(r.ftaName);
      if (!out[name]) out[name] = { schedule, listed: {}, staged: [] };
      const fta = out[name];
      const code = clean(r.hsCode).replace(/\D/g, "");
      const text = clean(r.dutyRate);
      if (/From \d/.test(text) || /From \d/.test(clean(r.description))) {
        fta.staged.push(code);
        continue;
      }
      fta.listed[code] = { text, comps: parseRate(text) };
    }
  }
  return out;
}

function main() {
  const lines = scheduleLines();
  const ftas = agreements();
  const s1 = read("tariff-schedule1.json").map((r) => clean(r.abbreviation));
  // Schedule 1 as scraped lists its parts in order without their boundaries: the Forum Island countries first (13,
  // ending with Vanuatu), then the least developed countries (ending with Timor-Leste).
  const fi = s1.slice(0, s1.indexOf("VU") + 1);
  const ldcEnd = s1.indexOf("TL");
  const ldc = s1.slice(fi.length, ldcEnd + 1);

  const rows = [];
  const stats = { lines: 0, general: 0, unparsed: new Map() };
  for (const [code, l] of [...lines].sort(([a], [b]) => a.localeCompare(b))) {
    stats.lines++;
    if (l.cell.comps) stats.general++;
    else stats.unparsed.set(l.cell.text, (stats.unparsed.get(l.cell.text) ?? 0) + 1);
    const prefs = {};
    for (const [k, v] of Object.entries(l.cell.prefs)) prefs[k] = [v.text, v.comps];
    rows.push([code, l.description.slice(0, 300), l.cell.text, l.cell.comps, l.rate, prefs]);
  }
  const agreementsOut = {};
  for (const [name, f] of Object.entries(ftas)) {
    const listed = {};
    for (const [code, v] of Object.entries(f.listed)) listed[code] = [v.text, v.comps];
    agreementsOut[name] = { schedule: f.schedule, listed, staged: [...new Set(f.staged)].sort() };
  }
  const out = {
    _note: "See data/tariffs/SOURCE.md (Australia). Generated by scripts/build/au-tariff.mjs.",
    columns: ["code", "description", "general_text", "general", "cell_text", "column3"],
    rows,
    agreements: agreementsOut,
    forum_island: fi,
    least_developed: ldc,
  };
  writeFileSync(join(dataDir, "tariffs/au.json"), `${JSON.stringify(out)}\n`);
  const top = [...stats.unparsed].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`au.json: ${stats.lines} lines, general rate computed on ${stats.general}`);
  for (const [name, f] of Object.entries(agreementsOut))
    console.log(`  ${name} (${f.schedule}): ${Object.keys(f.listed).length} listed, ${f.staged.length} staged`);
  console.log(`FI ${fi.length}, LDC ${ldc.length}; unparsed general rates:`, top);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
