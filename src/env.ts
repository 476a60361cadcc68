import type { BucketName } from "./engines/rate-limit/buckets";
import type { BucketLimit } from "./engines/rate-limit/sliding-window";
import type { Clock } from "./lib/clock";
import type { IdSource } from "./lib/ids";
import type { Scope } from "./lib/scopes";
import type { usageLog } from "./db/schema/usage";

export type UsageLogInsert = typeof usageLog.$inferInsert;

/** What a handler may know about the workspace the request's host names. */
export interface WorkspaceContext {
  id: string;
  slug: string;
  name: string;
  mode: "live" | "sandbox";
  organizationId: string;
  createdAt: string;
  archiveRetentionDays: number;
  limits: Record<BucketName, BucketLimit>;
}

/** The authenticated API client behind a bearer token. Scopes are the client's current ones. */
export interface AuthContext {
  clientRowId: string;
  clientId: string;
  clientName: string;
  scopes: Scope[];
  customerId: number | null;
}

export interface Deps {
  clock: Clock;
  ids: IdSource;
}

/** Where a request came in: the spec's archive surfaces plus the operator surface. */
export type Surface = "admin-api" | "api" | "platform" | "public";

export interface ArchivedBody {
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
    auth: AuthContext | undefined;
    /** Set by the platform-token check; used as the audit actor. */
    platformAdmin: boolean;
    archived: ArchivedBody | undefined;
    /** Set by archiveBodyAlongside: a write awaits it right before committing (see src/middleware/archive.ts). */
    archiveGate: (() => Promise<void>) | undefined;
    /**
     * A usage-log row to write with this request's audit row, in the same group-committed batch after the
     * response (engines whose log is not evidence that must exist before the answer).
     */
    usage: UsageLogInsert | undefined;
    /** One line for the audit row when the response is an error. */
    errorSummary: string | undefined;
  };
};
