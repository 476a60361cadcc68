/**
 * Turns anything thrown into the spec's JSON: the envelope for errors, `{error, message}` for 429, never
 * HTML and never a stack. Also the 404 / 405 answer for unmatched requests.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

function render(c: Context<AppEnv>, err: ApiError): Response {
  c.set("errorSummary", `${err.code}: ${err.message}`);
  return c.json(err.body(c.get("requestId")), err.status as 400, err.headers);
}

export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) return render(c, err);
  if (err instanceof HTTPException) {
    // Raised by Hono's body parsing (e.g. malformed JSON in the validator).
    const malformed = err.status === 400;
    return render(
      c,
      new ApiError(
        malformed ? "invalid_json" : "bad_request",
        malformed ? "Malformed JSON in request body" : err.message,
      ),
    );
  }
  console.error(
    JSON.stringify({
      msg: "unhandled error",
      request_id: c.get("requestId"),
      path: c.req.path,
      error: String(err),
      stack: err.stack,
    }),
  );
  return render(c, new ApiError("internal_error", "Internal server error"));
}

type RouteList = readonly { method: string; path: string }[];
let compiled: { method: string; re: RegExp }[] | undefined;

function compile(routes: RouteList) {
  return routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      re: new RegExp(
        `^${r.path
          .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
          .replace(/\\?:[A-Za-z0-9_]+(\\\{[^/]*\\\})?/g, "[^/]+")
          .replace(/\*/g, ".*")}/?$`,
      ),
    }));
}

/** 405 with `Allow` when the path exists under other methods, else 404. */
export const notFoundHandler = (routes: () => RouteList) => (c: Context<AppEnv>) => {
  compiled ??= compile(routes());
  const path = c.req.path;
  const methods = [...new Set(compiled.filter((r) => r.re.test(path)).map((r) => r.method))];
  if (methods.length && !methods.includes(c.req.method)) {
    const allow = methods.includes("GET") && !methods.includes("HEAD") ? [...methods, "HEAD"] : methods;
    return render(
      c,
      new ApiError(
        "method_not_allowed",
        `Method ${c.req.method} not allowed on ${path}`,
        { allow },
        { Allow: allow.join(", ") },
      ),
    );
  }
  return render(c, new ApiError("not_found", `No route for ${c.req.method} ${path}`));
};
