/**
 * The USITC's annual tariff database (https://www.usitc.gov/tariff_affairs/documents/tariff_data, "Annual
 * Tariff Data": `tariff_database_YYYY.txt`, pipe-delimited, or the same columns as CSV) read into the US lines
 * of `calc_tariff_lines`, as a stream. The build (scripts/build/calculate.mjs) and the dataset registry's
 * `tariffs-us` upload run this same parser, so a bundled and an uploaded edition give the same rows.
 *
 * Per line: `hts8`, the brief description, the units of quantity Q1/Q2, the MFN (column 1 general) and
 * column 2 rates as text and as components, the column 1 special text, and the special rates of the
 * programmes modelled. Rate components follow the database's own rate-type codes: 0 free; 1 specific × Q1;
 * 2 specific × Q2; 3 specific × Q1 + other × Q2; 4 specific × Q1 + ad valorem; 5 specific × Q2 + ad valorem;
 * 6 specific × Q1 + ad valorem + other × Q2; 7 ad valorem. Rates stated in words (K, X, T, 9, Q, N) keep their
 * text and have no components: reported, not computed. Chapter 98/99 provisions are not tariff lines.
 */
import Big from "big.js";
import type { Component, TariffLine } from "../calculate/types";
import { csvRecords } from "./csv";
import type { ParseIssue } from "./sanctions";

/** One US line, as `calc_tariff_lines` holds it (schedule `US` and currency USD are implied). */
export type UsTariffLine = Omit<TariffLine, "schedule" | "currency">;

/** Columns without which the file is not the tariff database (the first record must name them all). */
const REQUIRED = [
  "hts8",
  "brief_description",
  "quantity_1_code",
  "quantity_2_code",
  "mfn_text_rate",
  "mfn_rate_type_code",
  "mfn_ad_val_rate",
  "mfn_specific_rate",
  "mfn_other_rate",
  "col1_special_text",
  "col2_text_rate",
  "col2_rate_type_code",
  "col2_ad_val_rate",
  "col2_specific_rate",
  "col2_other_rate",
  "begin_effect_date",
  "end_effective_date",
];

/** Special-programme columns of the database that carry numeric rates, by General Note 3(c) code. */
const NUMERIC_PROGRAMS: Record<string, string> = {
  AU: "australia",
  BH: "bahrain",
  CL: "chile",
  CO: "colombia",
  JO: "jordan",
  JP: "japan",
  KR: "korea",
  MA: "morocco",
  OM: "oman",
  P: "dr_cafta",
  PA: "panama",
  PE: "peru",
  S: "usmca",
  SG: "singapore",
};

/**
 * Programmes whose preference is modelled (FTAs in force). GSP (A, A*, A+) lapsed on 2020-12-31; the others
 * are end-use or regional programmes the engine does not model.
 */
const MODELLED = new Set([
  "AU",
  "BH",
  "CL",
  "CO",
  "IL",
  "JO",
  "JP",
  "KR",
  "MA",
  "OM",
  "P",
  "PA",
  "PE",
  "S",
  "S+",
  "SG",
]);

/** The database writes 9999.999999 where a rate does not apply. */
const SENTINEL = 9999;
const NUMBER = /^-?\d+(\.\d+)?$/;

const num = (v: string) => new Big(v).toString();

/**
 * "1/1/21", "01/01/2025" or "2025-01-01" → ISO; two-digit years ≥ 70 are 19xx. The database's "no end"
 * (12/31/2050 or later) is null for an end date.
 */
export function usitcDate(s: string, end = false): string | null {
  const v = s.trim();
  if (!v) return null;
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(v);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) {
    const yy = Number(us[3]);
    y = (us[3] as string).length === 4 ? yy : yy >= 70 ? 1900 + yy : 2000 + yy;
    [m, d] = [Number(us[1]), Number(us[2])];
  } else throw new Error(`not a date: ${JSON.stringify(s)}`);
  if (m < 1 || m > 12 || d < 1 || d > 31) throw new Error(`not a date: ${JSON.stringify(s)}`);
  if (end && y >= 2050) return null;
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Rate components from a rate-type code and its amounts; null when the rate is in words or does not apply. */
export function usitcComponents(
  type: string,
  av: string,
  sp: string,
  other: string,
  q1: string,
  q2: string,
): Component[] | null {
  if (type === "") return null;
  for (const v of [av, sp, other]) {
    if (v !== "" && !NUMBER.test(v)) throw new Error(`not a rate: ${JSON.stringify(v)}`);
    if (v !== "" && Number(v) >= SENTINEL) return null;
  }
  const A = (): Component => ["av", num(av || "0")];
  const S = (unit: string): Component => ["sp", num(sp || "0"), unit];
  const O = (unit: string): Component => ["sp", num(other || "0"), unit];
  switch (type) {
    case "0":
      return [];
    case "1":
      return [S(q1)];
    case "2":
      return [S(q2)];
    case "3":
      return [S(q1), O(q2)];
    case "4":
      return [S(q1), A()];
    case "5":
      return [S(q2), A()];
    case "6":
      return [S(q1), A(), O(q2)];
    case "7":
      return [A()];
    default:
      return null;
  }
}

