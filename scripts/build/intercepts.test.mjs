import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "yaml";
import { interceptRows, messageCodes } from "./intercepts.mjs";

test("a message's codes are read after chapter, heading, subheading, commodity or code, each once", () => {
  assert.deepEqual(messageCodes("we believe you are looking for heading 8516, depending on the appliance."), ["8516"]);
  assert.deepEqual(
    messageCodes("Abs pumps are classified under heading 8413 if ... or under heading 8414 for air vacuum pumps."),
    ["8413", "8414"],
  );
  assert.deepEqual(messageCodes("looking for commodity 9202903000, heading 8529 or heading 8537"), [
    "9202903000",
    "8529",
    "8537",
  ]);
  assert.deepEqual(messageCodes("Accelerometers are classified under subheading 903180."), ["903180"]);
  assert.deepEqual(messageCodes("chapter 61 or chapter 62 if the item is knitted"), ["61", "62"]);
  assert.deepEqual(messageCodes("The search term entered is too generic."), []);
});

test("terms with one to three codes of four digits or more become rows, cut to their HS part", () => {
  const doc = parse(`
default: &default
  airfryer: "Based on your search term, we believe you are looking for heading 8516, depending on the appliance."
  Adult Cotton  T-shirt: "we believe you are looking for knitted t-shirts of commodity 6109100010."
  abaya: "we believe you are looking for chapter 61 or chapter 62 if the item is knitted or woven."
  accessories: "The search term entered is too generic. Please enter the specific type of goods."
  adhesive: "heading 3005, heading 3019, heading 4811, heading 4823 or heading 5606, depending on the material."
  alcohol: "heading 2203 under heading 2209, then the full commodity code depends."
production:
  <<: *default
`);
  assert.deepEqual(interceptRows(doc), [
    ["adult cotton t-shirt", ["610910"]],
    ["airfryer", ["8516"]],
    ["alcohol", ["2203", "2209"]],
  ]);
  assert.throws(() => interceptRows({ production: {} }), /default/);
});
