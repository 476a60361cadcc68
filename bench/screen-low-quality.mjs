#!/usr/bin/env node
/**
 * Recall on the lists' low-quality aliases: every alias an entry's remarks carry as "Low-quality a.k.a. (exact
 * match only): [...]" (src/lib/low-quality-aliases.ts) is screened as written against the bundled SDN and UN
 * lists, in-process; prints how many find their own entry at 0.7 or more, and how many rank it first.
 *
 *   node bench/screen-low-quality.mjs
 */
import { bundledModule, screenEngine } from "./lib/screen-engine.mjs";

const { lowQualityAliases } = await bundledModule("src/lib/low-quality-aliases.ts");
const { input, screen } = await screenEngine();
let aliases = 0;
let found = 0;
let first = 0;
const missed = [];
for (const e of input)
  for (const alias of lowQualityAliases(e.remarks)) {
    aliases++;
    const hits = screen(alias);
    if (hits.some((h) => h.id === e.id)) found++;
    else missed.push(alias);
    if (hits[0]?.id === e.id) first++;
  }
console.log(`low-quality aliases: ${aliases}; own entry found at >= 0.7: ${found}; ranked first: ${first}`);
console.log(`not found (aliases of generic words alone are not indexed): ${missed.slice(0, 20).join(", ")}`);
