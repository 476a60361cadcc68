/**
 * The screening index stored in R2 (core/prebuilt-index.ts, engines/screen/snapshot.ts): the isolate that
 * builds a list version from D1 stores it, a new isolate restores it instead of reading and normalizing every
 * entry again, and an object it cannot trust (damaged, another version) is ignored, rebuilt and replaced. A
 * new isolate is simulated by forgetting this isolate's dataset caches.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { prebuiltIndexKey } from "../src/core/prebuilt-index";
import { ScreenIndex } from "../src/engines/screen/index";
import { deserializeScreenIndex, serializeScreenIndex } from "../src/engines/screen/snapshot";
import { loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("sanctions", { fixture: true });
}, 60_000);

type Match = { score: number; list_code: string; matched_name: string; entry: { source_ref: string; name: string } };
type Answer = { matches: Match[]; data_source: { version: string; imported_at: string } };

async function screen(name = "Banco Nacional de Cuba"): Promise<Answer> {
  const { api } = await setup(["screen:read"]);
  const res = await api("/screen", { method: "POST", json: { name } });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const versionKey = (a: Answer) => `${a.data_source.version}@${a.data_source.imported_at}`;

/** The stored object once the background write has landed and it decodes for `key`. */
async function stored(key: string) {
  for (let i = 0; i < 100; i++) {
    const object = await env.ARCHIVE.get(prebuiltIndexKey("sanctions", key));
    if (object) {
      const decoded = deserializeScreenIndex(await object.arrayBuffer(), key);
      if (!("refused" in decoded)) return decoded;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no valid screening index stored for ${key}`);
}

describe("prebuilt screening index in R2", () => {
  let first: Answer;

  it("is stored by the isolate that built it from D1, with the lists it was read with", async () => {
    resetDatasetCaches();
    first = await screen();
    expect(first.matches.find((m) => m.entry.source_ref === "306")).toMatchObject({ score: 1 });
    const object = await stored(versionKey(first));
    expect(object.index.nameCount).toBeGreaterThan(first.matches.length);
    expect(object.extra).toMatchObject({ dataSource: { version: first.data_source.version } });
  });

  it.each([
    ["a damaged object", () => new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])],
    [
      "an index stamped with another version",
      async () => serializeScreenIndex(ScreenIndex.build([]), {}, "SDN-other.UN-other@2020-01-01T00:00:00.000Z"),
    ],
  ])("ignores %s: builds from D1, answers the same and replaces it", async (_, object) => {
    const key = versionKey(first);
    // Under its version and as the current object, which a new isolate reads first.
    const bytes = await object();
    for (const k of [key, "current"]) await env.ARCHIVE.put(prebuiltIndexKey("sanctions", k), bytes);
    resetDatasetCaches();
    const again = await screen();
    expect(again.matches).toEqual(first.matches);
    await stored(key);
  });

  it("answers a new isolate from the stored index, not from the entries in D1", async () => {
    await stored(versionKey(first));
    // The entry renamed in D1 under the same version: only an index restored from R2 still finds the old name.
    await env.DB.prepare(
      "UPDATE sanction_entries SET name = 'ZZZ RENAMED', alt_names = '[]' WHERE list_code = 'SDN' AND source_ref = '306'",
    ).run();
    resetDatasetCaches();
    const fromR2 = await screen();
    const hit = fromR2.matches.find((m) => m.entry.source_ref === "306");
    expect(hit).toMatchObject({ score: 1, matched_name: "BANCO NACIONAL DE CUBA" });
    // The same from the dataset's current object alone, which a new isolate reads while it asks D1 for the
    // version: the versioned object removed.
    const current = await env.ARCHIVE.get(prebuiltIndexKey("sanctions", "current"));
    expect(current).not.toBeNull();
    await env.ARCHIVE.delete(prebuiltIndexKey("sanctions", versionKey(first)));
    resetDatasetCaches();
    const fromCurrent = await screen();
    expect(fromCurrent.matches.find((m) => m.entry.source_ref === "306")).toMatchObject({ score: 1 });
    // A current object of another version is not used: with no object of this version, the isolate rebuilds
    // from D1 (which no longer finds the old name).
    await env.ARCHIVE.put(
      prebuiltIndexKey("sanctions", "current"),
      serializeScreenIndex(ScreenIndex.build([]), {}, "SDN-other.UN-other@2020-01-01T00:00:00.000Z"),
    );
    resetDatasetCaches();
    const rebuilt = await screen();
    expect(rebuilt.matches.find((m) => m.entry.source_ref === "306")).toBeUndefined();
  });
});
