/**
 * Token endpoint (RFC 6749 §4.4): `POST {base_url}/admin/oauth2/token`, client credentials in the form body
 * or HTTP Basic. Errors carry RFC 6749 codes inside the spec's envelope. Failed attempts count against the
 * per-IP `sign_in_ip` bucket, which is checked (without counting) before the credentials are looked at.
 * The body carries a secret, so it is audited but never archived.
 */
import { z } from "@hono/zod-openapi";
import { createDb } from "../../db/client";
import { ErrorSchema, json, newRouter, RateLimitedSchema } from "../../http/router";
import { sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { ApiError } from "../../lib/errors";
import { isScope } from "../../lib/scopes";
import { readBodyLimited } from "../../middleware/archive";
import { callerKey, hitBucket, rateLimited, rateLimitHeaders } from "../../middleware/rate-limit";
import { findClientByClientId } from "../api-clients/service";
import { issueToken } from "./tokens";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
// Hash compared when the client id is unknown, so both failures cost the same.
const DUMMY_HASH = "0".repeat(64);

function oauthError(
  code: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope",
  description: string,
  basic = false,
) {
  const headers: Record<string, string> = { ...NO_STORE };
  if (basic) headers["WWW-Authenticate"] = 'Basic realm="token"';
  return new ApiError(code, description, { error_description: description }, headers);
}

async function readParams(contentType: string, raw: ArrayBuffer): Promise<Record<string, string>> {
  const text = new TextDecoder().decode(raw);
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (/^application\/json\b/i.test(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError("invalid_json", "Malformed JSON in request body", {}, NO_STORE);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw oauthError("invalid_request", "Body must be an object");
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === "string")) as Record<
      string,
      string
    >;
  }
  throw new ApiError(
    "unsupported_media_type",
    "Content-Type must be application/x-www-form-urlencoded",
    { error_description: "unsupported content type" },
    NO_STORE,
  );
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null | "malformed" {
  if (!header?.toLowerCase().startsWith("basic ")) return null;
  try {
    const decoded = atob(header.slice(6).trim());
    const i = decoded.indexOf(":");
    if (i < 0) return "malformed";
    // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
    return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
  } catch {
    return "malformed";
  }
}

const TokenResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().openapi({ example: 3600 }),
    scope: z.string().openapi({ example: "consignments:read consignments:write" }),
  })
  .openapi("TokenResponse");

export const tokenRoutes = newRouter();

tokenRoutes.openAPIRegistry.registerPath({
  method: "post",
  path: "/admin/oauth2/token",
  tags: ["Auth"],
  summary: "Get an access token (client credentials)",
  description:
    "Form-encoded `grant_type=client_credentials` with `client_id` and `client_secret` in the body or as HTTP Basic. Optional `scope` narrows the token.",
  request: {
    body: {
      required: true,
      content: {
        "application/x-www-form-urlencoded": {
          schema: z.object({
            grant_type: z.literal("client_credentials"),
            client_id: z.string().optional(),
            client_secret: z.string().optional(),
            scope: z.string().optional(),
          }),
        },
      },
    },
  },
  responses: {
    200: json(TokenResponse, "Token issued"),
    400: json(ErrorSchema, "invalid_request / unsupported_grant_type / invalid_scope"),
    401: json(ErrorSchema, "invalid_client"),
    429: json(RateLimitedSchema, "Too many failed attempts from this IP"),
  },
});

tokenRoutes.post("/admin/oauth2/token", async (c) => {
  const workspace = c.get("workspace");
  if (!workspace) throw oauthError("invalid_request", "Unknown workspace");
  const deps = c.get("deps");
  const ip = c.req.header("cf-connecting-ip") ?? "unknown";
  const signInKey = `sign_in_ip:${ip}`;

  const gate = await hitBucket(
    c.env,
    workspace,
    { bucket: "sign_in_ip", key: signInKey, consume: false },
    deps.clock.now(),
  );
  if (!gate.allowed) throw rateLimited(gate, "sign-in attempts from this IP");

  const raw = await readBodyLimited(c.req);
  const params = await readParams(c.req.header("content-type") ?? "", raw);
  if (!params.grant_type) throw oauthError("invalid_request", "grant_type is required");
  if (params.grant_type !== "client_credentials") {
    throw oauthError("unsupported_grant_type", "Only grant_type=client_credentials is supported");
  }
  const basic = basicCredentials(c.req.header("authorization"));
  if (basic === "malformed") throw oauthError("invalid_request", "Malformed Basic credentials", true);
  if (basic && (params.client_id || params.client_secret)) {
    throw oauthError("invalid_request", "Send client credentials either in the body or as HTTP Basic, not both");
  }
  const id = basic?.id ?? params.client_id;
  const secret = basic?.secret ?? params.client_secret;
  if (!id || !secret) throw oauthError("invalid_client", "client_id and client_secret are required", Boolean(basic));

  const ctx = { db: createDb(c.env.DB), deps };
  const client = await findClientByClientId(ctx, workspace.id, id);
  const presented = await sha256Hex(secret);
  const matches = timingSafeEqual(presented, client?.secretHash ?? DUMMY_HASH) && client !== null;
  if (!client || !matches) {
    await hitBucket(c.env, workspace, { bucket: "sign_in_ip", key: signInKey }, deps.clock.now());
    throw oauthError("invalid_client", "Client authentication failed", Boolean(basic));
  }

  let scopes = client.scopes;
  if (params.scope !== undefined && params.scope.trim() !== "") {
    const asked = params.scope.trim().split(/\s+/);
    const unknown = asked.filter((s) => !isScope(s) || !client.scopes.includes(s));
    if (unknown.length) throw oauthError("invalid_scope", `Scopes not granted to this client: ${unknown.join(" ")}`);
    scopes = client.scopes.filter((s) => asked.includes(s));
  }

  // A successful sign-in is ordinary API traffic for the organization.
  const decision = await hitBucket(
    c.env,
    workspace,
    { bucket: "api", key: callerKey("api", workspace, client.customerId) },
    deps.clock.now(),
  );
  if (!decision.allowed) throw rateLimited(decision, "this organization");

  const ttl = Number(c.env.TOKEN_TTL_SECONDS) || 3600;
  const { token } = await issueToken(
    c.env.TOKEN_SIGNING_SECRET,
    { sub: client.id, ws: workspace.id, cid: client.clientId, scp: scopes.join(" ") },
    deps.clock.now(),
    ttl,
  );
  c.set("auth", {
    clientRowId: client.id,
    clientId: client.clientId,
    clientName: client.name,
    scopes,
    customerId: client.customerId,
  });
  return c.json(
    { success: true, message: "", access_token: token, token_type: "Bearer", expires_in: ttl, scope: scopes.join(" ") },
    200,
    { ...NO_STORE, ...rateLimitHeaders(decision) },
  );
});
