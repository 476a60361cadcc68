/** The shared usage-history listing: keyset pagination both ways, stable under inserts, scoped. */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import { API_PREFIX, createApp } from "../src/app";
import { createDb } from "../src/db/client";
import { usageLog } from "../src/db/schema/index";
import { bearerAuth } from "../src/middleware/auth";
import { usageHistoryRoutes } from "../src/modules/usage/routes";
import { createClient, getToken, insertCustomer, setup } from "./helpers";

// A test app with a history mounted for one kind, as an engine module would.
const app = createApp();
app.use(`${API_PREFIX}/*`, bearerAuth);
app.route(
  API_PREFIX,
  usageHistoryRoutes(
    "screen",
    "screen:read",
    z.object({ id: z.string(), item_count: z.number(), created_at: z.string() }),
    (r) => ({
      id: r.id,
      item_count: r.itemCount,
      created_at: r.createdAt,
    }),
  ),
);

async function get(host: string, token: string, query: string) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://${host}${API_PREFIX}/usage-history/screen${query}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

type Page = { data: { id: string; item_count: number }[]; has_more: boolean };

let clock = Date.parse("2026-01-01T00:00:00Z");
async function insert(workspaceId: string, n: number, customerId: number | null = null) {
  const db = createDb(env.DB);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = uuidv7();
    clock += 1000;
    await db
      .insert(usageLog)
      .values({ id, workspaceId, kind: "screen", itemCount: i, customerId, createdAt: new Date(clock).toISOString() });
    ids.push(id);
  }
  return ids;
}

describe("usage history pagination", () => {
  it("walks older pages with starting_after and newer pages with ending_before, unaffected by new rows", async () => {
    const { ws, token } = await setup();
    const ids = await insert(ws.id, 7); // oldest first
    const newestFirst = [...ids].reverse();

    const p1 = (await (await get(ws.host, token, "?limit=3")).json()) as Page;
    expect(p1.data.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
    expect(p1.has_more).toBe(true);
    await insert(ws.id, 2); // arrive between calls: must not shift the walk
    const p2 = (await (await get(ws.host, token, `?limit=3&starting_after=${p1.data.at(-1)!.id}`)).json()) as Page;
    expect(p2.data.map((r) => r.id)).toEqual(newestFirst.slice(3, 6));
    const p3 = (await (await get(ws.host, token, `?limit=3&starting_after=${p2.data.at(-1)!.id}`)).json()) as Page;
    expect(p3.data.map((r) => r.id)).toEqual(newestFirst.slice(6));
    expect(p3.has_more).toBe(false);

    // Back towards newer rows from the last page: the nearest newer rows, still newest first.
    const back = (await (await get(ws.host, token, `?limit=3&ending_before=${p3.data[0]!.id}`)).json()) as Page;
    expect(back.data.map((r) => r.id)).toEqual(newestFirst.slice(3, 6));
    expect(back.has_more).toBe(true);
    const top = (await (await get(ws.host, token, `?limit=50&ending_before=${p1.data[0]!.id}`)).json()) as Page;
    expect(top.data).toHaveLength(2); // the two rows that arrived meanwhile
    expect(top.has_more).toBe(false);
  });

  it.each([
    ["limit=0", 400],
    ["limit=101", 400],
    ["starting_after=not-a-uuid", 400],
    [`starting_after=${uuidv7()}`, 400],
    [`starting_after=${uuidv7()}&ending_before=${uuidv7()}`, 400],
  ])("%s → %d", async (q, status) => {
    const { ws, token } = await setup();
    expect((await get(ws.host, token, `?${q}`)).status).toBe(status);
  });

  it("never shows another workspace's rows, and a pinned client sees only its customer's", async () => {
    const mine = await setup();
    const theirs = await setup();
    const foreign = await insert(theirs.ws.id, 2);
    const customerId = await insertCustomer(mine.ws);
    await insert(mine.ws.id, 2);
    const own = await insert(mine.ws.id, 1, customerId);
    const all = (await (await get(mine.ws.host, mine.token, "")).json()) as Page;
    expect(all.data).toHaveLength(3);
    expect(all.data.map((r) => r.id)).not.toContain(foreign[0]);
    expect((await get(mine.ws.host, mine.token, `?starting_after=${foreign[0]}`)).status).toBe(400);
    const pinnedToken = await getToken(mine.ws, await createClient(mine.ws, ["screen:read"], customerId));
    const pinned = (await (await get(mine.ws.host, pinnedToken, "")).json()) as Page;
    expect(pinned.data.map((r) => r.id)).toEqual(own);
  });

  it("403 without the kind's scope", async () => {
    const { ws, token } = await setup(["classify:read"]);
    expect((await get(ws.host, token, "")).status).toBe(403);
  });
});
