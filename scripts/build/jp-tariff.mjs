#!/usr/bin/env node
/**
 * Derives data/tariffs/jp.json, Japan's customs tariff schedule with its preferential rates, from Japan Customs'
 * statistical schedule of 2026-07-09 (https://www.customs.go.jp/tariff/2026_07_09/data/j_NN.htm) as scraped to
 * JSON: jp-customs-tariff/index.json and the j_NN_tariff_data.json files beside it, under the sources directory
 * (scripts/build/sources.mjs: --sources <dir>, else DATA_SOURCES). Provenance: data/tariffs/SOURCE-jp.md.
 * Run only to refresh: node scripts/build/jp-tariff.mjs --sources <dir>; it prints a census of what parsed.
 *
 * Input: each chapter file is a tree of nodes {stat_code, hs_code, desc, rate: {column: text}, children}. A node
 * with a 3-digit hs_code is a 9-digit statistical line (stat_code digits + hs_code). The pages span one cell over
 * the rows below it and the scrape keeps such a cell on the upper row only, so a line takes each column from
 * itself, else from its nearest ancestor that has that column.
 *
 * Output: {version, columns, rows}, one row per line that has any rate, sorted by code:
 *   [code, description, mfn_text, mfn, special_text, special]
 * - mfn: the rate goods of WTO members pay. The conventional (WTO協定) rate applies where it is lower than the
 *   national rate (関税法基本通達 3-2(1)), and the national rate is the temporary (暫定) rate where there is one,
 *   else the general (基本) rate (関税暫定措置法 第2条). The schedule has made that comparison: Japan Customs
 *   writes a WTO rate that is not applied (the national rate being lower or equal) in parentheses. So: the WTO
 *   text unless parenthesised, else the temporary text, else the general one.
 * - Where the schedule leaves that comparison undone, the lower of the two is taken: the lower text when one is
 *   free or both are of one form (ad valorem, or specific on one unit), else ["alt", "min", [WTO, national]] with
 *   an mfn_text naming both ("WTO協定: … / 暫定: …"); null when either is not a rate the grammar states.
 *   That is so for a WTO rate marked "*" (the out-of-quota rate of dairy and cereals) beside a temporary rate of
 *   another form, as the CPTPP/EU cells of the same lines spell out ("…又は…のうちいずれか低い税率"), and for a WTO
 *   cell spanning several lines beside a line's own national rate: one cell cannot be parenthesised for some of
 *   its lines only (onions 0703.10: WTO 8.5% over three price bands, the third 無税 in 基本).
 * - A national rate marked ◎ holds only for goods meeting an end-use or quota condition: beside a plain WTO rate,
 *   the WTO rate stands where it is not above it whatever the price, else neither can be chosen → null.
 * - special: {programme: components} per preference column (GSP, LDC and each EPA) that has a cell on the line;
 *   special_text "CODE: text; …" keeps the cells that do not parse (conditions, quotas). A cell in parentheses is an agreement rate not
 *   lower than the applied MFN rate; it is parsed like any other (the caller takes the lower).
 * - Rate text → components (the grammar of src/engines/calculate/types.ts): "3.9%" → ["av","0.039"]; "361円/kg"
 *   → ["sp","361","KG"] ("…円/1,000本" → per 1000; kl → L per 1000); "A又はBのうちいずれか高い(低い)税率" →
 *   ["alt","max"|"min",[A,B]]; "…ただしその税率がXを下回る(上回る)場合はX" → a floor (cap) around it; 無税 → [].
 *   Everything else is null and keeps its text: rates in words, conditions splitting the goods ("ししゅうした
 *   もの　6.8%\nその他のもの　無税"), rates tied to the customs value (差額関税, "(500円-課税価格)/kg"), ranges
 *   and footnote marks (●, 〜, ◆n, 非譲許), and the marked conditional rates (◎, ※).
 * - A code the scrape lists twice (seasonal rates of bananas, oranges…: "毎年4月1日から…") is one row whose texts
 *   name each season; its components stand only where both seasons agree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Big from "big.js";
import { dataDir } from "../data/lib.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const FOLDER = "jp-customs-tariff";
const BASIC = "基本";
const TEMPORARY = "暫定";
const WTO = "WTO協定";

/** Preference columns of the schedule → programme codes (data/customs/jp-programs.json for the EPAs). */
const PROGRAMS = [
  ["特恵", "GSP"],
  ["特別特恵", "LDC"],
  ["EPA_シンガポール", "SG"],
  ["EPA_メキシコ", "MX"],
  ["EPA_マレーシア", "MY"],
  ["EPA_チリ", "CL"],
  ["EPA_タイ", "TH"],
  ["EPA_インドネシア", "ID"],
  ["EPA_ブルネイ", "BN"],
  ["EPA_アセアン", "AJCEP"],
  ["EPA_フィリピン", "PH"],
  ["EPA_スイス", "CH"],
  ["EPA_ベトナム", "VN"],
  ["EPA_インド", "IN"],
  ["EPA_ペルー", "PE"],
  ["EPA_豪州", "AU"],
  ["EPA_モンゴル", "MN"],
  ["EPA_CPTPP", "CPTPP"],
  ["EPA_欧州連合", "EU"],
  ["EPA_英国", "GB"],
  ["EPA_RCEP_アセアン豪州NZ", "RCEP_ASEAN_AU_NZ"],
  ["EPA_RCEP_中国", "RCEP_CN"],
  ["EPA_RCEP_韓国", "RCEP_KR"],
  ["EPA_日米貿易協定", "US"],
];

