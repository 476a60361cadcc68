#!/usr/bin/env node
/**
 * `npm run test:faults`: what a crash does to acknowledged writes.
 *
 * Starts `wrangler dev` on fresh local state, provisions a workspace, sends a bounded burst of consignment
 * creates (FAULT_CREATES, default 300, FAULT_CONCURRENCY at a time, default 16), and SIGKILLs wrangler and its
 * workerd children once FAULT_KILL_AFTER creates (default 40% of the burst) have been acknowledged, while the
 * rest are in flight. Then it restarts the server on the same state and checks, through the API:
 *
 *   acknowledged creates        creates answered 201 before the kill
 *   missing consignments        acknowledged, but GET /consignments/{id} is not 200
 *   missing audit rows          acknowledged, but GET /api/requests/{X-Request-Id} is not 200 with status 201
 *   missing bodies              acknowledged, but /api/requests/{id}/body is not the bytes that were sent
 *   rows without audit          consignments in the workspace (acknowledged or not) with no audit row of a
 *                               create that carries their shipment_ref
 *
 * Exit status 0 only when the four "missing"/"without" figures are all zero. The state lives in a temporary
 * directory removed at the end; port FAULT_PORT (default 8797) must be free.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const IP = "127.0.0.1";
const PORT = Number(process.env.FAULT_PORT ?? 8797);
const CREATES = Number(process.env.FAULT_CREATES ?? 300);
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 16);
const KILL_AFTER = Number(process.env.FAULT_KILL_AFTER ?? Math.floor(CREATES * 0.4));
const SLUG = "faults";
const WS_HOST = `${SLUG}.localhost:${PORT}`;
const BARE_HOST = `localhost:${PORT}`;

const STATE = mkdtempSync(join(tmpdir(), "trade-compliance-faults-"));
const ENV_FILE = join(STATE, "faults.env");
const secrets = {
  PLATFORM_ADMIN_TOKEN: randomBytes(24).toString("base64url"),
  TOKEN_SIGNING_SECRET: randomBytes(32).toString("base64url"),
  WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString("base64url")}`,
};

const log = (msg) => process.stdout.write(`[faults] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One request with an explicit Host (Node's fetch would replace it with the URL's authority). */
function call({ method = "GET", path, host = WS_HOST, token, body, contentType = "application/json" }) {
  return new Promise((resolve, reject) => {
    const headers = { host };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers["content-type"] = contentType;
      headers["content-length"] = Buffer.byteLength(body);
    }
    const req = httpRequest({ host: IP, port: PORT, method, path, headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on("error", reject);
    req.end(body);
  });
}

let server = null;

function start() {
  server = spawn(
    process.execPath,
    [
      WRANGLER,
      "dev",
      "--ip",
      IP,
      "--port",
      String(PORT),
      "--inspector-port",
      "0",
      "--persist-to",
      STATE,
      "--env-file",
      ENV_FILE,
      "--var",
      "ENVIRONMENT:development",
      "--show-interactive-dev-session=false",
      "--log-level",
      "warn",
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], detached: true },
  );
  return waitForHealth();
}

async function waitForHealth() {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      if ((await call({ path: "/health", host: BARE_HOST })).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error("the server did not answer /health within 90 s");
}

/** Every process below `pid` (workerd may leave wrangler's process group, so the tree is walked). */
function descendants(pid) {
  const out = spawnSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" }).stdout;
  const children = new Map();
  for (const line of out.trim().split("\n")) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    if (!children.has(pp)) children.set(pp, []);
    children.get(pp).push(p);
  }
  const all = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of children.get(stack.pop()) ?? []) {
      all.push(c);
      stack.push(c);
    }
  }
  return all;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * SIGKILL to wrangler and every process under it at once: workerd gets no chance to finish anything. The
 * signals go out synchronously, from the callback of the response that reached the kill point (the process
 * list is read beforehand, in `armKill`), so the server stops within the same millisecond.
 */
let armed = [];
function armKill() {
  armed = [server.pid, ...descendants(server.pid)];
}

