/**
 * A throwaway `wrangler dev` for the repository's check scripts (test:faults, docs:check): fresh state in a
 * temporary directory, random secrets passed with --env-file, the D1 migrations applied, a workspace with an
 * API client and a token provisioned through the platform API, and a kill that reaches workerd too.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const IP = "127.0.0.1";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
 * `baseDomain` is the server's WORKSPACE_BASE_DOMAIN (default `localhost`, as wrangler.jsonc sets it): a check
 * may name another one, reached through a client that resolves it to this machine.
 */
export function localServer({ port, name, baseDomain = "localhost" }) {
  const state = mkdtempSync(join(tmpdir(), `trade-compliance-${name}-`));
  const envFile = join(state, "secrets.env");
  const secrets = {
    PLATFORM_ADMIN_TOKEN: randomBytes(24).toString("base64url"),
    TOKEN_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString("base64url")}`,
  };
  const bareHost = `${baseDomain}:${port}`;
  let child = null;
  let armed = [];

  /** One request with an explicit Host (Node's fetch would replace it with the URL's authority). */
  function call({ method = "GET", path, host, token, body, contentType = "application/json" }) {
    return new Promise((resolve, reject) => {
      const headers = { host };
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) {
        headers["content-type"] = contentType;
        headers["content-length"] = Buffer.byteLength(body);
      }
      const req = httpRequest({ host: IP, port, method, path, headers, agent: false, timeout: 30_000 }, (res) => {
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

  async function portIsFree() {
    try {
      await call({ path: "/health", host: bareHost });
      return false;
    } catch {
      return true;
    }
  }

  /** Applies the migrations into the state directory (first start only). */
  function prepare() {
    writeFileSync(
      envFile,
      `${Object.entries(secrets)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n")}\n`,
    );
    const migrate = spawnSync(
      process.execPath,
      [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state],
      { cwd: ROOT, env: { ...process.env, CI: "true" }, encoding: "utf8" },
    );
    if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  }

  async function start() {
    child = spawn(
      process.execPath,
      [
        WRANGLER,
        "dev",
        "--ip",
        IP,
        "--port",
        String(port),
        "--inspector-port",
        "0",
        "--persist-to",
        state,
        "--env-file",
        envFile,
        "--var",
        "ENVIRONMENT:development",
        "--var",
        `WORKSPACE_BASE_DOMAIN:${baseDomain}`,
        "--show-interactive-dev-session=false",
        "--log-level",
        "warn",
      ],
      { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], detached: true },
    );
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      try {
        if ((await call({ path: "/health", host: bareHost })).status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error("the server did not answer /health within 90 s");
  }

  /** Reads the process tree now, so that `killNow` can signal it without a pause. */
  function armKill() {
    armed = child ? [child.pid, ...descendants(child.pid)] : [];
  }

  /** SIGKILL to every armed process, synchronously: workerd gets no chance to finish anything. */
  function killNow() {
    for (const pid of armed) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }

  async function stop() {
    if (!child) return;
    armKill();
    killNow();
    for (let i = 0; i < 50 && armed.some(alive); i++) await sleep(100);
    child = null;
  }

  async function dispose() {
    await stop();
    rmSync(state, { recursive: true, force: true });
  }

  /** A workspace (sandbox, generous limits), an API client with `scopes`, and its access token. */
  async function provision(slug, scopes) {
    const admin = { host: bareHost, token: secrets.PLATFORM_ADMIN_TOKEN };
    const ws = await call({
      ...admin,
      method: "POST",
      path: "/platform/v1/workspaces",
      body: JSON.stringify({ slug, name: slug, mode: "sandbox" }),
    });
    if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${ws.text}`);
    const limits = { limit: 1_000_000, window_seconds: 10 };
    await call({
      ...admin,
      method: "PATCH",
      path: `/platform/v1/workspaces/${slug}`,
      body: JSON.stringify({ rate_limits: { api: limits, consignment_create: limits } }),
    });
    const client = await call({
      ...admin,
      method: "POST",
      path: `/platform/v1/workspaces/${slug}/api-clients`,
      body: JSON.stringify({ name: slug, scopes }),
    });
    if (client.status !== 201) throw new Error(`api client: ${client.status} ${client.text}`);
    const { client_id, client_secret } = JSON.parse(client.text).api_client;
    const token = await call({
      method: "POST",
      host: `${slug}.${bareHost}`,
      path: "/admin/oauth2/token",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id, client_secret }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`);
    return JSON.parse(token.text).access_token;
  }

  return { state, bareHost, secrets, call, portIsFree, prepare, start, armKill, killNow, stop, dispose, provision };
}
