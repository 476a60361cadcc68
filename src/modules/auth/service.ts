/**
 * The client-credentials grant (RFC 6749 §4.4). Failed attempts count against the per-IP `sign_in_ip` bucket,
 * which is checked (without counting) before the request is even read; a successful sign-in is ordinary API
 * traffic and counts against the organization's `api` bucket.
 */
import type { Actor, BaseContext, Call, WorkspaceContext } from "../../core/context";
import type { Decision } from "../../engines/rate-limit/sliding-window";
import { sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { isScope, type Scope } from "../../lib/scopes";
import { callerKey, hitBucket, rateLimited } from "../../middleware/rate-limit";
import { type ClientRecord, findClientByClientId } from "../api-clients/service";
import { type ClientCredentials, oauthError, parseTokenRequest } from "./request";
import { signToken } from "./tokens";

// Hash compared when the client id is unknown, so both failures cost the same.
const DUMMY_HASH = "0".repeat(64);

export interface TokenRequest {
  /** The workspace the host names: tokens are bound to it. */
  workspace: WorkspaceContext;
  /** The caller's address: failed sign-ins are limited per IP. */
  ip: string;
  contentType: string;
  authorization: string | undefined;
  /** Reads the body; called only once the IP is known to be under its failed-attempt limit. */
  readBody: () => Promise<ArrayBuffer>;
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
  scopes: Scope[];
  /** The client that signed in, as the audit row's actor. */
  actor: Actor;
  /** The organization's `api` bucket after this request, for the RateLimit-* headers. */
  decision: Decision;
}

/** The signed-in client, or invalid_client (counting the failure against the IP). */
async function authenticate(
  ctx: BaseContext,
  request: TokenRequest,
  credentials: ClientCredentials,
): Promise<ClientRecord> {
  const { workspace } = request;
  const client = await findClientByClientId({
    ctx,
    input: { workspaceId: workspace.id, clientId: credentials.clientId },
  });
  const presented = await sha256Hex(credentials.secret);
  const matches = timingSafeEqual(presented, client?.secretHash ?? DUMMY_HASH) && client !== null;
  if (!client || !matches) {
    await hitBucket(
      ctx.env,
      workspace,
      { bucket: "sign_in_ip", key: `sign_in_ip:${request.ip}` },
      ctx.deps.clock.now(),
    );
    throw oauthError("invalid_client", "Client authentication failed", credentials.basic);
  }
  return client;
}

/** The client's scopes, narrowed to those asked for; invalid_scope for any it does not hold. */
function grantedScopes(client: ClientRecord, scope: string | undefined): Scope[] {
  if (scope === undefined) return client.scopes;
  const asked = scope.trim().split(/\s+/);
  const unknown = asked.filter((s) => !isScope(s) || !client.scopes.includes(s));
  if (unknown.length) throw oauthError("invalid_scope", `Scopes not granted to this client: ${unknown.join(" ")}`);
  return client.scopes.filter((s) => asked.includes(s));
}

/** Issues an access token for good client credentials, bound to the request's workspace. */
export async function issueToken({ ctx, input }: Call<TokenRequest, BaseContext>): Promise<IssuedToken> {
  const { workspace } = input;
  const gate = await hitBucket(
    ctx.env,
    workspace,
    { bucket: "sign_in_ip", key: `sign_in_ip:${input.ip}`, consume: false },
    ctx.deps.clock.now(),
  );
  if (!gate.allowed) throw rateLimited(gate, "sign-in attempts from this IP");

  const credentials = parseTokenRequest(input.contentType, await input.readBody(), input.authorization);
  const client = await authenticate(ctx, input, credentials);
  const scopes = grantedScopes(client, credentials.scope);

  const decision = await hitBucket(
    ctx.env,
    workspace,
    { bucket: "api", key: callerKey("api", workspace, client.customerId) },
    ctx.deps.clock.now(),
  );
  if (!decision.allowed) throw rateLimited(decision, "this organization");

  const expiresIn = Number(ctx.env.TOKEN_TTL_SECONDS) || 3600;
  const { token } = await signToken(
    ctx.env.TOKEN_SIGNING_SECRET,
    { sub: client.id, ws: workspace.id, cid: client.clientId, scp: scopes.join(" ") },
    ctx.deps.clock.now(),
    expiresIn,
  );
  const actor: Actor = {
    clientRowId: client.id,
    clientId: client.clientId,
    clientName: client.name,
    scopes,
    customerId: client.customerId,
  };
  return { token, expiresIn, scopes, actor, decision };
}
