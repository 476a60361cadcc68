/**
 * The dataset registry on the platform API (bare host, PLATFORM_ADMIN_TOKEN):
 *
 *   GET  /platform/v1/datasets                                   every dataset, its active and staged version
 *   GET  /platform/v1/datasets/{dataset}/versions                its versions, newest first, with reports
 *   GET  /platform/v1/datasets/{dataset}/versions/{version}      one version and its validation report
 *   POST /platform/v1/datasets/{dataset}/versions                a new version from the published file(s)
 *   POST /platform/v1/datasets/{dataset}/versions/{version}/activate
 *   POST /platform/v1/datasets/{dataset}/rollback                back to the version active before
 *
 * An upload is the file as its publisher publishes it, sent as the body (`text/csv` sdn.csv, or the UN's
 * `application/xml`) or as `multipart/form-data` with one field per file (`sdn`, `alt`, `add` for OFAC; `xml`
 * for the UN). The body is streamed into R2 (it is never held whole in memory, and the verbatim archive of
 * the request is that same object), then validated as a stream.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { baseContext } from "../../core/context";
import { createDb } from "../../db/client";
import type { AppEnv } from "../../env";
import { ErrorSchema, json, newRouter } from "../../http/router";
import { ApiError, unprocessable, validationFailed } from "../../lib/errors";
import { archiveKey } from "../../middleware/archive";
import { DATASET_NAME, VERSION_NAME } from "./catalogue";
import {
  activateVersion,
  getVersion,
  listDatasets,
  listVersions,
  registerVersion,
  requireUploadable,
  rollbackDataset,
  type SourceFile,
  versionToWire,
} from "./service";

/** Workers' request body limit on the Free and Pro plans. */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** The route the archive middleware leaves to this module (it streams the body itself). */
export const UPLOAD_PATH = /^\/platform\/v1\/datasets\/[^/]+\/versions\/?$/;

const security = [{ platformAdmin: [] }];
const errors = {
  400: json(ErrorSchema, "Invalid request"),
  401: json(ErrorSchema, "Missing or wrong platform token"),
  404: json(ErrorSchema, "Unknown dataset or version"),
};

const DatasetParam = z.string().regex(DATASET_NAME).openapi({ example: "sanctions-un" });
const VersionParam = z.string().regex(VERSION_NAME).openapi({ example: "2025-11-18.3f2a9c1e" });

const DatasetSummarySchema = z
  .object({
    dataset: z.string(),
    version: z.string().nullable(),
    source: z.string().nullable(),
    imported_at: z.string().nullable(),
    rows: z.number().int(),
    status: z.enum(["active", "none"]),
    uploadable: z.boolean(),
    staged_version: z
      .object({ version: z.string(), status: z.string(), staged_rows: z.number().int(), rows: z.number().int() })
      .optional()
      .openapi({ description: "A newer version being loaded (`staging`) or waiting for activation (`staged`)" }),
    last_fetch: z
      .object({ at: z.string(), outcome: z.string(), version: z.string().nullable(), error: z.string().nullable() })
      .optional()
      .openapi({ description: "The scheduled fetch's last attempt: updated, unchanged, refused or failed" }),
  })
  .openapi("DatasetSummary");

const DatasetVersionSchema = z
  .object({
    dataset: z.string(),
    version: z.string(),
    status: z.enum(["staging", "staged", "active", "retired", "refused", "failed", "purged"]),
    source: z.string(),
    origin: z.string().openapi({ description: "`bundled` (loaded with the deployment), `upload` or `fetch`" }),
    format: z.string().nullable(),
    rows: z.number().int(),
    staged_rows: z.number().int(),
    imported_at: z.string(),
    activated_at: z.string().nullable(),
    error: z.string().nullable(),
    report: z.record(z.string(), z.unknown()).openapi({
      description:
        "The validation report: entries, by_type, previous_version, added, removed, changed, unchanged, shrink_share, skipped_records, issues, checks, passed",
    }),
  })
  .openapi("DatasetVersion");

