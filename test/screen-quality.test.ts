/**
 * Screening quality floors over bench/screen-eval.json (built by scripts/build/screen-eval.mjs): true
 * variants of listed names must be found at ≥ 0.7, innocent names must not be. The index is the one the
 * Worker builds from D1; a sample also goes through POST /screen to tie the figures to the route.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import hanziInnocents from "../bench/data/screen-hanzi-innocents.txt?raw";
import hanziListed from "../bench/data/screen-hanzi-listed.tsv?raw";
import evalSet from "../bench/screen-eval.json";
import world from "../bench/screen-world.json";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { createDb } from "../src/db/client";
import { screen } from "../src/engines/screen/index";
import { currentIndex } from "../src/modules/screen/service";
import { loadDataset, setup } from "./helpers";

/** Floors the current engine meets (measured: recall 99.5 %, false positives 0.6 %; see the README, Screen). */
const MIN_RECALL = 0.98;
const MAX_FALSE_POSITIVE_RATE = 0.015;

beforeAll(async () => {
  resetDatasetCaches();
  await loadDataset("sanctions");
}, 60_000);

describe("screening quality", () => {
  it("has at least 300 true variants and 300 innocents", () => {
    expect(evalSet.true_variants.length).toBeGreaterThanOrEqual(300);
    expect(evalSet.innocents.length).toBeGreaterThanOrEqual(300);
  });

  it(`recall at 0.7 ≥ ${MIN_RECALL * 100} % and false positives ≤ ${MAX_FALSE_POSITIVE_RATE * 100} %`, async () => {
    const { index } = await currentIndex(createDb(env.DB), Date.now());
    const found = evalSet.true_variants.filter((v) =>
      screen(index, { name: v.query }).some((h) => index.entries[h.entry]!.id === v.expect),
    );
    const flagged = evalSet.innocents.filter((v) => screen(index, { name: v.query }).length > 0);
    const recall = found.length / evalSet.true_variants.length;
    const fpRate = flagged.length / evalSet.innocents.length;
    expect(recall).toBeGreaterThanOrEqual(MIN_RECALL);
    expect(fpRate).toBeLessThanOrEqual(MAX_FALSE_POSITIVE_RATE);
  });

  // Recall per variant type on the test split of bench/screen-world.json (never tuned on), each floor a little
  // under the figure measured by bench/screen-world.mjs (bench/results/screen.md), so a regression fails here.
  const FLOORS: Record<string, number> = {
    alias: 0.99,
    original_script: 0.99,
    cross_script: 0.99,
    legal_form: 0.98,
    initials: 0.97,
    // 0.959 measured: queries made of a common first name and surname only ("Ahmed ALI") are discounted like
    // the innocent namesakes they cannot be told from (bench/results/screen-names.md).
    missing_middle: 0.94,
    // 0.983 measured: a first given name in another romanization the lists give for that name elsewhere.
    translit_variant: 0.97,
    // 1.0 measured for each: a Russian name as ICAO 9303 (Russian passports), the German and the French
    // transcriptions write it (the last two read as the whole name's transcription).
    icao_romanization: 0.99,
    german_romanization: 0.98,
    french_romanization: 0.98,
    vessel_imo: 0.99,
    imo_only: 0.99,
  };
  it("recall per variant type on the test split holds its floor", async () => {
    const { index } = await currentIndex(createDb(env.DB), Date.now());
    const byKind = new Map<string, { n: number; found: number }>();
    for (const it of world.items.filter((x) => x.split === "test")) {
      const k = byKind.get(it.kind) ?? { n: 0, found: 0 };
      k.n++;
      if (screen(index, { name: it.query }).some((h) => index.entries[h.entry]!.id === it.expect)) k.found++;
      byKind.set(it.kind, k);
    }
    expect([...byKind.keys()].sort()).toEqual(Object.keys(FLOORS).sort());
    for (const [kind, { n, found }] of byKind) expect(found / n, kind).toBeGreaterThanOrEqual(FLOORS[kind] as number);
  });

  // bench/screen-hanzi.mjs: North Korean persons in the Chinese characters Chinese-language pages write them in (43
  // of 45 found; the two misses are Taiwanese and Hong Kong names the list writes in Wade-Giles and Cantonese), and
  // innocent Chinese names (0.4 % flagged: two Korean-reading namesakes, two partial company names).
  it("names in Chinese characters: listed Korean persons found, innocent Chinese names not flagged", async () => {
    const { index } = await currentIndex(createDb(env.DB), Date.now());
    const listed = hanziListed
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("#"))
      .slice(1)
      .map((l) => l.split("\t"));
    const found = listed.filter(([id, , hanzi]) =>
      screen(index, { name: hanzi as string }).some((h) => index.entries[h.entry]!.id === id),
    );
    expect(found.length / listed.length).toBeGreaterThanOrEqual(0.93);
    const innocents = hanziInnocents.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
    const flagged = innocents.filter((name) => screen(index, { name }).length > 0);
    expect(innocents.length).toBe(1000);
    expect(flagged.length / innocents.length).toBeLessThanOrEqual(0.006);
  });

  it("an Arabic-script name finds the listed Latin spelling by its consonants, through the route", async () => {
    const { api } = await setup(["screen:read"]);
    const res = await api("/screen", { method: "POST", json: { name: "قاسم سليماني" } });
    expect(res.status).toBe(200);
    const json = (await res.json()) as {
      matches: {
        list_code: string;
        score: number;
        entry: { source_ref: string };
        explanation: { matched: { query: string; listed: string }[]; features: string[] };
      }[];
    };
    const sdn = json.matches.find((m) => `${m.list_code}:${m.entry.source_ref}` === "SDN:10481");
    expect(sdn?.score).toBe(0.8);
    expect(sdn?.explanation.features).toEqual(["transliteration"]);
    expect(sdn?.explanation.matched.map((m) => [m.query, m.listed])).toEqual([
      ["قاسم", "qasem"],
      ["سليماني", "soleimani"],
    ]);
  });

  it("the route agrees with the engine on a sample", async () => {
    const { api } = await setup(["screen:read"]);
    for (const v of evalSet.true_variants.filter((_, i) => i % 40 === 0)) {
      const res = await api("/screen", { method: "POST", json: { name: v.query } });
      const json = (await res.json()) as { matches: { list_code: string; entry: { source_ref: string } }[] };
      expect(json.matches.map((m) => `${m.list_code}:${m.entry.source_ref}`)).toContain(v.expect);
    }
  });
});
