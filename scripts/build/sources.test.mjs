/** The build scripts' sources directory: where it comes from, and the error that names each missing original. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ORIGINS, requireSources, sourcesDir } from "./sources.mjs";

const here = dirname(fileURLToPath(import.meta.url));

test("--sources wins over DATA_SOURCES, which wins over ../shared/data", () => {
  assert.equal(sourcesDir(["node", "x.mjs", "--sources", "/data/a"], { DATA_SOURCES: "/data/b" }), "/data/a");
  assert.equal(sourcesDir(["node", "x.mjs"], { DATA_SOURCES: "/data/b" }), "/data/b");
  assert.match(sourcesDir(["node", "x.mjs"], {}), /[/\\]shared[/\\]data$/);
  assert.throws(() => sourcesDir(["node", "x.mjs", "--sources"], {}), /needs a directory/);
});

test("a missing original is named with where it is published; present ones pass", () => {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  mkdirSync(join(dir, "iso-country-codes"));
  writeFileSync(join(dir, "iso-country-codes", "country-codes.csv"), "x\n");
  assert.equal(requireSources(dir, ["iso-country-codes/country-codes.csv"]), dir);
  assert.throws(
    () => requireSources(dir, ["iso-country-codes/country-codes.csv", "iso-currency-codes/codes-all.csv"]),
    (e) =>
      e.message.includes("iso-currency-codes/codes-all.csv") &&
      e.message.includes(ORIGINS["iso-currency-codes/codes-all.csv"]) &&
      !e.message.includes("country-codes.csv\n"),
  );
});

test("every build script refuses to run without its originals, before writing anything", () => {
  const empty = mkdtempSync(join(tmpdir(), "sources-empty-"));
  for (const script of ["hs.mjs", "iso.mjs", "calculate.mjs"]) {
    const run = spawnSync(process.execPath, [join(here, script), "--sources", empty], { encoding: "utf8" });
    assert.notEqual(run.status, 0, script);
    assert.match(run.stderr, /Missing source files under/, script);
  }
});
