/**
 * Where webhooks may be sent. Live workspaces need https. Plain http is allowed only to localhost, and only
 * in local development. Outside development, no loopback, private, link-local, CGNAT or unspecified targets
 * (IP literals and well-known local names; DNS answers are not resolved here).
 */
export interface UrlPolicyInput {
  url: string;
  mode: "live" | "sandbox";
  development: boolean;
}

const MAX_URL = 2048;

function ipv4Private(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function ipv6Private(host: string): boolean {
  if (!host.startsWith("[")) return false;
  const h = host.slice(1, -1).toLowerCase();
  return (
    h === "::" ||
    h === "::1" ||
    h.startsWith("fc") ||
    h.startsWith("fd") ||
    h.startsWith("fe80") ||
    h.startsWith("::ffff:")
  );
}

const isLocalName = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal");

/** null when allowed, else the reason. */
export function urlProblem({ url, mode, development }: UrlPolicyInput): string | null {
  if (url.length > MAX_URL) return `url must be at most ${MAX_URL} characters`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "url is not a valid absolute URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "url must use https";
  if (u.username || u.password) return "url must not carry credentials";
  const host = u.hostname.toLowerCase();
  const local = isLocalName(host) || ipv4Private(host) || ipv6Private(host);
  if (u.protocol === "http:") {
    if (!(development && (host === "localhost" || host === "127.0.0.1" || host.endsWith(".localhost")))) {
      return mode === "live"
        ? "url must use https for live workspaces"
        : "url must use https (http only to localhost in local development)";
    }
    return null;
  }
  if (local && !development) return "url must not point at a private, loopback or link-local address";
  return null;
}
