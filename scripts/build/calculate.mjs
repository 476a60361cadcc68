#!/usr/bin/env node
/**
 * Derives the calculate reference data from the published originals (scripts/build/sources.mjs: --sources <dir>, default ../shared/data):
 *   data/tariffs/us-hts8.json    USITC tariff database 2025: HTS-8 MFN, special (per programme) and column 2 rates
 *   data/tariffs/uk-eu.json      UK Global Tariff 2021 and the EU CET beside it (DIT comparison table)
 *   data/tariffs/us-ch99.json    Section 301 lists, Section 232 products, Section 122 surcharge, exclusions and claims
 *   data/vat/vat-rates.json      VAT standard/reduced rates with history (ibericode; sales-tax for the rest)
 *   data/fx/ecb-rates.csv        ECB euro reference rates since 2018 (wide: Date + one column per currency)
 * data/customs/*.json (de minimis, fees, destination rules) is curated by hand and not written here.
 * Run only to refresh; the outputs are committed so a clone works on its own.
 */
import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Big from "big.js";
import { tsImport } from "tsx/esm/api";
import { dataDir, root } from "../data/lib.mjs";
import { parseCsv } from "./csv.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const shared = requireSources(sourcesDir(), [
  "us-usitc-tariff-db/tariff_database_2025_06062025.csv",
  "uk-global-tariff-2021/ukgt_2021_observations.csv",
  "us-ch99-yale/config/policy_params.yaml",
  "us-ch99-yale/resources/s301_product_lists.csv",
  "us-ch99-yale/resources/s232_semi_products.csv",
  "us-ch99-yale/us_notes/chapter99_2026_rev_6.txt",
  "vat-ibericode/vat-rates.json",
  "vat-worldwide-sales-tax-npm/sales_tax_rates.json",
  "vat-eu-tedb-hennrunnel",
  "fx-ecb/eurofxref-hist.csv",
]);

const table = (path) => {
  const [head, ...body] = parseCsv(readFileSync(path, "utf8").replace(/^\uFEFF/, "")).filter(
    (r) => r.length > 1 && !r[0].startsWith("#"),
  );
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""])));
};
const write = (rel, value) =>
  writeFileSync(join(dataDir, rel), typeof value === "string" ? value : `${JSON.stringify(value)}\n`);

const num = (v) => new Big(v).toString(); // canonical decimal text, exact
const pct = (v) => new Big(v).div(100).toString();

/**
 * The US lines from the USITC tariff database, read by the same parser the dataset registry runs on an
 * uploaded edition (src/engines/datasets/usitc.ts, loaded through tsx): chapters 1-97, one row per line.
 */
async function usTariff() {
  const { usitcLines } = await tsImport("../../src/engines/datasets/usitc.ts", import.meta.url);
  const out = [];
  const issues = [];
  const file = join(shared, "us-usitc-tariff-db", "tariff_database_2025_06062025.csv");
  for await (const l of usitcLines(createReadStream(file, { encoding: "utf8" }), issues))
    out.push([
      l.code,
      l.validFrom,
      l.validTo,
      l.description,
      l.q1,
      l.q2,
      l.mfnText,
      l.mfn,
      l.col2Text,
      l.col2,
      l.specialText,
      l.special,
    ]);
  if (issues.length)
    throw new Error(`USITC tariff database: ${issues.length} records do not read: ${issues[0].message}`);
  return {
    columns: [
      "code",
      "valid_from",
      "valid_to",
      "description",
      "q1",
      "q2",
      "mfn_text",
      "mfn",
      "col2_text",
      "col2",
      "special_text",
      "special",
    ],
    rows: out,
  };
}

/** UK/EU rate text → components: "10.00% + 77.00 GBP/100kg", "12.0%", "93.10 EUR / 100 kg". Others → null. */
function ukRate(text) {
  const t = text.replace(/\s+/g, " ").trim();
  const parts = t.split(" + ");
  const comps = [];
  for (const p of parts) {
    const pctMatch = /^(\d+(?:\.\d+)?)%$/.exec(p);
    if (pctMatch) {
      comps.push(["av", pct(pctMatch[1])]);
      continue;
    }
    const m = /^(\d+(?:\.\d+)?) (GBP|EUR) ?\/ ?(100 ?kg|kg|hl|l|1000 ?kg|p\/st|100 ?p\/st)$/i.exec(p);
    if (!m) return null;
    {
      // Only a plain per-unit amount is computed; qualified amounts ("net drained weight", "% vol"...) are not.
      const unit = m[3].replace(/\s/g, "").toLowerCase();
      const per = {
        "100kg": ["KG", 100],
        kg: ["KG", 1],
        hl: ["L", 100],
        l: ["L", 1],
        "1000kg": ["KG", 1000],
        "p/st": ["NO", 1],
        "100p/st": ["NO", 100],
      }[unit];
      comps.push(per[1] === 1 ? ["sp", num(m[1]), per[0]] : ["sp", num(m[1]), per[0], per[1]]);
    }
  }
  return comps;
}

function ukEu() {
  const rows = table(join(shared, "uk-global-tariff-2021", "ukgt_2021_observations.csv"));
  const codeOf = (r) => (r.commodity.length <= 8 ? r.commodity.padStart(8, "0") : r.commodity.padStart(10, "0"));
  const eight = new Set(rows.map(codeOf).filter((c) => c.length === 8));
  const out = [];
  for (const r of rows) {
    const code = codeOf(r);
    // Rates are set at 8 digits and 10-digit rows repeat them, except where an 8-digit code has no row of its own:
    // there the rate is split at 10 digits (still wine by alcoholic strength, 13 % or less / 13-15 %; some cereals).
    if (code.length !== 8 && eight.has(code.slice(0, 8))) continue;
    out.push([
      code,
      r.description.replace(/\s+/g, " ").trim(),
      r.ukgt_duty_rate,
      ukRate(r.ukgt_duty_rate),
      r.cet_duty_rate,
      ukRate(r.cet_duty_rate),
    ]);
  }
  return { columns: ["code", "description", "ukgt_text", "ukgt", "cet_text", "cet"], rows: out };
}

/** Section 301 rates and dates by Chapter 99 heading (policy_params.yaml and the heading texts of HTS 2026 Rev 6). */
const S301 = {
  "9903.88.01": { list: "List 1", periods: [["2018-07-06", null, "0.25"]] },
  "9903.88.02": { list: "List 2", periods: [["2018-08-23", null, "0.25"]] },
  "9903.88.03": {
    list: "List 3",
    periods: [
      ["2018-09-24", "2019-05-09", "0.10"],
      ["2019-05-10", null, "0.25"],
    ],
  },
  "9903.88.04": { list: "List 3 (additional)", periods: [["2019-06-15", null, "0.25"]] },
  "9903.88.15": {
    list: "List 4A",
    periods: [
      ["2019-09-01", "2020-02-13", "0.15"],
      ["2020-02-14", null, "0.075"],
    ],
  },
  // List 4B (9903.88.16) was suspended before it took effect (84 FR 69447): not loaded.
  "9903.91.01": { list: "Four-year review, 2024 (Note 31(b))", periods: [["2024-09-27", null, "0.25"]] },
  "9903.91.02": { list: "Four-year review, 2024 (Note 31(c))", periods: [["2024-09-27", null, "0.50"]] },
  "9903.91.03": { list: "Four-year review, 2024 (Note 31(d))", periods: [["2024-09-27", null, "1.00"]] },
  "9903.91.05": { list: "Four-year review, 2025 (Note 31(f))", periods: [["2025-01-01", null, "0.50"]] },
  "9903.91.06": { list: "Four-year review, 2026 (Note 31(g))", periods: [["2026-01-01", null, "0.25"]] },
  "9903.91.07": { list: "Four-year review, 2026 (Note 31(h))", periods: [["2026-01-01", null, "0.50"]] },
  "9903.91.08": { list: "Four-year review, 2026 (Note 31(i))", periods: [["2026-01-01", null, "1.00"]] },
  "9903.91.11": { list: "Four-year review, 2025 (Note 31(j))", periods: [["2025-01-01", null, "0.25"]] },
  "9903.92.10": { list: "Ship-to-shore cranes", periods: [["2024-09-27", null, "0.25"]] },
};

/**
 * Corrections to the upstream Section 301 product lists, each checked against the USTR notices.
 * - 8507.60.00 (lithium-ion batteries): upstream has it on List 4B only (9903.88.16, suspended, 84 FR 69447), so no
 *   301 duty before 2026. It paid List 4A (9903.88.15: 15 % from 2019-09-01, 7.5 % from 2020-02-14): the HTS shows
 *   8507.60.00 "+ 7.5%", and the four-year review (USTR, 89 FR 76581, 2024-09-18) raised "lithium-ion non-electrical
 *   vehicle batteries" (8507.60.0020) from 7.5 % to 25 % on 2026-01-01 (9903.91.06) and "lithium-ion electrical
 *   vehicle batteries" (8507.60.0010) from 7.5 % to 25 % on 2024-09-27 (9903.91.01).
 */
const S301_CORRECTIONS = [
  { hts: "85076000", from: "9903.88.16", to: "9903.88.15", source: "89 FR 76581; HTSUS 8507.60.00 (+7.5%)" },
  { hts: "8507600010", from: null, to: "9903.91.01", source: "89 FR 76581 (Li-ion EV batteries, 2024-09-27)" },
];

/**
 * The original Section 301 lists as the HTSUS enumerates them (U.S. note 20 to subchapter III of chapter 99, in
 * the 2026 Revision 6 text): subdivision (b) for List 1 (9903.88.01), (d) List 2 (.02), (f) List 3 (.03), (s) List
 * 4A (.15). Each subdivision runs to the next lettered one (its own (i), (ii) are part of it); the 8-digit
 * subheadings it names are read, the 9903 headings of its exclusion clause are not.
 */
const NOTE_20 = { "9903.88.01": "b", "9903.88.02": "d", "9903.88.03": "f", "9903.88.15": "s" };

function note20Lists() {
  const lines = readFileSync(join(shared, "us-ch99-yale", "us_notes", "chapter99_2026_rev_6.txt"), "latin1").split(
    "\n",
  );
  const roman = /^\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\) /;
  const out = {};
  for (const [heading, letter] of Object.entries(NOTE_20)) {
    const start = lines.findIndex((l) => l.startsWith(`(${letter}) Heading ${heading} applies`));
    if (start < 0) throw new Error(`U.S. note 20(${letter}) (heading ${heading}) not found in the chapter 99 text`);
    let end = start + 1;
    while (end < lines.length && !(/^\([a-z]+\) /.test(lines[end]) && !roman.test(lines[end]))) end++;
    const codes = new Set();
    for (const l of lines.slice(start, end))
      for (const m of l.matchAll(/\b(\d{4})\.(\d{2})\.(\d{2})\b/g)) if (m[1] !== "9903") codes.add(m[1] + m[2] + m[3]);
    out[heading] = codes;
  }
  return out;
}

/**
 * Products the upstream files under one original list that U.S. note 20 enumerates under another: the note's list
 * is kept. 8402.90.00 and 240 others are List 1 or 2 in the note but also List 3 upstream, which would charge List
 * 3's 10 % of 2018-09-24..2019-05-09 instead of List 1's 25 %; four are List 4A in the note (7.5 %) but List 3 (25 %)
 * upstream. A product the note names under no original list stays as the upstream has it: the current text drops
 * products a four-year-review heading now covers (8507.60.00, 8541.10.00), which the lists did cover before.
 */
