/**
 * Fetching a URL a caller gave (a product page for mode `url`, an image for mode `image`) under the outbound
 * address rules (engines/classify/page.ts urlRefusal: in production no local, private or loopback hosts).
 * Redirects are followed by hand, at most three, so every hop passes the same rules. Failures come back as
 * `{error}` naming the field, never thrown: the caller decides whether to fall back to the caller's text.
 */
import { urlRefusal } from "../../engines/classify/page";

const MAX_REDIRECTS = 3;

export interface PublicFetch {
  /** The request field the URL came from, for the messages ("product_url"). */
  field: string;
  production: boolean;
  accept: string;
  timeoutMs: number;
  /** What the answer must be, for the message ("a web page"), and the media types that are it ("" when absent). */
  what: string;
  accepts: (mediaType: string) => boolean;
}

/** The answer, once it is a 2xx of an accepted type; its body is the caller's to read (or cancel). */
export async function fetchPublic(
  url: string,
  opts: PublicFetch,
): Promise<{ res: Response; mediaType: string } | { error: string }> {
  const { field } = opts;
  let target = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refusal = urlRefusal(target, opts.production);
      if (refusal) return { error: `${field} ${refusal}` };
      const res = await fetch(target, {
        redirect: "manual",
        signal: AbortSignal.timeout(opts.timeoutMs),
        headers: { accept: opts.accept, "user-agent": "TradeComplianceAPI/1.0 (+classification)" },
      });
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        target = new URL(location, target).toString();
        await res.body?.cancel();
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        return { error: `${field} answered HTTP ${res.status}` };
      }
      const mediaType = (res.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      if (!opts.accepts(mediaType)) {
        await res.body?.cancel();
        return { error: `${field} is not ${opts.what} (${mediaType || "no content type"})` };
      }
      return { res, mediaType };
    }
    return { error: `${field} redirects too many times` };
  } catch (e) {
    const name = (e as Error)?.name;
    return {
      error:
        name === "TimeoutError" || name === "AbortError"
          ? `${field} did not answer within ${opts.timeoutMs / 1000} s`
          : `${field} could not be fetched`,
    };
  }
}
