/**
 * The audit trail in two tiers, simulated: a generator writes 120 days of traffic for two workspaces while the
 * tiering step runs as the cron would (injected clock: "now" moves a day at a time), then the archive and
 * usage-history APIs are read across both tiers and compared with what the generator wrote. Also: a crash
 * between the R2 write and the D1 delete, re-runs, retention over both tiers, and the bytes per request in each.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { UUID } from "uuidv7";
import { beforeAll, describe, expect, it } from "vitest";
import { baseContext } from "../src/core/context";
import { createDb } from "../src/db/client";
import worker from "../src/index";
import { systemIds } from "../src/lib/ids";
import { archiveKey } from "../src/middleware/archive";
import type { StreamManifest } from "../src/modules/audit/cold-format";
import { tierAuditTrail } from "../src/modules/audit/tiers";
import { type Entry, writeEntries } from "../src/modules/audit/writer";
import { requestToWire } from "../src/modules/requests/service";
import { ADMIN_TOKEN, call, setup } from "./helpers";

const DAY = 86_400_000;
const NOW = Date.now(); // the readers run on the system clock (tokens too); the generator and the cron go back
const START = Math.floor((NOW - 120 * DAY) / DAY) * DAY;
const ROUTE = "/admin/api/v1/restrict/check";

type Sim = Awaited<ReturnType<typeof setup>>;
type Truth = { entry: Entry; refs: { ref_type: string; ref_value: string }[]; ms: number };

let seed = 42;
const rand = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};

/** One simulated restrict check: audit row, one ref, a usage row, and its archived body in R2. */
async function request(ws: Sim["ws"], ms: number, n: number): Promise<Truth> {
  const id = UUID.fromFieldsV7(ms, rand(4096), rand(2 ** 30), rand(2 ** 31)).toString();
  const failed = n % 7 === 3;
  const body = JSON.stringify({ shipment_ref: `SHP-${ws.slug}-${n}`, items: [{ hs_code: "610910", origin: "VN" }] });
  const bodyKey = archiveKey(ws.id, ms, id);
  await env.ARCHIVE.put(bodyKey, body, { httpMetadata: { contentType: "application/json" } });
  const createdAt = new Date(ms).toISOString();
  const refs = [{ ref_type: "shipment_ref", ref_value: `SHP-${ws.slug}-${n}` }];
  const entry: Entry = {
    row: {
      id,
      workspaceId: ws.id,
      surface: "admin-api",
      route: ROUTE,
      path: ROUTE,
      method: "POST",
      source: "http",
      actor: "ci_wMlPsg4Mt8JsASxoG9PLpw",
      customerId: null,
      httpStatus: failed ? 422 : 200,
      outcome: failed ? "failed" : "completed",
      durationMs: 5 + rand(40),
      hasBody: true,
      bodyKey,
      bodyContentType: "application/json",
      bodySize: body.length,
      errorSummary: failed ? "items[0].hs_code: must be 6-10 digits" : null,
      createdAt,
    },
    usage: {
      id,
      workspaceId: ws.id,
      kind: "restrict",
      customerId: null,
      actor: "ci_wMlPsg4Mt8JsASxoG9PLpw",
      senderCountryCode: "VN",
      receiverCountryCode: "US",
      itemCount: 1,
      matchCount: n % 3,
      durationMs: 5 + rand(40),
      detail: JSON.stringify({
        direction: "import",
        items: [{ hs_code: "610910", description: "Cotton T-shirts, knitted", origin: "VN", matches: n % 3 }],
        rules: ["us-cbp-uflpa-cotton", "us-301-list-4a"],
        data_source: { version: "2026-11-01", source: "platform restriction rules", imported_at: createdAt },
      }),
      createdAt,
    },
    refs: async () => refs,
  };
  return { entry, refs, ms };
}

const d1Size = async () => (await env.DB.prepare("SELECT 1").run()).meta.size_after;
const hotCount = async (ids: string[]) =>
  (await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM request_audit WHERE route = ? AND workspace_id IN (SELECT value FROM json_each(?))",
  )
    .bind(ROUTE, JSON.stringify(ids))
    .first<{ n: number }>())!.n;

