/**
 * The smoke runner's own checks, against a small HTTP server that answers like the API: it must pass on good
 * answers, stop at the first bad one, and address workspace hosts through the Host header.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";
import { runSmoke } from "./lib/smoke.mjs";

function fakeApi({ screenStatus = 200 } = {}) {
  const seen = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method, host: req.headers.host, url: req.url, auth: req.headers.authorization });
      const send = (status, obj) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(obj));
      };
      const route = `${req.method} ${req.url}`;
      if (route === "GET /health") return send(200, { status: "ok" });
      if (route === "POST /platform/v1/workspaces") return send(201, { workspace: { slug: JSON.parse(body).slug } });
      if (route.startsWith("POST /platform/v1/workspaces/"))
        return send(201, { api_client: { client_id: "cid", client_secret: "sec" } });
      if (route === "POST /admin/oauth2/token") return send(200, { access_token: "tok" });
      if (route === "GET /admin/api/v1/me") return send(200, { workspace: { slug: req.headers.host.split(".")[0] } });
      if (route === "POST /admin/api/v1/calculate") return send(200, { duty: "12.00", data_source: {} });
      if (route === "POST /admin/api/v1/screen")
        return screenStatus === 200
          ? send(200, { matches: [{ score: 1, list_code: "SDN" }] })
          : send(screenStatus, { success: false, message: "No sanctions list is loaded" });
      if (route === "POST /admin/api/v1/consignments") return send(201, { data: { consignment: { id: "con_1" } } });
      if (route === "DELETE /admin/api/v1/consignments/con_1") return send(200, { deleted: true, id: "con_1" });
      if (route === "GET /admin/api/v1/consignments/con_1") return send(404, { success: false });
      send(404, { success: false });
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, seen })));
}

test("passes on good answers and addresses the workspace by Host", async () => {
  const { server, seen } = await fakeApi();
  const port = server.address().port;
  try {
    const r = await runSmoke({
      baseUrl: "http://api.test",
      platformToken: "pt",
      connect: `127.0.0.1:${port}`,
      slug: "smk",
    });
    assert.equal(r.ok, true, JSON.stringify(r.results));
    assert.equal(r.results.length, 8);
    assert.equal(seen.find((s) => s.url === "/platform/v1/workspaces").auth, "Bearer pt");
    assert.equal(seen.find((s) => s.url === "/admin/api/v1/me").host, "smk.api.test");
    assert.equal(seen.find((s) => s.url === "/admin/api/v1/me").auth, "Bearer tok");
  } finally {
    server.close();
  }
});

test("fails and stops at the first bad step (no sanctions data)", async () => {
  const { server, seen } = await fakeApi({ screenStatus: 503 });
  const port = server.address().port;
  try {
    const r = await runSmoke({ baseUrl: "http://api.test", platformToken: "pt", connect: `127.0.0.1:${port}` });
    assert.equal(r.ok, false);
    const failed = r.results.find((x) => !x.ok);
    assert.equal(failed.name, "screen");
    assert.match(failed.detail, /503/);
    assert.ok(!seen.some((s) => s.url === "/admin/api/v1/consignments"), "no step after the failure");
  } finally {
    server.close();
  }
});
