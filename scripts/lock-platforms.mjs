#!/usr/bin/env node
/**
 * Records the other platforms' binary packages in package-lock.json (workerd's macOS and Windows ones, and
 * every per-platform optional package such as Biome's CLI and oxc-parser's bindings).
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

// The same for every other package that ships one optional binary package per platform (Biome's CLI, knip's
// oxc-parser bindings): each optional dependency the lock lacks is recorded with the os, cpu and libc its
// name states, so npm ci on this Linux machine skips it and elsewhere fetches it.
const OS = {
  android: "android",
  darwin: "darwin",
  freebsd: "freebsd",
  linux: "linux",
  win32: "win32",
  openharmony: "openharmony",
};
const CPU = [
  ["arm64", "arm64"],
  ["x64", "x64"],
  ["ia32", "ia32"],
  ["riscv64", "riscv64"],
  ["ppc64", "ppc64"],
  ["s390x", "s390x"],
  ["arm", "arm"],
];
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.map((p) => OS[p]).find(Boolean);
  const cpu = CPU.find(([token]) => parts.includes(token))?.[1];
  if (!os || !cpu) return null;
  const libc = os !== "linux" ? undefined : parts.some((p) => p.startsWith("musl")) ? ["musl"] : ["glibc"];
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `${path ? `${path}/` : ""}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (lock.packages[where] || lock.packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue; // not a per-platform binary: npm records what it installs
    lock.packages[hoisted] = { version, ...platform, dev: entry.dev, optional: true };
    added++;
  }
}

// Keep the object's keys sorted the way npm writes them.
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: ${added} platform entries added`);
