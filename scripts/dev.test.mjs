/**
 * `npm run dev` refuses a port another program holds, before it sends any credential (node:test, run by
 * `npm test` after the workerd suite).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function runDevAgainst(respond) {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url, authorization: req.headers.authorization ?? null });
    respond(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  const child = spawn(process.execPath, [join(root, "scripts", "dev.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise((r) => child.on("exit", r));
  server.close();
  return { code, stderr, seen };
}

test("a port held by another program: exit 1, a clear message, no credential sent", async () => {
  const { code, stderr, seen } = await runDevAgainst((res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end('{"error":"who are you"}');
  });
  assert.equal(code, 1);
  assert.match(stderr, /in use by another program/);
  assert.ok(seen.every((r) => r.authorization === null));
  assert.deepEqual(
    seen.map((r) => r.path),
    ["/health"],
  );
});

test("a port held by this project's own dev server: exit 1, says so", async () => {
  const { code, stderr, seen } = await runDevAgainst((res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"status":"ok","service":"trade-compliance-api"}');
  });
  assert.equal(code, 1);
  assert.match(stderr, /already answers on port/);
  assert.ok(seen.every((r) => r.authorization === null));
});
