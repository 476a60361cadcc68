/**
 * What the OpenAPI document says beyond each route's own schemas, added to the generated document in one
 * place so that no route can forget it:
 * - a stable `operationId` for every operation (from its method and path: `postConsignments`,
 *   `getConsignmentsById`), and the declared tags;
 * - the headers every response carries (`X-Request-Id`, `Server-Timing`; `RateLimit-*` on workspace and token
 *   routes; `Retry-After` on 429; `Idempotent-Replayed` on replays) and the answers any route can give (405,
 *   413 and 415 for bodies, 429, 500);
 * - the `Idempotency-Key` header on every POST, PUT, PATCH and DELETE, with its 409 and 422;
 * - `security: []` on the token endpoint;
 * - a top-level `webhooks` section: the delivery envelope and each event type's `data`.
 */
import { EVENT_TYPES } from "../engines/webhooks/catalogue";

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId?: string;
  tags?: string[];
  parameters?: Json[];
  requestBody?: Json;
  responses?: Record<string, Json>;
  security?: unknown[];
};
export type OpenApiDoc = Json & {
  paths?: Record<string, Record<string, Operation | unknown>>;
  components?: Json & { schemas?: Record<string, Json> };
  tags?: { name: string; description?: string }[];
  webhooks?: Record<string, Json>;
};

const METHODS = ["get", "put", "post", "patch", "delete"] as const;
const WRITES = new Set(["put", "post", "patch", "delete"]);