/** Units after "円/" (NFKC: ㎏ → kg, ㎡ → m2, ℓ → l) → [unit code, units per stated unit]. */
const UNITS = {
  kg: ["KG", 1],
  g: ["G", 1],
  t: ["T", 1],
  MT: ["T", 1],
  トン: ["T", 1],
  l: ["L", 1],
  リットル: ["L", 1],
  kl: ["L", 1000],
  個: ["NO", 1],
  本: ["NO", 1],
  頭: ["NO", 1],
  匹: ["NO", 1],
  枚: ["NO", 1],
  足: ["PRS", 1],
  ダース: ["DOZ", 1],
  m2: ["M2", 1],
  m3: ["M3", 1],
};

/** Marks of conditional or partial rates, ranges and footnotes: such a text is not one rate. */
const MARKS = /[*●◎※◆〜]/;
/** A description this short ("2 その他のもの") says little without its parent's. */
const SHORT = 12;
const MAX_DESCRIPTION = 300;

// ---------------------------------------------------------------------------------------------------------------
// Rate text → components

/** Full-width digits, ％, ＋ and unit signs to ASCII (NFKC); no whitespace; no thousands commas. */
function normalize(text) {
  return text
    .normalize("NFKC")
    .replace(/\s+/g, "")
    .replace(/(\d),(?=\d{3}(?!\d))/g, "$1");
}

/** Drops one pair of parentheses around the whole text: "(無税)" → "無税"; "(A)又は(B)" stays. */
function unwrap(s) {
  if (!s.startsWith("(") || !s.endsWith(")")) return s;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")" && --depth === 0) return i === s.length - 1 ? unwrap(s.slice(1, -1)) : s;
  }
  return s;
}

/** "3.9%" → ["av","0.039"]; "290.70円/1000本" → ["sp","290.7","NO",1000]; else null. */
function term(t) {
  const av = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (av) return ["av", new Big(av[1]).div(100).toString()];
  const sp = /^(\d+(?:\.\d+)?)円\/(\d+)?(\D.*)$/.exec(t);
  const unit = sp && UNITS[sp[3]];
  if (!unit) return null;
  const per = Number(sp[2] ?? 1) * unit[1];
  const amount = new Big(sp[1]).toString();
  return per === 1 ? ["sp", amount, unit[0]] : ["sp", amount, unit[0], per];
}

/** "25%+63円/kg" → its terms; 無税 → []. */
function sum(s) {
  const text = unwrap(s);
  if (text === "無税") return [];
  const terms = text.split("+").map(term);
  return terms.includes(null) ? null : terms;
}

/** "A又はBのうちいずれか高い税率" → ["alt","max",[A,B]] (低い → "min"); else a plain sum. */
function alternatives(s) {
  const m = /^(.+)のうちいずれか(高い|低い)税率$/.exec(s);
  if (!m) return sum(s);
  const parts = m[1].split("又は").map(sum);
  if (parts.length < 2 || parts.includes(null)) return null;
  return [["alt", m[2] === "高い" ? "max" : "min", parts]];
}

/** "…税率 ただしその税率がXを下回る場合はX" (a floor) / "…を上回る場合はXとする" (a cap) around the rate. */
function bounded(s) {
  const m = /^(.+?)\(?ただしその税率が(.+?)を(下回る|上回る)場合は(.+?)(?:とする)?\)?$/.exec(s);
  if (!m) return alternatives(s);
  const base = alternatives(m[1]);
  const bound = m[2] === m[4] ? sum(m[2]) : null;
  if (!base || !bound) return null;
  return [["alt", m[3] === "下回る" ? "max" : "min", [base, bound]]];
}