/** "Free (AU,BH,...) 10 cents/kg (KR) See 9822.04.35 (AU)" → [{text, codes}]. */
function specialGroups(text: string): { text: string; codes: string[] }[] {
  const out: { text: string; codes: string[] }[] = [];
  for (const m of text.matchAll(/([^()]*?)\s*\(([^)]*)\)/g))
    out.push({
      text: (m[1] ?? "").trim(),
      codes: (m[2] ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    });
  return out;
}

/**
 * The special rates of the modelled programmes: from the programme's numeric columns where the database has
 * them, else from the special text when it says "Free" or a plain percentage. "See 98xx" references are not
 * followed.
 */
function specials(r: Record<string, string>, q1: string, q2: string): Record<string, Component[]> | null {
  const out: Record<string, Component[]> = {};
  for (const g of specialGroups(r.col1_special_text ?? "")) {
    for (const code of g.codes) {
      if (!MODELLED.has(code)) continue;
      const col = NUMERIC_PROGRAMS[code.replace("+", "")];
      const type = col ? r[`${col}_rate_type_code`] : undefined;
      let comps: Component[] | null = null;
      if (col && type) {
        comps = usitcComponents(
          type,
          r[`${col}_ad_val_rate`] || "0",
          r[`${col}_specific_rate`] || "0",
          r[`${col}_other_rate`] || "0",
          q1,
          q2,
        );
      } else if (/^free$/i.test(g.text)) comps = [];
      else if (/^\d+(\.\d+)?%$/.test(g.text)) comps = [["av", new Big(g.text.slice(0, -1)).div(100).toString()]];
      if (comps) out[code.replace("+", "")] = comps;
    }
  }
  return Object.keys(out).length ? out : null;
}

/** One record of the database as a line; throws (the caller records an issue) when it does not read. */
function usitcLine(r: Record<string, string>): UsTariffLine | null {
  const code = (r.hts8 ?? "").trim();
  if (!/^\d{8}$/.test(code)) throw new Error(`hts8 ${JSON.stringify(code)} is not 8 digits`);
  const chapter = Number(code.slice(0, 2));
  if (chapter < 1 || chapter > 97) return null;
  const q1 = (r.quantity_1_code ?? "").trim().toUpperCase();
  const q2 = (r.quantity_2_code ?? "").trim().toUpperCase();
  const validFrom = usitcDate(r.begin_effect_date ?? "");
  if (!validFrom) throw new Error(`${code}: no begin_effect_date`);
  const description = (r.brief_description ?? "").trim();
  if (!description) throw new Error(`${code}: no brief_description`);
  return {
    code,
    validFrom,
    validTo: usitcDate(r.end_effective_date ?? "", true),
    description,
    q1: q1 || null,
    q2: q2 || null,
    mfnText: (r.mfn_text_rate ?? "").trim(),
    mfn: usitcComponents(
      (r.mfn_rate_type_code ?? "").trim(),
      r.mfn_ad_val_rate ?? "",
      r.mfn_specific_rate ?? "",
      r.mfn_other_rate ?? "",
      q1,
      q2,
    ),
    col2Text: (r.col2_text_rate ?? "").trim() || null,
    col2: usitcComponents(
      (r.col2_rate_type_code ?? "").trim(),
      r.col2_ad_val_rate ?? "",
      r.col2_specific_rate ?? "",
      r.col2_other_rate ?? "",
      q1,
      q2,
    ),
    specialText: (r.col1_special_text ?? "").trim() || null,
    special: specials(r, q1, q2),
  };
}

/**
 * The lines of a tariff database file as a stream of text chunks. The separator is the header's: `|` in the
 * published .txt, `,` in a CSV. A record that does not read is skipped and reported in `issues`; a file without
 * the database's columns is refused (thrown).
 */
export async function* usitcLines(
  chunks: AsyncIterable<string>,
  issues: ParseIssue[] = [],
): AsyncGenerator<UsTariffLine> {
  const it = chunks[Symbol.asyncIterator]();
  const first = await it.next();
  const head = first.done ? "" : first.value.replace(/^\uFEFF/, "");
  const firstLine = head.split(/\r?\n/, 1)[0] ?? "";
  const separator = firstLine.split("|").length > firstLine.split(",").length ? "|" : ",";
  async function* all() {
    yield head;
    for (;;) {
      const n = await it.next();
      if (n.done) return;
      yield n.value;
    }
  }
  let header: string[] | null = null;
  let record = 0;
  for await (const fields of csvRecords(all(), separator)) {
    if (!header) {
      header = fields.map((f) => f.trim().toLowerCase());
      const missing = REQUIRED.filter((c) => !header?.includes(c));
      if (missing.length) throw new Error(`not the USITC tariff database: no column ${missing.join(", ")}`);
      continue;
    }
    record++;
    if (fields.length === 1 && fields[0] === "") continue;
    const r: Record<string, string> = {};
    header.forEach((h, i) => {
      r[h] = fields[i] ?? "";
    });
    try {
      const line = usitcLine(r);
      if (line) yield line;
    } catch (err) {
      issues.push({ record, message: (err as Error).message });
    }
  }
  if (!header) throw new Error("the file is empty");
}
