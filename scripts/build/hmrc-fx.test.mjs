import assert from "node:assert/strict";
import { test } from "node:test";
import { monthRows } from "./hmrc-fx.mjs";

const month = (period, rates = { USD: "1.3456", EUR: "1.1665" }, base = "GBP") =>
  JSON.stringify({ base, period, rates });

test("a month's file gives one row per currency, sorted, the figure as published", () => {
  assert.deepEqual(monthRows("2026-10.json", month({ start: "2026-10-01", end: "2026-10-31" })), [
    ["2026-10-01", "2026-10-31", "EUR", "1.1665"],
    ["2026-10-01", "2026-10-31", "USD", "1.3456"],
  ]);
  // February of a leap year ends on the 29th.
  assert.equal(monthRows("2024-02.json", month({ start: "2024-02-01", end: "2024-02-29" })).length, 2);
});

test("a file that is not the month its name says, not GBP-based or with an unreadable rate is refused", () => {
  assert.throws(() => monthRows("2026-10.json", month({ start: "2026-09-01", end: "2026-09-30" })), /period/);
  assert.throws(() => monthRows("2026-10.json", month({ start: "2026-10-01", end: "2026-10-31" }, {}, "EUR")), /base/);
  assert.throws(
    () => monthRows("2026-10.json", month({ start: "2026-10-01", end: "2026-10-31" }, { USD: "n/a" })),
    /unreadable rate/,
  );
  assert.throws(() => monthRows("latest.json", month({ start: "2026-10-01", end: "2026-10-31" })), /YYYY-MM/);
});
