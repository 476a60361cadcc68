/**
 * The one URL policy for every outbound request the Worker makes on a client's behalf (webhook deliveries,
 * product pages, image URLs, dataset downloads). Pure: it judges a URL, it does not fetch.
 *
 * The host is judged as the WHATWG URL parser leaves it (so `0x7f.1`, `2130706433` and `127.1` are already
 * `127.0.0.1`, and `[::127.0.0.1]` is `[::7f00:1]`), then normalised further: lower case, trailing dots
 * removed. Refused outside local development: single-label hosts, local names (localhost, .local,
 * .internal, .home.arpa…), and every special-purpose IPv4 and IPv6 range of the IANA registries that is not
 * globally reachable: loopback, private, link-local (all of fe80::/10), CGNAT, benchmarking (198.18/15),
 * documentation, multicast, reserved and unspecified, and IPv6 forms that embed an IPv4 address (mapped
 * ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32).
 * DNS answers are not resolved here: a public name that resolves to a private address is stopped by
 * Cloudflare's egress, which does not route to private networks.
 */

export interface UrlPolicyOptions {
  /** Local development: plain http and local targets are allowed (only from the dev setup, never deployed). */
  development: boolean;
  /** Refuse plain http outside development (webhooks to live workspaces, and every fetch of ours). */
  requireHttps?: boolean;
  /** Longest accepted URL. */
  maxLength?: number;
}

export type UrlVerdict = { ok: true; url: URL; host: string } | { ok: false; reason: string };

const MAX_URL = 2048;

const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".localdomain", ".lan", ".intranet"];

/** Lower case, no trailing dots, brackets kept for IPv6 literals. */
function normaliseHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, "");
}

/** The four octets of a dotted-decimal IPv4 address, or null. */
function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** IPv4 ranges that are not globally reachable (IANA IPv4 Special-Purpose Address Registry, RFC 6890). */
function ipv4Refused([a = 0, b = 0, c = 0]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 || // private
    (a === 100 && b >= 64 && b <= 127) || // shared address space (CGNAT)
    a === 127 || // loopback
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) || // private
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 192 && b === 0 && c === 2) || // documentation (TEST-NET-1)
    (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast
    (a === 192 && b === 168) || // private
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // documentation (TEST-NET-2)
    (a === 203 && b === 0 && c === 113) || // documentation (TEST-NET-3)
    a >= 224 // multicast, reserved, broadcast
  );
}

/** The eight 16-bit groups of an IPv6 address (without brackets), or null when it is not one. */
export function parseIpv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  // A trailing dotted IPv4 part counts as two groups.
  const v4 = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  let tail: number[] = [];
  if (v4?.[1]) {
    const o = parseIpv4(v4[1]);
    if (!o) return null;
    tail = [((o[0] ?? 0) << 8) | (o[1] ?? 0), ((o[2] ?? 0) << 8) | (o[3] ?? 0)];
    s = s.slice(0, -v4[1].length);
    if (s.endsWith(":") && !s.endsWith("::")) s = s.slice(0, -1);
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0] ?? "");
  const rest = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const groups: number[] = [];
  for (const g of [...head, ...rest]) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
  }
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1 && explicit !== 8) return null;
  if (halves.length === 2 && explicit > 7) return null;
  for (const g of head) groups.push(Number.parseInt(g, 16));
  for (let i = explicit; i < 8; i++) groups.push(0);
  for (const g of rest) groups.push(Number.parseInt(g, 16));
  groups.push(...tail);
  return groups.length === 8 ? groups : null;
}

/**
 * IPv6 addresses that are refused: everything outside global unicast 2000::/3 (which removes ::/8 with the
 * unspecified, loopback, IPv4-compatible and IPv4-mapped forms, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, the
 * discard prefix, unique local fc00::/7, link-local fe80::/10, site-local and multicast), and inside it the
 * ranges that are not globally reachable or that tunnel to an IPv4 address (IANA IPv6 registry).
 */
function ipv6Refused(g: number[]): boolean {
  const [g0 = 0, g1 = 0] = g;
  if ((g0 & 0xe000) !== 0x2000) return true;
  if (g0 === 0x2001 && g1 < 0x0200) return true; // IETF protocol assignments 2001::/23 (Teredo 2001::/32 among them)
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  if (g0 === 0x2002) return true; // 6to4 (embeds an IPv4 address)
  if (g0 === 0x3fff && g1 < 0x1000) return true; // documentation 3fff::/20
  return false;
}

/** Why a host is refused outside development, or null when it may be reached. */
export function hostRefusal(hostname: string): string | null {
  const host = normaliseHost(hostname);
  if (host.startsWith("[")) {
    const groups = parseIpv6(host.slice(1, -1));
    if (!groups) return "has an invalid IPv6 address";
    return ipv6Refused(groups) ? "points to a private, loopback, link-local or reserved address" : null;
  }
  const v4 = parseIpv4(host);
  if (v4) return ipv4Refused(v4) ? "points to a private, loopback, link-local or reserved address" : null;
  if (/^[0-9.]+$/.test(host)) return "has an invalid IPv4 address";
  if (host === "localhost" || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return "points to a local host name";
  if (!host.includes(".")) return "must be a fully qualified domain name (single-label hosts are refused)";
  return null;
}

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1";

/** Judges one URL (and each redirect hop: call it again with the Location). */
export function checkUrl(raw: string, opts: UrlPolicyOptions): UrlVerdict {
  const max = opts.maxLength ?? MAX_URL;
  if (raw.length > max) return { ok: false, reason: `must be at most ${max} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "is not a valid absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "must use https" };
  if (url.username || url.password) return { ok: false, reason: "must not carry credentials" };
  const host = normaliseHost(url.hostname);
  if (!host) return { ok: false, reason: "has no host" };
  if (opts.development) {
    // Local development may call the developer's own machine, over plain http too.
    if (url.protocol === "http:" && !isLoopbackName(host) && opts.requireHttps) {
      return { ok: false, reason: "must use https (http only to localhost in local development)" };
    }
    return { ok: true, url, host };
  }
  if (url.protocol === "http:" && (opts.requireHttps ?? true)) return { ok: false, reason: "must use https" };
  const refusal = hostRefusal(host);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url, host };
}
