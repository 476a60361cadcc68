/**
 * D1 read replication through the Sessions API (src/db/session.ts): every workspace API answer that touched D1
 * carries the session's bookmark; a client sending it back reads at least what that answer saw (its own
 * writes); a malformed bookmark is a 400 that changes nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isBookmark, laterBookmark } from "../src/db/session";
import { sampleConsignment, setup } from "./helpers";

describe("D1 sessions and bookmarks", () => {
  it("hands a bookmark back with a write, and a read started from it sees the write", async () => {
    const { api } = await setup();
    const created = await api("/consignments", { json: sampleConsignment("D1S-1") });
    expect(created.status).toBe(201);
    const bookmark = created.headers.get("X-D1-Bookmark");
    expect(bookmark).toBeTruthy();
    expect(isBookmark(bookmark ?? "")).toBe(true);
    const id = ((await created.json()) as any).data.consignment.id;

    const read = await api(`/consignments/${id}`, { headers: { "X-D1-Bookmark": bookmark ?? "" } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).id).toBe(id);
    // The session never goes back in time: its bookmark is at least the one it started from.
    const after = read.headers.get("X-D1-Bookmark") ?? "";
    expect(after >= (bookmark ?? "")).toBe(true);

    // A read without a bookmark also runs in a session of its own and reports where it read.
    const list = await api("/consignments?limit=1");
    expect(list.status).toBe(200);
    expect(isBookmark(list.headers.get("X-D1-Bookmark") ?? "")).toBe(true);
  });

  it("refuses a malformed bookmark with 400 before anything runs", async () => {
    const { ws, api } = await setup();
    const before = await env.DB.prepare("SELECT count(*) AS n FROM consignments WHERE workspace_id = ?")
      .bind(ws.id)
      .first<{ n: number }>();
    const res = await api("/consignments", {
      json: sampleConsignment("D1S-2"),
      headers: { "X-D1-Bookmark": "not a bookmark'; DROP TABLE consignments" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).message).toContain("X-D1-Bookmark");
    const after = await env.DB.prepare("SELECT count(*) AS n FROM consignments WHERE workspace_id = ?")
      .bind(ws.id)
      .first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("a caller that sends no bookmark starts from the last one this isolate handed it", async () => {
    const { api } = await setup();
    const created = await api("/consignments", { json: sampleConsignment("D1S-3") });
    const written = created.headers.get("X-D1-Bookmark") ?? "";
    const id = ((await created.json()) as any).data.consignment.id;
    const read = await api(`/consignments/${id}`);
    expect(read.status).toBe(200);
    expect((read.headers.get("X-D1-Bookmark") ?? "") >= written).toBe(true);
  });

  it("takes the later of two bookmarks", () => {
    const older = "0000000a-00000002-00004f9d-96a3c8d0b9b6c2b5bd8d5b1fe2a1f9a3";
    const newer = "0000000a-00000003-00000001-16a3c8d0b9b6c2b5bd8d5b1fe2a1f9a3";
    expect(laterBookmark(older, newer)).toBe(newer);
    expect(laterBookmark(newer, older)).toBe(newer);
    expect(laterBookmark(null, older)).toBe(older);
    expect(laterBookmark(older, null)).toBe(older);
    expect(laterBookmark(null, null)).toBeNull();
  });

  it("recognises the bookmarks D1 writes and nothing else", () => {
    expect(isBookmark("0000000a-00000002-00004f9d-96a3c8d0b9b6c2b5bd8d5b1fe2a1f9a3")).toBe(true);
    expect(isBookmark("")).toBe(false);
    expect(isBookmark("first-primary")).toBe(false);
    expect(isBookmark(`${"a".repeat(64)}-${"b".repeat(200)}`)).toBe(false);
  });
});
