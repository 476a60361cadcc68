/**
 * Platform tables: tenancy, API clients, the request audit trail.
 * Later areas add their own tables beside these; every tenant-owned row carries `workspace_id`.
 * Times are ISO 8601 strings in UTC so that they sort and compare as text.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** JSON object of bucket name → {limit, window_seconds}; overrides the spec's defaults. */
  rateLimits: text("rate_limits").notNull().default("{}"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    mode: text("mode", { enum: ["live", "sandbox"] }).notNull(),
    /** Audit rows, their refs and archived bodies older than this are purged by the cron job. */
    archiveRetentionDays: integer("archive_retention_days").notNull().default(2557),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("workspaces_slug_uq").on(t.slug), index("workspaces_org_idx").on(t.organizationId)],
);

/** Customers of a workspace; API clients may be pinned to one. The consignments area extends this resource. */
export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    externalRef: text("external_ref"),
    /** JSON array of addresses (slim address shape, each with a `type` such as billing or shipping). */
    addresses: text("addresses").notNull().default("[]"),
    /** JSON object: eori_id, vat_id, ioss_id, tax_id, ukims_number. */
    taxRegistrations: text("tax_registrations").notNull().default("{}"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("customers_ws_idx").on(t.workspaceId, t.id),
    index("customers_ws_external_ref_idx").on(t.workspaceId, t.externalRef),
  ],
);

export const apiClients = sqliteTable(
  "api_clients",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    clientId: text("client_id").notNull(),
    /** Hex SHA-256 of the secret; the secret itself is shown once and never stored. */
    secretHash: text("secret_hash").notNull(),
    /** JSON array of scope strings. */
    scopes: text("scopes").notNull(),
    customerId: integer("customer_id").references(() => customers.id),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Set on deletion: the row stays so the audit trail can still name the actor. */
    deletedAt: text("deleted_at"),
  },
  (t) => [uniqueIndex("api_clients_client_id_uq").on(t.clientId), index("api_clients_ws_idx").on(t.workspaceId, t.id)],
);

