/**
 * Classification benchmark: latency of `standard` mode and of a 10-item bulk request beside the /health
 * baseline, and accuracy through the API on the retail sets: bench/data/classify-eval.tsv (197 retail titles
 * over 54 chapters, used while building the vocabulary) and classify-holdout.tsv (69 titles written afterwards
 * and never tuned on). The ruling-grade splits are measured offline (bench/classify-eval.mjs): the Worker's
 * precedents (data/hs/rulings.tsv) include their rulings, which would vote for their own items here, while the
 * offline run leaves each evaluated file's rulings out. The `ai` and `image` modes need Workers AI, which
 * `wrangler dev` does not bind here, so they are not measured.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const area = "classify";

const here = dirname(fileURLToPath(import.meta.url));
const readSet = (name) =>
  readFileSync(join(here, "..", "data", `${name}.tsv`), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const [description, code] = l.split("\t");
      const digits = code.replace(/\D/g, "");
      return { description, hs6: digits.slice(0, 6), code: digits };
    });

export function requests() {
  return [
    {
      label: "POST /classify (standard, US, one title)",
      method: "POST",
      path: "/admin/api/v1/classify",
      body: { description: "Men's cotton crew neck t-shirt", destination_country: "US" },
    },
    {
      label: "POST /classify (standard, DE → EU schedule, longer text)",
      method: "POST",
      path: "/admin/api/v1/classify",
      body: {
        description:
          "Wireless noise cancelling over-ear headphones with microphone, 40h battery, foldable, carrying case included",
        destination_country: "DE",
      },
    },
    {
      label: "POST /classify/bulk (10 titles, US)",
      method: "POST",
      path: "/admin/api/v1/classify/bulk",
      body: {
        items: [
          "Men's cotton crew neck t-shirt",
          "Stainless steel chef's knife",
          "Leather wallet",
          "Ceramic coffee mug",
          "Wooden dining table",
          "Wireless bluetooth headphones",
          "Women's running shoes",
          "Plastic storage box with lid",
          "Glass perfume bottle",
          "Kids' plush teddy bear",
        ].map((description, i) => ({ ref: `sku-${i}`, description, destination_country: "US" })),
      },
    },
  ];
}

const pct = (n, d) => `${((100 * n) / d).toFixed(1)} %`;

export async function report({ call }) {
  const out = ["### Classification accuracy (POST /classify, destination US, mode standard)", ""];
  out.push(
    "| set | items | chapters | top-1 @4 | top-5 @4 | top-1 @6 | top-5 @6 | unclassifiable |",
    "|---|---|---|---|---|---|---|---|",
  );
  const reliability = {};
  for (const name of ["classify-eval", "classify-holdout"]) {
    const items = readSet(name);
    let t1h4 = 0,
      t1h6 = 0,
      t5h4 = 0,
      t5h6 = 0,
      un = 0;
    for (const { description, hs6 } of items) {
      const { status, json } = await call("POST", "/admin/api/v1/classify", { description, destination_country: "US" });
      if (status !== 200) {
        un++;
        continue;
      }
      const codes = json.results.map((r) => r.subheading.number);
      const ok4 = codes[0]?.slice(0, 4) === hs6.slice(0, 4);
      if (ok4) t1h4++;
      if (codes[0] === hs6) t1h6++;
      if (codes.some((c) => c.slice(0, 4) === hs6.slice(0, 4))) t5h4++;
      if (codes.includes(hs6)) t5h6++;
      const label = json.top_result?.confidence ?? "none";
      reliability[`${name}|${label}`] ??= [0, 0];
      reliability[`${name}|${label}`][0]++;
      if (ok4) reliability[`${name}|${label}`][1]++;
    }
    const n = items.length;
    const chapters = new Set(items.map((i) => i.hs6.slice(0, 2))).size;
    out.push(
      `| ${name} | ${n} | ${chapters} | ${pct(t1h4, n)} | ${pct(t5h4, n)} | ${pct(t1h6, n)} | ${pct(t5h6, n)} | ${un} |`,
    );
  }
  out.push(
    "",
    "Confidence reliability (share of top results right at 4 digits, per label):",
    "",
    "| set | label | results | right @4 |",
    "|---|---|---|---|",
  );
  for (const [key, [n, ok]] of Object.entries(reliability).sort()) {
    const [set, label] = key.split("|");
    out.push(`| ${set} | ${label} | ${n} | ${pct(ok, n)} |`);
  }
  out.push(
    "",
    "Goals: retail (issue 5) top-1 @4 ≥ 70 %, top-5 @6 ≥ 80 %; issue 24: retail top-1 @4 ≥ 88 %, `high` right ≥ 97 %. " +
      "The ruling-grade figures (top-1 @4 ≥ 60 %, top-5 @6 ≥ 65 %, `high` right ≥ 90 %) are measured offline with each " +
      "file's own rulings left out of the precedents' vote: bench/results/classify.md (`node bench/classify-eval.mjs " +
      "<file>`); the full 10-digit line against the rulings' own codes: `node bench/classify-statistical.mjs`. " +
      "`node bench/classify-compare.mjs` compares the BM25F ranker with fuse.js offline.",
  );
  return out.join("\n");
}
