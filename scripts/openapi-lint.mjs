#!/usr/bin/env node
/**
 * `npm run lint:openapi` (part of `npm run lint`): builds the app in Node, writes the OpenAPI document it
 * serves at /openapi.json for the production host (`api.example.com`), and lints it with Redocly's
 * recommended rules. Errors fail the run; warnings are printed (the README lists the ones that remain).
 * Run with `node --import tsx`, which loads the TypeScript sources.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "../src/app.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = { WORKSPACE_BASE_DOMAIN: "api.example.com" };
const res = await createApp().request("https://api.example.com/openapi.json", {}, env);
if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
const dir = mkdtempSync(join(tmpdir(), "openapi-"));
const file = join(dir, "openapi.json");
writeFileSync(file, await res.text());
const lint = spawnSync(
  process.execPath,
  [join(root, "node_modules", "@redocly", "cli", "bin", "cli.js"), "lint", file, "--format=stylish"],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  },
);
rmSync(dir, { recursive: true, force: true });
process.exit(lint.status ?? 1);
