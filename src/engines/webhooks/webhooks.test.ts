import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { isDelivered, MAX_ATTEMPTS, nextAttemptAt } from "./schedule";
import { newWebhookSecret, signedHeaders } from "./sign";
import { matches } from "./subscriptions";
import { urlProblem } from "./url-policy";

describe("retry schedule", () => {
  const t = 1_000_000;
  it.each([
    [1, t + 60_000],
    [2, t + 300_000],
    [3, t + 1_800_000],
    [4, t + 7_200_000],
    [5, t + 21_600_000],
    [6, null],
  ])("after attempt %d fails, the next is due at %s", (attempt, expected) => {
    expect(nextAttemptAt(attempt, t)).toBe(expected);
  });
  it("six attempts in all", () => expect(MAX_ATTEMPTS).toBe(6));
  it.each([
    [200, true],
    [204, true],
    [299, true],
    [301, false],
    [410, false],
    [500, false],
  ])("status %d delivered: %s", (s, d) => expect(isDelivered(s)).toBe(d));
});

describe("signing", () => {
  it("produces headers the standardwebhooks library verifies, and fails with a wrong secret", async () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({
      id: "whd_1",
      type: "webhook.test",
      created_at: "2026-11-22T00:00:00Z",
      data: { ü: "✓" },
    });
    const ts = Math.floor(Date.now() / 1000);
    const headers = await signedHeaders([secret], "whd_1", ts, body);
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: "webhook.test" });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace("test", "tset"), headers)).toThrow();
  });

  it("signs with both secrets during a rotation", async () => {
    const [oldS, newS] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"x":1}';
    const headers = await signedHeaders([newS, oldS], "whd_2", Math.floor(Date.now() / 1000), body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(oldS).verify(body, headers)).toEqual({ x: 1 });
    expect(new Webhook(newS).verify(body, headers)).toEqual({ x: 1 });
  });
});

describe("subscriptions", () => {
  it.each([
    [[], "consignment.created", true],
    [["consignment.created"], "consignment.created", true],
    [["consignment.created"], "duties.calculated", false],
    [["manifest.*"], "manifest.closed", true],
    [["manifest.*"], "manifests.closed", false],
    [["manifest.*", "duties.calculated"], "duties.calculated", true],
    [["consignment.*"], "consignment.created", true],
  ])("%j matches %s: %s", (sub, type, expected) => {
    expect(matches(sub, type)).toBe(expected);
  });
});

describe("url policy", () => {
  it.each([
    ["https://hooks.example.com/x", "live", false, null],
    ["http://hooks.example.com/x", "live", false, "url must use https for live workspaces"],
    ["http://hooks.example.com/x", "sandbox", true, "url must use https (http only to localhost in local development)"],
    ["http://localhost:9000/hook", "sandbox", true, null],
    ["http://127.0.0.1:9000/hook", "live", true, null],
    [
      "http://localhost:9000/hook",
      "sandbox",
      false,
      "url must use https (http only to localhost in local development)",
    ],
    ["https://10.0.0.5/x", "live", false, "url must not point at a private, loopback or link-local address"],
    [
      "https://169.254.169.254/latest",
      "live",
      false,
      "url must not point at a private, loopback or link-local address",
    ],
    ["https://[::1]/x", "live", false, "url must not point at a private, loopback or link-local address"],
    ["https://db.internal/x", "live", false, "url must not point at a private, loopback or link-local address"],
    ["https://192.168.1.1/x", "live", true, null],
    ["ftp://example.com/x", "live", false, "url must use https"],
    ["https://user:pw@example.com/x", "live", false, "url must not carry credentials"],
    ["not a url", "live", false, "url is not a valid absolute URL"],
    [`https://example.com/${"a".repeat(2100)}`, "live", false, "url must be at most 2048 characters"],
  ])("%s (%s, dev=%s)", (url, mode, development, expected) => {
    expect(urlProblem({ url, mode: mode as "live" | "sandbox", development })).toBe(expected);
  });
});

describe("url policy: the review's bypasses are refused in production", () => {
  it.each([
    "https://localhost./h",
    "https://localhost%2e/h",
    "https://[::127.0.0.1]/h",
    "https://[64:ff9b::7f00:1]/h",
    "https://198.18.0.1/h",
    "https://[fe90::1]/h",
    "https://intranet/h",
  ])("%s", (url) => {
    expect(urlProblem({ url, mode: "live", development: false })).toBe(
      "url must not point at a private, loopback or link-local address",
    );
  });
});
