#!/usr/bin/env node
/**
 * The smoke test against `wrangler dev` (CI): a fresh local state with the migrations and the full reference
 * data loaded as `npm run dev` loads it, the server started, `scripts/smoke.mjs`'s steps run against it, and
 * the server and its state removed.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { localServer } from "./lib/local-server.mjs";
import { runSmoke } from "./lib/smoke.mjs";

const PORT = Number(process.env.SMOKE_PORT ?? 8798);
const log = (line) => console.log(`[smoke:dev] ${line}`);
const server = localServer({ port: PORT, name: "smoke" });
let ok = false;
try {
  if (!(await server.portIsFree())) throw new Error(`port ${PORT} is in use (set SMOKE_PORT)`);
  server.prepare();
  const started = Date.now();
  const load = spawnSync(process.execPath, [join("scripts", "load-data.mjs"), "--persist-to", server.state], {
    cwd: join(import.meta.dirname, ".."),
    encoding: "utf8",
  });
  if (load.status !== 0) throw new Error(`load-data failed:\n${load.stdout}\n${load.stderr}`);
  log(`reference data loaded in ${Date.now() - started} ms`);
  await server.start();
  const result = await runSmoke({
    baseUrl: `http://${server.bareHost}`,
    platformToken: server.secrets.PLATFORM_ADMIN_TOKEN,
    connect: `127.0.0.1:${PORT}`,
    log,
  });
  ok = result.ok;
} catch (err) {
  log(`error: ${err.message}`);
} finally {
  await server.dispose();
}
log(ok ? "passed" : "failed");
process.exit(ok ? 0 : 1);