function asNoteLists(rows) {
  const lists = note20Lists();
  const dropped = {};
  const kept = rows.filter((r) => {
    const own = lists[r.ch99_code];
    const elsewhere = Object.entries(lists).some(([h, codes]) => h !== r.ch99_code && codes.has(r.hts8));
    if (!own || own.has(r.hts8) || !elsewhere) return true;
    dropped[r.ch99_code] = (dropped[r.ch99_code] ?? 0) + 1;
    return false;
  });
  for (const [heading, n] of Object.entries(dropped))
    console.log(`section 301: ${n} upstream rows of ${heading} are under another list in U.S. note 20: not loaded`);
  return kept;
}

/** The upstream rows with the corrections applied (a moved row keeps its place; an added one is appended). */
function corrected301(rows) {
  const out = rows.map((r) => {
    const c = S301_CORRECTIONS.find((x) => x.from && x.hts === r.hts8 && x.from === r.ch99_code);
    return c ? { ...r, ch99_code: c.to } : r;
  });
  for (const c of S301_CORRECTIONS) if (!c.from) out.push({ hts8: c.hts, ch99_code: c.to });
  return out;
}

const EU27 = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
];
/**
 * Who did not pay the Section 232 article duties before 2025-03-12, and when. The 2018 proclamations exempted
 * Canada and Mexico, then Argentina, Australia, Brazil, Korea and the EU (the United Kingdom then a member) until
 * 2018-05-31 (Korean aluminium only until 2018-04-30); from 2018-06-01 Argentina, Australia, Brazil and Korea for
 * steel (quotas; Australia outright) and Argentina and Australia for aluminium; Canada and Mexico again from
 * 2019-05-20; the EU's tariff-rate quotas from 2022-01-01, Japan's (steel) from 2022-04-01, the United Kingdom's
 * from 2022-06-01; Ukrainian steel suspended from 2022-06-01 (Proclamation 10403, extended yearly, 10771 to
 * 2025-06-01). All ended on 2025-03-12. A tariff-rate quota is taken as in-quota (no duty): an entry over the
 * quota pays the duty, which the engine cannot know. Each window [countries, from, to].
 */
const S232_EXEMPT_WINDOWS = {
  steel: [
    [["CA", "MX"], "2018-03-23", "2018-05-31"],
    [[...EU27, "GB"], "2018-03-23", "2018-05-31"],
    [["AR", "AU", "BR", "KR"], "2018-03-23", "2025-03-11"],
    [["CA", "MX"], "2019-05-20", "2025-03-11"],
    [EU27, "2022-01-01", "2025-03-11"],
    [["JP"], "2022-04-01", "2025-03-11"],
    [["GB", "UA"], "2022-06-01", "2025-03-11"],
  ],
  aluminum: [
    [["CA", "MX"], "2018-03-23", "2018-05-31"],
    [[...EU27, "GB", "BR"], "2018-03-23", "2018-05-31"],
    [["KR"], "2018-03-23", "2018-04-30"],
    [["AR", "AU"], "2018-03-23", "2025-03-11"],
    [["CA", "MX"], "2019-05-20", "2025-03-11"],
    [EU27, "2022-01-01", "2025-03-11"],
    [["GB"], "2022-06-01", "2025-03-11"],
  ],
};
/** Turkish steel paid 50 % instead of 25 % from 2018-08-13 to 2019-05-20 (heading 9903.80.02). */
const TURKEY_STEEL_50 = ["2018-08-13", "2019-05-20"];

/**
 * The 2018-03-23..2025-03-11 article measure split where the exempt countries change: [from, to, excluded origins],
 * each segment excluding the countries exempt throughout it (windows begin and end on segment bounds).
 */
function exemptSegments(windows, extraBreaks = []) {
  const end = "2025-03-11";
  const next = (d) => new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10);
  const starts = new Set(["2018-03-23", ...extraBreaks]);
  for (const [, from, to] of windows) {
    starts.add(from);
    if (to < end) starts.add(next(to));
  }
  const sorted = [...starts].sort();
  return sorted.map((from, i) => {
    const to =
      i + 1 < sorted.length ? new Date(Date.parse(sorted[i + 1]) - 86_400_000).toISOString().slice(0, 10) : end;
    const excluded = [...new Set(windows.filter(([, f, t]) => f <= from && t >= to).flatMap(([c]) => c))].sort();
    return [from, to, excluded];
  });
}

/** Exclusion rows; `origins` and `preference` are null unless a row sets them (see src/db/schema/calculate.ts). */
const EXCLUSION_COLUMNS = [
  "code",
  "name",
  "applies_to",
  "hs_prefix",
  "kind",
  "condition",
  "valid_from",
  "valid_to",
  "origins",
  "preference",
];
const yale = join(shared, "us-ch99-yale");
const dotted = (c) =>
  c.length <= 4
    ? c
    : `${c.slice(0, 4)}.${c.slice(4, 6)}${c.length > 6 ? `.${c.slice(6, 8)}` : ""}${c.length > 8 ? `.${c.slice(8)}` : ""}`;

/** One top-level block of policy_params.yaml as text (the file is flat enough that no YAML parser is needed). */
function yamlBlock(name) {
  const yaml = readFileSync(join(yale, "config", "policy_params.yaml"), "utf8");
  const m = new RegExp(`^${name}:\\n((?:(?:[ \\t]+.*|\\s*#.*|)\\n)+)`, "m").exec(yaml);
  if (!m) throw new Error(`policy_params.yaml: no ${name} block`);
  return m[1];
}
const yamlScalar = (block, key) => {
  const m = new RegExp(`^\\s+${key}:\\s*'?([^'\\s#]+)`, "m").exec(block);
  if (!m) throw new Error(`policy_params.yaml: no ${key}`);
  return m[1];
};

/** HTS numbers in note text: "0201.10.05" → "02011005", "8505.11.0070" → "8505110070"; Chapter 99 headings skipped. */
const noteCodes = (lines) => {
  const out = new Set();
  for (const l of lines)
    for (const m of l.matchAll(/\b(\d{4})\.(\d{2})\.(\d{2})(\d{2})?\b/g))
      if (m[1].slice(0, 2) !== "99") out.add(m[1] + m[2] + m[3] + (m[4] ?? ""));
  return out;
};

/**
 * Section 122 (HTSUS 9903.03.01): a 10% surcharge on products of every country for 150 days, with the
 * exemptions of U.S. note 2(aa) to subchapter III of chapter 99 (HTS 2026 Rev 6). Dates and rate from the
 * `section_122` block of policy_params.yaml; the product list from s122_exempt_products.csv, each code placed in
 * its subdivision of the note, which decides whether it fires on the code or must be claimed.
 */
function section122(text) {
  const p = yamlBlock("section_122");
  const from = yamlScalar(p, "effective_date");
  const to = yamlScalar(p, "expiry_date");
  const rate = num(yamlScalar(p, "rate"));
  const S122 = "9903.03.01";
  const row = (code, name, hs, kind, condition, { origins = null, preference = null, validTo = to } = {}) => [
    code,
    name,
    S122,
    hs,
    kind,
    condition,
    from,
    validTo,
    origins,
    preference,
  ];
  const exclusions = [];

  const at = (re) => {
    const i = text.findIndex((l) => re.test(l));
    if (i < 0) throw new Error(`chapter 99 text: ${re} not found`);
    return i;
  };
  const ii = at(/^\(ii\) As provided in heading 9903\.03\.03/);
  const iii = at(/^\(iii\) As provided in heading 9903\.03\.04/);
  const iv = at(/^\(iv\) As provided in heading 9903\.03\.05/);
  const v = at(/^\(v\) As provided in heading 9903\.03\.06/);
  if (!(ii < iii && iii < iv && iv < v)) throw new Error("chapter 99 text: note 2(aa) subdivisions out of order");
  const listII = noteCodes(text.slice(ii, iii));
  const listIV = noteCodes(text.slice(iv, v));
  // (iii) names particular articles, each "classifiable in" a subheading that also holds other goods.
  const items = new Map();
  const iiiText = text.slice(iii, iv).join(" ").replace(/\s+/g, " ");
  for (const m of iiiText.matchAll(/\((\d+)\) (.+?) \(classifiable in subheading (\d{4})\.(\d{2})\.(\d{2})\)/g))
    items.set(m[3] + m[4] + m[5], { n: m[1], name: m[2] });

  // One column, so not through table() (which skips one-value rows).
  const [head, ...codes] = parseCsv(readFileSync(join(yale, yamlScalar(p, "exempt_products")), "utf8")).map(
    (r) => r[0],
  );
  if (head !== "hts8") throw new Error(`s122 exempt products: unexpected header ${head}`);
  const listed = new Set(codes.filter(Boolean));
  const dropped = [];
  for (const hs of [...listed].sort()) {
    // Chapter 98 provisions of the (iv) list have no tariff line here (the data is chapters 1-97).
    if (hs.startsWith("98")) continue;
    if (listII.has(hs))
      exclusions.push(
        row("9903.03.03", `Listed in note 2(aa)(ii) to chapter 99 subchapter III: ${dotted(hs)}`, hs, "auto", null),
      );
    else if (items.has(hs)) {
      const { n, name } = items.get(hs);
      exclusions.push(
        row(
          "9903.03.04",
          `${name} (note 2(aa)(iii)(${n}))`,
          hs,
          "claim",
          `Only this particular article, not everything else classified in ${dotted(hs)}`,
        ),
      );
    } else if (listIV.has(hs))
      exclusions.push(
        row(
          "9903.03.05",
          "Civil aircraft, their engines, parts, components and subassemblies, ground flight simulators (note 2(aa)(iv))",
          hs,
          "claim",
          `For use in civil aircraft and meeting general note 6; other goods of ${dotted(hs)} pay the surcharge`,
        ),
      );
    else dropped.push(hs);
  }
  const missing = [...listII, ...items.keys(), ...listIV].filter((hs) => !hs.startsWith("98") && !listed.has(hs));
  if (dropped.length)
    console.warn(
      `section 122: ${dropped.map(dotted).join(", ")} in s122_exempt_products.csv but not in note 2(aa)(ii)-(iv): not loaded`,
    );
  if (missing.length)
    console.warn(
      `section 122: ${missing.map(dotted).join(", ")} in note 2(aa)(ii)-(iv) but not in s122_exempt_products.csv: not loaded`,
    );

  exclusions.push(
    row(
      "9903.03.02",
      "Goods in transit before the Section 122 surcharge took effect",
      "",
      "claim",
      "Loaded onto the vessel at the port of loading and in transit on the final mode before 12:01 a.m. EST on 2026-02-24, and entered before 12:01 a.m. EST on 2026-02-28",
      { validTo: "2026-02-27" },
    ),
  );
  // Note 2(aa)(v): no surcharge on articles subject to Section 232. For the 232 measures loaded here the engine
  // decides it from the line itself; the other 232 programmes are not computed, so their products are claims.
  exclusions.push(
    row(
      "9903.03.06",
      "Article subject to Section 232 (note 2(aa)(v))",
      "",
      "auto_with_232",
      "A Section 232 duty applies to the goods",
    ),
  );
  // The vehicle, parts and wood sectors are computed (sector232), so the engine decides their exemption from the
  // line itself; semiconductors (9903.79.01) are not, so their products are claims.
  const unmodelled = [
    [
      "semiconductor articles",
      "9903.79.01",
      table(join(yale, "resources", "s232_semi_products.csv")).map((r) => r.hts10),
    ],
  ];
  const byPrefix = new Map();
  for (const [what, headings, prefixes] of unmodelled)
    for (const hs of prefixes) {
      const e = byPrefix.get(hs) ?? { what: [], headings: [] };
      if (!e.what.includes(what)) e.what.push(what);
      if (!e.headings.includes(headings)) e.headings.push(headings);
      byPrefix.set(hs, e);
    }
  for (const [hs, e] of [...byPrefix].sort(([a], [b]) => a.localeCompare(b)))
    exclusions.push(
      row(
        "9903.03.06",
        `Article subject to Section 232 (${e.what.join("; ")}), a duty not computed here`,
        hs,
        "claim",
        `Entered under a Section 232 heading (${e.headings.join(", ")}); that duty is not in this data and is not charged`,
      ),
    );
  // Note 2(aa)(vi)-(viii): goods entered free of duty under USMCA (Canada, Mexico) or, for textiles and apparel,
  // under CAFTA-DR. "Textile or apparel good" (general note 29(d)(v)) is taken as chapters 50-63.
  exclusions.push(
    row(
      "9903.03.07",
      "Product of Canada entered free of duty under USMCA",
      "",
      "preference",
      "Originating under USMCA and entered free of duty under it (special programme S/S+)",
      { origins: ["CA"], preference: "S" },
    ),
  );
  exclusions.push(
    row(
      "9903.03.08",
      "Product of Mexico entered free of duty under USMCA",
      "",
      "preference",
      "Originating under USMCA and entered free of duty under it (special programme S/S+)",
      { origins: ["MX"], preference: "S" },
    ),
  );
  for (let ch = 50; ch <= 63; ch++)
    exclusions.push(
      row(
        "9903.03.09",
        "Textile or apparel good of a CAFTA-DR country entered free of duty under CAFTA-DR",
        String(ch),
        "preference",
        "Originating under CAFTA-DR and entered free of duty under it (special programme P)",
        { origins: ["CR", "DO", "SV", "GT", "HN", "NI"], preference: "P" },
      ),
    );
  const measure = [
    "122",
    S122,
    "Section 122 balance-of-payments surcharge",
    "",
    null,
    null,
    rate,
    "value",
    null,
    from,
    to,
    null,
  ];
  return { measure, exclusions };
}

