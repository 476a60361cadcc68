/**
 * The offline evaluation reports (`bench/results/<area>.md`, each written by its area's evaluation script on
 * its own development and test splits) gathered into bench/RESULTS.md under one heading, headings one level
 * down, so the accuracy figures sit beside the latency figures they were measured with.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Written by bench/cold-start.mjs, which `npm run bench` runs and reports under its own heading. */
export const COLD_START_REPORT = "cold-start.md";
/** Written by bench/cpu.mjs, likewise. */
export const CPU_REPORT = "cpu.md";

export function offlineReports(benchDir) {
  const dir = join(benchDir, "results");
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".md") && f !== COLD_START_REPORT && f !== CPU_REPORT)
    .sort();
  if (!files.length) return [];
  const lines = [
    "## Offline evaluation reports",
    "",
    `Copied from \`bench/results/\` (${files.map((f) => `\`${f}\``).join(", ")}); each says the command that produces it.`,
    "",
  ];
  for (const f of files) {
    const text = readFileSync(join(dir, f), "utf8").trim();
    lines.push(...text.split("\n").map((l) => (/^#{1,5} /.test(l) ? `#${l}` : l)), "");
  }
  return lines;
}
