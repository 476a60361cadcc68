/**
 * In-process timing of the calculate engine (no Worker, no D1): `node bench/landed-timing.mjs [srcDir]`.
 * Bundles src/engines/calculate/engine.ts of the given checkout with esbuild and prices a US quote with the
 * stacking that costs the most (MFN, Section 301, Section 232 on a metal content, Section 122 with its
 * exemptions, MPF and HMF) 20,000 times after a warm-up. Prints µs per calculate and per calcWire.
 */
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const src = resolve(process.argv[2] ?? ".");
const out = join("/tmp", `landed-bench-${process.pid}.mjs`);
const entry = join(src, "src/engines/calculate/bench-entry.ts");

import { rmSync, writeFileSync } from "node:fs";

writeFileSync(entry, 'export { calculate, NO_METAL_ORIGINS } from "./engine";\nexport { calcWire } from "./wire";\n');
try {
  execFileSync(
    join(resolve("."), "node_modules/.bin/esbuild"),
    [entry, "--bundle", "--format=esm", "--platform=node", `--outfile=${out}`, "--log-level=error"],
    {
      env: { ...process.env, NODE_PATH: join(resolve("."), "node_modules") },
    },
  );
} finally {
  rmSync(entry);
}
const { calculate, calcWire, NO_METAL_ORIGINS } = await import(pathToFileURL(out).href);

const input = {
  hsCode: "94032000",
  origin: "CN",
  destination: "US",
  declaredValue: "1000",
  quantity: "2",
  currency: "USD",
  weight: "5",
  weightUnit: "kg",
  shippingCost: "0",
  insuranceCost: "0",
  transportMode: "sea",
  shippingTerms: "FOB",
  channel: null,
  entryDate: "2026-03-02",
  components: [{ material: "aluminum", value: "300" }],
  metalWeightPercentage: null,
  metalOrigins: NO_METAL_ORIGINS,
  manualClaims: [],
  destinationRegion: null,
  volume: null,
  volumeUnit: "l",
};
const m = (code, program, rate, over = {}) => ({
  program,
  code,
  name: code,
  hsPrefix: "",
  origins: null,
  originsExcluded: null,
  rate,
  basis: "value",
  metal: null,
  validFrom: "2018-01-01",
  validTo: null,
  ...over,
});
const fee = (over) => ({
  country: "US",
  code: "MPF",
  name: "MPF",
  rate: "0.003464",
  min: "33.58",
  max: "651.50",
  currency: "USD",
  transportMode: null,
  validFrom: "2025-10-01",
  validTo: "2026-09-30",
  sourceUrl: "",
  note: null,
  exemptPrograms: ["S", "KR"],
  exemptSource: "19 CFR 24.23(c)",
  entryType: "formal",
  ...over,
});
const data = {
  rule: {
    country: "US",
    schedule: "US",
    currency: "USD",
    customsBasis: "FOB",
    vatName: null,
    vatIncludesDuty: false,
    vatIncludesFees: false,
    vatIncludesFreight: false,
    sourceUrl: "",
  },
  currency: "USD",
  lines: [
    {
      schedule: "US",
      code: "94032000",
      validFrom: "2020-01-01",
      validTo: null,
      description: "Metal furniture",
      q1: "NO",
      q2: null,
      currency: "USD",
      mfnText: "Free",
      mfn: [],
      col2Text: "40%",
      col2: [["av", "0.4"]],
      specialText: null,
      special: null,
    },
  ],
  measures: [
    m("9903.88.03", "301", "0.25", { hsPrefix: "94032000", origins: ["CN"] }),
    m("9903.85.08", "232", "0.5", { hsPrefix: "94032000", basis: "content", metal: "aluminum" }),
    m("9903.03.01", "122", "0.1", { validFrom: "2026-02-24", validTo: "2026-07-23" }),
  ],
  exclusions: [
    {
      code: "9903.03.06",
      name: "232 goods",
      appliesTo: "9903.03.01",
      hsPrefix: "",
      kind: "auto_with_232",
      validFrom: "2026-02-24",
      validTo: "2026-07-23",
      origins: null,
      condition: null,
      preference: null,
    },
    {
      code: "9903.03.05",
      name: "Civil aircraft",
      appliesTo: "9903.03.01",
      hsPrefix: "94032000",
      kind: "claim",
      validFrom: "2026-02-24",
      validTo: "2026-07-23",
      origins: null,
      condition: "civil aircraft",
      preference: null,
    },
    {
      code: "9903.85.09",
      name: "US smelt",
      appliesTo: "9903.85.08",
      hsPrefix: "",
      kind: "claim",
      validFrom: "2025-06-04",
      validTo: null,
      origins: null,
      condition: "US smelt",
      preference: null,
    },
  ],
  programs: [],
  vat: null,
  vatRegion: null,
  vatReduced: [],
  deMinimis: [
    {
      country: "US",
      kind: "duty",
      channel: "any",
      origins: null,
      currency: "USD",
      threshold: null,
      basis: "goods",
      validFrom: "2025-08-29",
      validTo: null,
      sourceUrl: "",
      note: null,
    },
  ],
  fees: [
    fee({}),
    fee({ entryType: "informal", rate: "0", flat: "2.69", entryValueMax: "2500", min: null, max: null }),
    fee({
      code: "HMF",
      name: "HMF",
      rate: "0.00125",
      min: null,
      max: null,
      transportMode: "sea",
      exemptPrograms: null,
      entryType: null,
    }),
  ],
  fx: { date: "2026-03-02", perEur: { USD: "1.08" }, source: "ECB" },
};

const N = 20_000;
for (let i = 0; i < 2_000; i++) calcWire(input, calculate(input, data));
let t = process.hrtime.bigint();
let r;
for (let i = 0; i < N; i++) r = calculate(input, data);
const calcUs = Number(process.hrtime.bigint() - t) / 1e3 / N;
t = process.hrtime.bigint();
for (let i = 0; i < N; i++) calcWire(input, r);
const wireUs = Number(process.hrtime.bigint() - t) / 1e3 / N;
rmSync(out);
console.log(
  JSON.stringify({
    src,
    calculate_us: +calcUs.toFixed(2),
    wire_us: +wireUs.toFixed(2),
    total_duty: r.totalDuty.toString(),
    fees: r.totalFees.toString(),
  }),
);
