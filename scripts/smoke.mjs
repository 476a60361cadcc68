#!/usr/bin/env node
/**
 * Post-deploy smoke test: `npm run smoke -- <base URL>` (e.g. https://api.example.com), with the platform token
 * in PLATFORM_ADMIN_TOKEN or `--platform-token`. Provisions a sandbox workspace `smoke-<time>` (left in place:
 * there is no workspace deletion in the platform API), then token, /me, calculate, screen, consignment create
 * and delete. `--connect 127.0.0.1:8787` sends the requests to that address with the URL's Host header.
 * Exits 1 on the first failed step.
 */
import { runSmoke } from "./lib/smoke.mjs";

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const baseUrl = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const platformToken = opt("--platform-token") ?? process.env.PLATFORM_ADMIN_TOKEN;
if (!baseUrl || !platformToken) {
  console.error(
    "usage: npm run smoke -- <base URL> [--platform-token T] [--connect host:port] [--slug s]\n" +
      "       (the platform token may come from PLATFORM_ADMIN_TOKEN)",
  );
  process.exit(2);
}
const { ok, workspace } = await runSmoke({
  baseUrl,
  platformToken,
  connect: opt("--connect"),
  slug: opt("--slug"),
  log: (line) => console.log(`[smoke] ${line}`),
});
console.log(ok ? `[smoke] passed (workspace ${workspace})` : "[smoke] failed");
process.exit(ok ? 0 : 1);
