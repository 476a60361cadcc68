/**
 * Reading a token request (RFC 6749 §4.4): form-encoded (or JSON) parameters, client credentials in the body or
 * as HTTP Basic (§2.3.1). Failures are RFC 6749 errors inside the spec's envelope, never cached.
 */
import { ApiError } from "../../lib/errors";

export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

type OAuthErrorCode = "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope";

/** An RFC 6749 §5.2 error; with `basic`, the challenge a client that used HTTP Basic expects on a 401. */
export function oauthError(code: OAuthErrorCode, description: string, basic = false): ApiError {
  const headers: Record<string, string> = { ...NO_STORE };
  if (basic) headers["WWW-Authenticate"] = 'Basic realm="token"';
  return new ApiError(code, description, { error_description: description }, headers);
}

function readParams(contentType: string, raw: ArrayBuffer): Record<string, string> {
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
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
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

/** A well-formed client-credentials request: who claims to ask, and the scopes asked for (if any). */
export interface ClientCredentials {
  clientId: string;
  secret: string;
  /** Whether the credentials came as HTTP Basic: a failure then carries the Basic challenge. */
  basic: boolean;
  /** The `scope` parameter, when given and not blank. */
  scope: string | undefined;
}

/** The request's grant and credentials, or the RFC 6749 error that says what is wrong with them. */
export function parseTokenRequest(
  contentType: string,
  raw: ArrayBuffer,
  authorization: string | undefined,
): ClientCredentials {
  const params = readParams(contentType, raw);
  if (!params.grant_type) throw oauthError("invalid_request", "grant_type is required");
  if (params.grant_type !== "client_credentials") {
    throw oauthError("unsupported_grant_type", "Only grant_type=client_credentials is supported");
  }
  const basic = basicCredentials(authorization);
  if (basic === "malformed") throw oauthError("invalid_request", "Malformed Basic credentials", true);
  if (basic && (params.client_id || params.client_secret)) {
    throw oauthError("invalid_request", "Send client credentials either in the body or as HTTP Basic, not both");
  }
  const clientId = basic?.id ?? params.client_id;
  const secret = basic?.secret ?? params.client_secret;
  if (!clientId || !secret) {
    throw oauthError("invalid_client", "client_id and client_secret are required", Boolean(basic));
  }
  const scope = params.scope?.trim() ? params.scope : undefined;
  return { clientId, secret, basic: Boolean(basic), scope };
}