/** Components of one rate text, or null when it is not a rate the grammar states (see the module comment). */
function parseRate(text) {
  const s = unwrap(normalize(text));
  if (!s || MARKS.test(s)) return null;
  return bounded(s);
}

// ---------------------------------------------------------------------------------------------------------------
// The applied MFN rate

/** Japan Customs' notation: a WTO rate whose every figure is in parentheses ("(10.9%)", "(無税)〜(6%)") is not applied. */
function parenthesised(text) {
  const before = normalize(text).replace(/^\*+/, "");
  let s = before;
  for (let prev = ""; prev !== s; ) {
    prev = s;
    s = s.replace(/\([^()]*\)/g, "");
  }
  return s !== before && !/\d|無税|免税/.test(s);
}

/** { text, comps } of the rate applied to goods of WTO members on a line (rules in the module comment). */
function appliedMfn({ rates, depths }) {
  const wto = rates[WTO];
  const column = rates[TEMPORARY] ? TEMPORARY : rates[BASIC] ? BASIC : null;
  const national = column && rates[column];
  if (!wto || parenthesised(wto))
    return { text: national ?? wto ?? null, comps: national ? parseRate(national) : null };
  const w = parseRate(wto.replace(/^\s*[*＊]/, ""));
  const starred = normalize(wto).startsWith("*");
  const spans = national && depths[WTO] < depths[column];
  const conditional = national?.includes("◎");
  if (!national || !(starred || spans || conditional)) return { text: wto, comps: w };
  const n = parseRate(national.replace("◎", ""));
  if (notAbove(w, n)) return { text: wto, comps: w };
  if (!conditional && notAbove(n, w)) return { text: national, comps: n };
  const text = `${WTO}: ${wto} / ${column}: ${national}`;
  return { text, comps: !conditional && w && n ? [["alt", "min", [w, n]]] : null };
}

/**
 * Whether rate a is at most rate b whatever the goods' price and quantity: a is free, or both are one ad valorem
 * rate, or both one specific rate on the same unit. False when either is null or the forms differ.
 */
function notAbove(a, b) {
  if (!a || !b) return false;
  if (a.length === 0) return true;
  if (a.length !== 1 || b.length !== 1) return false;
  const [x, y] = [a[0], b[0]];
  if (x[0] === "av" && y[0] === "av") return new Big(x[1]).lte(y[1]);
  const sameUnit = x[0] === "sp" && y[0] === "sp" && x[2] === y[2] && (x[3] ?? 1) === (y[3] ?? 1);
  return sameUnit && new Big(x[1]).lte(y[1]);
}

// ---------------------------------------------------------------------------------------------------------------
// Lines

/** Whitespace (newlines, ideographic spaces) collapsed. */
const clean = (text) => (text ?? "").replace(/\s+/g, " ").trim();

/** Each statistical line of a chapter tree: its code, its columns (own, else inherited) and its descriptions. */
function* statisticalLines(nodes, inherited = { rates: {}, depths: {} }, path = []) {
  for (const node of nodes) {
    const rates = { ...inherited.rates };
    const depths = { ...inherited.depths };
    for (const [column, text] of Object.entries(node.rate ?? {})) {
      if (!text?.trim()) continue;
      rates[column] = text.trim();
      depths[column] = path.length;
    }
    const descs = [...path, clean(node.desc)];
    if (/^\d{3}$/.test(node.hs_code)) {
      const code = node.stat_code.replace(".", "") + node.hs_code;
      if (!/^\d{9}$/.test(code)) throw new Error(`unexpected code ${node.stat_code}/${node.hs_code}`);
      yield { code, rates, depths, descs };
    }
    yield* statisticalLines(node.children ?? [], { rates, depths }, descs);
  }
}