/** A derivative heading's measure (its products are derivatives for the Russian headings even where the annex lists them). */
const isDerivativeMeasure = (name) => /\bderivatives\b/.test(name);

/** Products of Russia pay 9903.85.67 / 9903.85.68 instead of the other aluminum headings from this date. */
const RU_ALUMINUM_FROM = "2023-03-10";

/**
 * Section 232 aluminum for products of Russia (Proclamation 10522; U.S. note 19(a)(vii)(A) and, from 2025-03-12,
 * 19(m)(A)/(B) to subchapter III): headings 9903.85.67 (aluminum articles) and 9903.85.68 (derivative articles)
 * provide the duty treatment of such goods in place of the other aluminum headings (9903.85.02 "Except as provided
 * in headings 9903.85.67 or 9903.85.69"; from 2026-04-06 9903.82.02 "Except as provided for in headings ...
 * 9903.85.67 and 9903.85.68"): 200 % on the full value of the article, also for derivatives. Built as the mirror
 * of every aluminum 232 measure that covers Russia from RU_ALUMINUM_FROM: the same products and dates, Russia
 * moved from the general measure (added to its excluded origins, the measure split at that date) to its own.
 * Articles are the aluminum article list (chapter 76 headings of the proclamations and the annexes); the rest are
 * derivatives. The same headings' second limb (any origin) is built by `metalOriginMeasures`.
 */
function russianAluminum(measures, articlePrefixes) {
  const out = [];
  for (const row of measures) {
    const [program, code, name, prefix, origins, excluded, rate, basis, metal, from, to] = row;
    const coversRussia =
      program === "232" &&
      metal === "aluminum" &&
      (origins === null || origins.includes("RU")) &&
      !(excluded ?? []).includes("RU");
    if (!coversRussia || (to !== null && to < RU_ALUMINUM_FROM)) {
      out.push(row);
      continue;
    }
    const start = from < RU_ALUMINUM_FROM ? RU_ALUMINUM_FROM : from;
    if (from < RU_ALUMINUM_FROM)
      out.push([program, code, name, prefix, origins, excluded, rate, basis, metal, from, "2023-03-09", null]);
    out.push([program, code, name, prefix, origins, [...(excluded ?? []), "RU"], rate, basis, metal, start, to, null]);
    const article = articlePrefixes.has(prefix) && !isDerivativeMeasure(name);
    out.push([
      "232",
      article ? "9903.85.67" : "9903.85.68",
      article
        ? "Section 232 aluminum, product of Russia (full value)"
        : "Section 232 aluminum derivatives, product of Russia (full value)",
      prefix,
      ["RU"],
      null,
      "2.00",
      "value",
      "aluminum",
      start,
      to,
      null,
    ]);
  }
  measures.splice(0, measures.length, ...out);
}

/** The second limb of the Russian aluminum headings, for goods of any origin, from this date (Proclamation 10522, cl. 3). */
const RU_SMELT_FROM = "2023-04-10";
/** The Mexican smelt/cast and melt-and-pour headings' dates (USITC tariff database 2025, rows 9903.81.85/.86, 9903.85.71/.72). */
const MX_METALS = ["2024-07-10", "2025-03-11"];
/** The Mexican aluminum headings' condition (9903.85.71 articles, 9903.85.72 derivatives). */
const MX_ALU_RULE = {
  facts: ["smelt", "cast"],
  match: "in",
  countries: ["CN", "RU", "BY", "IR"],
  text: "its primary or secondary country of smelt, or its country of most recent cast, is China, Russia, Belarus or Iran",
};

/**
 * Section 232 measures conditioned on where the metal itself came from, each with its `metal_origin` rule (the
 * engine's MetalOriginRule: tested facts, in / not_in, countries, the condition in words):
 * - 9903.85.67 / 9903.85.68, goods of any origin "where any amount of primary aluminum used in the manufacture ... is
 *   smelted in Russia, or where the ... articles are cast in Russia" (U.S. note 19(a)(vii) and (m)): 200 % on the
 *   full value, in place of the other aluminum headings, from RU_SMELT_FROM, for every aluminum product and period
 *   the data has (origin Russia is the first limb, built by `russianAluminum`);
 * - 9903.85.71, aluminum articles of Mexico whose primary or secondary country of smelt or country of most recent
 *   cast is China, Russia, Belarus or Iran (note 19(a)(viii)): 10 %; where the metal is Russian the engine keeps the
 *   Russian heading (the higher rate), as the note's "notwithstanding" sentence says;
 * - 9903.81.85, steel articles of Mexico "where the steel was melted and poured in a country other than US, MX, or
 *   CA" (the USITC row; the note left the HTS with the heading): 25 %.
 * Both Mexican headings ran from 2024-07-10 to 2025-03-11, while Mexico was otherwise exempt. The aluminum
 * derivative heading 9903.85.72 is built by `derivatives2020`; the steel one (9903.81.86) is not: the 2020 steel
 * derivative list (note 16(a)(ii)) is not in this data.
 */
