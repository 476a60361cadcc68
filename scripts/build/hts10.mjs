#!/usr/bin/env node
/**
 * Statistical (10-digit) US lines under each 8-digit tariff line (run only to refresh; the output is committed):
 *
 *   lines-us10.json  { hts8: [[hts10, description, units], ...] } from the USITC "HTS export" JSON (the full
 *                    schedule as hts.usitc.gov exports it: htsno, indent, description, superior, units, ...).
 *                    `description` joins the labels of the hierarchy below the 8-digit line (the superior rows
 *                    and the line's own text), e.g. "Men's or boys': Other T-shirts: Men's (338)"; a line that
 *                    is not split carries its own text. `units` is the unit list joined with ", ". Chapters
 *                    01-97, as lines-us.json.
 *
 * The UK's 10-digit commodity codes are not built: the stored UK Global Tariff file lists only the 10-digit lines
 * that carry a rate of their own, not the full set (data/hs/SOURCE.md).
 *
 * Usage: node scripts/build/hts10.mjs [path-to-export.json|.json.gz]
 * The export file is named by path (its provenance and how to obtain it are in data/hs/SOURCE.md), or found as
 * us-usitc-hts-2026/hts_2026_rev_10.json.gz under the sources directory (scripts/build/sources.mjs).
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { dataDir } from "../data/lib.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const EXPORT = "us-usitc-hts-2026/hts_2026_rev_10.json.gz";
const out = join(dataDir, "hs");

const clean = (s) =>
  String(s ?? "")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();
const digits = (htsno) => String(htsno ?? "").replace(/\D/g, "");

function readExport(path) {
  const raw = readFileSync(path);
  const text = (path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8").replace(/^\uFEFF/, "");
  const rows = JSON.parse(text);
  if (!Array.isArray(rows) || !rows.every((r) => r && typeof r === "object" && "indent" in r && "description" in r))
    throw new Error(`${path}: not a USITC HTS export (expected an array of {htsno, indent, description, ...})`);
  return rows;
}

/** A label that ends a hierarchy level reads "Men's or boys':"; the joined text keeps one colon per level. */
const asParent = (label) => (/[:;]$/.test(label) ? label : `${label}:`);

/**
 * Walks the export in order with a stack of open rows (by indent). A 10-digit row's description is the chain of
 * rows between its 8-digit line and itself; when the 8-digit line is not a row of its own (the row is both the
 * 8-digit line and its only statistical line, e.g. 0101.30.00.00), the row's own text.
 */
export function statisticalLines(rows) {
  const byLine = new Map();
  const stack = [];
  for (const r of rows) {
    const indent = Number.parseInt(String(r.indent ?? "0"), 10) || 0;
    const code = digits(r.htsno);
    const description = clean(r.description);
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    if (code.length === 10) {
      const line8 = code.slice(0, 8);
      const at = stack.findLastIndex((s) => s.code === line8);
      const labels = at < 0 ? [] : stack.slice(at + 1).map((s) => asParent(s.description));
      const units = (r.units ?? []).map(clean).filter(Boolean).join(", ");
      if (!byLine.has(line8)) byLine.set(line8, []);
      byLine.get(line8).push([code, [...labels, description].join(" "), units]);
    }
    stack.push({ indent, code, description });
  }
  return byLine;
}

const sorted = (map) => [...map].sort((a, b) => a[0].localeCompare(b[0]));
const writeMap = (name, map) => {
  const body = sorted(map)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
    .join(",\n");
  const path = join(out, name);
  writeFileSync(path, `{\n${body}\n}\n`);
  return statSync(path).size;
};

function main() {
  // The export named on the command line, else the one under the sources directory (--sources, DATA_SOURCES).
  const named = process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : undefined;
  const path = named ?? join(requireSources(sourcesDir(), [EXPORT]), EXPORT);
  const us = statisticalLines(readExport(path));
  for (const k of [...us.keys()]) if (Number(k.slice(0, 2)) > 97) us.delete(k);

  const us8 = JSON.parse(readFileSync(join(out, "lines-us.json"), "utf8")).map(([c]) => c);
  const missing = us8.filter((c) => !us.has(c));
  const known = new Set(us8);
  const extra = [...us.keys()].filter((c) => !known.has(c));
  const usBytes = writeMap("lines-us10.json", us);
  const count = (m) => [...m.values()].reduce((n, v) => n + v.length, 0);
  console.log(
    JSON.stringify(
      {
        source: path,
        us: {
          lines8: us.size,
          lines10: count(us),
          split: [...us.values()].filter((v) => v.length > 1).length,
          bytes: usBytes,
          lines_us_without_10: missing.length,
          lines_us_without_10_examples: missing.slice(0, 12),
          lines8_not_in_lines_us: extra.length,
          lines8_not_in_lines_us_examples: extra.slice(0, 12),
        },
      },
      null,
      1,
    ),
  );
}

main();
