import type { Actor, Deps, ServiceContext, WorkspaceContext } from "./core/context";
import type { Decision } from "./engines/rate-limit/sliding-window";
import type { HitOptions } from "./middleware/rate-limit";

/** Where a request came in: the spec's archive surfaces plus the operator surface. */
export type Surface = "admin-api" | "api" | "platform" | "public";

interface ArchivedBody {
  key: string;
  size: number;
  contentType: string | null;
}

export type AppEnv = {
  Bindings: Env;
  /**
   * Read with `c.get(name)`, not `c.var.name`: hono's `c.var` getter copies every variable into a new object on
   * each access, and the hot path reads these a few dozen times per request.
   */
  Variables: {
    requestId: string;
    startedAt: number;
    deps: Deps;
    surface: Surface;
    workspace: WorkspaceContext | undefined;
    auth: Actor | undefined;
    /** The service context, set by bearerAuth on workspace routes (see WorkspaceEnv). */
    ctx: ServiceContext | undefined;
    /** Set by the platform-token check; used as the audit actor. */
    platformAdmin: boolean;
    archived: ArchivedBody | undefined;
    /** Set by archiveBodyAlongside: a write awaits it right before committing (see src/middleware/archive.ts). */
    archiveGate: (() => Promise<void>) | undefined;
    /** Set by the audit step on mutating requests: writes the row of an answer whose handler wrote nothing. */
    auditNow: (() => Promise<void>) | undefined;
    /** One line for the audit row when the response is an error. */
    errorSummary: string | undefined;
    /**
     * The `api` bucket charge bearerAuth left to the route's own bucket middleware (one call to the
     * organization's object for both); `decision` is set once charged.
     */
    apiCharge: { opts: HitOptions; decision: Decision | undefined } | undefined;
  };
};

/**
 * The environment of a workspace route (`{api}`): mounted only behind host routing and bearerAuth, which set
 * the workspace, the actor and the service context, so none of them is optional here.
 */
export type WorkspaceEnv = {
  Bindings: Env;
  Variables: Omit<AppEnv["Variables"], "workspace" | "auth" | "ctx"> & {
    workspace: WorkspaceContext;
    auth: Actor;
    ctx: ServiceContext;
  };
};
