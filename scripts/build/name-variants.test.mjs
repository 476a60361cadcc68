import assert from "node:assert/strict";
import { test } from "node:test";
import { tsImport } from "tsx/esm/api";
import { bundledPairs, minePairs } from "./name-variants.mjs";

const person = (name, alt_names) => ({ type: "individual", name, alt_names });

test("a spelling two entries give for one name is kept; one entry's alias, or a far one, is not", () => {
  const pairs = minePairs([
    person("SECHIN, Igor Ivanovich", ["SECHIN, Ihor Ivanovich"]),
    person("KOROBOV, Igor", ["KOROBOV, Ihor"]),
    // One entry only: an alias, not a romanization practice.
    person("GLAZYEV, Sergey", ["GLAZYEV, Sergej"]),
    // Two words differ: not a spelling of one word.
    person("PETROV, Pavel Ivanovich", ["PETROVS, Pavels Ivanovich"]),
    person("IVANOV, Pavel Ivanovich", ["IVANOVS, Pavels Ivanovich"]),
    // Two edits in short words on two entries: different names given as aliases.
    person("HASSAN, Hasan", ["HASSAN, Husain"]),
    person("ALI, Hasan", ["ALI, Husain"]),
    // Entities are not persons' names.
    { type: "entity", name: "ALFA BANK", alt_names: ["ALPHA BANK"] },
    { type: "entity", name: "ALFA GROUP", alt_names: ["ALPHA GROUP"] },
  ]);
  assert.deepEqual(
    pairs.map((p) => [p.a, p.b, p.n]),
    [["igor", "ihor", 2]],
  );
});

test("the generated module lists the pairs the bundled lists give (rerun the script when the lists change)", async () => {
  const { NAME_VARIANT_PAIRS } = await tsImport("../../src/engines/screen/name-variants.ts", import.meta.url);
  assert.deepEqual([...NAME_VARIANT_PAIRS], bundledPairs());
  assert.ok(NAME_VARIANT_PAIRS.includes("igor|ihor"));
});
