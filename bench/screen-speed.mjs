/**
 * The screening engine's time per query in process, this checkout against another (issue 21: a matching rule must
 * not cost the route its latency). Both engines are bundled into one Node process and alternated, twelve rounds of
 * 300 warm queries each, so the machine's load falls on both alike; the best round of each is reported.
 *
 *   node_modules/.bin/node bench/screen-speed.mjs <other checkout>     # e.g. a `git worktree` of the parent commit
 */
import { screenEngine } from "./lib/screen-engine.mjs";

const other = process.argv[2];
if (!other) {
  console.error("usage: node bench/screen-speed.mjs <other checkout>");
  process.exit(2);
}
const engines = [await screenEngine(other), await screenEngine()];
const INPUTS = [
  { name: "Banco Nacional de Cuba" },
  { name: "Victor Manuel Vasquez", company: "Nicolas Trading" },
  { name: "Sergei Ivanovich Petrov" },
  { name: "Juri Wiktorowitsch Iwanow" },
  { name: "Mohammed Ali Hassan" },
];
const ROUNDS = 12;
const RUNS = 300;

console.log("| query | other checkout, ms | this checkout, ms |\n|---|---:|---:|");
for (const input of INPUTS) {
  const best = engines.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < ROUNDS; round++)
    engines.forEach(({ E, index }, k) => {
      for (let i = 0; i < 50; i++) E.screen(index, input);
      const t0 = performance.now();
      for (let i = 0; i < RUNS; i++) E.screen(index, input);
      best[k] = Math.min(best[k], (performance.now() - t0) / RUNS);
    });
  console.log(`| ${JSON.stringify(input)} | ${best[0].toFixed(3)} | ${best[1].toFixed(3)} |`);
}