const VersionEnvelope = z.object({
  success: z.literal(true),
  message: z.string(),
  dataset_version: DatasetVersionSchema,
});

const listRoute = createRoute({
  method: "get",
  path: "/datasets",
  tags: ["Platform"],
  summary: "Reference datasets and their active versions",
  security,
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), datasets: z.array(DatasetSummarySchema) }),
      "Every dataset",
    ),
    401: errors[401],
  },
});

const versionsRoute = createRoute({
  method: "get",
  path: "/datasets/{dataset}/versions",
  tags: ["Platform"],
  summary: "A dataset's versions, newest first",
  security,
  request: {
    params: z.object({ dataset: DatasetParam }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
  },
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), versions: z.array(DatasetVersionSchema) }),
      "Versions",
    ),
    ...errors,
  },
});

const versionRoute = createRoute({
  method: "get",
  path: "/datasets/{dataset}/versions/{version}",
  tags: ["Platform"],
  summary: "One version and its validation report",
  security,
  request: { params: z.object({ dataset: DatasetParam, version: VersionParam }) },
  responses: { 200: json(VersionEnvelope, "The version"), ...errors },
});

const binary = { schema: z.string().openapi({ format: "binary" }) };
const uploadRoute = createRoute({
  method: "post",
  path: "/datasets/{dataset}/versions",
  tags: ["Platform"],
  summary: "Upload a new version from the file(s) as published",
  description:
    "`sanctions-sdn`: OFAC's legacy CSV files, as multipart fields `sdn` (required), `alt` and `add`, or sdn.csv " +
    "alone as a `text/csv` body. `sanctions-un`: the UN consolidated list XML as an `application/xml` body (or " +
    "multipart field `xml`). `restrictions`: the rule set as data/restrictions/rules.json (`application/json` " +
    "body, or multipart fields `rules` and `lexicon`). `hs`: UN Comtrade's HS classification labels CSV " +
    "(`text/csv` body, or multipart field `csv`). `tariffs-us`: the USITC tariff database (`text/plain` or " +
    "`text/csv` body, or multipart field `tariff`). `vat`: multipart fields `rates`, `rules`, `reduced`, `curated` " +
    "(the files of data/vat). `customs_rules`: multipart fields `de_minimis`, `fees`, `excise` (data/customs). " +
    "`fx`, `fx-hmrc`: the ECB's and HMRC's rate files. The version is validated (every record parses, not empty, diffed against the " +
    "active version; a list shrinking by more than DATASET_SHRINK_LIMIT is refused unless `force=true`) and " +
    "loaded in the background: 202 with the report, then `staging` until every row is in, then `staged` " +
    "(or `active` with `activate=true`). The same files again answer 200 with the existing version. " +
    "Content-Length is required; at most 100 MB.",
  security,
  request: {
    params: z.object({ dataset: DatasetParam }),
    query: z.object({
      version: VersionParam.optional().openapi({
        description: "Name of the version; default: the file's own date (UN) or today's, plus its content hash",
      }),
      force: z.enum(["true", "false"]).optional().openapi({ description: "Accept a list that shrinks past the limit" }),
      activate: z.enum(["true", "false"]).optional().openapi({ description: "Activate as soon as the load completes" }),
    }),
    body: {
      required: true,
      content: {
        "multipart/form-data": binary,
        "text/csv": binary,
        "application/xml": binary,
        "text/xml": binary,
        "application/json": binary,
      },
    },
  },
  responses: {
    200: json(VersionEnvelope, "These files were registered before: the existing version"),
    202: json(VersionEnvelope, "Validated; loading in the background"),
    409: json(ErrorSchema, "The version name is taken by other files"),
    411: json(ErrorSchema, "Content-Length missing"),
    413: json(ErrorSchema, "Larger than 100 MB"),
    415: json(ErrorSchema, "Not a format this dataset takes"),
    422: json(
      ErrorSchema,
      "Refused by validation (the error carries `dataset_version` with its report), or not uploadable",
    ),
    ...errors,
  },
});

