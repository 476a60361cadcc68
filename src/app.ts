/**
 * Builds the Hono app: the middleware chain, the modules, the OpenAPI document and the reference page.
 *
 *   request-context → audit → host routing (tenancy) → surface guards → route guards → handler
 *   surface guards: {api}: bearer auth + organization `api` bucket; /platform: platform token + archive
 *   route guards:   scope (403) → extra buckets → body archive (413/415, R2)
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { Deps } from "./core/context";
import type { AppEnv } from "./env";
import { docsCors, mountDocs } from "./http/docs";
import { notFoundHandler, onError } from "./http/errors";
import { systemClock } from "./lib/clock";
import { systemIds } from "./lib/ids";
import { SCOPES } from "./lib/scopes";
import { archiveBody } from "./middleware/archive";
import { audit } from "./middleware/audit";
import { bearerAuth, platformAuth } from "./middleware/auth";
import { d1Session } from "./middleware/d1-session";
import { hostRouting } from "./middleware/host";
import { idempotency } from "./middleware/idempotency";
import { requestContext } from "./middleware/request-context";
import { apiClientRoutes } from "./modules/api-clients/routes";
import { tokenRoutes } from "./modules/auth/routes";
import { calculateRoutes } from "./modules/calculate/routes";
import { catalogueRoutes } from "./modules/catalogue/routes";
import { classifyRoutes } from "./modules/classify/routes";
import { complianceRoutes } from "./modules/compliance/routes";
import { assessmentRoutes } from "./modules/consignments/assessment-routes";
import { consignmentRoutes } from "./modules/consignments/routes";
import { customerRoutes } from "./modules/customers/routes";
import { datasetRoutes, UPLOAD_PATH } from "./modules/datasets/routes";
import { flowRoutes } from "./modules/flows/routes";
import { labelRoutes } from "./modules/labels/routes";
import { manifestRoutes } from "./modules/manifests/routes";
import { meRoutes } from "./modules/me/routes";
import { requestRoutes } from "./modules/requests/routes";
import { restrictRoutes } from "./modules/restrict/routes";
import { screenRoutes } from "./modules/screen/routes";
import { screeningRoutes } from "./modules/screening/routes";
import { settingsRoutes } from "./modules/settings/routes";
import { validationRuleRoutes } from "./modules/validation-rules/routes";
import { webhookRoutes } from "./modules/webhooks/routes";
import { platformRoutes } from "./modules/workspaces/routes";

export const API_PREFIX = "/admin/api/v1";

/**
 * Each route's success status (its lowest documented 2xx), keyed "METHOD /path/:param" as Hono names the
 * matched route; built once, on the first write that needs it, when every route is registered.
 */
const successCache = new WeakMap<object, Map<string, number>>();
function successStatuses(app: OpenAPIHono<AppEnv>): Map<string, number> {
  let map = successCache.get(app);
  if (map) return map;
  map = new Map();
  for (const def of app.openAPIRegistry.definitions) {
    if (def.type !== "route") continue;
    const codes = Object.keys(def.route.responses ?? {})
      .map(Number)
      .filter((n) => n >= 200 && n < 300)
      .sort((a, b) => a - b);
    const path = def.route.path.replace(/\{([^}]+)\}/g, ":$1");
    if (codes[0] !== undefined) map.set(`${def.route.method.toUpperCase()} ${path}`, codes[0]);
  }
  successCache.set(app, map);
  return map;
}

/**
 * A dataset upload streams its body into R2 itself (it may be far larger than the JSON bodies the archive
 * middleware buffers), and the same files are idempotent by content, so neither middleware reads it.
 */
const unlessDatasetUpload = (mw: MiddlewareHandler<AppEnv>) =>
  createMiddleware<AppEnv>(async (c, next) =>
    c.req.method === "POST" && UPLOAD_PATH.test(c.req.path) ? next() : mw(c, next),
  );

export function createApp(deps: Deps = { clock: systemClock, ids: systemIds }) {
  const app = new OpenAPIHono<AppEnv>();

  // The ceiling route for the benchmark and load balancers: no tenancy, no audit.
  app.use("*", requestContext(deps));
  // Before auth and audit: a preflight from the docs page is answered here (see http/docs.ts).
  app.use("*", docsCors);
  // `service` lets `npm run dev` tell this server from another one holding the port.
  app.get("/health", (c) => c.json({ status: "ok", service: "trade-compliance-api" }));

  app.use(
    "*",
    audit((method, route) => successStatuses(app).get(`${method} ${route}`)),
  );
  app.use("*", hostRouting);

  app.use("/platform/v1/*", platformAuth, unlessDatasetUpload(idempotency), unlessDatasetUpload(archiveBody));
  app.route("/platform/v1", platformRoutes);
  app.route("/platform/v1", datasetRoutes);

  app.route("/", tokenRoutes);

  app.use(`${API_PREFIX}/*`, d1Session, bearerAuth, idempotency);
  app.use("/api/*", d1Session, bearerAuth);
  app.route(API_PREFIX, meRoutes);
  app.route(API_PREFIX, apiClientRoutes);
  app.route(API_PREFIX, requestRoutes);
  app.route(API_PREFIX, webhookRoutes);
  app.route(API_PREFIX, customerRoutes);
  app.route(API_PREFIX, catalogueRoutes);
  app.route(API_PREFIX, consignmentRoutes);
  app.route(API_PREFIX, assessmentRoutes);
  app.route(API_PREFIX, complianceRoutes);
  app.route(API_PREFIX, validationRuleRoutes);
  app.route(API_PREFIX, flowRoutes);
  app.route("/api", requestRoutes);
  app.route(API_PREFIX, calculateRoutes);
  app.route(API_PREFIX, settingsRoutes);
  app.route(API_PREFIX, restrictRoutes);
  app.route(API_PREFIX, screeningRoutes);
  app.route(API_PREFIX, manifestRoutes);
  app.route(API_PREFIX, labelRoutes);
  app.route(API_PREFIX, classifyRoutes);
  app.route(API_PREFIX, screenRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "oauth2", {
    type: "oauth2",
    description: "Client credentials at {base_url}/admin/oauth2/token; send `Authorization: Bearer <access_token>`.",
    flows: {
      clientCredentials: {
        tokenUrl: "/admin/oauth2/token",
        scopes: Object.fromEntries(SCOPES.map((s) => [s, s])),
      },
    },
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "platformAdmin", {
    type: "http",
    scheme: "bearer",
    description: "PLATFORM_ADMIN_TOKEN, on the bare base host only",
  });
  mountDocs(app);

  app.notFound(notFoundHandler(() => app.routes));
  app.onError(onError);
  return app;
}
