#!/usr/bin/env node
/**
 * `npm run dev`: prepares local state and starts `wrangler dev` on http://127.0.0.1:8787.
 *
 * 1. writes .dev.vars with fresh local secrets when it is missing (kept on later runs);
 * 2. applies D1 migrations to the local database (a no-op when up to date);
 * 3. loads reference data into local D1 when its version is not loaded yet (scripts/load-data.mjs);
 * 4. starts wrangler dev, then makes sure the `demo` workspace and its all-scopes client exist, through the
 *    platform API, and prints the base URL and credentials. The credentials are kept in .dev-demo.json,
 *    because the server stores only a hash of the secret; running again reuses them.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.PORT ?? 8787);
const HOST = "127.0.0.1";
const DEMO_SLUG = "demo";
const DEV_VARS = join(root, ".dev.vars");
const DEMO_FILE = join(root, ".dev-demo.json");
const wrangler = join(root, "node_modules", ".bin", "wrangler");

const ALL_SCOPES = [
  "consignments:read",
  "consignments:write",
  "customers:read",
  "customers:write",
  "catalogue:read",
  "catalogue:write",
  "classify:read",
  "calculate:read",
  "restrict:read",
  "screen:read",
  "settings:read",
  "settings:write",
  "requests:read",
];

function log(msg) {
  process.stdout.write(`[dev] ${msg}\n`);
}

function readDevVars() {
  const vars = {};
  for (const line of readFileSync(DEV_VARS, "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*"?([^"]*)"?\s*$/.exec(line);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}

/** A fresh webhook-secret keyring: one 32-byte AES key, id k1 (see README, Webhooks). */
const newWebhookKeys = () => `k1:${randomBytes(32).toString("base64url")}`;

function ensureDevVars() {
  if (existsSync(DEV_VARS)) {
    log(".dev.vars exists: keeping its secrets");
    const vars = readDevVars();
    if (!vars.WEBHOOK_SECRET_KEYS) {
      // Secrets added after the file was written: append them, keeping the existing ones.
      vars.WEBHOOK_SECRET_KEYS = newWebhookKeys();
      appendFileSync(DEV_VARS, `WEBHOOK_SECRET_KEYS="${vars.WEBHOOK_SECRET_KEYS}"\n`);
      log("added WEBHOOK_SECRET_KEYS to .dev.vars");
    }
    return vars;
  }
  const vars = {
    PLATFORM_ADMIN_TOKEN: `pat_${randomBytes(24).toString("base64url")}`,
    TOKEN_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_SECRET_KEYS: newWebhookKeys(),
  };
  writeFileSync(
    DEV_VARS,
    `${Object.entries(vars)
      .map(([k, v]) => `${k}="${v}"`)
      .join("\n")}\n`,
    { mode: 0o600 },
  );
  log("wrote .dev.vars with fresh local secrets");
  return vars;
}

function run(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, CI: "true" } });
  if (res.status !== 0) {
    process.stderr.write(`[dev] failed: ${cmd} ${args.join(" ")}\n`);
    process.exit(res.status ?? 1);
  }
}

const SERVICE = "trade-compliance-api";

/** What answers /health on the port: null when nothing listens, else whether it is this project's server. */
async function whoIsOnPort(base) {
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
    const body = await res.json().catch(() => null);
    return { ours: res.ok && body?.service === SERVICE };
  } catch {
    return null;
  }
}

/**
 * Refuses to start when the port is taken, before any credential is sent: a platform token sent to some other
 * server on the port would leak it, and its 401 would read like a problem with this project.
 */
async function assertPortFree(base) {
  const holder = await whoIsOnPort(base);
  if (!holder) return;
  process.stderr.write(
    holder.ours
      ? `[dev] another \`npm run dev\` of this project already answers on port ${PORT}; stop it, or start this one with PORT=<free port>\n`
      : `[dev] port ${PORT} is in use by another program (it is not this API); start with PORT=<free port> npm run dev\n`,
  );
  process.exit(1);
}