const activateRoute = createRoute({
  method: "post",
  path: "/datasets/{dataset}/versions/{version}/activate",
  tags: ["Platform"],
  summary: "Make a staged (or earlier) version the active one, atomically",
  security,
  request: { params: z.object({ dataset: DatasetParam, version: VersionParam }) },
  responses: {
    200: json(VersionEnvelope, "Active"),
    409: json(ErrorSchema, "Still loading, refused, failed or purged"),
    422: json(ErrorSchema, "Not an uploadable dataset"),
    ...errors,
  },
});

const rollbackRoute = createRoute({
  method: "post",
  path: "/datasets/{dataset}/rollback",
  tags: ["Platform"],
  summary: "Activate the version that was active before the current one",
  security,
  request: { params: z.object({ dataset: DatasetParam }) },
  responses: {
    200: json(VersionEnvelope, "Rolled back"),
    409: json(ErrorSchema, "No previous version"),
    422: json(ErrorSchema, "Not an uploadable dataset"),
    ...errors,
  },
});

// --------------------------------------------------------------------------------------------- upload

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Streams `body` into R2 through a FixedLengthStream (R2 needs the length up front; a body that does not
 * match its Content-Length fails the put), then hashes the stored object as a stream. Reading it back costs
 * one R2 read, but a tee of the body stalls the put in workerd, and buffering would hold the whole file.
 */
async function storeStream(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
): Promise<{ size: number; sha256: string }> {
  const fixed = new FixedLengthStream(length);
  try {
    await Promise.all([
      body.pipeTo(fixed.writable),
      bucket.put(key, fixed.readable, { httpMetadata: { contentType } }),
    ]);
  } catch {
    throw new ApiError("bad_request", `The body did not match its Content-Length of ${length} bytes`);
  }
  const stored = await bucket.get(key);
  if (!stored) throw new ApiError("internal_error", "The uploaded file could not be read back");
  const digest = new crypto.DigestStream("SHA-256");
  await stored.body.pipeTo(digest);
  return { size: length, sha256: hex(await digest.digest) };
}