function metalOriginMeasures(measures, aluArticles, steelArticles) {
  const ruRule = {
    facts: ["smelt", "cast"],
    match: "in",
    countries: ["RU"],
    text: "any primary aluminum in it was smelted in Russia, or it was cast in Russia",
  };
  const seen = new Set();
  const out = [];
  for (const [program, , name, prefix, , , , , metal, from, to, rule] of measures) {
    // Measures that are themselves conditioned on the metal's origin (9903.85.72) add no product or period.
    if (program !== "232" || metal !== "aluminum" || rule || (to !== null && to < RU_SMELT_FROM)) continue;
    const start = from < RU_SMELT_FROM ? RU_SMELT_FROM : from;
    const article = aluArticles.has(prefix) && !isDerivativeMeasure(name);
    const key = `${prefix}|${start}|${to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([
      "232",
      article ? "9903.85.67" : "9903.85.68",
      article
        ? "Section 232 aluminum smelted or cast in Russia (full value)"
        : "Section 232 aluminum derivatives smelted or cast in Russia (full value)",
      prefix,
      null,
      ["RU"],
      "2.00",
      "value",
      "aluminum",
      start,
      to,
      ruRule,
    ]);
  }
  const [mxFrom, mxTo] = MX_METALS;
  const mxSteel = {
    facts: ["melt_pour"],
    match: "not_in",
    countries: ["US", "MX", "CA"],
    text: "its steel was melted and poured outside the United States, Mexico and Canada",
  };
  for (const prefix of aluArticles)
    out.push([
      "232",
      "9903.85.71",
      "Section 232 aluminum, Mexico, smelted or cast in China, Russia, Belarus or Iran",
      prefix,
      ["MX"],
      null,
      "0.10",
      "value",
      "aluminum",
      mxFrom,
      mxTo,
      MX_ALU_RULE,
    ]);
  for (const prefix of steelArticles)
    out.push([
      "232",
      "9903.81.85",
      "Section 232 steel, Mexico, melted and poured outside North America",
      prefix,
      ["MX"],
      null,
      "0.25",
      "value",
      "steel",
      mxFrom,
      mxTo,
      mxSteel,
    ]);
  measures.push(...out);
}

/** The 2025 proclamations' derivative lists start here; the annex's lines beyond the 2018 headings are charged from it. */
const ANNEX_ARTICLES_FROM = "2025-03-12";

/** The 2020 derivative aluminum heading (Proclamation 9980), for goods entered from this date until 2025-03-11. */
const DERIVATIVES_2020_FROM = "2020-02-08";

/**
 * The derivative aluminum products of U.S. note 19(a)(iii) to subchapter III: stranded wire, cables and the like
 * of 7614 and bumper and body stampings of 8708, read from the note's "(described in subheading ...)" clauses.
 */
function derivatives2020Products(notes) {
  const start = notes.findIndex(
    (l, i) =>
      /^\(iii\) Effective for goods entered for consumption/.test(l) &&
      /heading 9903\.85\.03 provides/.test(notes[i + 1] ?? ""),
  );
  const end = notes.findIndex((l, i) => i > start && /^\(iv\) Heading 9903\.85\.21/.test(l));
  if (start < 0 || end < 0)
    throw new Error("U.S. note 19(a)(iii) (heading 9903.85.03) not found in the chapter 99 notes");
  const body = notes.slice(start, end).join(" ").replace(/\s+/g, " ");
  if (!/Heading 9903\.85\.03 shall apply only to the following derivative aluminum products/.test(body))
    throw new Error("note 19(a)(iii) changed: no product list for 9903.85.03");
  const codes = [...body.matchAll(/\(described in subheading (\d{4})\.(\d{2})\.(\d{2})\)/g)].map(
    (m) => m[1] + m[2] + m[3],
  );
  if (codes.length !== 6) throw new Error(`note 19(a)(iii): expected 6 products, found ${codes.length}`);
  return codes;
}

/**
 * Section 232 on the 2020 derivative aluminum products (note 19(a)(iii)): heading 9903.85.03, 10 % of the full
 * value ("the duty provided in the applicable subheading + 10%"), from DERIVATIVES_2020_FROM to 2025-03-11, for
 * products of every country but those exempt from the aluminum duties on the date (the USITC row: "except of
 * Argentina, Australia, Canada, EU, MX, Russia, UK"; the EU from 2022-01-01 and the UK from 2022-06-01, as for the
 * articles; Russia from 2023-03-10 through `russianAluminum`). And 9903.85.72, the same products of Mexico smelted
 * or cast in China, Russia, Belarus or Iran: 10 %, 2024-07-10 to 2025-03-11 (USITC row), as 9903.85.71 for the
 * articles. From 2025-03-12 the same products are under 9903.85.04 (the derivative rows of `ch99`).
 */
function derivatives2020(measures, notes) {
  const name = "Section 232 aluminum derivatives, 2020 list (full value)";
  const segments = exemptSegments(S232_EXEMPT_WINDOWS.aluminum, [DERIVATIVES_2020_FROM]).filter(
    ([from]) => from >= DERIVATIVES_2020_FROM,
  );
  const [mxFrom, mxTo] = MX_METALS;
  for (const prefix of derivatives2020Products(notes)) {
    for (const [from, to, excluded] of segments)
      measures.push(["232", "9903.85.03", name, prefix, null, excluded, "0.10", "value", "aluminum", from, to, null]);
    measures.push([
      "232",
      "9903.85.72",
      "Section 232 aluminum derivatives, Mexico, smelted or cast in China, Russia, Belarus or Iran",
      prefix,
      ["MX"],
      null,
      "0.10",
      "value",
      "aluminum",
      mxFrom,
      mxTo,
      MX_ALU_RULE,
    ]);
  }
}

/**
 * Section 232 charges a product once per metal: a line on the full value and one on the metal content of the same
 * metal, in force together for the same origin on overlapping codes, would charge it twice (the engine keeps one
 * line per programme, metal and basis). Checked on every date a 232 measure starts.
 */
function assertOneBasisPer232Metal(measures) {
  const s232 = measures.filter(([program, , , , , , , , , , , rule]) => program === "232" && !rule);
  const dates = [...new Set(s232.map((m) => m[9]))];
  for (const date of dates) {
    const on = s232.filter(([, , , , , , , , , from, to]) => from <= date && (to === null || to >= date));
    const value = on.filter((m) => m[7] === "value");
    for (const c of on.filter((m) => m[7] === "content"))
      for (const v of value) {
        const sameOrigins = JSON.stringify(c[4]) === JSON.stringify(v[4]);
        if (c[8] === v[8] && sameOrigins && (c[3].startsWith(v[3]) || v[3].startsWith(c[3])))
          throw new Error(`232 ${c[8]} on ${date}: ${v[1]} ${v[3]} (full value) and ${c[1]} ${c[3]} (content) overlap`);
      }
  }
}

/**
 * Section 232 sector measures other than the metals, read from their U.S. notes to subchapter III of chapter 99
 * (HTS 2026 Rev 6), each dated from its proclamation or implementing notice:
 * - note 33, automobiles and light trucks (9903.94.01, 25 %, Proclamation 10908, 90 FR 14705, from 2025-04-03) and
 *   their parts (9903.94.05, 25 %, from 2025-05-03, heading 9903.94.06's date);
 * - the country deals in place of those headings: the United Kingdom's in-quota cars at 7.5 % on top of the MFN
 *   rate and its parts at 10 % (9903.94.31/.32, 90 FR 27851, from 2025-06-30; the 100,000-car quota is taken as not
 *   exhausted), and a 15 % all-in rate for the European Union (9903.94.50-.53, from 2025-08-01, 90 FR 46096,
 *   CSMS #66336270), Japan (9903.94.40-.43, from 2025-09-16, FR Doc 2025-17908, 90 FR 44638) and South Korea
 *   (9903.94.60-.63, from 2025-11-01, FR Doc 2025-21940, 90 FR 55964): the MFN duty raised to 15 % of the value,
 *   nothing added where it is already 15 % or more (note 33(m));
 * - note 37, wood products (Proclamation 10976, from 2025-10-14, CSMS #66492057): softwood timber and lumber
 *   (9903.76.01, 10 %), upholstered wooden furniture (9903.76.02, 25 %) and wooden kitchen cabinets and vanities
 *   (9903.76.03, 25 %), the last two rising to 30 % and 50 % on 2027-01-01 (the proclamation of 2025-12-31 moved
 *   the increase from 2026-01-01); the United Kingdom's furniture and cabinets at 10 % on top of the MFN rate
 *   (9903.76.20), the EU's and Japan's at 15 % all-in (9903.76.22, 9903.76.21) and South Korea's from 2025-11-14
 *   (9903.76.23, FR Doc 2025-21940);
 * - note 38, medium- and heavy-duty vehicles (9903.74.01, 25 %), buses (9903.74.02, 10 %) and their parts
 *   (9903.74.08, 25 %), Proclamation 10984 (90 FR 48451) from 2025-11-01.
 * Parts of USMCA-originating goods entered under the agreement pay none (9903.94.06(i), 9903.74.10): a
 * `preference` exclusion. A parts line whose tariff text does not itself say it is for motor vehicles (ball
 * bearings, electric motors, lithium-ion batteries...) carries a use condition: the duty applies only to parts of
 * the vehicles concerned (9903.94.06(ii), note 38(l)), which the code alone does not show.
 */
const SECTOR_DEALS = {
  GB: "2025-06-30",
  EU: "2025-08-01",
  JP: "2025-09-16",
  KR: "2025-11-01",
};
const VEHICLE_TEXT =
  /motor[- ]?vehicle|motor car|automobile|vehicles? of (sub)?heading|tractor|for vehicles|of vehicles|\bvehicles\b/i;

function noteList(text, startRe, endRe) {
  const i = text.findIndex((l) => startRe.test(l.trim()));
  const j = text.findIndex((l, k) => k > i && endRe.test(l.trim()));
  if (i < 0 || j < 0) throw new Error(`chapter 99 text: list ${startRe} not found`);
  const out = [];
  for (const l of text.slice(i + 1, j))
    if (/^\s{10,}\d{4}[\d.\s]*$/.test(l)) for (const t of l.trim().split(/\s+/)) out.push(t.replace(/\./g, ""));
  if (!out.length) throw new Error(`chapter 99 text: list ${startRe} is empty`);
  return [...new Set(out)];
}

/**
 * Section 232 from 2026-04-06 as U.S. note 16 to subchapter III (HTS 2026 Rev 6) sets it out: the lists of
 * subdivision (c) read from the text, each charged on the full value under its heading.
 * - (i)-(v), articles of aluminium, steel and copper and derivatives: 9903.82.02, 50 %; products of the United
 *   Kingdom under (i)-(iv): 9903.82.04, 25 % (subdivision (d)).
 * - (vi)-(viii), derivatives and copper articles: 9903.82.09, 25 %; the United Kingdom under (vi)-(vii):
 *   9903.82.05, 15 %.
 * - (ix)-(x), derivatives: 9903.82.10, the column 1 rate topped up to 15 % (9903.82.11 when it is 15 % or more:
 *   nothing more), subdivision (f); until 2027-12-31 as the proclamation's Annex III.
 * Outside chapters 72-74 and 76 a heading applies only where the metal is at least 15 % of the article's weight
 * (subdivision (c); 9903.82.03, the engine's `belowWeightThreshold`). The UK rates are taken for every product of
 * the United Kingdom (the 95 % UK melt and smelt condition of (d) is not asked); the US-content headings
 * (9903.82.06-.08), column 2 countries (.12), motorcycle parts (.13), Russian goods (.14/.15) and the USMCA quotas
 * (.18/.19) are not modelled.
 */
function note16Lists(text) {
  const start = text.findIndex((l) => l.startsWith("(c) Headings 9903.82.02"));
  const end = text.findIndex((l, i) => i > start && l.startsWith("(d) Headings 9903.82.04"));
  if (start < 0 || end < start) throw new Error("chapter 99 text: U.S. note 16(c) not found");
  const lists = {};
  let cur = null;
  for (let line of text.slice(start, end)) {
    const m = /\((i|ii|iii|iv|v|vi|vii|viii|ix|x)\) (Articles|Derivative)/.exec(line);
    if (m) {
      cur = m[1];
      lists[cur] = [];
      line = line.slice(m.index + m[0].length);
    }
    if (!cur || /Harmonized Tariff|Annotated for|99 - III - \d+/.test(line)) continue;
    for (const t of line.match(/(?<![\d.])\d{4}(?:\.\d{2}(?:\.\d{2,4})?)?(?![\d.])/g) ?? [])
      lists[cur].push(t.replace(/\./g, ""));
  }
  const want = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"];
  for (const k of want) if (!lists[k]?.length) throw new Error(`U.S. note 16(c)(${k}): empty list`);
  return lists;
}

function annexRegime(measures, text) {
  const lists = note16Lists(text);
  const METAL = { i: "aluminum", ii: "aluminum", iii: "steel", iv: "steel", v: "copper" };
  Object.assign(METAL, { vi: "aluminum", vii: "steel", viii: "copper", ix: "aluminum", x: "steel" });
  const row = (code, list, prefix, rate, basis, origins, excluded, to = null) =>
    measures.push([
      "232",
      code,
      `Section 232 ${METAL[list]}, U.S. note 16(c)(${list})`,
      prefix,
      origins,
      excluded,
      rate,
      basis,
      METAL[list],
      "2026-04-06",
      to,
      null,
    ]);
  for (const [list, prefixes] of Object.entries(lists))
    for (const p of new Set(prefixes)) {
      if (["i", "ii", "iii", "iv", "v"].includes(list)) {
        const uk = list !== "v";
        row("9903.82.02", list, p, "0.50", "value", null, uk ? ["GB"] : null);
        if (uk) row("9903.82.04", list, p, "0.25", "value", ["GB"], null);
      } else if (["vi", "vii", "viii"].includes(list)) {
        const uk = list !== "viii";
        row("9903.82.09", list, p, "0.25", "value", null, uk ? ["GB"] : null);
        if (uk) row("9903.82.05", list, p, "0.15", "value", ["GB"], null);
      } else row("9903.82.10", list, p, "0.15", "all_in", null, null, "2027-12-31");
    }
}

/** Date ranges between the breaks, each with the deal origins in force over all of it. */
function dealSegments(from, deals, end = null) {
  const day = (d, n) => new Date(Date.parse(d) + n * 86_400_000).toISOString().slice(0, 10);
  const starts = [...new Set([from, ...Object.values(deals).filter((d) => d > from)])].sort();
  return starts.map((f, i) => [
    f,
    i + 1 < starts.length ? day(starts[i + 1], -1) : end,
    Object.entries(deals)
      .filter(([, d]) => d <= f)
      .flatMap(([c]) => (c === "EU" ? EU27 : [c]))
      .sort(),
  ]);
}

function sector232(text, descriptions) {
  const measures = [];
  const exclusions = [];
  const autos = noteList(
    text,
    /^\(b\) The rates of duty set forth in headings 9903\.94\.01/,
    /^\(c\) Heading 9903\.94\.02/,
  );
  const autoParts = noteList(
    text,
    /^\(g\) Subject to a manufacturer's import adjustment/,
    /^\(h\) Heading 9903\.94\.06/,
  );
  const softwood = noteList(
    text,
    /^\(b\) The rates of duty set forth in heading 9903\.76\.01/,
    /^\(c\) Heading 9903\.76\.02/,
  );
  const furniture = noteList(
    text,
    /^\(d\) The rates of duty set forth in headings 9903\.76\.02/,
    /^\(e\) Except for as provided by 9903\.76\.04/,
  );
  const cabinets = noteList(
    text,
    /^\(f\) Except for as provided by 9903\.76\.04, the rates/,
    /^\(g\) Heading 9903\.76\.04/,
  );
  const mhd = noteList(
    text,
    /^\(b\) The rate of duty set forth in heading 9903\.74\.01/,
    /^\(c\) Heading 9903\.74\.02/,
  );
  const buses = noteList(text, /^\(c\) Heading 9903\.74\.02 applies/, /^\(d\) Heading 9903\.74\.03/);
  const mhdParts = noteList(
    text,
    /^\(i\) The rates of duty set forth in heading 9903\.74\.08/,
    /^\(j\) Heading 9903\.74\.09/,
  );

  // [program, code, name, prefix, origins, excluded, rate, basis, metal, from, to, metalOrigin, sector, useCondition]
  const add = (
    code,
    name,
    prefixes,
    rate,
    basis,
    sector,
    from,
    to,
    { origins = null, excluded = null, condition } = {},
  ) => {
    for (const p of prefixes)
      measures.push([
        "232",
        code,
        name,
        p,
        origins,
        excluded?.length ? excluded : null,
        rate,
        basis,
        null,
        from,
        to,
        null,
        sector,
        condition ? condition(p) : null,
      ]);
  };
  // Whether the tariff itself says a parts line is for vehicles: chapter 87, a statistical line the note picked
  // out, or the description of every line under it ("not suitable for motor vehicles" is not).
  const partUse = (what) => (p) => {
    if (p.startsWith("87") || p.length === 10) return null;
    const texts = [...descriptions].filter(([k]) => k.startsWith(p)).map(([, d]) => d);
    const forVehicles =
      texts.length > 0 && texts.every((d) => VEHICLE_TEXT.test(d) && !/\bnot (suitable|for|of a kind)/i.test(d));
    return forVehicles ? null : `the goods are ${what}`;
  };
  const deal = (c) => (c === "EU" ? EU27 : [c]);

  for (const [f, t, excluded] of dealSegments("2025-04-03", SECTOR_DEALS))
    add("9903.94.01", "Section 232 automobiles and light trucks", autos, "0.25", "value", "autos", f, t, { excluded });
  for (const [f, t, excluded] of dealSegments("2025-05-03", SECTOR_DEALS))
    add("9903.94.05", "Section 232 automobile parts", autoParts, "0.25", "value", "auto_parts", f, t, {
      excluded,
      condition: partUse(
        "parts of passenger vehicles or light trucks (U.S. note 33(g); others enter under 9903.94.06)",
      ),
    });
  add(
    "9903.94.31",
    "Section 232 automobiles, United Kingdom (in quota)",
    autos,
    "0.075",
    "value",
    "autos",
    SECTOR_DEALS.GB,
    null,
    { origins: ["GB"] },
  );
  add(
    "9903.94.32",
    "Section 232 automobile parts, United Kingdom",
    autoParts,
    "0.10",
    "all_in",
    "auto_parts",
    SECTOR_DEALS.GB,
    null,
    {
      origins: ["GB"],
      condition: partUse("parts of passenger vehicles or light trucks (U.S. note 33(j))"),
    },
  );
  for (const [c, cars, parts] of [
    ["EU", "9903.94.51", "9903.94.53"],
    ["JP", "9903.94.41", "9903.94.43"],
    ["KR", "9903.94.61", "9903.94.63"],
  ]) {
    const who = { EU: "European Union", JP: "Japan", KR: "South Korea" }[c];
    add(
      cars,
      `Section 232 automobiles, ${who} (15 % all-in)`,
      autos,
      "0.15",
      "all_in",
      "autos",
      SECTOR_DEALS[c],
      null,
      { origins: deal(c) },
    );
    add(
      parts,
      `Section 232 automobile parts, ${who} (15 % all-in)`,
      autoParts,
      "0.15",
      "all_in",
      "auto_parts",
      SECTOR_DEALS[c],
      null,
      {
        origins: deal(c),
        condition: partUse("parts of passenger vehicles or light trucks (U.S. note 33(g))"),
      },
    );
  }
  for (const hs of autoParts)
    for (const [code, name, origins] of [
      ["9903.94.06", "Automobile parts originating under USMCA (U.S. note 33(h)(i))", ["CA", "MX"]],
    ])
      exclusions.push([
        code,
        name,
        "9903.94.05",
        hs,
        "preference",
        "Originating under USMCA and entered under it (special programme S/S+)",
        "2025-05-03",
        null,
        origins,
        "S",
      ]);

  // Wood (note 37). Countries with a deal have their own headings from their dates.
  const WOOD = "2025-10-14";
  const WOOD_RISE = "2027-01-01";
  const woodDeals = { GB: WOOD, EU: WOOD, JP: WOOD, KR: "2025-11-14" };
  add("9903.76.01", "Section 232 softwood timber and lumber", softwood, "0.10", "value", "wood", WOOD, null);
  for (const [code, name, list, rate, risen] of [
    ["9903.76.02", "Section 232 upholstered wooden furniture", furniture, "0.25", "0.30"],
    ["9903.76.03", "Section 232 wooden kitchen cabinets and vanities", cabinets, "0.25", "0.50"],
  ]) {
    for (const [f, t, excluded] of dealSegments(WOOD, woodDeals, "2026-12-31"))
      add(code, name, list, rate, "value", "wood", f, t, { excluded });
    add(code, name, list, risen, "value", "wood", WOOD_RISE, null, { excluded: [...EU27, "GB", "JP", "KR"].sort() });
  }
  const woodGoods = [...furniture, ...cabinets];
  add("9903.76.20", "Section 232 wood products, United Kingdom", woodGoods, "0.10", "value", "wood", WOOD, null, {
    origins: ["GB"],
  });
  add("9903.76.21", "Section 232 wood products, Japan (15 % all-in)", woodGoods, "0.15", "all_in", "wood", WOOD, null, {
    origins: ["JP"],
  });
  add(
    "9903.76.22",
    "Section 232 wood products, European Union (15 % all-in)",
    woodGoods,
    "0.15",
    "all_in",
    "wood",
    WOOD,
    null,
    { origins: EU27 },
  );
  add(
    "9903.76.23",
    "Section 232 wood products, South Korea (15 % all-in)",
    woodGoods,
    "0.15",
    "all_in",
    "wood",
    woodDeals.KR,
    null,
    { origins: ["KR"] },
  );

  // Medium- and heavy-duty vehicles, buses and their parts (note 38).
  const MHD = "2025-11-01";
  add("9903.74.01", "Section 232 medium- and heavy-duty vehicles", mhd, "0.25", "value", "mhd", MHD, null);
  add("9903.74.02", "Section 232 buses", buses, "0.10", "value", "mhd", MHD, null);
  add(
    "9903.74.08",
    "Section 232 medium- and heavy-duty vehicle parts",
    mhdParts,
    "0.25",
    "value",
    "mhd_parts",
    MHD,
    null,
    {
      condition: partUse("parts of medium- or heavy-duty vehicles (U.S. note 38(i))"),
    },
  );
  for (const hs of mhdParts)
    exclusions.push([
      "9903.74.10",
      "Medium- and heavy-duty vehicle parts originating under USMCA (U.S. note 38(k))",
      "9903.74.08",
      hs,
      "preference",
      "Originating under USMCA and entered under it (special programme S/S+)",
      MHD,
      null,
      ["CA", "MX"],
      "S",
    ]);
  return { measures, exclusions };
}

/**
 * IEEPA duties (fentanyl: 9903.01.01-.24; "reciprocal": 9903.01.25-.76, 9903.02.02-.91; India: 9903.01.84),
 * collected from 2025-02-04 until the Supreme Court held them unlawful (Learning Resources v. Trump, 2026-02-20)
 * and out of the HTS from 2026-02-24. They are built so a quote for an entry in that window can show what was
 * deposited and is refundable, never as duty owed (programs `ieepa_*`, which the engine keeps out of the totals).
 * Headings, countries and rates are read from their texts in the Chapter 99 text of HTS 2026 Rev 6 (the expired
 * provisions keep their text); dates from the executive orders (whitehouse.gov presidential actions):
 * - fentanyl, China and Hong Kong: 10 % from 2025-02-04 (EO 14195), 20 % from 2025-03-04 (EO 14228), 10 % from
 *   2025-11-10 (EO of 2025-11-04); Canada 25 % (9903.01.10) and Mexico 25 % (9903.01.01) from 2025-03-04 (the
 *   pause of EO 14197/14198 ended), Canada 35 % from 2025-08-01 (9903.01.16, EO of 2025-07-31); Canadian energy
 *   (9903.01.13, taken as chapter 27) and potash (3104.20; 9903.01.15 and Mexico's 9903.01.05) 10 %; goods entered
 *   free under USMCA exempt from 2025-03-07 (EO 14231/14232; 9903.01.14, 9903.01.04);
 * - reciprocal: 10 % on every country but Canada and Mexico from 2025-04-05 (EO 14257, 9903.01.25); China, Hong
 *   Kong and Macau 84 % on 2025-04-09 and 125 % from 2025-04-10 (9903.01.63, EO of 2025-04-08 and 14266), 10 %
 *   again from 2025-05-14 (EO 14298); from 2025-08-07 the country headings of EO 14326 Annex I (9903.02.02-.71),
 *   with the EU's 15 % all-in (9903.02.19/.20), Japan's 15 % all-in from the same date (9903.02.72/.73, EO 14345,
 *   retroactive), South Korea's (9903.02.79/.80) and Switzerland's and Liechtenstein's (9903.02.82/.83,
 *   9903.02.87/.88) 15 % all-in from 2025-11-14 (FR Doc 2025-21940; FR Doc 2025-23316); products of Annex II
 *   (note 2(v)(iii)(a), 9903.01.32), informational materials (50 U.S.C. 1702(b), 9903.01.31, taken as chapters
 *   49 and 97) and goods under Section 232 (9903.01.33) exempt;
 * - India: 25 % more from 2025-08-27 (9903.01.84, EO 14329), with the same exemptions.
 * Not built: Brazil's 40 % (9903.01.77; its exemption list, 9903.01.81), the agricultural exemptions from
 * 2025-11-13, transshipment penalties, in-transit relief.
 */
const IEEPA_END = "2026-02-23";
const ISO_ALIASES = {
  "Bosnia and Herzegovina": "BA",
  "Côte d`Ivoire": "CI",
  "Cote d'Ivoire": "CI",
  // The text file's one non-ASCII letter (ô) does not survive the UTF-8 read.
  "C\uFFFDte d'Ivoire": "CI",
  "Democratic Republic of the Congo": "CD",
  "Falkland Islands": "FK",
  Laos: "LA",
  "Myanmar (Burma)": "MM",
  "South Korea": "KR",
  Syria: "SY",
  Taiwan: "TW",
  Turkey: "TR",
  Vietnam: "VN",
  "Trinidad and Tobago": "TT",
  Brunei: "BN",
  Moldova: "MD",
  "North Macedonia": "MK",
  Venezuela: "VE",
  Bolivia: "BO",
  "United Kingdom": "GB",
  Philippines: "PH",
  "the Philippines": "PH",
  "the United Kingdom": "GB",
  "Papua New Guinea": "PG",
};

function ieepa(text) {
  const countries = JSON.parse(readFileSync(join(root, "data", "iso", "countries.json"), "utf8"));
  const byName = new Map(countries.map((c) => [c.name, c.alpha2]));
  const iso = (name) => {
    const code = ISO_ALIASES[name] ?? byName.get(name);
    if (!code) throw new Error(`IEEPA heading: no ISO code for ${name}`);
    return code;
  };
  // The heading blocks of 9903.02.02-.71: country and added rate, as the text gives them.
  const start = text.findIndex((l) => l.startsWith("9903.02.02 "));
  const end = text.findIndex((l) => l.startsWith("9903.02.72 "));
  if (start < 0 || end < start) throw new Error("chapter 99 text: IEEPA country headings not found");
  const heads = [];
  for (let i = start; i < end; i++) {
    const m = /^(9903\.02\.\d{2}) /.exec(text[i]);
    if (m) heads.push({ code: m[1], lines: [] });
    heads.at(-1).lines.push(text[i]);
  }
  const annex = [];
  for (const h of heads) {
    // The description column is the left 100 characters; the rate columns sit to its right.
    const desc = h.lines
      .map((l) => l.slice(0, 100))
      .join(" ")
      .replace(/\s+/g, " ");
    const cols = h.lines
      .map((l) => l.slice(100))
      .join(" ")
      .replace(/\s+/g, " ");
    const who = /product of (.+?), as provided for in subdivision/.exec(desc)?.[1];
    if (!who) throw new Error(`${h.code}: no country in its text`);
    const plus = /\+\s*(\d+(?:\.\d+)?)%/.exec(cols) ?? /\+\s*(\d+(?:\.\d+)?)%/.exec(h.lines.join(" "));
    const flat = /(?:^|\s)(\d+(?:\.\d+)?)%/.exec(cols);
    annex.push({
      code: h.code,
      who,
      rate: plus ? num(new Big(plus[1]).div(100)) : null,
      allIn: !plus && flat ? num(new Big(flat[1]).div(100)) : null,
    });
  }
  const measures = [];
  const m = (program, code, name, prefix, origins, excluded, rate, basis, from, to) =>
    measures.push([program, code, name, prefix, origins, excluded, rate, basis, null, from, to, null, null, null]);
  const F = "ieepa_fentanyl";
  const R = "ieepa_reciprocal";
  const CN = ["CN", "HK"];
  m(
    F,
    "9903.01.20",
    "IEEPA fentanyl duty, China and Hong Kong",
    "",
    CN,
    null,
    "0.10",
    "value",
    "2025-02-04",
    "2025-03-03",
  );
  m(
    F,
    "9903.01.24",
    "IEEPA fentanyl duty, China and Hong Kong",
    "",
    CN,
    null,
    "0.20",
    "value",
    "2025-03-04",
    "2025-11-09",
  );
  m(
    F,
    "9903.01.24",
    "IEEPA fentanyl duty, China and Hong Kong",
    "",
    CN,
    null,
    "0.10",
    "value",
    "2025-11-10",
    IEEPA_END,
  );
  m(F, "9903.01.10", "IEEPA fentanyl duty, Canada", "", ["CA"], null, "0.25", "value", "2025-03-04", "2025-07-31");
  m(F, "9903.01.16", "IEEPA fentanyl duty, Canada", "", ["CA"], null, "0.35", "value", "2025-08-01", IEEPA_END);
  m(
    F,
    "9903.01.13",
    "IEEPA fentanyl duty, Canadian energy",
    "27",
    ["CA"],
    null,
    "0.10",
    "value",
    "2025-03-04",
    IEEPA_END,
  );
  m(
    F,
    "9903.01.15",
    "IEEPA fentanyl duty, Canadian potash",
    "310420",
    ["CA"],
    null,
    "0.10",
    "value",
    "2025-03-07",
    IEEPA_END,
  );
  m(F, "9903.01.01", "IEEPA fentanyl duty, Mexico", "", ["MX"], null, "0.25", "value", "2025-03-04", IEEPA_END);
  m(
    F,
    "9903.01.05",
    "IEEPA fentanyl duty, Mexican potash",
    "310420",
    ["MX"],
    null,
    "0.10",
    "value",
    "2025-03-07",
    IEEPA_END,
  );
  const CHINA = ["CN", "HK", "MO"];
  const annexIso = annex
    .map((a) => (a.code === "9903.02.19" || a.code === "9903.02.20" ? null : iso(a.who)))
    .filter(Boolean);
  const notGeneral = (extra) => [...new Set(["CA", "MX", ...CHINA, ...extra, ...EU27])].sort();
  const nameOf = (c) => countries.find((x) => x.alpha2 === c)?.name ?? c;
  m(
    R,
    "9903.01.25",
    "IEEPA reciprocal duty (baseline)",
    "",
    null,
    ["CA", "MX"],
    "0.10",
    "value",
    "2025-04-05",
    "2025-04-08",
  );
  m(
    R,
    "9903.01.25",
    "IEEPA reciprocal duty (baseline)",
    "",
    null,
    ["CA", "MX", ...CHINA].sort(),
    "0.10",
    "value",
    "2025-04-09",
    "2025-05-13",
  );
  m(
    R,
    "9903.01.25",
    "IEEPA reciprocal duty (baseline)",
    "",
    null,
    ["CA", "MX"],
    "0.10",
    "value",
    "2025-05-14",
    "2025-08-06",
  );
  m(
    R,
    "9903.01.25",
    "IEEPA reciprocal duty (baseline)",
    "",
    null,
    notGeneral(annexIso),
    "0.10",
    "value",
    "2025-08-07",
    IEEPA_END,
  );
  m(R, "9903.01.63", "IEEPA reciprocal duty, China", "", CHINA, null, "0.84", "value", "2025-04-09", "2025-04-09");
  m(R, "9903.01.63", "IEEPA reciprocal duty, China", "", CHINA, null, "1.25", "value", "2025-04-10", "2025-05-13");
  m(
    R,
    "9903.01.25",
    "IEEPA reciprocal duty, China (baseline)",
    "",
    CHINA,
    null,
    "0.10",
    "value",
    "2025-08-07",
    IEEPA_END,
  );
  const REPLACED = {
    JP: [null, "9903.02.73", "2025-08-07"],
    KR: ["2025-11-13", "9903.02.80", "2025-11-14"],
    CH: ["2025-11-13", "9903.02.83", "2025-11-14"],
    LI: ["2025-11-13", "9903.02.88", "2025-11-14"],
  };
  for (const a of annex) {
    if (a.code === "9903.02.19") continue; // the EU's column-1-over-15 % heading adds nothing
    if (a.code === "9903.02.20") {
      m(
        R,
        a.code,
        "IEEPA reciprocal duty, European Union (15 % all-in)",
        "",
        EU27,
        null,
        a.allIn ?? "0.15",
        "all_in",
        "2025-08-07",
        IEEPA_END,
      );
      continue;
    }
    const c = iso(a.who);
    if (a.rate === null) throw new Error(`${a.code} (${a.who}): no rate in its text`);
    const r = REPLACED[c];
    if (r && r[0] === null) continue;
    m(
      R,
      a.code,
      `IEEPA reciprocal duty, ${nameOf(c)}`,
      "",
      [c],
      null,
      a.rate,
      "value",
      "2025-08-07",
      r ? r[0] : IEEPA_END,
    );
  }
  for (const [c, [, code, from]] of Object.entries(REPLACED))
    m(R, code, `IEEPA reciprocal duty, ${nameOf(c)} (15 % all-in)`, "", [c], null, "0.15", "all_in", from, IEEPA_END);
  m(
    "ieepa_india",
    "9903.01.84",
    "IEEPA duty, India (Russian oil)",
    "",
    ["IN"],
    null,
    "0.25",
    "value",
    "2025-08-27",
    IEEPA_END,
  );

  // Exemptions: [code, name, applies_to, hs_prefix, kind, condition, valid_from, valid_to, origins, preference]
  const exclusions = [];
  for (const [code, name, origins] of [
    ["9903.01.14", "Product of Canada entered free of duty under USMCA", ["CA"]],
    ["9903.01.04", "Product of Mexico entered free of duty under USMCA", ["MX"]],
  ])
    exclusions.push([
      code,
      name,
      F,
      "",
      "preference",
      "Originating under USMCA and entered free of duty under it (special programme S/S+)",
      "2025-03-07",
      IEEPA_END,
      origins,
      "S",
    ]);
  const annexII = noteList(
    text,
    /^\(a\) As provided for in heading 9903\.01\.32/,
    /^\(b\) As provided in heading 9903\.02\.78/,
  );
  for (const program of [R, "ieepa_india"]) {
    const onCode = (code, name, hs) =>
      exclusions.push([code, name, program, hs, "auto", null, "2025-04-05", IEEPA_END, null, null]);
    for (const hs of annexII) onCode("9903.01.32", "Product listed in Annex II (note 2(v)(iii)(a))", hs);
    for (const hs of ["49", "97"])
      onCode("9903.01.31", "Informational materials (50 U.S.C. 1702(b)), taken as chapters 49 and 97", hs);
    exclusions.push([
      "9903.01.33",
      "Article subject to Section 232",
      program,
      "",
      "auto_with_232",
      "A Section 232 duty applies to the goods",
      "2025-04-05",
      IEEPA_END,
      null,
      null,
    ]);
  }
  exclusions.push([
    "9903.01.33",
    "Article subject to Section 232 (EO 14289 and the later proclamations: no Canada or Mexico IEEPA duty on it)",
    F,
    "",
    "auto_with_232",
    "A Section 232 duty applies to the goods",
    "2025-04-03",
    IEEPA_END,
    ["CA", "MX"],
    null,
  ]);
  return { measures, exclusions };
}

function ch99(descriptions) {
  const measures = []; // [program, code, name, hs_prefix, origins, origins_excluded, rate, basis, metal, valid_from, valid_to, metal_origin, sector, use_condition]
  // The corrections come last: they are sourced moves the note's current text no longer shows (8507.60.00).
  const s301 = corrected301(asNoteLists(table(join(shared, "us-ch99-yale", "resources", "s301_product_lists.csv"))));
  for (const r of s301) {
    const m = S301[r.ch99_code];
    if (!m) continue;
    for (const [from, to, rate] of m.periods) {
      measures.push([
        "301",
        r.ch99_code,
        `Section 301 China, ${m.list}`,
        r.hts8,
        ["CN"],
        null,
        rate,
        "value",
        null,
        from,
        to,
        null,
      ]);
    }
  }
  const res = (f) => table(join(shared, "us-ch99-yale", "resources", f));
  // Section 232 before the April 2026 annexes: steel articles (ch. 72/73 products of the annex list), aluminium (ch. 76),
  // derivatives on their metal content, copper on its copper content.
  const annex = res("s232_annex_products.csv");
  // Steel and aluminium articles of the 2018 proclamations (9705: headings 7206-7229 less ferro-alloys, 7301-7306;
  // 9704: 7601, 7604-7609), plus the chapter 72/73/76 products of the annex list.
  const STEEL_HEADINGS = [
    "7206",
    "7207",
    "7208",
    "7209",
    "7210",
    "7211",
    "7212",
    "7213",
    "7214",
    "7215",
    "7216",
    "7217",
    "7218",
    "7219",
    "7220",
    "7221",
    "7222",
    "7223",
    "7224",
    "7225",
    "7226",
    "7227",
    "7228",
    "7229",
    "7301",
    "7302",
    "7304",
    "7305",
    "7306",
  ];
  const ALU_HEADINGS = ["7601", "7604", "7605", "7606", "7607", "7608", "7609"];
  // The annex lines beyond those headings (7307-7326, 7610-7616...) were derivatives, not articles, before
  // 2025-03-12: they join the article measures from then on (`ANNEX_ARTICLES_FROM`), and not for a period in
  // which the derivative list charges the same product under its own heading (from 2025-03-12).
  const steelCore = [
    ...STEEL_HEADINGS,
    ...annex.filter((r) => r.metal_type === "steel" && /^7[23]/.test(r.hts_prefix)).map((r) => r.hts_prefix),
  ];
  const aluCore = [
    ...ALU_HEADINGS,
    ...annex.filter((r) => r.metal_type === "aluminum" && /^76/.test(r.hts_prefix)).map((r) => r.hts_prefix),
  ];
  const derivatives = res("s232_derivative_products.csv");
  // The derivative rows of the same metal whose product overlaps the line (either code within the other).
  const overlapping = (metal, prefix) =>
    derivatives.filter(
      (r) => r.derivative_type === metal && (r.hts_prefix.startsWith(prefix) || prefix.startsWith(r.hts_prefix)),
    );
  const articlePeriod = (metal, headings, prefix, from) => {
    if (headings.some((h) => prefix.startsWith(h))) return true;
    if (from < ANNEX_ARTICLES_FROM) return false;
    const listed = overlapping(metal, prefix);
    if (listed.some((r) => r.effective_date))
      throw new Error(`annex line ${prefix}: a ${metal} derivative row starts after 2025-03-12; split its period`);
    return !listed.length;
  };
  const [trFrom, trTo] = TURKEY_STEEL_50;
  const steelPeriods = [
    ...exemptSegments(S232_EXEMPT_WINDOWS.steel, [
      trFrom,
      new Date(Date.parse(trTo) + 86_400_000).toISOString().slice(0, 10),
    ]).map(([from, to, excluded]) => [
      "9903.80.01",
      from,
      to,
      "0.25",
      from >= trFrom && to <= trTo ? [...excluded, "TR"] : excluded,
    ]),
    ["9903.80.02", trFrom, trTo, "0.50", null, ["TR"]],
    ["9903.81.87", "2025-03-12", "2025-06-03", "0.25", null],
    ["9903.81.87", "2025-06-04", "2026-04-05", "0.50", ["GB"]],
    // UK steel articles: 9903.81.94 (the UK headings are 9903.81.94-.99, mirroring 9903.81.87-.93; note 19(p)
    // names .96-.99 as the UK's derivative steel headings). 9903.81.86 is Mexico's melt-and-pour derivative heading.
    ["9903.81.94", "2025-06-04", "2026-04-05", "0.25", null, ["GB"]],
  ];
  const aluPeriods = [
    ...exemptSegments(S232_EXEMPT_WINDOWS.aluminum).map(([from, to, excluded]) => [
      "9903.85.01",
      from,
      to,
      "0.10",
      excluded,
    ]),
    ["9903.85.02", "2025-03-12", "2025-06-03", "0.25", null],
    ["9903.85.02", "2025-06-04", "2026-04-05", "0.50", ["GB"]],
    ["9903.85.12", "2025-06-04", "2026-04-05", "0.25", null, ["GB"]],
  ];
  for (const prefix of new Set(steelCore))
    for (const [code, from, to, rate, excl, only] of steelPeriods)
      if (articlePeriod("steel", STEEL_HEADINGS, prefix, from))
        measures.push([
          "232",
          code,
          "Section 232 steel",
          prefix,
          only ?? null,
          excl ?? null,
          rate,
          "value",
          "steel",
          from,
          to,
          null,
        ]);
  for (const prefix of new Set(aluCore))
    for (const [code, from, to, rate, excl, only] of aluPeriods)
      if (articlePeriod("aluminum", ALU_HEADINGS, prefix, from))
        measures.push([
          "232",
          code,
          "Section 232 aluminum",
          prefix,
          only ?? null,
          excl ?? null,
          rate,
          "value",
          "aluminum",
          from,
          to,
          null,
        ]);
  // 2025-03-12 to 2025-06-03: the derivatives of the March lists (the rows without a later effective date) at
  // 25 % for every origin; those classified in chapter 76 on the full value, the others on the metal content
  // (CBP CSMS 64384496 and the March 2025 guidance). The data has the aluminium lists only: its steel rows are
  // the August 2025 inclusions.
  for (const r of derivatives.filter((d) => !d.effective_date)) {
    const metal = r.derivative_type;
    const full = metal === "aluminum" && r.hts_prefix.startsWith("76");
    const name = `Section 232 ${metal} derivatives (${full ? "full value" : `on ${metal} content`})`;
    measures.push([
      "232",
      r.ch99_code,
      name,
      r.hts_prefix,
      null,
      null,
      "0.25",
      full ? "value" : "content",
      metal,
      ANNEX_ARTICLES_FROM,
      "2025-06-03",
      null,
    ]);
  }
  for (const r of derivatives) {
    const metal = r.derivative_type;
    const from = r.effective_date || "2025-06-04";
    measures.push([
      "232",
      r.ch99_code,
      `Section 232 ${metal} derivatives (on ${metal} content)`,
      r.hts_prefix,
      null,
      ["GB"],
      "0.50",
      "content",
      metal,
      from,
      "2026-04-05",
      null,
    ]);
    measures.push([
      "232",
      r.ch99_code,
      `Section 232 ${metal} derivatives (on ${metal} content)`,
      r.hts_prefix,
      ["GB"],
      null,
      "0.25",
      "content",
      metal,
      from,
      "2026-04-05",
      null,
    ]);
  }
  for (const r of res("s232_copper_products.csv"))
    measures.push([
      "232",
      r.ch99_code,
      "Section 232 copper (on copper content)",
      r.hts10,
      null,
      null,
      "0.50",
      "content",
      "copper",
      "2025-08-01",
      "2026-04-05",
      null,
    ]);
  const text = readFileSync(join(shared, "us-ch99-yale", "us_notes", "chapter99_2026_rev_6.txt"), "utf8").split("\n");
  annexRegime(measures, text);
  derivatives2020(measures, text);
  metalOriginMeasures(measures, new Set(aluCore), new Set(steelCore));
  russianAluminum(measures, new Set(aluCore));

  // Exclusions and claims. [code, name, applies_to (measure code or program), hs_prefix ('' = any product of the measure),
  // kind ('auto' fires on the code alone | 'claim' must be claimed), condition, valid_from, valid_to]
  const exclusions = [];
  const start = text.findIndex((l) => l.startsWith("(vvv)  (i) The U.S. Trade Representative"));
  const end = text.findIndex((l, i) => i > start && /^21\. \(a\) For purposes of subheading 9903\.19\.23/.test(l));
  let applies = null;
  let code = "9903.88.69";
  let item = "";
  const flush = () => {
    if (!item || !applies) return;
    const body = item
      .replace(/^\(\d+\)\s*/, "")
      .replace(/\s+/g, " ")
      .trim();
    const codes = [...body.matchAll(/(\d{4})\.(\d{2})\.(\d{2})(\d{2})?/g)].map(
      (m) => m[1] + m[2] + m[3] + (m[4] ?? ""),
    );
    if (!codes.length) return;
    const bare = /^\d{4}\.\d{2}\.\d{4}$/.test(body);
    const [from, to] = code === "9903.88.69" ? ["2024-06-15", "2026-11-09"] : ["2024-01-01", "2026-11-09"];
    for (const hs of new Set(bare ? codes : codes.map((c) => c.slice(0, 10))))
      for (const a of applies)
        exclusions.push([
          code,
          bare
            ? `USTR product exclusion for ${body}`
            : body.replace(/ \(described in statistical reporting number.*$/, "").slice(0, 240),
          a,
          hs,
          bare ? "auto" : "claim",
          bare ? null : "The goods must match the exclusion's product description",
          from,
          to,
        ]);
  };
  for (let i = start; i < end; i++) {
    const l = text[i];
    if (/^\(vvv\) {2}\(i\)/.test(l)) applies = ["9903.88.01"];
    else if (/^\(ii\) The U\.S\. Trade Representative/.test(l)) flush(), (item = ""), (applies = ["9903.88.02"]);
    else if (/^\(iii\) The U\.S\. Trade Representative/.test(l))
      flush(), (item = ""), (applies = ["9903.88.03", "9903.88.04"]);
    else if (/^\(iv\) The U\.S\. Trade Representative/.test(l)) flush(), (item = ""), (applies = ["9903.88.15"]);
    else if (/^\(www\)/.test(l)) flush(), (item = ""), (applies = ["9903.88.02"]), (code = "9903.88.70");
    if (/^\s*\(\d+\)\s/.test(l) && !/^\s{6,}/.test(l)) {
      flush();
      item = l.trim();
    } else if (
      item &&
      l.trim() &&
      !/Harmonized Tariff Schedule|Annotated for Statistical|^\s*(Heading|Subheading|fix|Note:|1\/)/.test(l)
    )
      item += ` ${l.trim()}`;
  }
  flush();
  // Claim-only exemptions for Section 232 derivatives whose metal was melted and poured / smelted and cast in the US.
  exclusions.push([
    "9903.81.92",
    "Steel derivative: steel melted and poured in the United States",
    "232:steel",
    "",
    "claim",
    "The steel content was melted and poured in the United States",
    "2025-03-12",
    "2026-04-05",
  ]);
  // Keyed to the derivative headings, not to all of 232 aluminum: no claim or exemption reduces the Russian
  // aluminum duty (note 19(m)(A)/(B): "No claim for entry or for any duty exemption or reduction shall be allowed").
  // Only the new derivatives of subdivisions (j) and (k) (9903.85.07, .08; their USITC rows say "Except as provided
  // in hdgs 9903.85.09"); the existing ones of subdivision (i), 9903.85.04, have no such exception.
  for (const code of ["9903.85.07", "9903.85.08"])
    exclusions.push([
      "9903.85.09",
      "Aluminum derivative: aluminum smelted and cast in the United States",
      code,
      "",
      "claim",
      "The aluminum content was smelted and cast in the United States",
      "2025-03-12",
      "2026-04-05",
    ]);
  // Zero metal content carve-out of the annex regime (HTS 2026 Rev 7, retroactive to 2026-04-06): fires when the
  // metal share is 0. Keyed to the annex headings, for the same reason.
  for (const code of ["9903.82.02", "9903.82.04", "9903.82.05", "9903.82.09", "9903.82.10"])
    exclusions.push([
      "9903.82.01",
      "Section 232 annex goods containing no steel, aluminum or copper",
      code,
      "",
      "auto_zero_content",
      "metal_weight_percentage is 0",
      "2026-04-06",
      null,
    ]);
  const s122 = section122(text);
  measures.push(s122.measure);
  exclusions.push(...s122.exclusions);
  const sectors = sector232(text, descriptions);
  measures.push(...sectors.measures);
  exclusions.push(...sectors.exclusions);
  const emergency = ieepa(text);
  measures.push(...emergency.measures);
  exclusions.push(...emergency.exclusions);
  assertOneBasisPer232Metal(measures);
  // Grouped: one entry per measure period with its product prefixes (the dataset module expands them to rows).
  const groups = new Map();
  for (const [
    program,
    code,
    name,
    prefix,
    origins,
    excluded,
    rate,
    basis,
    metal,
    from,
    to,
    metalOrigin,
    sector,
    useCondition,
  ] of measures) {
    const key = JSON.stringify([
      program,
      code,
      name,
      origins,
      excluded,
      rate,
      basis,
      metal,
      from,
      to,
      metalOrigin ?? null,
      sector ?? null,
      useCondition ?? null,
    ]);
    if (!groups.has(key))
      groups.set(key, {
        program,
        code,
        name,
        origins,
        origins_excluded: excluded,
        rate,
        basis,
        metal,
        valid_from: from,
        valid_to: to,
        metal_origin: metalOrigin ?? null,
        ...(sector ? { sector } : {}),
        ...(useCondition ? { use_condition: useCondition } : {}),
        prefixes: [],
      });
    groups.get(key).prefixes.push(prefix);
  }
  return {
    measures: [...groups.values()].map((g) => ({ ...g, prefixes: [...new Set(g.prefixes)].sort() })),
    exclusions: {
      columns: EXCLUSION_COLUMNS,
      rows: exclusions.map((r) => [...r, ...new Array(EXCLUSION_COLUMNS.length - r.length).fill(null)]),
    },
  };
}

/**
 * Rates with their history where the worldwide list has one rate only, curated from the tax authority:
 * Switzerland, ESTV https://www.estv.admin.ch/estv/en/home/value-added-tax/vat-rates-switzerland.html (8.1 % and
 * 2.6 % from 2024-01-01, 7.7 % and 2.5 % from 2018-01-01, 8 % and 2.5 % from 2011-01-01).
 */
const CURATED_VAT = [
  ["CH", "", "VAT", "2011-01-01", "2017-12-31", "8", { reduced: "2.5" }],
  ["CH", "", "VAT", "2018-01-01", "2023-12-31", "7.7", { reduced: "2.5" }],
  ["CH", "", "VAT", "2024-01-01", null, "8.1", { reduced: "2.6" }],
];

function vat() {
  const ib = JSON.parse(readFileSync(join(shared, "vat-ibericode", "vat-rates.json"), "utf8")).items;
  const st = JSON.parse(readFileSync(join(shared, "vat-worldwide-sales-tax-npm", "sales_tax_rates.json"), "utf8"));
  const REGION = {
    "Canary Islands": "ES-CN",
    Ceuta: "ES-CE",
    Melilla: "ES-ML",
    Madeira: "PT-30",
    Azores: "PT-20",
    Guadeloupe: "FR-971",
    Martinique: "FR-972",
    Guyane: "FR-973",
    Reunion: "FR-974",
    Mayotte: "FR-976",
    Heligoland: "DE-HELGOLAND",
    "Büsingen am Hochrhein": "DE-BUSINGEN",
    "Mount Athos": "GR-69",
    Livigno: "IT-LIVIGNO",
    "Campione d'Italia": "IT-CAMPIONE",
    Jungholz: "AT-JUNGHOLZ",
    Mittelberg: "AT-MITTELBERG",
  };
  const rows = []; // [country, region, name, valid_from, valid_to, standard, reduced]
  for (const [cc, periods] of Object.entries(ib)) {
    const sorted = [...periods].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
    sorted.forEach((p, i) => {
      const from = p.effective_from === "0000-01-01" ? "1970-01-01" : p.effective_from;
      const next = sorted[i + 1];
      const to = next ? new Date(Date.parse(next.effective_from) - 86400000).toISOString().slice(0, 10) : null;
      const { standard, ...reduced } = p.rates;
      const country = cc === "EL" ? "GR" : cc;
      rows.push([
        country,
        "",
        "VAT",
        from,
        to,
        String(standard),
        Object.keys(reduced).length
          ? Object.fromEntries(Object.entries(reduced).map(([k, v]) => [k, String(v)]))
          : null,
      ]);
      for (const e of p.exceptions ?? [])
        rows.push([country, REGION[e.name] ?? e.name, `VAT (${e.name})`, from, to, String(e.standard), null]);
    });
  }
  for (const row of CURATED_VAT) rows.push(row);
  for (const [cc, v] of Object.entries(st)) {
    if (ib[cc] || (cc === "GR" && ib.EL)) continue;
    if (CURATED_VAT.some((r) => r[0] === cc)) continue;
    if (v.type === "none") continue;
    rows.push([cc, "", v.type.toUpperCase(), "1970-01-01", null, new Big(v.rate).times(100).toString(), null]);
    // Harmonized Sales Tax provinces: CBSA collects the HST (federal 5% + provincial part) at import. PST and QST
    // provinces are not collected at the border, so only GST applies there.
    for (const [region, r] of Object.entries(v.states ?? {})) {
      if (r.type !== "hst") continue;
      const periods = Object.entries(r.before ?? {})
        .map(([d, b]) => [d.slice(0, 10), b.rate])
        .sort();
      let from = "1970-01-01";
      for (const [until, rate] of periods) {
        const to = new Date(Date.parse(until) - 86400000 + 86400000 * (until.endsWith("T22") ? 1 : 0))
          .toISOString()
          .slice(0, 10);
        rows.push([
          cc,
          `${cc}-${region}`,
          `HST (${region})`,
          from,
          to,
          new Big(v.rate).plus(rate).times(100).toString(),
          null,
        ]);
        from = until;
      }
      rows.push([
        cc,
        `${cc}-${region}`,
        `HST (${region})`,
        from,
        null,
        new Big(v.rate).plus(r.rate).times(100).toString(),
        null,
      ]);
    }
  }
  return { columns: ["country", "region", "name", "valid_from", "valid_to", "standard", "reduced"], rows };
}

/**
 * Reduced VAT rates on goods whose scope the HS code shows: books and newspapers (Directive 2006/112/EC Annex III
 * point 6) and works of art, collectors' pieces and antiques on importation (art. 103, Annex IX). Rates from the EC
 * TEDB extract (EU) and HMRC's list (GB) of `vat-eu-tedb-hennrunnel`; only entries typed as a reduced, super-reduced
 * or zero rate are taken ("EXEMPTED" and "NOT_APPLICABLE" entries describe services or absent rates, e.g. Belgian
 * library lending, and would give a 0 % that is not the goods' rate). Food, medicines and the other categories are
 * not mapped: which products they cover differs by country beyond what a code shows.
 */
const VAT_REDUCED_CATEGORIES = [
  {
    id: "books",
    label: "books, brochures and leaflets, children's picture, drawing and colouring books, printed music",
    hs: ["4901", "4903", "4904"],
    tedb: ["BOOKS", "LOAN_LIBRARIES"],
    uk: "Publications & Postage (0%)",
    legal: "Directive 2006/112/EC Annex III point 6",
  },
  {
    id: "newspapers",
    label: "newspapers, journals and periodicals",
    hs: ["4902"],
    tedb: ["NEWSPAPERS", "PERIODICALS", "LOAN_LIBRARIES"],
    uk: "Publications & Postage (0%)",
    legal: "Directive 2006/112/EC Annex III point 6",
  },
  {
    id: "art_pictures",
    label: "paintings, drawings and collages executed by hand (works of art)",
    hs: ["9701"],
    tedb: ["PICTURES"],
    legal: "Directive 2006/112/EC art. 103, Annex IX Part A",
  },
  {
    id: "art_prints",
    label: "original engravings, prints and lithographs",
    hs: ["9702"],
    tedb: ["IMPRESSIONS"],
    legal: "Directive 2006/112/EC art. 103, Annex IX Part A",
  },
  {
    id: "art_sculptures",
    label: "original sculptures and statuary",
    hs: ["9703"],
    tedb: ["SCULPTURES"],
    legal: "Directive 2006/112/EC art. 103, Annex IX Part A",
  },
  {
    id: "collectors_items",
    label: "collections and collectors' pieces (zoological, botanical, historical, numismatic...)",
    hs: ["9705"],
    tedb: ["ZOOLOGICAL"],
    legal: "Directive 2006/112/EC art. 103, Annex IX Part B",
  },
  {
    id: "antiques",
    label: "antiques of an age exceeding 100 years",
    hs: ["9706"],
    tedb: ["100_YEARS_OLD", "ANTIQUES"],
    legal: "Directive 2006/112/EC art. 103, Annex IX Part C",
  },
];
const TEDB_SNAPSHOT = "2025-08-27";

function vatReduced() {
  const dir = join(shared, "vat-eu-tedb-hennrunnel");
  const eu = JSON.parse(readFileSync(join(dir, "eu_latest.json"), "utf8")).countries;
  const uk = JSON.parse(readFileSync(join(dir, "uk_latest.json"), "utf8")).countries[0];
  const TAKEN = new Set(["REDUCED_RATE", "SUPER_REDUCED_RATE"]);
  const rows = []; // [country, category, label, hs_prefix, rate, valid_from, valid_to, source]
  for (const c of eu) {
    const country = c.iso2 === "EL" ? "GR" : c.iso2;
    for (const cat of VAT_REDUCED_CATEGORIES) {
      const hit = cat.tedb
        .map((id) => c.categories.find((k) => k.category_id === id && TAKEN.has(k.rate_type)))
        .find(Boolean);
      if (!hit) continue;
      for (const hs of cat.hs)
        rows.push([
          country,
          cat.id,
          cat.label,
          hs,
          String(hit.rate_percent),
          TEDB_SNAPSHOT,
          null,
          `EC TEDB ${hit.category_id} (${cat.legal})`,
        ]);
    }
  }
  for (const cat of VAT_REDUCED_CATEGORIES) {
    const hit = cat.uk && uk.categories.find((k) => k.label === cat.uk);
    if (!hit) continue;
    for (const hs of cat.hs)
      rows.push([
        "GB",
        cat.id,
        cat.label,
        hs,
        String(hit.rate_percent),
        TEDB_SNAPSHOT,
        null,
        `HMRC VAT rates on goods and services: ${hit.label}`,
      ]);
  }
  return { columns: ["country", "category", "label", "hs_prefix", "rate", "valid_from", "valid_to", "source"], rows };
}

function fx() {
  const lines = readFileSync(join(shared, "fx-ecb", "eurofxref-hist.csv"), "utf8")
    .trim()
    .split("\n");
  const head = lines[0].split(",").filter(Boolean);
  const body = lines
    .slice(1)
    .map((l) => l.split(","))
    .filter((r) => r[0] >= "2018-01-01");
  const keep = head
    .slice(1)
    .filter((_c, i) => body.every((r) => r[i + 1] !== "N/A" || true) && body.some((r) => r[i + 1] !== "N/A"));
  const idx = keep.map((c) => head.indexOf(c));
  const out = [["Date", ...keep].join(",")];
  for (const r of body.sort((a, b) => a[0].localeCompare(b[0])))
    out.push([r[0], ...idx.map((i) => (r[i] === "N/A" ? "" : r[i]))].join(","));
  return `${out.join("\n")}\n`;
}

const us = await usTariff();
write("tariffs/us-hts8.json", us);
write("tariffs/uk-eu.json", ukEu());
const c = ch99(new Map(us.rows.map((r) => [r[0], r[3]])));
write("tariffs/us-ch99.json", c);
write("vat/vat-rates.json", vat());
write("vat/vat-reduced-goods.json", vatReduced());
write("fx/ecb-rates.csv", fx());
console.log("calculate data written", c.measures.length, "measures", c.exclusions.rows.length, "exclusions");
