import { describe, expect, it } from "vitest";
import { decide, estimate, leaseSize, refund, roll, type WindowState, waitForRoom } from "./sliding-window";

const W = 10_000;
const bucket = { limit: 10, windowMs: W };

describe("roll", () => {
  it.each<[string, WindowState | undefined, number, WindowState]>([
    [
      "fresh state starts at the window containing now",
      undefined,
      12_345,
      { windowStart: 10_000, current: 0, previous: 0 },
    ],
    [
      "same window is unchanged",
      { windowStart: 10_000, current: 4, previous: 2 },
      19_999,
      { windowStart: 10_000, current: 4, previous: 2 },
    ],
    [
      "next window keeps current as previous",
      { windowStart: 10_000, current: 4, previous: 2 },
      20_000,
      { windowStart: 20_000, current: 0, previous: 4 },
    ],
    [
      "two windows later everything slid out",
      { windowStart: 10_000, current: 4, previous: 2 },
      30_000,
      { windowStart: 30_000, current: 0, previous: 0 },
    ],
  ])("%s", (_name, state, now, expected) => {
    expect(roll(state, now, W)).toEqual(expected);
  });
});

describe("estimate", () => {
  it.each([
    // previous weighted by the part of it the sliding window still covers
    [{ windowStart: 10_000, current: 0, previous: 10 }, 10_000, 10],
    [{ windowStart: 10_000, current: 0, previous: 10 }, 12_500, 7.5],
    [{ windowStart: 10_000, current: 3, previous: 10 }, 15_000, 8],
    [{ windowStart: 10_000, current: 3, previous: 10 }, 19_999, 3.001],
  ])("%o at %d → %d", (state, now, expected) => {
    expect(estimate(state, now, W)).toBeCloseTo(expected, 6);
  });
});

describe("decide", () => {
  it("allows exactly `limit` requests in a window and refuses the next one", () => {
    let state: WindowState | undefined;
    const t0 = 100_000;
    for (let i = 0; i < 10; i++) {
      const r = decide(state, t0 + i, bucket);
      expect(r.decision.allowed).toBe(true);
      expect(r.decision.remaining).toBe(9 - i);
      state = r.state;
    }
    const refused = decide(state, t0 + 10, bucket);
    expect(refused.decision.allowed).toBe(false);
    expect(refused.decision.remaining).toBe(0);
    expect(refused.state).toEqual(state); // a refused request is not counted
    expect(refused.decision.retryAfterMs).toBeGreaterThan(0);
  });

  it("allows again exactly when retryAfterMs has passed, not a millisecond before", () => {
    let state: WindowState | undefined;
    const t0 = 100_000;
    for (let i = 0; i < 10; i++) state = decide(state, t0, bucket).state;
    const refused = decide(state, t0 + 1_000, bucket);
    const wait = refused.decision.retryAfterMs;
    // Full window at t0 (start of a window): the next window starts at 110 000 with previous = 10;
    // one request fits once 10 * (1 - e/W) + 1 <= 10, i.e. e >= 1 000 ms → 111 000.
    expect(t0 + 1_000 + wait).toBe(111_000);
    expect(decide(refused.state, t0 + 1_000 + wait - 1, bucket).decision.allowed).toBe(false);
    expect(decide(refused.state, t0 + 1_000 + wait, bucket).decision.allowed).toBe(true);
  });

  it("peek (consume=false) reports without counting", () => {
    const r = decide(undefined, 5_000, bucket, 1, false);
    expect(r.decision.allowed).toBe(true);
    expect(r.state.current).toBe(0);
  });

  it("weights the cost of a request (classify counts items)", () => {
    const a = decide(undefined, 0, bucket, 7);
    expect(a.decision.allowed).toBe(true);
    expect(decide(a.state, 1, bucket, 4).decision.allowed).toBe(false);
    expect(decide(a.state, 1, bucket, 3).decision.allowed).toBe(true);
  });

  it("never allows a cost above the limit and says so with an infinite wait", () => {
    const r = decide(undefined, 0, bucket, 11);
    expect(r.decision.allowed).toBe(false);
    expect(r.decision.retryAfterMs).toBe(Number.POSITIVE_INFINITY);
  });

  it("reports the time to the end of the fixed window as reset", () => {
    expect(decide(undefined, 12_000, bucket).decision.resetMs).toBe(8_000);
  });
});

describe("waitForRoom", () => {
  it.each([
    ["room now", { windowStart: 0, current: 5, previous: 0 }, 1_000, 0],
    ["previous must decay", { windowStart: 0, current: 0, previous: 10 }, 0, 1_000],
    ["current full: next window, then decay", { windowStart: 0, current: 10, previous: 0 }, 4_000, 7_000],
  ])("%s", (_n, state, now, expected) => {
    expect(waitForRoom(state, now, bucket, 1)).toBe(expected);
  });
});

describe("refund", () => {
  it.each([
    ["current window", 10_000, { windowStart: 10_000, current: 1, previous: 5 }],
    ["previous window", 0, { windowStart: 10_000, current: 4, previous: 2 }],
    ["older window: nothing to give back", -10_000, { windowStart: 10_000, current: 4, previous: 5 }],
  ])("%s", (_n, windowStart, expected) => {
    expect(refund({ windowStart: 10_000, current: 4, previous: 5 }, windowStart, 3, W)).toEqual(expected);
  });
});

describe("leaseSize", () => {
  it.each([
    [0, 2000, 50], // far below: capped
    [900, 2000, 25], // (1000 - 900) / 4
    [990, 2000, 2],
    [997, 2000, 0], // near half the limit: every request goes to the Durable Object
    [1500, 2000, 0],
    [0, 10, 0], // small limits are always exact
    [0, 99, 0],
    [0, 100, 12],
  ])("used %d of %d → lease %d", (used, limit, expected) => {
    expect(leaseSize(used, limit)).toBe(expected);
  });
});
