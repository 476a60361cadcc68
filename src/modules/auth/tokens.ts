/**
 * Access tokens: HS256 JWTs signed with TOKEN_SIGNING_SECRET. Self-contained, so the hot path verifies a
 * token without reading D1; the client behind it is then checked through the 30-second client cache,
 * which is how revocation and scope changes take effect within 60 s.
 * Claims: sub (API client row id), ws (workspace id), cid (public client_id), scp (granted scopes, space
 * separated), iat, exp (seconds), jti.
 */
import { sign, verify } from "hono/jwt";
import { randomToken } from "../../lib/crypto";

export interface TokenClaims {
  sub: string;
  ws: string;
  cid: string;
  scp: string;
  iat: number;
  exp: number;
  jti: string;
}

export async function signToken(
  secret: string,
  claims: Omit<TokenClaims, "iat" | "exp" | "jti">,
  nowMs: number,
  ttlSeconds: number,
): Promise<{ token: string; claims: TokenClaims }> {
  const iat = Math.floor(nowMs / 1000);
  const full: TokenClaims = { ...claims, iat, exp: iat + ttlSeconds, jti: randomToken(12) };
  return { token: await sign({ ...full }, secret, "HS256"), claims: full };
}

export type VerifyFailure = "malformed" | "bad_signature" | "expired";

/**
 * Checks signature and shape, then expiry against the injected clock (the JWT library's own time checks
 * are off so that tests can move time).
 */
export async function verifyToken(
  secret: string,
  token: string,
  nowMs: number,
): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: VerifyFailure }> {
  if (token.split(".").length !== 3) return { ok: false, reason: "malformed" };
  let payload: Record<string, unknown>;
  try {
    payload = (await verify(token, secret, { alg: "HS256", exp: false, nbf: false, iat: false })) as Record<
      string,
      unknown
    >;
  } catch {
    return { ok: false, reason: "bad_signature" };
  }
  const { sub, ws, cid, scp, iat, exp, jti } = payload;
  if (
    typeof sub !== "string" ||
    typeof ws !== "string" ||
    typeof cid !== "string" ||
    typeof scp !== "string" ||
    typeof iat !== "number" ||
    typeof exp !== "number" ||
    typeof jti !== "string"
  ) {
    return { ok: false, reason: "malformed" };
  }
  if (exp * 1000 <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, claims: { sub, ws, cid, scp, iat, exp, jti } };
}

/**
 * Tokens already verified in this isolate, so the hot path does not import a key and compute an HMAC for
 * every request of a client. Only good signatures are kept (a flood of bad tokens cannot fill it), for at most
 * a minute, keyed by the secret too; expiry is still checked on every use.
 */
const verified = new Map<string, { claims: TokenClaims; until: number }>();
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

export async function verifyTokenCached(secret: string, token: string, nowMs: number): ReturnType<typeof verifyToken> {
  const key = `${secret.length}:${secret.slice(0, 8)}:${token}`;
  const hit = verified.get(key);
  if (hit && hit.until > nowMs) {
    if (hit.claims.exp * 1000 <= nowMs) return { ok: false, reason: "expired" };
    return { ok: true, claims: hit.claims };
  }
  const result = await verifyToken(secret, token, nowMs);
  if (result.ok) {
    // Full: drop the oldest entry (a Map iterates in insertion order).
    if (verified.size >= VERIFIED_MAX) {
      const oldest = verified.keys().next();
      if (!oldest.done) verified.delete(oldest.value);
    }
    verified.set(key, { claims: result.claims, until: nowMs + VERIFIED_TTL_MS });
  }
  return result;
}