/** Runs the tiering step as repeated cron invocations at `asOfMs` until nothing is left to move. */
async function tierUntilDone(asOfMs: number) {
  const ctx = baseContext(env, { clock: { now: () => asOfMs }, ids: systemIds });
  let parts = 0;
  for (;;) {
    const r = await tierAuditTrail({ ctx, input: { asOfMs } });
    if (!r.parts) return parts;
    parts += r.parts;
  }
}

async function coldManifests(prefix: string): Promise<StreamManifest[]> {
  const out: StreamManifest[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.ARCHIVE.list({ prefix, cursor });
    for (const o of page.objects)
      if (/workspace=[^/]+\/(kind=[^/]+\/)?manifest\.json$/.test(o.key))
        out.push((await (await env.ARCHIVE.get(o.key))!.json()) as StreamManifest);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out;
}

async function allColdKeys() {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.ARCHIVE.list({ prefix: "audit-cold/", cursor });
    keys.push(...page.objects.map((o) => `${o.key}@${o.etag}`));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

type ListPage = { requests: { id: string }[]; has_more: boolean; next_starting_after: string | null };

/** Walks GET /requests to the end with the cursor the API hands back. */
async function walkRequests(s: Sim, query: string) {
  const ids: string[] = [];
  let after: string | null = null;
  for (let calls = 0; calls < 200; calls++) {
    const res = await s.api(`/requests?limit=100&${query}${after ? `&starting_after=${after}` : ""}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as ListPage;
    ids.push(...page.requests.map((r) => r.id));
    if (!page.has_more) return ids;
    after = page.next_starting_after;
    expect(after).not.toBeNull();
  }
  throw new Error("walk did not end");
}

async function walkUsage(s: Sim) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let calls = 0; calls < 200; calls++) {
    const res = await s.api(`/usage-history/restrict?limit=100${after ? `&starting_after=${after}` : ""}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: { id: string }[]; has_more: boolean };
    ids.push(...page.data.map((r) => r.id));
    if (!page.has_more) return ids;
    after = page.data.at(-1)!.id;
  }
  throw new Error("walk did not end");
}

const newestFirst = (t: Truth[]) => [...t].sort((a, b) => (a.entry.row.id < b.entry.row.id ? 1 : -1));

describe("audit trail tiers (120 simulated days, two workspaces)", () => {
  let a: Sim;
  let b: Sim;
  const truth = new Map<string, Truth[]>();
  const counts: number[] = [];
  const report: Record<string, number> = {};

  beforeAll(async () => {
    a = await setup();
    b = await setup();
    // The workspaces existed before the simulated traffic (the readers skip the cold tier for younger ones).
    for (const s of [a, b]) {
      await env.DB.prepare("UPDATE workspaces SET created_at = ? WHERE id = ?")
        .bind(new Date(START - DAY).toISOString(), s.ws.id)
        .run();
      // Any PATCH drops the isolate's cached workspace, so the new created_at is read.
      await call(`/platform/v1/workspaces/${s.ws.slug}`, {
        method: "PATCH",
        token: ADMIN_TOKEN,
        json: { name: "Sim" },
      });
      truth.set(s.ws.id, []);
    }
    const db = createDb(env.DB);
    const perDay = new Map([
      [a.ws.id, 8],
      [b.ws.id, 4],
    ]);
    const sizeBefore = await d1Size();
    let requestsBefore = 0;
    for (let d = 0; d < 120; d++) {
      const entries: Entry[] = [];
      for (const s of [a, b]) {
        const n = perDay.get(s.ws.id)!;
        for (let k = 0; k < n; k++) {
          const ms = START + d * DAY + Math.floor((k * DAY) / n) + rand(60_000);
          const t = await request(s.ws, ms, d * 100 + k);
          truth.get(s.ws.id)!.push(t);
          entries.push(t.entry);
        }
      }
      await writeEntries(db, entries);
      if (d === 27) {
        requestsBefore = 28 * 12;
        report.d1_bytes_per_request = Math.round(((await d1Size()) - sizeBefore) / requestsBefore);
      }
      // The cron, as of the end of the simulated day; held two days short of now for the crash test below.
      await tierUntilDone(Math.min(START + (d + 1) * DAY, NOW - 2 * DAY));
      counts.push(await hotCount([a.ws.id, b.ws.id]));
    }
  }, 300_000);

  it("D1 holds a flat hot window once the window has filled", () => {
    const steady = counts.slice(40);
    console.log(`hot audit rows per simulated day (both workspaces): ${counts.join(",")}`);
    expect(Math.max(...steady) - Math.min(...steady)).toBeLessThanOrEqual(12 * 3);
    expect(Math.max(...steady)).toBeLessThanOrEqual(12 * 33);
    expect(counts[119]).toBeLessThan(120 * 12);
  });

  it("measures bytes per request in each tier", async () => {
    let rows = 0;
    let bytes = 0;
    let ndjson = 0;
    for (const m of await coldManifests("audit-cold/v1/")) {
      for (const d of m.days) {
        const day = (await (await env.ARCHIVE.get(
          `audit-cold/v1/${m.table}/workspace=${m.workspace_id}/${m.kind ? `kind=${m.kind}/` : ""}day=${d.day}/manifest.json`,
        ))!.json()) as { parts: { rows: number; bytes: number; ndjson_bytes: number }[] };
        for (const p of day.parts) {
          if (m.table === "request_audit") rows += p.rows;
          bytes += p.bytes;
          ndjson += p.ndjson_bytes;
        }
      }
    }
    report.cold_requests = rows;
    report.r2_gz_bytes_per_request = Math.round(bytes / rows);
    report.r2_ndjson_bytes_per_request = Math.round(ndjson / rows);
    console.log(`bytes per request: ${JSON.stringify(report)}`);
    expect(rows).toBeGreaterThan(80 * 12);
    expect(report.r2_gz_bytes_per_request).toBeLessThan(report.d1_bytes_per_request!);
  });

  it("cold lookups by id answer as D1 did, with refs and bodies", async () => {
    for (const s of [a, b]) {
      const all = truth.get(s.ws.id)!;
      for (const i of [0, 1, 7, all.length / 2, all.length - 1]) {
        const t = all[Math.floor(i)]!;
        const res = await s.api(`/requests/${t.entry.row.id}`);
        expect(res.status).toBe(200);
        const got = (await res.json()) as { request: unknown; refs: unknown };
        expect(got.request).toEqual(requestToWire({ ...t.entry.row, workspaceId: s.ws.id } as never));
        expect(got.refs).toEqual(t.refs);
      }
      const body = await s.api(`/requests/${all[3]!.entry.row.id}/body`);
      expect(await body.text()).toContain(`SHP-${s.ws.slug}-3`);
    }
    // Another workspace's cold request is a 404, as a hot one is.
    expect((await a.api(`/requests/${truth.get(b.ws.id)![0]!.entry.row.id}`)).status).toBe(404);
  });

  it("cold lists walk both tiers newest first, in pages bounded by the cold read budget", async () => {
    for (const s of [a, b]) {
      const expected = newestFirst(truth.get(s.ws.id)!).map((t) => t.entry.row.id);
      expect(await walkRequests(s, `path_prefix=${ROUTE}`)).toEqual(expected);
      const failed = newestFirst(truth.get(s.ws.id)!)
        .filter((t) => t.entry.row.outcome === "failed")
        .map((t) => t.entry.row.id);
      expect(await walkRequests(s, `path_prefix=${ROUTE}&outcome=failed`)).toEqual(failed);
      // A sparse filter: the one request with this ref, 100 days back.
      const needle = truth.get(s.ws.id)![20 * (s === a ? 8 : 4)]!;
      expect(await walkRequests(s, `ref=${needle.refs[0]!.ref_value}`)).toEqual([needle.entry.row.id]);
    }
  });

  it("usage history walks both tiers in (created_at, id) order, both ways", async () => {
    const expected = [...truth.get(a.ws.id)!]
      .sort((x, y) =>
        `${x.entry.row.createdAt} ${x.entry.row.id}` < `${y.entry.row.createdAt} ${y.entry.row.id}` ? 1 : -1,
      )
      .map((t) => t.entry.row.id);
    expect(await walkUsage(a)).toEqual(expected);
    // Back towards newer rows from a cold cursor.
    const res = await a.api(`/usage-history/restrict?limit=5&ending_before=${expected[600]}`);
    expect(((await res.json()) as { data: { id: string }[] }).data.map((r) => r.id)).toEqual(expected.slice(595, 600));
  });

  it("a crash between the R2 write and the D1 delete leaves readers correct; the re-run completes it once", async () => {
    const ctx = baseContext(env, { clock: { now: () => NOW }, ids: systemIds });
    await expect(tierAuditTrail({ ctx, input: { asOfMs: NOW, crashBeforeDelete: true } })).rejects.toThrow(/crash/);
    const expected = newestFirst(truth.get(a.ws.id)!).map((t) => t.entry.row.id);
    const both = newestFirst(truth.get(a.ws.id)!).filter((t) => t.ms < NOW - 30 * DAY && t.ms >= NOW - 33 * DAY)[0]!;
    expect((await a.api(`/requests/${both.entry.row.id}`)).status).toBe(200);
    expect(await walkRequests(a, `path_prefix=${ROUTE}`)).toEqual(expected);
    expect(await walkUsage(a)).toHaveLength(expected.length);

    await tierUntilDone(NOW);
    const before = await allColdKeys();
    expect(await walkRequests(a, `path_prefix=${ROUTE}`)).toEqual(expected);
    const hotLeft = await hotCount([a.ws.id]);
    expect(hotLeft).toBe(truth.get(a.ws.id)!.filter((t) => t.ms >= NOW - 30 * DAY).length);
    // Idempotent: nothing left to move, nothing rewritten.
    expect(await tierUntilDone(NOW)).toBe(0);
    expect(await allColdKeys()).toEqual(before);
    // No row twice in the cold tier.
    const [manifest] = await coldManifests(`audit-cold/v1/request_audit/workspace=${a.ws.id}/`);
    const coldRows = manifest!.days.reduce((n, d) => n + d.rows, 0);
    expect(coldRows + hotLeft).toBe(truth.get(a.ws.id)!.length);
  });

  it("retention deletes both tiers: whole cold partitions, their bodies, and D1 rows", async () => {
    const patched = await call(`/platform/v1/workspaces/${a.ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { archive_retention_days: 60 },
    });
    expect(patched.status).toBe(200);
    const bCold = await coldManifests(`audit-cold/v1/request_audit/workspace=${b.ws.id}/`);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: NOW, cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const cutoff = NOW - 60 * DAY;
    const kept = newestFirst(truth.get(a.ws.id)!).filter((t) => t.ms >= Math.floor(cutoff / DAY) * DAY);
    const walked = await walkRequests(a, `path_prefix=${ROUTE}`);
    expect(walked).toEqual(kept.map((t) => t.entry.row.id));
    const gone = truth.get(a.ws.id)![0]!;
    expect((await a.api(`/requests/${gone.entry.row.id}`)).status).toBe(404);
    expect(await env.ARCHIVE.head(gone.entry.row.bodyKey!)).toBeNull();
    expect(await walkUsage(a)).toHaveLength(kept.length);
    const [manifest] = await coldManifests(`audit-cold/v1/request_audit/workspace=${a.ws.id}/`);
    expect(manifest!.days.every((d) => Date.parse(`${d.day}T00:00:00Z`) + DAY > cutoff)).toBe(true);
    const runs = (await (await a.api("/requests?source=internal&path_prefix=job:archive-retention")).json()) as {
      requests: { id: string }[];
    };
    const body = await (await a.api(`/requests/${runs.requests[0]!.id}/body`)).json();
    expect(body).toMatchObject({ job: "archive-retention", purged_requests: 60 * 8 });
    expect((body as { purged_cold_partitions: number }).purged_cold_partitions).toBeGreaterThan(60);
    // The other workspace keeps its default retention: untouched.
    expect(await coldManifests(`audit-cold/v1/request_audit/workspace=${b.ws.id}/`)).toEqual(bCold);
  });
});
