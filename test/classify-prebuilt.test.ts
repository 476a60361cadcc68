/**
 * The classification index stored in R2 (core/prebuilt-index.ts): the first isolate that builds a dataset
 * version stores it, a new isolate answers from it without the rows in D1, and an object it cannot trust
 * (damaged, another dataset version) is ignored, rebuilt from D1 and replaced. A new isolate is simulated by
 * forgetting this isolate's dataset caches.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { prebuiltIndexKey, prebuiltPartKey } from "../src/core/prebuilt-index";
import { attachPart, deserializeIndexes, serializeIndexes } from "../src/engines/classify/snapshot";
import { loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("hs", { fixture: true });
}, 60_000);

const BODY = { description: "Men's cotton crew neck t-shirt", destination_country: "US" };

type Answer = {
  data_source: { version: string; imported_at: string };
  results: unknown[];
  rulings?: unknown;
};

async function classify(body: object = BODY): Promise<Answer> {
  const { api } = await setup();
  const res = await api("/classify", { json: body });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const versionKey = (a: Answer) => `${a.data_source.version}@${a.data_source.imported_at}`;

/** The stored object once the background write has landed and it decodes for `key` (the write is not awaited). */
async function storedIndex(key: string) {
  for (let i = 0; i < 100; i++) {
    const object = await env.ARCHIVE.get(prebuiltIndexKey("hs", key));
    if (object) {
      const decoded = deserializeIndexes(await object.arrayBuffer(), key);
      if (!("refused" in decoded)) return decoded;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no valid index stored for ${key}`);
}

describe("prebuilt classification index in R2", () => {
  let first: Answer;

  it("is stored by the isolate that built it from D1", async () => {
    resetDatasetCaches();
    first = await classify();
    expect(first.results.length).toBeGreaterThan(0);
    const stored = await storedIndex(versionKey(first));
    expect(stored.index.stats.subheadings).toBeGreaterThan(0);
    // Each schedule's lines and the statistical lines beside it, stored before it.
    expect(stored.parts).toEqual(expect.arrayContaining(["lines-US", "lines-GB", "stat"]));
    for (const part of stored.parts) {
      const object = await env.ARCHIVE.get(prebuiltPartKey("hs", versionKey(first), part));
      expect(object, part).not.toBeNull();
      expect(attachPart(stored, part, await (object as R2ObjectBody).arrayBuffer(), versionKey(first))).toBeNull();
    }
  });

  it("answers a new isolate from the dataset's current objects, read before the version is known", async () => {
    const key = versionKey(first);
    await storedIndex(key);
    const current = await env.ARCHIVE.get(prebuiltIndexKey("hs", "current"));
    expect(current && deserializeIndexes(await current.arrayBuffer(), key)).not.toHaveProperty("refused");
    // Only the current objects left: the same answer.
    const versioned = await env.ARCHIVE.get(prebuiltIndexKey("hs", key));
    await env.ARCHIVE.delete(prebuiltIndexKey("hs", key));
    resetDatasetCaches();
    expect((await classify()).results).toEqual(first.results);
    // A current object of another version is ignored for this version's objects.
    await env.ARCHIVE.put(prebuiltIndexKey("hs", key), await (versioned as R2ObjectBody).arrayBuffer());
    const other = deserializeIndexes(await (await env.ARCHIVE.get(prebuiltIndexKey("hs", key)))!.arrayBuffer(), key);
    if ("refused" in other) throw new Error(other.refused);
    await env.ARCHIVE.put(
      prebuiltIndexKey("hs", "current"),
      serializeIndexes(other, "hs-other@2020-01-01T00:00:00.000Z"),
    );
    resetDatasetCaches();
    expect((await classify()).results).toEqual(first.results);
  });

  it("rebuilds a damaged part from D1, answers the same and replaces the part", async () => {
    const key = prebuiltPartKey("hs", versionKey(first), "lines-US");
    await env.ARCHIVE.put(key, new Uint8Array([9, 9, 9]));
    await env.ARCHIVE.put(prebuiltPartKey("hs", "current", "lines-US"), new Uint8Array([9, 9, 9]));
    resetDatasetCaches();
    const again = await classify();
    expect(again.results).toEqual(first.results);
    for (let i = 0; i < 100; i++) {
      const object = await env.ARCHIVE.get(key);
      if (object && (await object.arrayBuffer()).byteLength > 3) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the damaged part was not replaced");
  });

  it.each([
    ["a damaged object", () => new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])],
    [
      "an index stamped with another dataset version",
      async () => serializeIndexes(await storedIndex(versionKey(first)), "hs-other@2020-01-01T00:00:00.000Z"),
    ],
  ])("ignores %s: builds from D1, answers the same and replaces it", async (_, object) => {
    const key = versionKey(first);
    // Under its version and as the current object, which a new isolate reads first.
    const bytes = await object();
    for (const k of [key, "current"]) await env.ARCHIVE.put(prebuiltIndexKey("hs", k), bytes);
    resetDatasetCaches();
    const again = await classify();
    expect(again.results).toEqual(first.results);
    expect(again.rulings).toEqual(first.rulings);
    await storedIndex(key);
  });

  it("answers a new isolate from R2 alone, identically, with the hs rows gone from D1", async () => {
    await storedIndex(versionKey(first));
    await env.DB.batch(
      ["hs_nomenclature", "hs_tariff_lines", "hs_synonyms", "hs_rulings"].map((t) =>
        env.DB.prepare(`DELETE FROM ${t}`),
      ),
    );
    resetDatasetCaches();
    const fromR2 = await classify();
    expect(fromR2.results).toEqual(first.results);
    expect(fromR2.rulings).toEqual(first.rulings);
    // Another schedule's lines are read when a request first needs them.
    const gb = await classify({ ...BODY, destination_country: "GB" });
    // National (UK) codes, which only the lines-GB part holds once the rows are gone from D1.
    expect((gb.results[0] as { code: string }).code.length).toBeGreaterThan(6);
  });
});
