import { describe, expect, it } from "vitest";
import { checkUrl, hostRefusal, parseIpv6 } from "./policy";

const prod = { development: false };

describe("checkUrl outside development", () => {
  it.each([
    // loopback and local names, with the spellings the review used
    "https://localhost/h",
    "https://localhost./h",
    "https://localhost%2e/h",
    "https://LOCALHOST/h",
    "https://api.localhost/h",
    "https://printer.local/h",
    "https://db.internal/h",
    "https://router.home.arpa/h",
    "https://intranet/h",
    // IPv4 in every spelling the URL parser accepts
    "https://127.0.0.1/h",
    "https://127.1/h",
    "https://2130706433/h",
    "https://0x7f.0.0.1/h",
    "https://0.0.0.0/h",
    "https://10.1.2.3/h",
    "https://100.64.0.1/h",
    "https://169.254.169.254/h",
    "https://172.16.0.1/h",
    "https://192.168.1.1/h",
    "https://192.0.0.8/h",
    "https://198.18.0.1/h",
    "https://198.19.255.254/h",
    "https://192.0.2.1/h",
    "https://203.0.113.9/h",
    "https://224.0.0.1/h",
    "https://240.0.0.1/h",
    "https://255.255.255.255/h",
    // IPv6, including the forms that embed an IPv4 address
    "https://[::]/h",
    "https://[::1]/h",
    "https://[::127.0.0.1]/h",
    "https://[::ffff:127.0.0.1]/h",
    "https://[::ffff:7f00:1]/h",
    "https://[::ffff:8.8.8.8]/h",
    "https://[64:ff9b::7f00:1]/h",
    "https://[64:ff9b::8.8.8.8]/h",
    "https://[64:ff9b:1::1]/h",
    "https://[fc00::1]/h",
    "https://[fd12:3456::1]/h",
    "https://[fe80::1]/h",
    "https://[fe90::1]/h",
    "https://[febf::1]/h",
    "https://[fec0::1]/h",
    "https://[ff02::1]/h",
    "https://[2001:db8::1]/h",
    "https://[2001::1]/h",
    "https://[2002:7f00:1::1]/h",
    "https://[100::1]/h",
  ])("refuses %s", (url) => {
    const verdict = checkUrl(url, prod);
    expect(verdict.ok).toBe(false);
  });

  it.each([
    "https://hooks.example.com/h",
    "https://8.8.8.8/h",
    "https://[2606:4700:4700::1111]/h",
    "https://example.com./h",
  ])("allows %s", (url) => {
    expect(checkUrl(url, prod)).toMatchObject({ ok: true });
  });

  it("refuses plain http, credentials, other schemes and overlong URLs", () => {
    expect(checkUrl("http://hooks.example.com/h", prod)).toEqual({ ok: false, reason: "must use https" });
    expect(checkUrl("https://u:p@hooks.example.com/h", prod)).toMatchObject({ ok: false });
    expect(checkUrl("ftp://hooks.example.com/h", prod)).toMatchObject({ ok: false });
    expect(checkUrl(`https://hooks.example.com/${"a".repeat(3000)}`, prod)).toMatchObject({ ok: false });
    expect(checkUrl("not a url", prod)).toMatchObject({ ok: false });
  });
});

describe("checkUrl in development", () => {
  it("allows local targets and http to localhost", () => {
    expect(checkUrl("http://localhost:9999/h", { development: true, requireHttps: true })).toMatchObject({ ok: true });
    expect(checkUrl("https://10.0.0.1/h", { development: true })).toMatchObject({ ok: true });
    expect(checkUrl("http://example.com/h", { development: true, requireHttps: true })).toMatchObject({ ok: false });
  });
});

describe("parsing", () => {
  it.each([
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ["2001:db8::8:800:200c:417a", [0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("parseIpv6(%s)", (text, groups) => {
    expect(parseIpv6(text)).toEqual(groups);
  });

  it.each(["1:2:3", "1::2::3", "12345::", "g::1"])("parseIpv6 refuses %s", (text) => {
    expect(parseIpv6(text)).toBeNull();
  });

  it("explains each refusal", () => {
    expect(hostRefusal("intranet")).toContain("single-label");
    expect(hostRefusal("localhost.")).toContain("local host name");
    expect(hostRefusal("[fe90::1]")).toContain("link-local");
  });
});
