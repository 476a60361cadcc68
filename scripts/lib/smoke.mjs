/**
 * The post-deploy smoke test: the few calls that prove a deployment answers end to end. It provisions a
 * throwaway sandbox workspace through the platform API, takes a token on the workspace host, and checks
 * `/me`, a calculate, a screen, and a consignment create and delete. Each step checks the status and the
 * fields an operator would look at (the reference data is loaded: calculate has duty lines and screen finds a
 * listed party).
 *
 * `connect` (host:port) sends every request to that address while keeping the URL's Host header, so the same
 * steps run against `wrangler dev` on 127.0.0.1 with workspace hosts under `localhost`.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import sample from "../../test/fixtures/sample-consignment.json" with { type: "json" };

/** One HTTP exchange; the JSON body parsed when there is one. */
function exchange(url, { method = "GET", headers = {}, body, connect }) {
  const u = new URL(url);
  const secure = u.protocol === "https:";
  const [connectHost, connectPort] = connect ? connect.split(":") : [u.hostname, u.port];
  const options = {
    host: connectHost,
    port: Number(connectPort || (secure ? 443 : 80)),
    servername: u.hostname,
    method,
    path: `${u.pathname}${u.search}`,
    headers: { host: u.host, ...headers },
    timeout: 30_000,
  };
  if (body !== undefined) options.headers["content-length"] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(options, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON: the step's check reports the text
        }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** The same consignment the tests and the fault script send (test/fixtures/sample-consignment.json). */
const CONSIGNMENT = { ...sample, shipment_ref: "SMOKE-1" };

/**
 * Runs every step in order and stops at the first failure. Returns the step results
 * ({name, ok, status, ms, detail}); `log` gets one line per step.
 */
export async function runSmoke({ baseUrl, platformToken, connect, slug, log = () => {} }) {
  const base = new URL(baseUrl);
  const bare = `${base.protocol}//${base.host}`;
  const wsSlug = slug ?? `smoke-${Date.now().toString(36)}`;
  const ws = `${base.protocol}//${wsSlug}.${base.host}`;
  const api = `${ws}/admin/api/v1`;
  const results = [];
  let token;

  const step = async (name, fn) => {
    const started = Date.now();
    try {
      const { status, detail } = await fn();
      results.push({ name, ok: true, status, ms: Date.now() - started, detail });
      log(`ok   ${name} (${status}, ${Date.now() - started} ms)${detail ? `: ${detail}` : ""}`);
    } catch (err) {
      results.push({ name, ok: false, ms: Date.now() - started, detail: err.message });
      log(`FAIL ${name}: ${err.message}`);
      throw err;
    }
  };
  const expect = (res, status, what) => {
    if (res.status !== status)
      throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };
  const json = (method, url, body, auth) =>
    exchange(url, {
      method,
      connect,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
      },
    });

  try {
    await step("health", async () => {
      const res = expect(await exchange(`${bare}/health`, { connect }), 200, "GET /health");
      return { status: res.status };
    });
    let credentials;
    await step("provision workspace", async () => {
      const created = expect(
        await json(
          "POST",
          `${bare}/platform/v1/workspaces`,
          { slug: wsSlug, name: "Smoke test", mode: "sandbox" },
          platformToken,
        ),
        201,
        "POST /platform/v1/workspaces",
      );
      const client = expect(
        await json(
          "POST",
          `${bare}/platform/v1/workspaces/${wsSlug}/api-clients`,
          { name: "smoke", scopes: ["consignments:read", "consignments:write", "calculate:read", "screen:read"] },
          platformToken,
        ),
        201,
        "POST /platform/v1/workspaces/{slug}/api-clients",
      );
      credentials = client.json.api_client;
      return { status: created.status, detail: wsSlug };
    });
    await step("token", async () => {
      const res = expect(
        await exchange(`${ws}/admin/oauth2/token`, {
          method: "POST",
          connect,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: credentials.client_id,
            client_secret: credentials.client_secret,
          }).toString(),
        }),
        200,
        "POST /admin/oauth2/token",
      );
      token = res.json?.access_token;
      if (!token) throw new Error("no access_token in the token response");
      return { status: res.status };
    });
    await step("me", async () => {
      const res = expect(await json("GET", `${api}/me`, undefined, token), 200, "GET /me");
      const slugSeen = JSON.stringify(res.json).includes(wsSlug);
      if (!slugSeen) throw new Error(`/me does not name workspace ${wsSlug}: ${res.text.slice(0, 200)}`);
      return { status: res.status };
    });
    await step("calculate", async () => {
      const res = expect(
        await json(
          "POST",
          `${api}/calculate`,
          {
            hs_code: "6109.10.00",
            origin_country: "VN",
            destination_country: "US",
            declared_value: 1000,
            currency: "USD",
            entry_date: "2026-03-02",
          },
          token,
        ),
        200,
        "POST /calculate",
      );
      const text = res.text;
      if (!/"duty/.test(text) || !/data_source/.test(text))
        throw new Error(`calculate answered without duty or data_source: ${text.slice(0, 300)}`);
      return { status: res.status };
    });
    await step("screen", async () => {
      const res = expect(
        await json("POST", `${api}/screen`, { name: "Banco Nacional de Cuba" }, token),
        200,
        "POST /screen",
      );
      const top = res.json?.matches?.[0];
      if (!top || top.score < 0.85)
        throw new Error(`a listed party was not found (is the sanctions data loaded?): ${res.text.slice(0, 300)}`);
      return { status: res.status, detail: `top match ${top.score} on ${top.list_code}` };
    });
    let consignmentId;
    await step("consignment create", async () => {
      const res = expect(await json("POST", `${api}/consignments`, CONSIGNMENT, token), 201, "POST /consignments");
      consignmentId = res.json?.data?.consignment?.id;
      if (!consignmentId) throw new Error("no consignment id in the 201");
      return { status: res.status, detail: consignmentId };
    });
    await step("consignment delete", async () => {
      const res = await json("DELETE", `${api}/consignments/${consignmentId}`, undefined, token);
      if (res.status !== 200 && res.status !== 204)
        throw new Error(`DELETE /consignments/{id}: expected 200 or 204, got ${res.status} ${res.text.slice(0, 300)}`);
      const gone = await json("GET", `${api}/consignments/${consignmentId}`, undefined, token);
      if (gone.status !== 404) throw new Error(`the deleted consignment still answers ${gone.status}`);
      return { status: res.status };
    });
  } catch {
    // reported in `results`
  }
  return { ok: results.every((r) => r.ok) && results.length === 8, workspace: wsSlug, results };
}
