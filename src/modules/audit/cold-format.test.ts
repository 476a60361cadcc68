/** The cold tier's pure pieces: UUIDv7 time, partition names, NDJSON and gzip round trips, manifest merges. */
import { UUID } from "uuidv7";
import { describe, expect, it } from "vitest";
import { requestAudit } from "../../db/schema/index";
import {
  type DayManifest,
  dayEndMs,
  daySummary,
  decodeNdjson,
  encodeNdjson,
  fromRecord,
  gunzip,
  gzip,
  hotWindowDays,
  manifestKey,
  type PartEntry,
  partKey,
  streamPrefix,
  toRecord,
  utcDay,
  uuidv7Floor,
  uuidv7Ms,
  withPart,
} from "./cold-format";

const idAt = (ms: number, rand = 0) => UUID.fromFieldsV7(ms, rand, 0, rand).toString();

describe("UUIDv7 time", () => {
  it.each([[0], [Date.parse("2026-03-01T00:00:00.000Z")], [Date.parse("2026-03-01T23:59:59.999Z")], [2 ** 47]])(
    "reads back the time of an id minted at %d",
    (ms) => {
      expect(uuidv7Ms(idAt(ms, 1234))).toBe(ms);
    },
  );

  it.each([["not-a-uuid"], ["00000000-0000-4000-8000-000000000000"], [""]])("NaN for %j", (id) => {
    expect(uuidv7Ms(id)).toBeNaN();
  });

  it("the floor separates ids minted before an instant from ids at or after it", () => {
    const t = Date.parse("2026-05-05T12:00:00.000Z");
    const floor = uuidv7Floor(t);
    expect(idAt(t - 1, 2 ** 12 - 1) < floor).toBe(true);
    expect(idAt(t, 0) >= floor).toBe(true);
    expect(uuidv7Ms(floor)).toBe(t);
  });
});

describe("names", () => {
  it.each([
    [{ table: "request_audit" as const, workspaceId: "ws_1" }, "audit-cold/v1/request_audit/workspace=ws_1/"],
    [
      { table: "usage_log" as const, workspaceId: "ws_1", kind: "classify" },
      "audit-cold/v1/usage_log/workspace=ws_1/kind=classify/",
    ],
  ])("stream prefix %j", (s, prefix) => {
    expect(streamPrefix(s)).toBe(prefix);
    expect(manifestKey(streamPrefix(s))).toBe(`${prefix}manifest.json`);
    expect(partKey(s, "2026-01-02", "a", "b")).toBe(`${prefix}day=2026-01-02/part-a_b.ndjson.gz`);
  });

  it.each([
    ["2026-01-01T00:00:00.000Z", "2026-01-01"],
    ["2026-01-01T23:59:59.999Z", "2026-01-01"],
    ["2026-02-28T24:00:00.000Z", "2026-03-01"],
  ])("UTC day of %s is %s", (iso, day) => {
    expect(utcDay(Date.parse(iso))).toBe(day);
    expect(dayEndMs(day)).toBe(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);
  });
});

describe("records", () => {
  const row = {
    id: idAt(1_700_000_000_000),
    workspaceId: "ws_1",
    surface: "api",
    route: "/api/v1/classify",
    path: "/api/v1/classify",
    method: "POST",
    source: "http",
    actor: null,
    customerId: 7,
    httpStatus: 200,
    outcome: "completed",
    durationMs: 12,
    hasBody: true,
    bodyKey: "ws_1/2023/11/14/x",
    bodyContentType: "application/json",
    bodySize: 42,
    errorSummary: null,
    createdAt: "2023-11-14T22:13:20.000Z",
  };

  it("use the D1 column names and come back as the row drizzle selects", async () => {
    const rec = toRecord(requestAudit, row);
    expect(rec).toMatchObject({ workspace_id: "ws_1", has_body: true, http_status: 200, customer_id: 7 });
    const text = encodeNdjson([rec, { ...rec, id: "x" }]);
    expect(text.split("\n")).toHaveLength(3);
    const back = decodeNdjson(await gunzip((await gzip(text)).buffer as ArrayBuffer));
    expect(fromRecord(requestAudit, back[0]!)).toEqual(row);
    expect(back[1]!.id).toBe("x");
  });

  it("non-ASCII text survives the round trip", async () => {
    const text = encodeNdjson([{ path: "/café/ü/日本" }]);
    expect(decodeNdjson(await gunzip((await gzip(text)).buffer as ArrayBuffer))).toEqual([{ path: "/café/ü/日本" }]);
  });
});

describe("manifests", () => {
  const part = (first: string, last: string, rows = 2): PartEntry => ({
    key: `p-${first}_${last}`,
    rows,
    first,
    last,
    min_id: first,
    max_id: last,
    bytes: 10 * rows,
    ndjson_bytes: 100 * rows,
  });
  const day: DayManifest = {
    schema_version: 1,
    format: "ndjson.gz",
    table: "request_audit",
    workspace_id: "ws_1",
    day: "2026-01-01",
    columns: [],
    parts: [],
  };

  it("keeps parts in order and sums them for the stream manifest", () => {
    let m = withPart(day, part("c", "d")).manifest;
    m = withPart(m, part("a", "b")).manifest;
    expect(m.parts.map((p) => p.first)).toEqual(["a", "c"]);
    expect(daySummary(m)).toEqual({ day: "2026-01-01", rows: 4, parts: 2, bytes: 40, first: "a", last: "d" });
  });

  it("a part starting at the same row replaces the leftover of a crashed move; the same part is idempotent", () => {
    const m = withPart(day, part("a", "b")).manifest;
    const again = withPart(m, part("a", "b"));
    expect(again.manifest.parts).toHaveLength(1);
    expect(again.replaced).toEqual([]);
    const longer = withPart(m, part("a", "c", 3));
    expect(longer.manifest.parts.map((p) => p.key)).toEqual(["p-a_c"]);
    expect(longer.replaced).toEqual(["p-a_b"]);
  });
});

describe("hotWindowDays", () => {
  it.each([
    ["30", 30],
    ["0.25", 0.25],
    [String(1 / 24), 1 / 24],
    ["3650", 3650],
    [undefined, 30],
    ["", 30],
    ["0", 30],
    ["0.01", 30],
    ["-3", 30],
    ["4000", 30],
    ["thirty", 30],
  ])("AUDIT_HOT_DAYS=%s → %s days", (raw, days) => {
    expect(hotWindowDays(raw)).toBe(days);
  });
});
