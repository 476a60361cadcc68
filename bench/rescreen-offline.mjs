#!/usr/bin/env node
/**
 * What re-screening 100,000 stored parties after a list change costs in CPU: the Worker's screening engine
 * (src/engines/screen) over the full bundled lists, run on 100,000 party names in the batches the cron uses
 * (PARTIES_PER_RUN). Party names are the innocent names of bench/screen-eval.json recombined (given name of
 * one, surname of another, with company names as they are), plus every 500th a listed name, so the batches
 * carry hits as a real book of parties would.
 *
 * Usage: node --import tsx bench/rescreen-offline.mjs [count]
 * The D1 side (one read of the batch, one write of its marks and alerts) is not measured here; it is the
 * same two round trips per batch whatever the lists hold.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readList } from "../scripts/data/sanctions.mjs";
import { ScreenIndex, screen } from "../src/engines/screen/index.ts";
import { PARTIES_PER_RUN } from "../src/modules/screening/service.ts";
import { sanctionsInput } from "./lib/screen-engine.mjs";

const ROOT = join(import.meta.dirname, "..");
const COUNT = Number(process.argv[2] ?? 100_000);
const input = sanctionsInput(readList);
const listed = input.map((e) => e.name);
let t = performance.now();
const index = ScreenIndex.build(input);
const buildMs = performance.now() - t;

const innocents = JSON.parse(readFileSync(join(ROOT, "bench", "screen-eval.json"), "utf8")).innocents.map(
  (i) => i.query,
);
const people = innocents.filter((q) => q.split(" ").length >= 2);
const parties = [];
for (let i = 0; i < COUNT; i++) {
  if (i % 500 === 0) parties.push({ name: listed[(i * 7919) % listed.length] });
  else {
    const a = people[i % people.length].split(" ");
    const b = people[(i * 31 + 7) % people.length].split(" ");
    parties.push({ name: `${a[0]} ${b[b.length - 1]}` });
  }
}

t = performance.now();
let hits = 0;
const batchMs = [];
for (let i = 0; i < parties.length; i += PARTIES_PER_RUN) {
  const b0 = performance.now();
  for (const p of parties.slice(i, i + PARTIES_PER_RUN))
    hits += screen(index, p).filter((h) => h.score >= 0.85).length ? 1 : 0;
  batchMs.push(performance.now() - b0);
}
const total = performance.now() - t;
batchMs.sort((a, b) => a - b);
const pct = (q) => batchMs[Math.min(batchMs.length - 1, Math.floor(q * batchMs.length))].toFixed(1);
console.log(`index build: ${buildMs.toFixed(0)} ms over ${input.length} entries`);
console.log(
  `${COUNT} parties in ${batchMs.length} batches of ${PARTIES_PER_RUN}: ${total.toFixed(0)} ms engine time ` +
    `(${((1000 * total) / COUNT).toFixed(1)} µs a party); batch p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms; ${hits} parties at 0.85 or more`,
);
