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
import sample from "../test/fixtures/sample-consignment.json" with { type: "json" };
import { localServer } from "./lib/local-server.mjs";

const PORT = Number(process.env.FAULT_PORT ?? 8797);
const CREATES = Number(process.env.FAULT_CREATES ?? 300);
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 16);
const KILL_AFTER = Number(process.env.FAULT_KILL_AFTER ?? Math.floor(CREATES * 0.4));
const SLUG = "faults";

const server = localServer({ port: PORT, name: "faults" });
const WS_HOST = `${SLUG}.${server.bareHost}`;
const call = (opts) => server.call({ host: WS_HOST, ...opts });
const log = (msg) => process.stdout.write(`[faults] ${msg}\n`);

const createBody = (i) => JSON.stringify({ ...sample, shipment_ref: `FAULT-${i}` });

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
            server.killNow();
            killing = server.stop();
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
  await (killing ?? server.stop()); // a burst that ended before the kill point still ends in a kill
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
  if (!(await server.portIsFree())) throw new Error(`port ${PORT} is in use (set FAULT_PORT)`);
  log(`state in ${server.state}`);
  server.prepare();
  await server.start();
  const token = await server.provision(SLUG, ["consignments:read", "consignments:write", "requests:read"]);
  log(`burst of ${CREATES} creates, ${CONCURRENCY} at a time; SIGKILL after ${KILL_AFTER} acknowledged`);
  server.armKill();
  const { acknowledged, failed } = await burst(token);
  log(`killed: ${acknowledged.length} acknowledged, ${failed} without an answer`);
  await server.start();
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
  await server.dispose();
}
process.exit(ok ? 0 : 1);
