/**
 * Where webhooks may be sent: the one outbound URL policy (engines/url-policy), with the webhook area's
 * messages. Live workspaces need https; plain http is allowed only to localhost, and only in local
 * development.
 */
import { checkUrl } from "../url-policy/policy";

export interface UrlPolicyInput {
  url: string;
  mode: "live" | "sandbox";
  development: boolean;
}

/** null when allowed, else the reason, phrased for the `url` field. */
export function urlProblem({ url, mode, development }: UrlPolicyInput): string | null {
  const verdict = checkUrl(url, { development, requireHttps: true });
  if (verdict.ok) return null;
  if (verdict.reason.startsWith("must use https")) {
    let plainHttp = false;
    try {
      plainHttp = new URL(url).protocol === "http:";
    } catch {
      plainHttp = false;
    }
    if (plainHttp) {
      return mode === "live" && !development
        ? "url must use https for live workspaces"
        : "url must use https (http only to localhost in local development)";
    }
  }
  if (/address|host name|single-label/.test(verdict.reason)) {
    return "url must not point at a private, loopback or link-local address";
  }
  return `url ${verdict.reason}`;
}
