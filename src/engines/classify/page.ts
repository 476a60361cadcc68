/**
 * Product-page reading for the `url` mode: the text a shop page gives about its product (title, meta
 * description, Open Graph, JSON-LD `Product`), and the address rules that keep the fetch away from private
 * networks. Pure: the module service does the fetching.
 */
import { checkUrl } from "../url-policy/policy";

export interface PageProduct {
  title: string | null;
  metaDescription: string | null;
  product: { name: string | null; description: string | null; category: string | null; brand: string | null } | null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decode(s: string): string {
  return s
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : " ";
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return m ? (m[2] ?? m[3] ?? m[4] ?? null) : null;
}

function meta(html: string, keys: string[]): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    const key = (attr(tag, "name") ?? attr(tag, "property") ?? "").toLowerCase();
    if (keys.includes(key)) {
      const content = attr(tag, "content");
      if (content && decode(content)) return decode(content);
    }
  }
  return null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? decode(v) : null);

function findProduct(node: unknown, depth = 0): Record<string, unknown> | null {
  if (depth > 6 || node === null || typeof node !== "object") return null;
  if (Array.isArray(node)) {
    for (const n of node) {
      const p = findProduct(n, depth + 1);
      if (p) return p;
    }
    return null;
  }
  const obj = node as Record<string, unknown>;
  const type = obj["@type"];
  const types = Array.isArray(type) ? type : [type];
  if (types.some((t) => typeof t === "string" && /^(Product|ProductGroup|IndividualProduct)$/i.test(t))) return obj;
  for (const key of ["@graph", "mainEntity", "itemListElement", "item"]) {
    const p = findProduct(obj[key], depth + 1);
    if (p) return p;
  }
  return null;
}

/** Title, meta description and the first JSON-LD Product of an HTML page. Malformed JSON-LD is skipped. */
export function extractProduct(html: string): PageProduct {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = meta(html, ["og:title", "twitter:title"]) ?? (titleMatch?.[1] ? decode(titleMatch[1]) || null : null);
  const metaDescription = meta(html, ["description", "og:description", "twitter:description"]);
  let product: PageProduct["product"] = null;
  for (const m of html.matchAll(
    /<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi,
  )) {
    let data: unknown;
    try {
      data = JSON.parse((m[1] ?? "").trim());
    } catch {
      continue;
    }
    const p = findProduct(data);
    if (!p) continue;
    const brand = p.brand;
    product = {
      name: str(p.name),
      description: str(p.description),
      category: str(p.category),
      brand: str(typeof brand === "object" && brand !== null ? (brand as Record<string, unknown>).name : brand),
    };
    break;
  }
  return { title, metaDescription, product };
}

/** The text to classify from a page: product name and category first, then descriptions; at most 2000 chars. */
export function pageText(p: PageProduct): string {
  const parts = [p.product?.name ?? p.title, p.product?.category, p.product?.description ?? p.metaDescription];
  if (p.product && p.title && p.title !== p.product.name) parts.push(p.title);
  return parts
    .filter((s): s is string => !!s)
    .join(". ")
    .slice(0, 2000);
}

/**
 * Why a URL may not be fetched, or null when it may: the one outbound URL policy (engines/url-policy), with
 * plain http allowed (product pages often are), phrased for `product_url`. Called again for every redirect hop.
 */
export function urlRefusal(raw: string, production: boolean): string | null {
  const verdict = checkUrl(raw, { development: !production, requireHttps: false });
  if (verdict.ok) return null;
  const { reason } = verdict;
  if (reason === "must use https") return "must use http or https";
  if (reason === "is not a valid absolute URL") return "is not a valid URL";
  if (/local host name|single-label/.test(reason)) return "points to a local host";
  if (/address/.test(reason)) return "points to a private or loopback address";
  return reason;
}
