/**
 * Test helpers: every call goes through the Worker's real fetch handler with the real bindings, and
 * waits for its waitUntil work (the audit row) before returning.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import worker from "../src/index";
import { SCOPES } from "../src/lib/scopes";
import { checkResponse } from "./contract";
import sample from "./fixtures/sample-consignment.json";

const BASE = "localhost";
export const ADMIN_TOKEN = "test-platform-admin-token";
export const ALL_SCOPES: string[] = [...SCOPES];

export interface CallOptions {
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  json?: unknown;
  token?: string;
}

/** Calls the Worker as a client would, by path and Host. */
export async function call(path: string, opts: CallOptions = {}): Promise<Response> {
  const headers = new Headers(opts.headers);
  headers.set("host", opts.host ?? BASE);
  let body = opts.body ?? null;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  const request = new Request(`http://${opts.host ?? BASE}${path}`, {
    method: opts.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  // The answer must be what /openapi.json documents for this operation and status (test/contract.ts).
  await checkResponse(request.method, request.url, res);
  return res;
}

let counter = 0;
export const uniqueSlug = (prefix = "ws") => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export interface TestWorkspace {
  slug: string;
  host: string;
  id: string;
  organizationId: string;
}

export async function createWorkspace(
  input: { slug?: string; mode?: string; organization_id?: string } = {},
): Promise<TestWorkspace> {
  const slug = input.slug ?? uniqueSlug();
  const res = await call("/platform/v1/workspaces", {
    token: ADMIN_TOKEN,
    json: { slug, name: `Test ${slug}`, ...input },
  });
  if (res.status !== 201) throw new Error(`createWorkspace: ${res.status} ${await res.text()}`);
  const { workspace } = (await res.json()) as { workspace: { id: string; organization_id: string } };
  return { slug, host: `${slug}.${BASE}`, id: workspace.id, organizationId: workspace.organization_id };
}

export interface TestClient {
  id: string;
  clientId: string;
  clientSecret: string;
}

export async function createClient(ws: TestWorkspace, scopes = ALL_SCOPES, customerId?: number): Promise<TestClient> {
  const res = await call(`/platform/v1/workspaces/${ws.slug}/api-clients`, {
    token: ADMIN_TOKEN,
    json: { name: "test client", scopes, ...(customerId !== undefined ? { customer_id: customerId } : {}) },
  });
  if (res.status !== 201) throw new Error(`createClient: ${res.status} ${await res.text()}`);
  const { api_client } = (await res.json()) as { api_client: { id: string; client_id: string; client_secret: string } };
  return { id: api_client.id, clientId: api_client.client_id, clientSecret: api_client.client_secret };
}

export async function getToken(
  ws: TestWorkspace,
  client: TestClient,
  extra: Record<string, string> = {},
): Promise<string> {
  const res = await call("/admin/oauth2/token", {
    host: ws.host,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      ...extra,
    }).toString(),
  });
  if (res.status !== 200) throw new Error(`getToken: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A workspace with an all-scopes client and a token: the usual starting point of a test. */
export async function setup(scopes = ALL_SCOPES) {
  const ws = await createWorkspace();
  const client = await createClient(ws, scopes);
  const token = await getToken(ws, client);
  const api = (path: string, opts: CallOptions = {}) => call(`/admin/api/v1${path}`, { host: ws.host, token, ...opts });
  return { ws, client, token, api };
}

export async function auditRow(requestId: string) {
  return env.DB.prepare("SELECT * FROM request_audit WHERE id = ?").bind(requestId).first<Record<string, unknown>>();
}

/** Inserts a customer directly: the customers API arrives with the consignments area. */
export async function insertCustomer(ws: TestWorkspace, name = "Customer"): Promise<number> {
  const now = new Date().toISOString();
  const row = await env.DB.prepare(
    "INSERT INTO customers (workspace_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
  )
    .bind(ws.id, name, now, now)
    .first<{ id: number }>();
  return row!.id;
}

/**
 * Loads a reference dataset into this test file's D1 (storage is per test file): `fixture` for the small
 * slice a module provides, otherwise the full data. Idempotent within a file.
 */
export async function loadDataset(name: string, { fixture = false } = {}): Promise<void> {
  const res = await env.TEST_DATA.fetch(`http://test-data/${encodeURIComponent(fixture ? `${name}:fixture` : name)}`);
  if (!res.ok) throw new Error(`unknown dataset ${name} (see scripts/data)`);
  const statements = (await res.json()) as string[];
  for (let i = 0; i < statements.length; i += 50) {
    await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
  }
}

/**
 * A small GB → US consignment (one parcel, one T-shirt), the usual body for tests of the write path; the
 * fault script (scripts/faults.mjs) sends the same file.
 */
export const sampleConsignment = (shipmentRef: string) => ({ ...sample, shipment_ref: shipmentRef });

/** One calculate line: Vietnamese T-shirts into the US, 1,000 USD (needs the fixture tariffs, VAT, FX, rules). */
export const sampleCalculateLine = {
  hs_code: "6109.10.00",
  origin_country: "VN",
  destination_country: "US",
  declared_value: 1000,
  currency: "USD",
  entry_date: "2026-03-02",
};

type BatchRunner = (statements: D1PreparedStatement[]) => Promise<D1Result[]>;

/**
 * Intercepts the D1 batches the Worker sends, for fault injection: those of a request's D1 session
 * (src/db/session.ts; workspace API requests run in one) and those sent on the binding itself (jobs).
 * `handle` gets the statements and the real runner; it may fail, delay or run them. Returns the restore.
 */
export function interceptD1Batches(
  handle: (statements: D1PreparedStatement[], run: BatchRunner) => Promise<D1Result[]>,
) {
  const db = env.DB;
  const batch = db.batch.bind(db) as BatchRunner;
  const withSession = db.withSession.bind(db);
  const batchSpy = vi.spyOn(db, "batch").mockImplementation(((s: D1PreparedStatement[]) => handle(s, batch)) as never);
  const sessionSpy = vi.spyOn(db, "withSession").mockImplementation(((constraint?: string) => {
    const session = withSession(constraint as never);
    const run = session.batch.bind(session) as BatchRunner;
    return {
      prepare: session.prepare.bind(session),
      batch: (s: D1PreparedStatement[]) => handle(s, run),
      getBookmark: session.getBookmark.bind(session),
    };
  }) as never);
  return () => {
    batchSpy.mockRestore();
    sessionSpy.mockRestore();
  };
}

/** The next D1 batch the Worker sends fails with `error`; later ones run. Returns the restore. */
export function failNextD1Batch(error: Error) {
  let failed = false;
  return interceptD1Batches(async (statements, run) => {
    if (failed) return run(statements);
    failed = true;
    throw error;
  });
}
