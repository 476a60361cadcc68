#!/usr/bin/env node
/**
 * `npm run docs:check`: the API reference in a real browser, with no network beyond this machine.
 *
 * Starts `wrangler dev` on fresh state (port DOCS_PORT, default 8795), provisions a workspace, then drives
 * Debian's headless chromium (CHROMIUM, default `chromium`; `apt-get install chromium`) through the DevTools
 * protocol with `trade.internal` and its workspace hosts resolved to this machine and every other host
 * unresolvable (--host-resolver-rules). It checks that:
 *   1. /docs renders and lists the API's operations (their summaries appear on the page);
 *   2. no request of the page left this machine (the viewer and its assets come from this origin);
 *   3. a request sent from the page to a workspace host, as "Try it" sends it (cross-origin, with a bearer
 *      token), is answered 200 and its response headers are readable;
 *   4. a platform operation from the page reaches the bare host.
 * Exit status 0 only when all pass.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localServer, sleep } from "./lib/local-server.mjs";

const PORT = Number(process.env.DOCS_PORT ?? 8795);
const CHROMIUM = process.env.CHROMIUM ?? "chromium";
const SLUG = "docs";
// Not a localhost name: the viewer treats localhost and *.test hosts as local and would never route them
// through its vendor's proxy, so only a name like a deployment's shows that Try it goes straight to the API.
// Chromium resolves it, and its workspace hosts, to this machine; the server takes it as WORKSPACE_BASE_DOMAIN.
const BASE = "trade.internal";
const server = localServer({ port: PORT, name: "docs", baseDomain: BASE });
const log = (msg) => process.stdout.write(`[docs] ${msg}\n`);

/** A minimal DevTools protocol client over Node's WebSocket. */
function devtools(wsUrl) {
  const ws = new WebSocket(wsUrl);
  let id = 0;
  const pending = new Map();
  const listeners = [];
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message}`));
      else resolve(msg.result);
    } else if (msg.method) for (const l of listeners) l(msg);
  });
  const opened = new Promise((r, j) => {
    ws.addEventListener("open", r, { once: true });
    ws.addEventListener("error", j, { once: true });
  });
  return {
    opened,
    send(method, params = {}) {
      const msgId = ++id;
      ws.send(JSON.stringify({ id: msgId, method, params }));
      return new Promise((resolve, reject) => pending.set(msgId, { resolve, reject }));
    },
    on: (fn) => listeners.push(fn),
    close: () => ws.close(),
  };
}

async function launchChromium(profile) {
  const browser = spawn(
    CHROMIUM,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "--window-size=1440,1000",
      // Offline but for this machine: every other host fails to resolve.
      `--host-resolver-rules=MAP ${BASE} 127.0.0.1, MAP *.${BASE} 127.0.0.1, MAP * ~NOTFOUND`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const port = readFileSync(join(profile, "DevToolsActivePort"), "utf8").split("\n")[0];
      const pages = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      const page = pages.find((p) => p.type === "page");
      if (page) return { browser, wsUrl: page.webSocketDebuggerUrl };
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`${CHROMIUM} did not start (is it installed? apt-get install chromium)`);
}

async function main() {
  if (!(await server.portIsFree())) throw new Error(`port ${PORT} is in use (set DOCS_PORT)`);
  server.prepare();
  await server.start();
  const token = await server.provision(SLUG, ["consignments:read", "requests:read"]);
  const profile = mkdtempSync(join(tmpdir(), "trade-compliance-chromium-"));
  const { browser, wsUrl } = await launchChromium(profile);
  const cdp = devtools(wsUrl);
  const results = [];
  try {
    await cdp.opened;
    const requested = [];
    cdp.on((msg) => {
      if (msg.method === "Network.requestWillBeSent") requested.push(msg.params.request.url);
    });
    await cdp.send("Network.enable");
    await cdp.send("Page.enable");
    const docsUrl = `http://${server.bareHost}/docs`;
    await cdp.send("Page.navigate", { url: docsUrl });
    const evaluate = async (expression) =>
      (await cdp.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true })).result.value;

    // 1. The operations are listed: every tag of /openapi.json names a group in the sidebar, and once every
    // group is opened, every operation's summary is on the page.
    const summaries = await evaluate(`fetch("/openapi.json").then((r) => r.json()).then((d) => ({
        tags: (d.tags ?? []).map((t) => t.name),
        ops: Object.values(d.paths).flatMap((item) => Object.values(item).map((op) => op?.summary).filter(Boolean)),
      }))`);
    let text = "";
    for (let i = 0; i < 100; i++) {
      text = (await evaluate("document.body ? document.body.innerText : ''")) ?? "";
      if (summaries.tags.every((t) => text.includes(t))) break;
      await sleep(200);
    }
    await evaluate(`[...document.querySelectorAll("button")]
        .filter((b) => b.innerText.startsWith("Open Group")).forEach((b) => b.click())`);
    await sleep(1500);
    text = (await evaluate("document.body.innerText")) ?? "";
    const missingTags = summaries.tags.filter((t) => !text.includes(t));
    const missingOps = summaries.ops.filter((o) => !text.includes(o));
    const listed = summaries.ops.length > 20 && missingTags.length === 0 && missingOps.length === 0;
    results.push([
      "operations listed",
      listed,
      `${summaries.tags.length} tags, ${summaries.ops.length} operations; missing: ${[...missingTags, ...missingOps].slice(0, 5).join("; ")}`,
    ]);

    // 2. Nothing left this machine.
    const foreign = requested.filter((u) => {
      const { hostname, protocol } = new URL(u);
      if (protocol === "data:" || protocol === "blob:" || protocol === "about:") return false;
      return !(hostname === BASE || hostname.endsWith(`.${BASE}`));
    });
    results.push([
      "no request left this machine",
      foreign.length === 0,
      `${requested.length} requests; ${foreign.slice(0, 3).join(", ")}`,
    ]);

    // 3. A workspace request from the page, as Try it sends it: another origin, with a bearer token.
    const me = await evaluate(`fetch("http://${SLUG}.${server.bareHost}/admin/api/v1/me", {
        headers: { authorization: "Bearer ${token}" },
      }).then(async (r) => ({ status: r.status, requestId: r.headers.get("x-request-id"), slug: (await r.json()).workspace?.slug }))
        .catch((e) => ({ error: String(e) }))`);
    results.push([
      "Try it on a workspace host",
      me?.status === 200 && me.slug === SLUG && Boolean(me.requestId),
      JSON.stringify(me),
    ]);

    // 4. A platform operation from the page goes to the bare host (same origin as /docs).
    const platform = await evaluate(
      `fetch("/platform/v1/workspaces/${SLUG}").then((r) => ({ status: r.status })).catch((e) => ({ error: String(e) }))`,
    );
    results.push([
      "platform operation on the bare host",
      platform?.status === 401,
      `${JSON.stringify(platform)} (no platform token sent: 401 from the API)`,
    ]);
  } finally {
    cdp.close();
    try {
      process.kill(-browser.pid, "SIGKILL");
    } catch {
      // gone
    }
    rmSync(profile, { recursive: true, force: true });
  }
  for (const [what, ok, detail] of results) log(`${ok ? "ok  " : "FAIL"} ${what}: ${detail}`);
  return results.every(([, ok]) => ok);
}

let ok = false;
try {
  ok = await main();
} catch (err) {
  process.stderr.write(`[docs] ${err instanceof Error ? err.stack : err}\n`);
} finally {
  await server.dispose();
}
process.exit(ok ? 0 : 1);