/** One row per request (and per internal run); written after the response. */
export const requestAudit = sqliteTable(
  "request_audit",
  {
    id: text("id").primaryKey(),
    /** Null for requests that never reached a workspace (platform host, unknown subdomain). */
    workspaceId: text("workspace_id"),
    surface: text("surface").notNull(),
    route: text("route").notNull(),
    path: text("path").notNull(),
    method: text("method").notNull(),
    source: text("source", { enum: ["http", "internal", "flow"] }).notNull(),
    actor: text("actor"),
    customerId: integer("customer_id"),
    httpStatus: integer("http_status").notNull(),
    outcome: text("outcome", { enum: ["completed", "failed"] }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    hasBody: integer("has_body", { mode: "boolean" }).notNull(),
    bodyKey: text("body_key"),
    bodyContentType: text("body_content_type"),
    bodySize: integer("body_size"),
    errorSummary: text("error_summary"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("request_audit_ws_id_idx").on(t.workspaceId, t.id),
    index("request_audit_ws_created_idx").on(t.workspaceId, t.createdAt),
  ],
);

/** Identifiers pulled from archived bodies (tracking numbers, shipment refs...) for the archive search. */
export const requestRefs = sqliteTable(
  "request_refs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: text("request_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    refType: text("ref_type").notNull(),
    refValue: text("ref_value").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    index("request_refs_ws_value_idx").on(t.workspaceId, t.refValue),
    index("request_refs_request_idx").on(t.requestId),
  ],
);

/**
 * One row per reference dataset loaded into D1 (tariffs, sanctions lists, rules...). Engines report it as
 * `data_source` {version, source, imported_at}; the loaders skip a dataset whose version is already loaded.
 */
export const dataSources = sqliteTable("data_sources", {
  dataset: text("dataset").primaryKey(),
  version: text("version").notNull(),
  source: text("source").notNull(),
  importedAt: text("imported_at").notNull(),
  rowCount: integer("row_count").notNull().default(0),
});

/**
 * Idempotency keys (the `Idempotency-Key` header on POST, PATCH and DELETE): one row per (scope, key) for 24 h.
 * `scope` is the workspace id, or `platform` for the platform API. `state` is `running` while the first
 * request holds the key, `committed` once its write committed (set in the same D1 batch as the write), and
 * `done` once its response is stored for replay.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the method, the path and the body bytes: the same key with another request is refused. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "committed", "done"] }).notNull(),
    /** The request that holds (or held) the key. */
    requestId: text("request_id").notNull(),
    /** While `running`: until when the holder is presumed alive; after that the key can be taken over. */
    lockedUntil: text("locked_until").notNull(),
    responseStatus: integer("response_status"),
    /** JSON object of the response headers a replay repeats (content type, location). */
    responseHeaders: text("response_headers"),
    responseBody: text("response_body"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_scope_key_uq").on(t.scope, t.key),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The dataset registry: every version of every reference dataset, loaded, staged, active or retired. At most one
 * version per dataset is `active`; activation is one batch that retires the old one and activates the new
 * one. `report` is the validation report (schema, row counts, diff against the active version). A file given
 * as published is kept in the ARCHIVE bucket under `source_key`.
 */
export const datasetVersions = sqliteTable(
  "dataset_versions",
  {
    dataset: text("dataset").notNull(),
    version: text("version").notNull(),
    status: text("status", {
      enum: ["staging", "staged", "active", "retired", "refused", "failed", "purged"],
    }).notNull(),
    /** What the version was read from (publisher, file, date). */
    source: text("source").notNull(),
    /** `bundled` (loaded with the deployment), `upload` (platform API) or `fetch` (scheduled fetch). */
    origin: text("origin").notNull(),
    format: text("format"),
    /** The published file(s) in ARCHIVE (JSON array of keys), and their sha256, so an unchanged fetch is skipped. */
    sourceKeys: text("source_keys").notNull().default("[]"),
    sourceSha256: text("source_sha256"),
    rows: integer("rows").notNull().default(0),
    /** Rows written while staging; the loader resumes from here after an interruption. */
    stagedRows: integer("staged_rows").notNull().default(0),
    report: text("report").notNull().default("{}"),
    error: text("error"),
    /** Activate as soon as staging completes (scheduled fetch, or `?activate=true` on an upload). */
    activateWhenStaged: integer("activate_when_staged", { mode: "boolean" }).notNull().default(false),
    force: integer("force", { mode: "boolean" }).notNull().default(false),
    importedAt: text("imported_at").notNull(),
    activatedAt: text("activated_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.dataset, t.version] }),
    index("dataset_versions_status_idx").on(t.dataset, t.status),
  ],
);

/**
 * Rows of reference-table datasets (VAT, customs rules, a tariff schedule) that are not in the live tables:
 * a version being staged, or the previous one kept for a rollback. Activation swaps a version's rows into
 * the live tables in one batch (`src/modules/datasets/tables.ts`); the deployment's load stages here too and
 * swaps in one import, so readers never see a half-loaded table. `row` is a JSON array of the live table's
 * columns in order.
 */
export const datasetStagedRows = sqliteTable(
  "dataset_staged_rows",
  {
    dataset: text("dataset").notNull(),
    version: text("version").notNull(),
    /** The live table the row goes to. */
    tbl: text("tbl").notNull(),
    /** The row's place in its version (file order), unique within (dataset, version, tbl). */
    seq: integer("seq").notNull(),
    row: text("row").notNull(),
  },
  (t) => [primaryKey({ columns: [t.dataset, t.version, t.tbl, t.seq] })],
);

/** The scheduled fetch's last attempt per dataset: what an operator reads when an update did not arrive. */
export const datasetFetches = sqliteTable("dataset_fetches", {
  dataset: text("dataset").primaryKey(),
  lastAttemptAt: text("last_attempt_at").notNull(),
  /** `updated`, `unchanged`, `refused` or `failed`. */
  outcome: text("outcome").notNull(),
  version: text("version"),
  error: text("error"),
});