/** `post` + `/admin/api/v1/settings/webhooks/{id}/rotate-secret` → `postSettingsWebhooksByIdRotateSecret`. */
function operationIdFor(method: string, path: string): string {
  // The workspace API's prefix is implied; the platform API, the archive's /api/… twins and the token
  // endpoint keep a word of theirs, so every (method, path) pair names a different operation.
  const words = path
    .replace(/^\/admin\/api\/v1\//, "/")
    .replace(/^\/platform\/v1\//, "/platform/")
    .replace(/^\/admin\//, "/")
    .split("/")
    .filter(Boolean)
    .flatMap((seg) => {
      const param = /^\{(.+)\}$/.exec(seg);
      return (param ? ["by", param[1] ?? ""] : [seg]).flatMap((s) => s.split(/[-_.]/));
    });
  const pascal = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return method + pascal;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Platform: "Operators: provision workspaces and their API clients (platform token, bare host).",
  Auth: "OAuth 2.0 client credentials: exchange a client id and secret for an access token.",
  Account: "Who the token belongs to.",
  Consignments: "Create, read, list and delete consignments; their holds, events, documents and pre-alerts.",
  Assessments: "Duty assessment runs on a consignment.",
  Customers: "The workspace's customers.",
  Catalogue: "Products by SKU, used to fill consignment items.",
  Calculate: "Duty, taxes and fees for a line or a basket.",
  Classify: "HS classification of product descriptions; the organization's HS blocklist.",
  Restrict: "Restricted and prohibited goods by destination and origin.",
  Screen: "Denied-party screening against the sanctions lists.",
  "Request archive": "Every request's audit row and the verbatim body of every mutating request.",
  Settings: "Workspace settings.",
  "Settings: API clients": "The workspace's API clients and their scopes.",
  "Settings: webhooks": "Webhook endpoints, deliveries and the event catalogue.",
  "Settings: flows": "Automations run on consignment events.",
  "Settings: validation rules": "Workspace rules that refuse or warn on consignment creates.",
};

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });

const HEADERS: Record<string, Json> = {
  XRequestId: header("The request's id (UUIDv7): its audit row and archived body in the request archive."),
  ServerTiming: header(
    "W3C Server-Timing: the storage round trips waited on (`d1`, `r2`, `do`, `queue`, each with `count` and `dur`) and `total`.",
  ),
  RateLimitLimit: header("Requests allowed in the window of the bucket that decided.", { type: "integer" }),
  RateLimitRemaining: header("Requests left in that window.", { type: "integer" }),
  RateLimitReset: header("Seconds until the window resets.", { type: "integer" }),
  RetryAfter: header("Seconds to wait before retrying.", { type: "integer" }),
  IdempotentReplayed: header(
    "`true` when this is the stored response of an earlier request with the same Idempotency-Key.",
    {
      type: "string",
      enum: ["true"],
    },
  ),
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const errorBody = { "application/json": { schema: ref("schemas", "Error") } };

/** An answer in the error envelope, with the request id and any headers of its own. */
const errorAnswer = (description: string, headers: Json = {}) => ({
  description,
  headers: { ...headers, "X-Request-Id": ref("headers", "XRequestId") },
  content: errorBody,
});

const RESPONSES: Record<string, Json> = {
  MethodNotAllowed: errorAnswer("The path exists but not with this method; `Allow` lists the methods it has", {
    Allow: header("The methods the path accepts"),
  }),
  PayloadTooLarge: errorAnswer("The body exceeds 12 MiB (`limit_bytes`)"),
  UnsupportedMediaType: errorAnswer("The body is not `application/json`"),
  RateLimited: {
    description: "Rate limited: the bucket named by the RateLimit-* headers is spent",
    headers: {
      "Retry-After": ref("headers", "RetryAfter"),
      "RateLimit-Limit": ref("headers", "RateLimitLimit"),
      "RateLimit-Remaining": ref("headers", "RateLimitRemaining"),
      "RateLimit-Reset": ref("headers", "RateLimitReset"),
      "X-Request-Id": ref("headers", "XRequestId"),
    },
    content: { "application/json": { schema: ref("schemas", "RateLimited") } },
  },
  InternalError: errorAnswer("An unexpected error; the `request_id` finds it in the logs and the request archive"),
  Unavailable: errorAnswer(
    "A dependency is unavailable (e.g. the body could not be archived); nothing was changed, retry later",
  ),
  NoWorkspace: errorAnswer(
    "No workspace has this host's slug (or, on a route with an id, no such resource in this workspace)",
  ),
  IdempotencyMismatch: errorAnswer(
    "The Idempotency-Key was used with a different request (`idempotency_key_mismatch`)",
  ),
  IdempotencyConflict: errorAnswer(
    "Idempotency-Key: a request with this key is still running (`idempotency_key_in_use`, with Retry-After), or it committed and its response was not kept (`idempotency_outcome_unknown`, with `original_request_id`)",
    { "Retry-After": ref("headers", "RetryAfter") },
  ),
};

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first response to this key is kept 24 h and returned again (with `Idempotent-Replayed: true`) to a repeat with the same method, path and body; the same key with another request is a 422 `idempotency_key_mismatch`. 1-255 printable ASCII characters; a UUID per operation is a good choice.",
  schema: { type: "string", minLength: 1, maxLength: 255, example: "8e03978e-40d5-43e8-bc93-6894a57f9324" },
};

/** The response headers every answer carries, and the rate-limit headers on routes behind a bucket. */
function commonHeaders(limited: boolean): Json {
  return {
    "X-Request-Id": ref("headers", "XRequestId"),
    "Server-Timing": ref("headers", "ServerTiming"),
    ...(limited
      ? {
          "RateLimit-Limit": ref("headers", "RateLimitLimit"),
          "RateLimit-Remaining": ref("headers", "RateLimitRemaining"),
          "RateLimit-Reset": ref("headers", "RateLimitReset"),
        }
      : {}),
  };
}

function decorate(path: string, method: string, op: Operation): void {
  op.operationId ??= operationIdFor(method, path);
  const workspaceRoute = path.startsWith("/admin/") || path.startsWith("/api/");
  op.responses ??= {};
  const responses = op.responses;
  for (const [status, res] of Object.entries(responses)) {
    if ("$ref" in res) continue;
    const extra =
      WRITES.has(method) && status.startsWith("2")
        ? { "Idempotent-Replayed": ref("headers", "IdempotentReplayed") }
        : {};
    res.headers = { ...commonHeaders(workspaceRoute), ...extra, ...((res.headers as Json | undefined) ?? {}) };
  }
  responses["405"] ??= ref("responses", "MethodNotAllowed");
  responses["429"] ??= ref("responses", "RateLimited");
  responses["500"] ??= ref("responses", "InternalError");
  if (op.requestBody) {
    responses["413"] ??= ref("responses", "PayloadTooLarge");
    responses["415"] ??= ref("responses", "UnsupportedMediaType");
  }
  if (workspaceRoute || path === "/admin/oauth2/token") responses["404"] ??= ref("responses", "NoWorkspace");
  if (WRITES.has(method)) {
    op.parameters = [...(op.parameters ?? []), ref("parameters", "IdempotencyKey")];
    responses["409"] ??= ref("responses", "IdempotencyConflict");
    responses["503"] ??= ref("responses", "Unavailable");
    // An Idempotency-Key reused for another request is a 422 in the error envelope, beside the route's own 422.
    const own = responses["422"];
    if (!own) responses["422"] = ref("responses", "IdempotencyMismatch");
    else if (!("$ref" in own)) {
      const media = (own.content as Record<string, { schema?: unknown }> | undefined)?.["application/json"];
      const error = ref("schemas", "Error");
      if (media?.schema && JSON.stringify(media.schema) !== JSON.stringify(error))
        media.schema = { anyOf: [media.schema, error] };
    }
  }
  if (path === "/admin/oauth2/token") op.security = [];
}

/** The `webhooks` section: one entry per event type, its envelope and its `data`. */
function webhooks(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const event of EVENT_TYPES) {
    out[event.type] = {
      post: {
        operationId: `webhook${operationIdFor("", `/${event.type}`)}`,
        // Outgoing: the receiver authenticates the delivery by its signature, not by our security schemes.
        security: [],
        summary: event.type,
        description: `${event.description} Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature); answer 2xx within 10 s, otherwise the delivery is retried with backoff.`,
        tags: ["Settings: webhooks"],
        parameters: [
          {
            name: "webhook-id",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "The delivery id (the envelope's `id`)",
          },
          {
            name: "webhook-timestamp",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "Unix seconds of this attempt",
          },
          {
            name: "webhook-signature",
            in: "header",
            required: true,
            schema: { type: "string" },
            description:
              "`v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` under each active secret, space separated",
          },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["id", "event_id", "type", "created_at", "data"],
                properties: {
                  id: { type: "string", description: "The delivery id: the same on every retry of this delivery" },
                  event_id: { type: "string", description: "The event: the same for every endpoint it went to" },
                  type: { type: "string", const: event.type },
                  created_at: { type: "string", format: "date-time" },
                  data: event.data,
                },
              },
            },
          },
        },
        responses: { "200": { description: "Received (any 2xx)" } },
      },
    };
  }
  return out;
}

/** Adds the cross-cutting parts to a generated document (in place) and returns it. */
export function completeContract(doc: OpenApiDoc): OpenApiDoc {
  doc.components ??= {};
  const components = doc.components;
  components.headers = { ...((components.headers as Json | undefined) ?? {}), ...HEADERS };
  components.responses = { ...((components.responses as Json | undefined) ?? {}), ...RESPONSES };
  components.parameters = { ...((components.parameters as Json | undefined) ?? {}), IdempotencyKey: IDEMPOTENCY_KEY };
  const used = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      decorate(path, method, op);
      for (const t of op.tags ?? []) used.add(t);
    }
  }
  used.add("Settings: webhooks");
  doc.tags = [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  doc.webhooks = webhooks();
  return doc;
}
