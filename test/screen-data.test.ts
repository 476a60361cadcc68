/** The screening data lifecycle: no list loaded → 503; a reload with a new version replaces the index. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { createDb } from "../src/db/client";
import { currentIndex, VERSION_CHECK_MS } from "../src/modules/screen/service";
import { loadDataset, setup } from "./helpers";

describe("screening data", () => {
  it("503 while no list is loaded; the fixture slice, then the full lists after a reload", async () => {
    resetDatasetCaches();
    const { api } = await setup(["screen:read"]);
    const none = await api("/screen", { method: "POST", json: { name: "Banco Nacional de Cuba" } });
    expect(none.status).toBe(503);
    expect(await none.json()).toMatchObject({ success: false, error: "unavailable" });

    await loadDataset("sanctions", { fixture: true });
    const res = await api("/screen", { method: "POST", json: { name: "Banco Nacional de Cuba" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      searched_lists: string[];
      data_source: { version: string };
      matches: { score: number }[];
    };
    expect(body.searched_lists).toEqual(["SDN", "UN"]);
    expect(body.data_source.version).toMatch(/\+fixture$/);
    expect(body.matches[0]?.score).toBe(1);

    const db = createDb(env.DB);
    const t0 = Date.now() + 60_000;
    const small = await currentIndex(db, t0);
    // Reload (the loader deletes and inserts, and records the new version): picked up after the check interval.
    await loadDataset("sanctions");
    expect((await currentIndex(db, t0 + VERSION_CHECK_MS - 1)).index).toBe(small.index);
    const full = await currentIndex(db, t0 + VERSION_CHECK_MS + 1);
    expect(full.dataSource.version).not.toMatch(/fixture/);
    expect(full.index.entries.length).toBeGreaterThan(17_000);
    expect(small.index.entries.length).toBeLessThan(200);
    const counts = await env.DB.prepare(
      "SELECT list_code, COUNT(*) AS n FROM sanction_entries GROUP BY list_code ORDER BY list_code",
    ).all();
    expect(counts.results).toEqual([
      { list_code: "SDN", n: 16_689 },
      { list_code: "UN", n: 1_000 },
    ]);
    resetDatasetCaches();
  }, 60_000);
});