/** The line's own description, after its parent's (and so on up) while the nearer one is short. */
function describe(descs) {
  const up = descs.filter(Boolean);
  const parts = [up.pop() ?? ""];
  while (up.length && parts[0].length < SHORT) parts.unshift(up.pop());
  const text = parts.join(" > ");
  return text.length < MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 2)}…`;
}

/** A line's MFN and preference cells as { text, comps }. */
function evaluate(line) {
  const cells = {};
  for (const [column, program] of PROGRAMS) {
    const text = line.rates[column];
    if (text) cells[program] = { text, comps: parseRate(text) };
  }
  return { mfn: appliedMfn(line), cells };
}

/** One value over the seasons of a code listed twice: the same text, else each season's description and text. */
function mergeValues(lines, values) {
  const texts = values.map((v) => v?.text ?? null);
  if (texts.every((t) => t === texts[0])) return values[0];
  const text = lines
    .map((l, i) => texts[i] && `${l.descs.at(-1)}　${texts[i]}`)
    .filter(Boolean)
    .join("\n");
  const same = values.every((v) => v && JSON.stringify(v.comps) === JSON.stringify(values[0].comps));
  return { text, comps: same ? values[0].comps : null };
}

/** The row of a code: one line as it is, or the lines of one code (seasons) merged. */
function row(lines) {
  const evaluated = lines.map(evaluate);
  const mfn = mergeValues(
    lines,
    evaluated.map((e) => e.mfn),
  );
  const cells = {};
  for (const [, program] of PROGRAMS) {
    const values = evaluated.map((e) => e.cells[program]);
    if (values.some(Boolean)) cells[program] = mergeValues(lines, values);
  }
  const description = lines.length === 1 ? describe(lines[0].descs) : describe(lines[0].descs.slice(0, -1));
  return { code: lines[0].code, description, mfn, cells };
}

const oneLine = (text) => text.replace(/\s*\n\s*/g, " / ").trim();

/** [code, description, mfn_text, mfn, special_text, special] */
function output(r) {
  const entries = Object.entries(r.cells);
  // Parsed cells are in `special` (their text is rendered from the components); only the others keep their words.
  const specialText =
    entries
      .filter(([, c]) => !c.comps)
      .map(([p, c]) => `${p}: ${oneLine(c.text)}`)
      .join("; ") || null;
  const parsed = entries.filter(([, c]) => c.comps);
  const special = parsed.length ? Object.fromEntries(parsed.map(([p, c]) => [p, c.comps])) : null;
  const mfnText = r.mfn.text ? r.mfn.text.replace(/\r\n?/g, "\n").trim() : null;
  return [r.code, r.description, mfnText, r.mfn.comps, specialText, special];
}

// ---------------------------------------------------------------------------------------------------------------
// Census

function census(rows, lineCount) {
  const tally = new Map();
  const count = (text) => tally.set(text, (tally.get(text) ?? 0) + 1);
  let cellsParsed = 0;
  let cellsUnparsed = 0;
  for (const r of rows) {
    for (const c of Object.values(r.cells)) {
      if (c.comps) cellsParsed++;
      else {
        cellsUnparsed++;
        count(oneLine(c.text));
      }
    }
  }
  const mfnParsed = rows.filter((r) => r.mfn.comps).length;
  const mfnUnparsed = new Map();
  for (const r of rows)
    if (r.mfn.text && !r.mfn.comps)
      mfnUnparsed.set(oneLine(r.mfn.text), (mfnUnparsed.get(oneLine(r.mfn.text)) ?? 0) + 1);
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  console.log(`statistical lines read: ${lineCount}; rows written: ${rows.length}`);
  console.log(`mfn parsed: ${mfnParsed} of ${rows.length} rows (${pct(mfnParsed, rows.length)})`);
  console.log(
    `special cells: ${cellsParsed} parsed, ${cellsUnparsed} unparsed (${pct(cellsParsed, cellsParsed + cellsUnparsed)} parsed)`,
  );
  console.log("most common unparsed special cells:");
  for (const [text, n] of top(tally, 20)) console.log(`  ${String(n).padStart(5)}  ${text.slice(0, 140)}`);
  console.log("most common unparsed mfn texts:");
  for (const [text, n] of top(mfnUnparsed, 20)) console.log(`  ${String(n).padStart(5)}  ${text.slice(0, 140)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Main

const sources = requireSources(sourcesDir(), [`${FOLDER}/index.json`]);
const index = JSON.parse(readFileSync(join(sources, FOLDER, "index.json"), "utf8"));
requireSources(
  sources,
  index.chapters.map((c) => `${FOLDER}/${c.file_name}`),
);

const byCode = new Map();
let lineCount = 0;
for (const chapter of index.chapters) {
  const tree = JSON.parse(readFileSync(join(sources, FOLDER, chapter.file_name), "utf8"));
  for (const line of statisticalLines(tree)) {
    lineCount++;
    byCode.set(line.code, [...(byCode.get(line.code) ?? []), line]);
  }
}

const rows = [...byCode.values()]
  .map(row)
  .filter((r) => r.mfn.text || Object.keys(r.cells).length)
  .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
const out = {
  version: index.version,
  columns: ["code", "description", "mfn_text", "mfn", "special_text", "special"],
  rows: rows.map(output),
};
const target = join(dataDir, "tariffs", "jp.json");
writeFileSync(target, `${JSON.stringify(out)}\n`);
census(rows, lineCount);
console.log(`wrote ${target}: ${byCode.size} codes (${lineCount - byCode.size} seasonal lines merged into their code)`);
