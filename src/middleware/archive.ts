/**
 * Archives the verbatim body of every mutating request in R2 before the handler runs, so any write the API
 * acknowledges already has its evidence stored (and a failed archive means nothing was processed).
 * Also the gate for size (413) and content type (415). The body stays cached on the request, so the JSON
 * validator reads the same bytes.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

/** 12 MiB: room for the spec's ~9 MB image data URL inside a JSON body. */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

/** The methods that change state: their bodies are archived, their audit rows durable, their keys idempotent. */
export const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\b/i;

const tooLarge = () =>
  new ApiError("payload_too_large", `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes`, {
    limit_bytes: MAX_BODY_BYTES,
  });

/** Reads the body once, refusing oversized ones early by Content-Length and again by actual size. */
export async function readBodyLimited(req: {
  header(name: string): string | undefined;
  arrayBuffer(): Promise<ArrayBuffer>;
}) {
  const declared = Number(req.header("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const raw = await req.arrayBuffer();
  if (raw.byteLength > MAX_BODY_BYTES) throw tooLarge();
  return raw;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
/** A `\uD800`-`\uDFFF` escape in JSON text: the only way a lone surrogate can arrive in valid UTF-8. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Iterative, so a deeply nested body cannot overflow the stack here (depth limits are the routes' business). */
function hasLoneSurrogate(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const v of value) stack.push(v);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (LONE_SURROGATE.test(k)) return true;
        stack.push(v);
      }
    }
  }
  return false;
}

/**
 * The body as text, refused (400) when it is not well-formed Unicode: invalid UTF-8 bytes, or a JSON escape
 * of a lone surrogate. Either would otherwise be stored as U+FFFD, silently changing what the client sent.
 * The full check parses the JSON, so it runs only when the text holds a surrogate escape at all.
 */
function wellFormedText(raw: ArrayBuffer): string {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new ApiError("bad_request", "Request body is not valid UTF-8");
  }
  if (!SURROGATE_ESCAPE.test(text)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text; // malformed JSON: the validator answers it
  }
  if (hasLoneSurrogate(parsed)) {
    throw new ApiError(
      "bad_request",
      "Request body contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape); send well-formed Unicode",
    );
  }
  return text;
}

/** R2 key: workspace, then day, then request id, so retention can purge by prefix and day. */
export function archiveKey(workspaceId: string | undefined, createdAtMs: number, requestId: string): string {
  const day = new Date(createdAtMs).toISOString().slice(0, 10).replaceAll("-", "/");
  return `${workspaceId ?? "platform"}/${day}/${requestId}`;
}

/**
 * Checks size and type, and starts the R2 put. Returns null for an empty body (nothing to archive). The put
 * comes back wrapped: an async function returning a bare promise would make its caller wait for it.
 */
async function startArchive(c: Context<AppEnv>): Promise<{ put: Promise<unknown> } | null> {
  const raw = await readBodyLimited(c.req);
  if (raw.byteLength === 0) return null;
  const contentType = c.req.header("content-type") ?? null;
  if (!contentType || !JSON_TYPE.test(contentType)) {
    throw new ApiError("unsupported_media_type", "Content-Type must be application/json", {
      received: contentType,
    });
  }
  // The JSON validator asks Hono for the body as text; given only the cached bytes, Hono would wrap them in a
  // new Response to decode them on every request. Decoding once here is the same UTF-8 decoding, for less.
  // Hono keeps promises in this cache (it calls `.then` on what it finds), though its type names the values.
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(wellFormedText(raw));
  const key = archiveKey(c.get("workspace")?.id, c.get("startedAt"), c.get("requestId"));
  c.set("archived", { key, size: raw.byteLength, contentType });
  const put = c.env.ARCHIVE.put(key, raw, {
    httpMetadata: { contentType },
    customMetadata: { request_id: c.get("requestId"), method: c.req.method, path: c.req.path },
  });
  return { put };
}

/** For routes that change state: the body is in R2 before the handler runs. */
export const archiveBody = createMiddleware<AppEnv>(async (c, next) => {
  if (!MUTATING.has(c.req.method)) return next();
  const started = await startArchive(c);
  if (started) await started.put;
  await next();
});

/**
 * For POST routes that only compute an answer (calculate, classify, restrict, screen) and for writes that read
 * before they commit (consignment create): the put runs beside the handler and is awaited before the response
 * leaves, so no answer goes out without its request archived, without making the client wait for the two in
 * turn. A write calls `c.get("archiveGate")()` immediately before its commit, which waits for the put, so nothing
 * is committed before its request is archived either. If the archive fails the answer is replaced by a 503:
 * nothing was changed, so a retry is safe.
 */
export const archiveBodyAlongside = createMiddleware<AppEnv>(async (c, next) => {
  if (!MUTATING.has(c.req.method)) return next();
  const started = await startArchive(c);
  if (!started) {
    c.set("archiveGate", async () => undefined);
    return next();
  }
  // Settle the put's outcome now, so a failure while the handler runs is not an unhandled rejection.
  const archived = started.put.then(
    () => null,
    (err: unknown) => err,
  );
  const gate = async () => {
    const failure = await archived;
    if (failure) {
      console.error(
        JSON.stringify({ msg: "archive put failed", request_id: c.get("requestId"), error: String(failure) }),
      );
      c.set("archived", undefined);
      throw new ApiError("unavailable", "The request could not be archived; nothing was changed, retry later");
    }
  };
  c.set("archiveGate", gate);
  await next();
  // The audit row of an answer that wrote nothing is written while the put finishes (middleware/audit.ts).
  await Promise.all([gate(), c.get("auditNow")?.()]);
});
