#!/usr/bin/env node
/**
 * Puts the API reference viewer (the pinned @scalar/api-reference standalone bundle) where Workers Static
 * Assets serve it: public/docs/scalar-<version>.js. `/docs` loads it from the same origin, so the reference
 * renders with no network beyond the API itself (offline, behind a strict firewall). Run by wrangler's build
 * step (dev and deploy) and by the test configuration; the file is not committed.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkgDir = join(root, "node_modules", "@scalar", "api-reference");

export function docsAssets() {
  const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const outDir = join(root, "public", "docs");
  const name = `scalar-${version}.js`;
  mkdirSync(outDir, { recursive: true });
  // One version at a time: an older copy would be served (and uploaded) for nothing.
  for (const f of readdirSync(outDir)) if (f.startsWith("scalar-") && f !== name) rmSync(join(outDir, f));
  const target = join(outDir, name);
  if (!existsSync(target)) copyFileSync(join(pkgDir, "dist", "browser", "standalone.js"), target);
  return { version, path: `/docs/${name}` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { path } = docsAssets();
  process.stdout.write(`[docs] viewer at ${path}\n`);
}
