import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRate, tariffNumbers } from "./ch-tariff.mjs";
import { parseCsv } from "./csv.mjs";

const HEADER = "GOODS_CODE,SUFFIX,INDENT,DESCRIPTION,UNIT,IS_LEAF,GT_RATE,START_DATE";

test("reads a general rate as the engine's components", () => {
  assert.deepEqual(parseRate("0.00", "Fr. per 100 kg gross"), []);
  assert.deepEqual(parseRate("315.00", "Fr. per 100 kg gross"), [["sp", "315.00", "KGB", 100]]);
  assert.deepEqual(parseRate("120.00", "Fr. per piece(s)"), [["sp", "120.00", "NO", 1]]);
  assert.deepEqual(parseRate("2.42", "Fr. per litre"), [["sp", "2.42", "L", 1]]);
  // A unit the engine does not measure keeps its words; a free one is Free whatever its unit.
  assert.equal(parseRate("5.00", "Fr. per usual unit"), null);
  assert.deepEqual(parseRate("0.00", "Fr. per MWh"), []);
  assert.throws(() => parseRate("12", "Fr. per 100 kg gross"), /not a number of francs/);
  assert.throws(() => parseRate("", "Fr. per 100 kg gross"), /not a number of francs/);
});

test("reads tariff numbers with their path of titles, in the schedule's order", () => {
  const rows = parseCsv(
    [
      HEADER,
      '04,80,0,"Dairy produce; birds\' eggs",,0,,1988-01-01',
      "0406,80,1,Cheese and curd:,,0,,1988-01-01",
      "040690,80,2,other cheese:,,0,,1988-01-01",
      ",10,3,hard or semi-hard cheese:,,,,1995-07-01",
      "04069091,80,4,within the limits of the tariff quota,Fr. per 100 kg gross,1,40.00,1995-07-01",
      "04069099,80,4,other,Fr. per 100 kg gross,1,315.00,1995-07-01",
      "",
    ].join("\r\n"),
  );
  assert.deepEqual(tariffNumbers(rows), [
    {
      code: "04069091",
      description: "Cheese and curd > other cheese > hard or semi-hard cheese > within the limits of the tariff quota",
      unit: "Fr. per 100 kg gross",
      rate: "40.00",
      from: "1995-07-01",
    },
    {
      code: "04069099",
      description: "Cheese and curd > other cheese > hard or semi-hard cheese > other",
      unit: "Fr. per 100 kg gross",
      rate: "315.00",
      from: "1995-07-01",
    },
  ]);
});

test("refuses a damaged copy", () => {
  const read = (...lines) => tariffNumbers(parseCsv([HEADER, ...lines].join("\n")));
  // A row that lost a field, codes out of order, a jump in the indent, a date or rate garbled.
  assert.throws(() => read("04,80,0,Dairy,,0,1988-01-01"), /fields/);
  assert.throws(() => read("0406,80,0,Cheese,,0,,1988-01-01", "0405,80,0,Butter,,0,,1988-01-01"), /0405 after 0406/);
  assert.throws(
    () => read("04,80,0,Dairy,,0,,1988-01-01", "04069099,80,3,other,Fr. per 100 kg gross,1,3.00,1995-07-01"),
    /indent/,
  );
  assert.throws(() => read("04,80,0,Dairy,,0,,1988-1-01"), /start date/);
  assert.throws(() => read("04069099,80,0,other,Fr. per 100 kg gross,1,3,1995-07-01"), /not a number of francs/);
  assert.throws(() => tariffNumbers(parseCsv("CODE,RATE\n04,1\n")), /unexpected header/);
});