function killNow() {
  for (const pid of armed) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

async function kill() {
  if (!server) return;
  const pids = [server.pid, ...descendants(server.pid)];
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (let i = 0; i < 50 && pids.some(alive); i++) await sleep(100);
  server = null;
}

async function portIsFree() {
  try {
    await call({ path: "/health", host: BARE_HOST });
    return false;
  } catch {
    return true;
  }
}

async function provision() {
  const admin = { host: BARE_HOST, token: secrets.PLATFORM_ADMIN_TOKEN };
  const ws = await call({
    ...admin,
    method: "POST",
    path: "/platform/v1/workspaces",
    body: JSON.stringify({ slug: SLUG, name: "Faults", mode: "sandbox" }),
  });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${ws.text}`);
  // The burst must be answered by the Worker, not by the consignment-create rate limit.
  const limits = { limit: 1_000_000, window_seconds: 10 };
  await call({
    ...admin,
    method: "PATCH",
    path: `/platform/v1/workspaces/${SLUG}`,
    body: JSON.stringify({ rate_limits: { api: limits, consignment_create: limits } }),
  });
  const client = await call({
    ...admin,
    method: "POST",
    path: `/platform/v1/workspaces/${SLUG}/api-clients`,
    body: JSON.stringify({ name: "faults", scopes: ["consignments:read", "consignments:write", "requests:read"] }),
  });
  if (client.status !== 201) throw new Error(`api client: ${client.status} ${client.text}`);
  const { client_id, client_secret } = JSON.parse(client.text).api_client;
  const token = await call({
    method: "POST",
    path: "/admin/oauth2/token",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id, client_secret }).toString(),
    contentType: "application/x-www-form-urlencoded",
  });
  return JSON.parse(token.text).access_token;
}

const createBody = (i) =>
  JSON.stringify({
    shipment_ref: `FAULT-${i}`,
    sender: {
      company_name: "Acme Ltd",
      address_1: "1 High St",
      city: "London",
      post_code: "E1 6AN",
      country_code: "GB",
    },
    receiver: {
      company_name: "Buyer Inc",
      address_1: "5 Main St",
      city: "Austin",
      post_code: "73301",
      country_code: "US",
    },
    parcels: [
      {
        weight_value: 1,
        items: [
          {
            sku: `SKU-${i}`,
            title: "Cotton T-shirt",
            quantity: 1,
            unit_value: 10,
            currency_code: "GBP",
            country_of_origin: "PT",
            hs_code: "6109.10",
          },
        ],
      },
    ],
  });

/** The burst: returns every acknowledged create (request id, consignment id, body sent). */
async function burst(token) {
  const acknowledged = [];
  let next = 0;
  let failed = 0;
  let refusal = null;
  let killing = null;
  async function worker() {
    while (next < CREATES) {
      const i = next++;
      const body = createBody(i);
      try {
        const res = await call({ method: "POST", path: "/admin/api/v1/consignments", token, body });
        if (res.status === 201) {
          const id = JSON.parse(res.text).data.consignment.id;
          acknowledged.push({ i, requestId: res.headers["x-request-id"], id, body });
          if (acknowledged.length === KILL_AFTER) {
            killNow();
            killing = kill();
          }
        } else {
          failed++;
          refusal ??= `${res.status} ${res.text.slice(0, 300)}`;
        }
      } catch {
        failed++; // the connection died with the server
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await (killing ?? kill()); // a burst that ended before the kill point still ends in a kill
  if (refusal) log(`first refusal: ${refusal}`);
  return { acknowledged, failed };
}

async function check(token, acknowledged) {
  const figures = {
    "missing consignments": 0,
    "missing audit rows": 0,
    "missing bodies": 0,
    "rows without audit": 0,
  };
  for (const a of acknowledged) {
    if ((await call({ path: `/admin/api/v1/consignments/${a.id}`, token })).status !== 200)
      figures["missing consignments"]++;
    const row = await call({ path: `/api/requests/${a.requestId}`, token });
    if (row.status !== 200 || JSON.parse(row.text).request?.http_status !== 201) figures["missing audit rows"]++;
    const body = await call({ path: `/api/requests/${a.requestId}/body`, token });
    if (body.status !== 200 || body.text !== a.body) figures["missing bodies"]++;
  }
  // Every consignment the server holds, acknowledged or not, must have the audit row of its create.
  let stored = 0;
  let after = "";
  for (;;) {
    const page = await call({
      path: `/admin/api/v1/consignments?limit=100${after ? `&starting_after=${after}` : ""}`,
      token,
    });
    if (page.status !== 200) throw new Error(`listing consignments: ${page.status} ${page.text.slice(0, 300)}`);
    const { consignments: data, has_more } = JSON.parse(page.text);
    for (const c of data) {
      stored++;
      const ref = c.shipment_ref;
      const found = await call({ path: `/api/requests?ref=${encodeURIComponent(ref)}&method=POST`, token });
      const rows = found.status === 200 ? JSON.parse(found.text).requests : [];
      if (!rows.some((r) => r.path === "/admin/api/v1/consignments")) figures["rows without audit"]++;
    }
    if (!has_more || !data.length) break;
    after = data[data.length - 1].id;
  }
  return { figures, stored };
}

async function main() {
  if (!(await portIsFree())) throw new Error(`port ${PORT} is in use (set FAULT_PORT)`);
  writeFileSync(
    ENV_FILE,
    `${Object.entries(secrets)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n")}\n`,
  );
  log(`state in ${STATE}`);
  const migrate = spawnSync(
    process.execPath,
    [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE],
    {
      cwd: ROOT,
      env: { ...process.env, CI: "true" },
      encoding: "utf8",
    },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  await start();
  const token = await provision();
  log(`burst of ${CREATES} creates, ${CONCURRENCY} at a time; SIGKILL after ${KILL_AFTER} acknowledged`);
  armKill();
  const { acknowledged, failed } = await burst(token);
  log(`killed: ${acknowledged.length} acknowledged, ${failed} without an answer`);
  await start();
  const { figures, stored } = await check(token, acknowledged);
  const out = { "acknowledged creates": acknowledged.length, ...figures };
  log(`after restart: ${stored} consignments stored (${stored - acknowledged.length} committed without an answer)`);
  for (const [k, v] of Object.entries(out)) process.stdout.write(`${k.padEnd(24)} ${v}\n`);
  return Object.values(figures).every((v) => v === 0) && acknowledged.length > 0;
}

let ok = false;
try {
  ok = await main();
} catch (err) {
  process.stderr.write(`[faults] ${err instanceof Error ? err.stack : err}\n`);
} finally {
  await kill();
  rmSync(STATE, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
