import assert from "node:assert/strict";
import { test } from "node:test";
import { tsImport } from "tsx/esm/api";
import { FIRST, NONE, readings } from "./hanja.mjs";

test("readings: one syllable per code point, none where the table has none", () => {
  const r = readings({ [String.fromCodePoint(FIRST)]: "일", [String.fromCodePoint(FIRST + 2)]: "x" });
  assert.equal(r[0], "일");
  assert.equal(r[1], NONE);
  assert.equal(r[2], NONE); // not a Hangul syllable
  assert.equal(r.length, 0x9fff - FIRST + 1);
});

test("the generated module holds the package's readings (rerun the script after upgrading the package)", async () => {
  const { HANJA_FIRST, HANJA_READINGS } = await tsImport("../../src/engines/screen/hanja.ts", import.meta.url);
  assert.equal(HANJA_FIRST, FIRST);
  assert.equal(HANJA_READINGS, readings());
  const at = (c) => HANJA_READINGS[c.codePointAt(0) - HANJA_FIRST];
  assert.deepEqual([..."金正恩铁鐵"].map(at), ["금", "정", "은", "철", "철"]);
});