async function waitForHealth(base, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error("wrangler dev exited");
    // Only this API's own /health ends the wait: credentials are sent to nothing else (wrangler's proxy may
    // answer with an error page while the Worker starts).
    if ((await whoIsOnPort(base))?.ours) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("wrangler dev did not become ready");
}

/**
 * The Host header carries the workspace. Node's fetch drops a Host header (a forbidden header name) and does not
 * resolve *.localhost, so this goes through node:http to the loopback address with the Host set explicitly.
 */
function api(path, { host = "localhost", method = "GET", token, json, form } = {}) {
  const headers = { host: `${host}:${PORT}` };
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(json);
  }
  if (form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port: PORT, path, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        let parsed = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: leave null
        }
        resolve({ status: res.statusCode, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function ensureDemo(adminToken) {
  const demoHost = `${DEMO_SLUG}.localhost`;
  if (existsSync(DEMO_FILE)) {
    const saved = JSON.parse(readFileSync(DEMO_FILE, "utf8"));
    const t = await api("/admin/oauth2/token", {
      host: demoHost,
      method: "POST",
      form: { grant_type: "client_credentials", client_id: saved.client_id, client_secret: saved.client_secret },
    });
    if (t.status === 200) return saved;
    log(`saved demo credentials no longer work (${t.status}); creating a new client`);
  }
  const ws = await api("/platform/v1/workspaces", {
    method: "POST",
    token: adminToken,
    json: { slug: DEMO_SLUG, name: "Demo workspace", mode: "sandbox" },
  });
  if (ws.status !== 201 && ws.status !== 409)
    throw new Error(`creating the demo workspace: ${ws.status} ${JSON.stringify(ws.body)}`);
  const client = await api(`/platform/v1/workspaces/${DEMO_SLUG}/api-clients`, {
    method: "POST",
    token: adminToken,
    json: { name: "Demo all-scopes client", scopes: ALL_SCOPES },
  });
  if (client.status !== 201)
    throw new Error(`creating the demo client: ${client.status} ${JSON.stringify(client.body)}`);
  const saved = { client_id: client.body.api_client.client_id, client_secret: client.body.api_client.client_secret };
  writeFileSync(DEMO_FILE, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  return saved;
}

await assertPortFree(`http://${HOST}:${PORT}`);
const vars = ensureDevVars();
log("applying D1 migrations to the local database");
run(wrangler, ["d1", "migrations", "apply", "DB", "--local"]);
log("loading reference data (skipped for datasets already at their version)");
run(process.execPath, [join(root, "scripts", "load-data.mjs")]);

// ENVIRONMENT=development is set here, not in wrangler.jsonc, so only a local dev server relaxes the URL policy.
const child = spawn(
  wrangler,
  ["dev", "--ip", HOST, "--port", String(PORT), "--test-scheduled", "--var", "ENVIRONMENT:development"],
  { cwd: root, stdio: ["inherit", "inherit", "inherit"] },
);
const stop = (signal) => {
  if (child.exitCode === null) child.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
child.on("exit", (code) => process.exit(code ?? 0));

try {
  await waitForHealth(`http://${HOST}:${PORT}`, child);
  const demo = await ensureDemo(vars.PLATFORM_ADMIN_TOKEN);
  const base = `http://${DEMO_SLUG}.localhost:${PORT}`;
  process.stdout.write(
    `${[
      "",
      "  Trade Compliance API is running.",
      `  Platform host : http://localhost:${PORT}   (docs: http://localhost:${PORT}/docs)`,
      `  Demo workspace: ${base}`,
      `  API base      : ${base}/admin/api/v1`,
      `  client_id     : ${demo.client_id}`,
      `  client_secret : ${demo.client_secret}`,
      `  platform token: ${vars.PLATFORM_ADMIN_TOKEN}   (from .dev.vars)`,
      "",
      "  Get a token:",
      `  curl -s ${base}/admin/oauth2/token -d grant_type=client_credentials -d client_id=${demo.client_id} -d client_secret=${demo.client_secret}`,
      "",
    ].join("\n")}\n`,
  );
} catch (err) {
  process.stderr.write(`[dev] ${err.message}\n`);
  stop("SIGTERM");
  process.exit(1);
}
