#!/usr/bin/env node
/**
 * Records workerd's macOS and Windows binary packages in package-lock.json.
 *
 * workerd ships its binary as one optional package per platform. The registry these machines reach serves
 * only the Linux ones, so `npm install` here cannot write lock entries for the others, and `npm ci` then
 * refuses the lock as out of sync. This adds the missing entries beside each Linux one (same version, the
 * platform's os/cpu, optional): npm ci skips them on Linux, and on a Mac or Windows machine with the full
 * registry npm fetches them by name and version. Run after any `npm install` that rewrites the lock.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const lockPath = join(fileURLToPath(new URL("..", import.meta.url)), "package-lock.json");
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const platforms = [
  ["darwin-64", ["darwin"], ["x64"]],
  ["darwin-arm64", ["darwin"], ["arm64"]],
  ["windows-64", ["win32"], ["x64"]],
];
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!path.endsWith("/@cloudflare/workerd-linux-64")) continue;
  for (const [suffix, os, cpu] of platforms) {
    const sibling = path.replace(/workerd-linux-64$/, `workerd-${suffix}`);
    if (lock.packages[sibling]) continue;
    lock.packages[sibling] = {
      version: entry.version,
      cpu,
      dev: entry.dev,
      license: entry.license,
      optional: true,
      os,
      engines: entry.engines,
    };
    added++;
  }
}
// Keep the object's keys sorted the way npm writes them.
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: ${added} platform entries added`);
