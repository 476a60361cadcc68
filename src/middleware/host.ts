/**
 * Tenancy from the Host header: `{slug}.{WORKSPACE_BASE_DOMAIN}` is workspace `slug`; anything else is the
 * bare platform host. Workspace surfaces (`/admin/*`, `/api/*`) exist only on workspace hosts and the
 * operator surface (`/platform/*`) only on the bare host; both answer 404 JSON elsewhere.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { baseContext } from "../core/context";
import type { AppEnv, Surface } from "../env";
import { isDevelopment } from "../lib/environment";
import { notFound } from "../lib/errors";
import { findWorkspaceBySlug } from "../modules/workspaces/service";

/** The workspace slug a host names, or null for the bare host. Ports are ignored. */
function slugFromHost(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const name = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  const suffix = `.${baseDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return null;
  return name.slice(0, -suffix.length);
}

function surfaceOf(path: string): Surface {
  if (path.startsWith("/admin/")) return "admin-api";
  if (path.startsWith("/api/")) return "api";
  if (path.startsWith("/platform/")) return "platform";
  return "public";
}

/**
 * Local development only: `X-Workspace: <slug>` on the bare host names the workspace. Node's fetch drops a
 * user-set Host header and often cannot resolve `*.localhost`, so a Node client of `npm run dev` could not
 * otherwise reach a workspace. Ignored outside development (fail closed: see lib/environment.ts).
 */
function devSlug(c: Context<AppEnv>): string | null {
  if (!isDevelopment(c.env)) return null;
  const slug = c.req.header("x-workspace")?.trim().toLowerCase();
  return slug && /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? slug : null;
}

export const hostRouting = createMiddleware<AppEnv>(async (c, next) => {
  const path = c.req.path;
  const surface = surfaceOf(path);
  c.set("surface", surface);
  // The Host header is what the client called; a request built in code may carry it only in its URL.
  const slug = slugFromHost(c.req.header("host") ?? new URL(c.req.url).host, c.env.WORKSPACE_BASE_DOMAIN) ?? devSlug(c);

  if (slug === null) {
    if (surface === "admin-api" || surface === "api") {
      throw notFound(`No workspace: call {slug}.${c.env.WORKSPACE_BASE_DOMAIN} for workspace routes`);
    }
    return next();
  }
  if (surface === "platform") throw notFound("The platform API is served on the bare host only");
  const workspace = await findWorkspaceBySlug({ ctx: baseContext(c.env, c.get("deps")), input: { slug } });
  if (!workspace) throw notFound(`Unknown workspace '${slug}'`);
  c.set("workspace", workspace);
  return next();
});
