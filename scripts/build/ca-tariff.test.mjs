import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRate } from "./ca-tariff.mjs";

test("reads the schedule's rate cells as the engine's components", () => {
  assert.deepEqual(parseRate("Free"), []);
  assert.deepEqual(parseRate("18 %"), [["av", "0.18"]]);
  assert.deepEqual(parseRate("2.5%"), [["av", "0.025"]]);
  // Cents and dollars, per the unit written or, when none is, per the item's unit of measure.
  assert.deepEqual(parseRate("2.82 ¢/kg"), [["sp", "0.0282", "KG"]]);
  assert.deepEqual(parseRate("0.51¢/kg"), [["sp", "0.0051", "KG"]]);
  assert.deepEqual(parseRate("0.86 ¢each"), [["sp", "0.0086", "NO"]]);
  assert.deepEqual(parseRate("1.9 ¢", "KG"), [["sp", "0.019", "KG"]]);
  assert.equal(parseRate("1.9 ¢"), null);
  assert.deepEqual(parseRate("$1.25/kg"), [["sp", "1.25", "KG"]]);
  // "but not less than": the higher of the two; "but not more than": the lower.
  assert.deepEqual(parseRate("238 % but not less than $1.25/kg"), [
    ["alt", "max", [[["av", "2.38"]], [["sp", "1.25", "KG"]]]],
  ]);
  assert.deepEqual(parseRate("238 % but not less than 30.8 ¢each"), [
    ["alt", "max", [[["av", "2.38"]], [["sp", "0.308", "NO"]]]],
  ]);
  // Not applicable to the treatment, and words the engine cannot compute.
  assert.equal(parseRate("N/A"), "n/a");
  assert.equal(parseRate(""), "n/a");
  assert.equal(parseRate("$1.23/m³ of wood"), null);
});

test("reads bands, hectolitres and rates written without a leading zero", () => {
  assert.deepEqual(parseRate("5 % but not less than 4.74 ¢/kg or more than 9.48 ¢/kg"), [
    ["alt", "min", [[["alt", "max", [[["av", "0.05"]], [["sp", "0.0474", "KG"]]]]], [["sp", "0.0948", "KG"]]]],
  ]);
  assert.deepEqual(parseRate("241 % but not less than $34.50/hl"), [
    ["alt", "max", [[["av", "2.41"]], [["sp", "34.5", "L", 100]]]],
  ]);
  assert.deepEqual(parseRate("$.99/tonne"), [["sp", "0.99", "T"]]);
});
