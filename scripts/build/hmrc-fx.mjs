#!/usr/bin/env node
/**
 * Derives data/fx/hmrc-monthly.csv, HMRC's monthly exchange rates for customs and VAT, from one JSON file per
 * month (scripts/build/sources.mjs: --sources <dir>, directory fx-hmrc-monthly/, files YYYY-MM.json holding
 * `{base: "GBP", period: {start, end}, rates: {CUR: "1.2345"}}`, HMRC's XML as converted by the copy ORIGINS names).
 * Writes one row per month and currency: `period_start,period_end,currency,rate` (units of the currency per 1 GBP,
 * the figure as HMRC prints it). Checks that each file is GBP-based, that its period is one calendar month and the
 * file's own, and that no month is missing between the first and the last. Run only to refresh; the output is
 * committed.
 *
 *   node scripts/build/hmrc-fx.mjs [--sources <dir>]
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../data/lib.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const DIR = "fx-hmrc-monthly";

const lastDay = (y, m) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The rows of one month's file, checked against the month its name says. */
export function monthRows(name, text) {
  const [, y, m] = /^(\d{4})-(\d{2})\.json$/.exec(name) ?? [];
  if (!y || !m) throw new Error(`${name}: not a YYYY-MM.json file`);
  const doc = JSON.parse(text);
  const start = `${y}-${m}-01`;
  const end = `${y}-${m}-${String(lastDay(Number(y), Number(m))).padStart(2, "0")}`;
  if (doc.base !== "GBP") throw new Error(`${name}: base ${doc.base}, not GBP`);
  if (doc.period?.start !== start || doc.period?.end !== end)
    throw new Error(`${name}: period ${JSON.stringify(doc.period)}, not ${start} to ${end}`);
  return Object.entries(doc.rates)
    .filter(([currency, rate]) => {
      if (!/^[A-Z]{3}$/.test(currency) || !/^\d+(\.\d+)?$/.test(rate) || Number(rate) <= 0)
        throw new Error(`${name}: unreadable rate ${currency} ${rate}`);
      return true;
    })
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, rate]) => [start, end, currency, rate]);
}

function main() {
  const dir = join(requireSources(sourcesDir(), [DIR]), DIR);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const rows = files.flatMap((f) => monthRows(f, readFileSync(join(dir, f), "utf8")));
  // No month left out between the first and the last.
  const months = files.map((f) => f.slice(0, 7));
  for (let i = 1; i < months.length; i++) {
    const [y, m] = (months[i - 1] ?? "").split("-").map(Number);
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
    if (months[i] !== next) throw new Error(`month ${next} is missing (next file: ${months[i]})`);
  }
  const out = ["period_start,period_end,currency,rate", ...rows.map((r) => r.join(","))].join("\n");
  writeFileSync(join(dataDir, "fx", "hmrc-monthly.csv"), `${out}\n`);
  console.log(
    `data/fx/hmrc-monthly.csv: ${files.length} months (${months[0]} to ${months.at(-1)}), ${rows.length} rates`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