/** The request's file(s) in R2, and the verbatim request archived (the archive middleware is bypassed). */
async function receiveFiles(c: Context<AppEnv>, dataset: string): Promise<SourceFile[]> {
  const def = await requireUploadable(createDb(c.env.DB), dataset);
  const declared = c.req.header("content-length");
  if (declared === undefined || !/^\d+$/.test(declared))
    throw new ApiError("length_required", "Send the file with a Content-Length header");
  const length = Number(declared);
  if (length > MAX_UPLOAD_BYTES)
    throw new ApiError("payload_too_large", `Upload exceeds the limit of ${MAX_UPLOAD_BYTES} bytes`, {
      limit_bytes: MAX_UPLOAD_BYTES,
    });
  if (length === 0) throw unprocessable("The upload is empty");
  const contentType = c.req.header("content-type") ?? "";
  const multipart = /^multipart\/form-data\b/i.test(contentType);
  const single = [def.body, def.altBody].find((b) => b?.types.test(contentType));
  if (!multipart && !single)
    throw new ApiError(
      "unsupported_media_type",
      `Send ${dataset} as multipart/form-data (fields: ${def.files.map((f) => f.part).join(", ")}) or as ${[
        def.body,
        def.altBody,
      ]
        .map((b) => b?.example)
        .filter(Boolean)
        .join(" or ")}`,
      { received: contentType || null },
    );
  const body = c.req.raw.body;
  if (!body) throw unprocessable("The upload is empty");
  const key = archiveKey(undefined, c.get("startedAt"), c.get("requestId"));
  c.set("archived", { key, size: length, contentType });

  if (single) {
    const stored = await storeStream(c.env.ARCHIVE, key, body, length, contentType);
    return [{ part: single.part, key, ...stored }];
  }
  // Multipart: the verbatim body is archived first, then the form is read back from the archive and each
  // file stored on its own, so a staging run reads one file as a stream.
  await storeStream(c.env.ARCHIVE, key, body, length, contentType);
  const archived = await c.env.ARCHIVE.get(key);
  let form: FormData;
  try {
    form = await new Response(archived?.body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new ApiError("bad_request", "The multipart body could not be read");
  }
  const files: SourceFile[] = [];
  const known = new Set(def.files.map((f) => f.part));
  for (const [name, value] of form.entries()) {
    if (!known.has(name))
      throw unprocessable(`Unknown form field \`${name}\`; ${dataset} takes ${[...known].join(", ")}`);
    if (typeof value === "string") throw unprocessable(`Form field \`${name}\` must be a file`);
    const bytes = await value.arrayBuffer();
    const partKey = `datasets/${dataset}/${c.get("requestId")}/${name}`;
    await c.env.ARCHIVE.put(partKey, bytes, {
      httpMetadata: { contentType: value.type || "application/octet-stream" },
    });
    files.push({
      part: name,
      key: partKey,
      size: bytes.byteLength,
      sha256: hex(await crypto.subtle.digest("SHA-256", bytes)),
    });
  }
  return files;
}

const UploadQuery = uploadRoute.request.query;

/**
 * The upload handler: documented by `uploadRoute`, but mounted as a plain route, because a declared
 * multipart body would make the OpenAPI router parse the form before the handler could stream the bytes.
 */
async function uploadHandler(c: Context<AppEnv>) {
  const ctx = baseContext(c.env, c.get("deps"));
  const dataset = c.req.param("dataset") ?? "";
  const parsed = UploadQuery.safeParse(c.req.query());
  if (!parsed.success)
    throw validationFailed(
      parsed.error.issues.map((i) => ({ field: i.path.join(".") || "query", message: i.message })),
    );
  const query = parsed.data;
  const files = await receiveFiles(c, dataset);
  const { row, created } = await registerVersion({
    ctx,
    input: {
      dataset,
      files,
      version: query.version,
      force: query.force === "true",
      activate: query.activate === "true",
      origin: "upload",
    },
  });
  const wire = versionToWire(row);
  if (row.status === "refused")
    throw unprocessable(`Version ${row.version} of ${dataset} was refused: ${row.error}`, { dataset_version: wire });
  if (!created)
    return c.json(
      { success: true as const, message: "These files were registered before", dataset_version: wire },
      200,
    );
  return c.json(
    {
      success: true as const,
      message: `Version ${row.version} validated; loading ${row.rows} entries`,
      dataset_version: wire,
    },
    202,
  );
}

const router = newRouter();
router.openAPIRegistry.registerPath(uploadRoute);
router.post("/datasets/:dataset/versions", uploadHandler);

export const datasetRoutes = router
  .openapi(listRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    const datasets = await listDatasets({ ctx, input: {} });
    return c.json({ success: true as const, message: `${datasets.length} datasets`, datasets }, 200);
  })
  .openapi(versionsRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    const { dataset } = c.req.valid("param");
    const rows = await listVersions({ ctx, input: { dataset, limit: c.req.valid("query").limit } });
    return c.json(
      { success: true as const, message: `${rows.length} versions`, versions: rows.map(versionToWire) },
      200,
    );
  })
  .openapi(versionRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    const row = await getVersion({ ctx, input: c.req.valid("param") });
    return c.json({ success: true as const, message: "Dataset version", dataset_version: versionToWire(row) }, 200);
  })
  .openapi(activateRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    await requireUploadable(ctx.db, c.req.valid("param").dataset);
    const row = await activateVersion({ ctx, input: c.req.valid("param") });
    return c.json(
      { success: true as const, message: `Version ${row.version} is active`, dataset_version: versionToWire(row) },
      200,
    );
  })
  .openapi(rollbackRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    await requireUploadable(ctx.db, c.req.valid("param").dataset);
    const row = await rollbackDataset({ ctx, input: c.req.valid("param") });
    return c.json(
      { success: true as const, message: `Rolled back to version ${row.version}`, dataset_version: versionToWire(row) },
      200,
    );
  });
