/**
 * Token endpoint (RFC 6749 §4.4): `POST {base_url}/admin/oauth2/token`, client credentials in the form body
 * or HTTP Basic. Errors carry RFC 6749 codes inside the spec's envelope; the grant itself is `issueToken`.
 * The body carries a secret, so it is audited but never archived.
 */
import { z } from "@hono/zod-openapi";
import { baseContext } from "../../core/context";
import { ErrorSchema, json, newRouter, RateLimitedSchema } from "../../http/router";
import { readBodyLimited } from "../../middleware/archive";
import { rateLimitHeaders } from "../../middleware/rate-limit";
import { NO_STORE, oauthError } from "./request";
import { issueToken } from "./service";

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
  const input = {
    workspace,
    ip: c.req.header("cf-connecting-ip") ?? "unknown",
    contentType: c.req.header("content-type") ?? "",
    authorization: c.req.header("authorization"),
    readBody: () => readBodyLimited(c.req),
  };
  const issued = await issueToken({ ctx: baseContext(c.env, c.get("deps")), input });
  // The audit row names the client that signed in.
  c.set("auth", issued.actor);
  const scope = issued.scopes.join(" ");
  return c.json(
    {
      success: true,
      message: "",
      access_token: issued.token,
      token_type: "Bearer",
      expires_in: issued.expiresIn,
      scope,
    },
    200,
    { ...NO_STORE, ...rateLimitHeaders(issued.decision) },
  );
});
