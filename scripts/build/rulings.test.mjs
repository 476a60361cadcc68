import assert from "node:assert/strict";
import { test } from "node:test";
import { rulingId, rulingRows } from "./rulings.mjs";

test("a ruling number is written as CROSS writes it in a page address", () => {
  assert.equal(rulingId("NY L85866"), "L85866");
  assert.equal(rulingId("HQ 957242"), "957242");
  assert.equal(rulingId(" n340330 "), "N340330");
  assert.equal(rulingId(""), "");
});

test("one row per ruling, the first naming it winning; codes of deleted or short subheadings left out", () => {
  const hs6 = new Set(["691200", "610910"]);
  const { kept, dropped } = rulingRows(
    [
      ["NY L85866", "6912.00.4400", "2005-07-11", "ceramic mugs", "stoneware\tmugs", "faqs.org/a"],
      ["L85866", "6912.00.4800", "", "ceramic mugs again", "", "faqs.org/b"],
      ["N1", "8471.60.1000", "", "a printer unit", "", "x"],
      ["N2", "6109", "", "a t-shirt", "", "x"],
      ["N3", "6109.10.0012", "", "a t-shirt", "men's\ncotton", "x"],
    ],
    hs6,
  );
  assert.deepEqual(kept, [
    ["L85866", "6912004400", "2005-07-11", "ceramic mugs", "stoneware mugs", "faqs.org/a"],
    ["N3", "6109100012", "", "a t-shirt", "men's cotton", "x"],
  ]);
  assert.deepEqual(dropped, { duplicate: 1, code: 1, deleted: 1 });
});
