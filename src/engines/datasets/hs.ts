/**
 * The HS nomenclature as UN Comtrade publishes its classification labels (`harmonized-system.csv`: `section`,
 * `hscode`, `description`, `parent`, `level`; https://comtradeapi.un.org/files/v1/app/reference/HS.json carries
 * the same labels), read as a stream into the rows of `hs_nomenclature`: chapters (2 digits), headings (4) and
 * subheadings (6). The build (scripts/build/hs.mjs) and the dataset registry's `hs` upload run this parser.
 *
 * Comtrade's own rows are left out: the `TOTAL` row and the "commodities not specified" codes of section
 * `TOTAL` (99, 9999, 999999). Each code must sit under its parent (a heading under its chapter, a subheading
 * under its heading), and every parent must be in the file: a truncated or shuffled file is refused.
 */
import { csvRecords } from "./csv";
import type { ParseIssue } from "./sanctions";

/** `[code, parent, section, description]`, the columns of hs_nomenclature. */
export type HsRow = [string, string | null, string, string];

const REQUIRED = ["section", "hscode", "description", "parent"];
const SECTION = /^[IVX]{1,5}$/;

/**
 * The rows of the file, sorted by code, once the whole file is read (the tree is checked against every
 * parent). A record that does not read is reported in `issues`; a file without the columns throws.
 */
export async function hsNomenclature(chunks: AsyncIterable<string>, issues: ParseIssue[] = []): Promise<HsRow[]> {
  let header: string[] | null = null;
  let record = 0;
  const rows: HsRow[] = [];
  for await (const fields of csvRecords(chunks)) {
    if (!header) {
      header = fields.map((f) =>
        f
          .replace(/^\uFEFF/, "")
          .trim()
          .toLowerCase(),
      );
      const missing = REQUIRED.filter((c) => !header?.includes(c));
      if (missing.length) throw new Error(`not the HS classification labels: no column ${missing.join(", ")}`);
      continue;
    }
    record++;
    if (fields.length === 1 && fields[0] === "") continue;
    const r = Object.fromEntries(header.map((h, i) => [h, (fields[i] ?? "").trim()]));
    const code = r.hscode ?? "";
    if ((r.section ?? "") === "TOTAL") continue;
    const description = (r.description ?? "").replace(/\s+/g, " ").trim();
    const parent = code.length === 2 ? null : (r.parent ?? "");
    const problem = !/^(\d{2}|\d{4}|\d{6})$/.test(code)
      ? `hscode ${JSON.stringify(code)} is not 2, 4 or 6 digits`
      : !SECTION.test(r.section ?? "")
        ? `${code}: section ${JSON.stringify(r.section)} is not a Roman numeral`
        : !description
          ? `${code}: no description`
          : parent !== null && parent !== code.slice(0, code.length - 2)
            ? `${code}: parent ${JSON.stringify(parent)} is not ${code.slice(0, code.length - 2)}`
            : null;
    if (problem) issues.push({ record, message: problem });
    else rows.push([code, parent, r.section as string, description.slice(0, 1000)]);
  }
  if (!header) throw new Error("the file is empty");
  const codes = new Set(rows.map((r) => r[0]));
  for (const [code, parent] of rows)
    if (parent !== null && !codes.has(parent))
      issues.push({ record: 0, message: `${code}: parent ${parent} is not in the file` });
  return rows.sort((a, b) => a[0].localeCompare(b[0]));
}
