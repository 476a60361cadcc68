/**
 * Classification and blocklist verbs. No Hono: handlers pass the database, the organization and the input.
 *
 * The engine's index is built from the `hs` dataset in D1 once per isolate and kept while the dataset's
 * version and import time stay the same. The `data_sources` row and each organization's blocklist are read
 * together and kept for 5 s per isolate, so the hot path usually makes no D1 round trip: a blocklist change
 * applies at once in the isolate that made it and within 5 s everywhere, a data reload within 5 s.
 */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { classifyBlocklist, dataSources, hsNomenclature, hsSynonyms, hsTariffLines } from "../../db/schema/index";
import { buildIndex, type Index, type RankResult, rank, type Suggestion } from "../../engines/classify/engine";
import { extractProduct, pageText, urlRefusal } from "../../engines/classify/page";
import { systemClock } from "../../lib/clock";
import { ApiError, badRequest, notFound } from "../../lib/errors";
import { EU_MEMBERS } from "../../lib/iso";
import { TtlCache } from "../../lib/ttl-cache";

export const DATASET = "hs";

// ---------------------------------------------------------------------------------------------------------
// Index, once per isolate

export interface DataSource {
  version: string;
  source: string;
  imported_at: string;
}

let cached: { key: string; index: Promise<Index>; builtMs?: number } | undefined;

async function loadIndex(db: Db): Promise<Index> {
  const [nomenclature, lines, synonyms] = await db.batch([
    db
      .select({ code: hsNomenclature.code, parent: hsNomenclature.parent, description: hsNomenclature.description })
      .from(hsNomenclature),
    db.select().from(hsTariffLines),
    db.select({ phrase: hsSynonyms.phrase, codes: hsSynonyms.codes }).from(hsSynonyms),
  ]);
  return buildIndex(nomenclature, lines, synonyms);
}

/** The index for the loaded dataset version; built on first use in this isolate, shared by concurrent requests. */
export function indexFor(db: Db, source: DataSource): Promise<Index> {
  const key = `${source.version}@${source.imported_at}`;
  if (cached?.key !== key) {
    const started = Date.now();
    const entry: NonNullable<typeof cached> = { key, index: loadIndex(db) };
    entry.index.then(
      () => (entry.builtMs = Date.now() - started),
      () => {
        if (cached === entry) cached = undefined;
      },
    );
    cached = entry;
  }
  return cached.index;
}

export const indexInfo = () => (cached ? { key: cached.key, built_ms: cached.builtMs ?? null } : null);

// ---------------------------------------------------------------------------------------------------------
// Modes

export interface Mode {
  slug: string;
  name: string;
  description: string;
  inputs: ("description" | "title" | "product_url" | "image_url")[];
  available: boolean;
  default: boolean;
  unavailable_reason: string | null;
}

export function modes(env: { IMAGE_MODEL?: unknown }): Mode[] {
  const image = env.IMAGE_MODEL !== undefined;
  const noImage = image ? null : "No image-capable model binding (IMAGE_MODEL) is configured for this deployment";
  return [
    {
      slug: "standard",
      name: "Standard",
      description:
        "Ranks HS2022 subheadings and the destination's tariff lines from the product text (BM25F over nomenclature, national descriptions and a retail vocabulary).",
      inputs: ["description", "title"],
      available: true,
      default: true,
      unavailable_reason: null,
    },
    {
      slug: "url",
      name: "Product page",
      description:
        "Reads product_url (title, meta description, JSON-LD Product) and classifies that text, together with any description given.",
      inputs: ["description", "title", "product_url"],
      available: true,
      default: false,
      unavailable_reason: null,
    },
    {
      slug: "image",
      name: "Image",
      description: "Describes image_url with an image model, then classifies the description.",
      inputs: ["description", "title", "image_url"],
      available: image,
      default: false,
      unavailable_reason: noImage,
    },
  ];
}

export const MODE_SLUGS = ["standard", "url", "image"] as const;
export type ModeSlug = (typeof MODE_SLUGS)[number];

// ---------------------------------------------------------------------------------------------------------
// Product pages

export const PAGE_TIMEOUT_MS = 5_000;
export const PAGE_MAX_BYTES = 1_000_000;
const MAX_REDIRECTS = 3;

/** Reads at most `max` bytes of a body; the rest is never downloaded. */
async function readLimited(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, all.byteLength - at));
    all.set(part, at);
    at += part.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * Fetches a product page and returns the text to classify. Redirects are followed by hand (at most 3) so that
 * every hop passes the same address rules. Failures are `{error}`, never thrown: the caller decides.
 */
export async function readProductPage(url: string, production: boolean): Promise<{ text: string } | { error: string }> {
  let target = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refusal = urlRefusal(target, production);
      if (refusal) return { error: `product_url ${refusal}` };
      const res = await fetch(target, {
        redirect: "manual",
        signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
        headers: {
          accept: "text/html,application/xhtml+xml",
          "user-agent": "TradeComplianceAPI/1.0 (+classification)",
        },
      });
      if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
        target = new URL(res.headers.get("location")!, target).toString();
        await res.body?.cancel();
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        return { error: `product_url answered HTTP ${res.status}` };
      }
      const type = res.headers.get("content-type") ?? "";
      if (type && !/html|xml|text\/plain/i.test(type)) {
        await res.body?.cancel();
        return { error: `product_url is not a web page (${type.split(";")[0]})` };
      }
      const text = pageText(extractProduct(await readLimited(res, PAGE_MAX_BYTES)));
      return text ? { text } : { error: "product_url has no title, description or product data to classify" };
    }
    return { error: "product_url redirects too many times" };
  } catch (e) {
    const name = (e as Error)?.name;
    return {
      error:
        name === "TimeoutError" || name === "AbortError"
          ? `product_url did not answer within ${PAGE_TIMEOUT_MS / 1000} s`
          : "product_url could not be fetched",
    };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Classification

export interface ClassifyInput {
  description?: string | undefined;
  title?: string | undefined;
  brand?: string | undefined;
  sku?: string | undefined;
  type?: string | undefined;
  image_url?: string | undefined;
  product_url?: string | undefined;
  destination_country: string;
  mode?: ModeSlug | undefined;
  hs_code?: string | undefined;
  country_of_origin?: string | undefined;
  price?: number | undefined;
  currency?: string | undefined;
}

export interface ClassifyContext {
  db: Db;
  organizationId: string;
  production: boolean;
  imageModel: unknown;
}

/** Which schedule a destination classifies through: its own (US, GB), the union's (EU members), or HS6 only. */
export function scheduleFor(country: string): { schedule: string | undefined; source: string | undefined } {
  if (country === "US" || country === "GB") return { schedule: country, source: undefined };
  if (EU_MEMBERS.has(country)) return { schedule: "EU", source: "EU" };
  return { schedule: undefined, source: undefined };
}

/** Checks the input against the mode before any work: image and URL inputs need a mode that takes them. */
export function resolveMode(input: ClassifyInput, env: { IMAGE_MODEL?: unknown }): Mode {
  const all = modes(env);
  const mode = all.find((m) => m.slug === (input.mode ?? "standard"))!;
  if (input.image_url !== undefined && !mode.inputs.includes("image_url")) {
    throw badRequest(`Mode "${mode.slug}" does not accept image_url; use an image-capable mode (GET /classify/modes)`);
  }
  if (!mode.available) throw badRequest(`Mode "${mode.slug}" is not available: ${mode.unavailable_reason}`);
  if (input.product_url !== undefined && !mode.inputs.includes("product_url")) {
    throw badRequest(`Mode "${mode.slug}" does not accept product_url; use mode "url"`);
  }
  if (
    input.product_url === undefined &&
    input.image_url === undefined &&
    !input.description &&
    !input.title &&
    mode.slug !== "standard"
  ) {
    throw badRequest(
      `Mode "${mode.slug}" needs its input (${mode.inputs.filter((i) => i !== "description" && i !== "title").join(", ")})`,
    );
  }
  return mode;
}

export interface ClassifyOutcome {
  status: 200 | 422;
  body: Record<string, unknown>;
  log: { matchCount: number; detail: Record<string, unknown> };
}

const dotted = (code: string) =>
  code.length <= 4
    ? code
    : code.length <= 6
      ? `${code.slice(0, 4)}.${code.slice(4)}`
      : `${code.slice(0, 4)}.${code.slice(4, 6)}.${code.slice(6)}`;

const SCHEDULE_NAMES: Record<string, string> = { US: "US HTS", GB: "UK tariff", EU: "EU CN" };

function toWire(s: Suggestion, country: string, schedule: string | undefined) {
  const national = s.code.length > 6;
  return {
    code: s.code,
    country: schedule ?? country,
    chapter: { name: `Chapter ${s.chapter.code}`, number: s.chapter.code, description: s.chapter.description },
    heading: { name: `Heading ${s.heading.code}`, number: s.heading.code, description: s.heading.description },
    subheading: {
      name: `Subheading ${dotted(s.subheading.code)}`,
      number: s.subheading.code,
      description: s.subheading.description,
    },
    tariff: {
      name: national
        ? `${SCHEDULE_NAMES[schedule!] ?? schedule} ${dotted(s.tariff.code)}`
        : `HS ${dotted(s.tariff.code)}`,
      number: s.tariff.code,
      description: s.tariff.description,
    },
    score: s.score,
    confidence: s.confidence,
    reasoning: s.reasoning,
  };
}

/** The organization's blocked codes that apply to a destination (its own entries and GLOBAL ones). */
const blockedQuery = (db: Db, organizationId: string, country: string) =>
  db
    .select({ hsCode: classifyBlocklist.hsCode })
    .from(classifyBlocklist)
    .where(
      and(
        eq(classifyBlocklist.organizationId, organizationId),
        inArray(classifyBlocklist.countryCode, [country, "GLOBAL"]),
      ),
    );

const LOOKUP_TTL_MS = 5_000;
const lookups = new TtlCache<{ dataSource: DataSource | null; blocked: string[] }>(LOOKUP_TTL_MS);
/** Per organization, bumped by every blocklist write in this isolate: older cached lookups are never read again. */
const blocklistGeneration = new Map<string, number>();
const lookupKey = (organizationId: string, country: string) =>
  `${organizationId}|${blocklistGeneration.get(organizationId) ?? 0}|${country}`;
const forgetBlocklist = (organizationId: string) =>
  blocklistGeneration.set(organizationId, (blocklistGeneration.get(organizationId) ?? 0) + 1);

async function lookupsFor(db: Db, organizationId: string, country: string) {
  const key = lookupKey(organizationId, country);
  const hit = lookups.get(key, systemClock);
  if (hit) return hit;
  const [sources, blockedRows] = await db.batch([sourceQuery(db), blockedQuery(db, organizationId, country)]);
  const value = { dataSource: sources[0] ?? null, blocked: blockedRows.map((r) => r.hsCode) };
  // An empty dataset is not cached: the loader may be filling it right now.
  if (value.dataSource) lookups.set(key, value, systemClock);
  return value;
}

const sourceQuery = (db: Db) =>
  db
    .select({ version: dataSources.version, source: dataSources.source, imported_at: dataSources.importedAt })
    .from(dataSources)
    .where(eq(dataSources.dataset, DATASET));

/**
 * Classifies one product. Returns the wire body (200, or 422 when the text cannot be classified) and what
 * to log; throws ApiError for requests the mode cannot serve (400) and when no nomenclature is loaded (503).
 */
export async function classify(
  ctx: ClassifyContext,
  input: ClassifyInput,
  requestId: string,
): Promise<ClassifyOutcome> {
  const mode = resolveMode(input, { IMAGE_MODEL: ctx.imageModel });
  const country = input.destination_country;
  const { schedule, source: sourceCountry } = scheduleFor(country);

  const { dataSource, blocked } = await lookupsFor(ctx.db, ctx.organizationId, country);
  if (!dataSource)
    throw new ApiError("unavailable", "The HS nomenclature is not loaded; run the data loader (npm run dev loads it)");

  let text = [input.title, input.description, input.type].filter((s) => s && s.trim()).join(". ");
  const extra: Record<string, unknown> = {};
  let message = "";
  if (mode.slug === "url" && input.product_url) {
    const page = await readProductPage(input.product_url, ctx.production);
    if ("text" in page) {
      text = text ? `${page.text}. ${text}` : page.text;
      Object.assign(extra, { used_url: true, url_description: page.text });
    } else {
      Object.assign(extra, { used_url: false, url_description: null });
      if (!text) return unclassifiable(page.error);
      message = `${page.error}; classified from the description alone`;
    }
  }

  const index = await indexFor(ctx.db, dataSource);
  const result: RankResult = rank(index, text, { prefix: input.hs_code, schedule, blocked, limit: 5 });
  const common = {
    original_description: (extra.used_url ? text : input.description) || text || null,
    usedWebSearch: false,
    country,
    ...(sourceCountry ? { classification_source_country: sourceCountry } : {}),
    mode: mode.slug,
    data_source: dataSource,
    request_id: requestId,
    ...extra,
  };
  if (!result.ok) return unclassifiable(result.reason);

  function unclassifiable(reason: string): ClassifyOutcome {
    return {
      status: 422,
      body: {
        success: false,
        message: reason,
        unclassifiable: true,
        reason,
        original_description: text || null,
        customs_description: null,
        usedWebSearch: false,
        top_result: null,
        results: [],
        country,
        ...(sourceCountry ? { classification_source_country: sourceCountry } : {}),
        mode: mode.slug,
        data_source: dataSource,
        request_id: requestId,
        ...extra,
      },
      log: {
        matchCount: 0,
        detail: { mode: mode.slug, description: text.slice(0, 500), unclassifiable: true, reason },
      },
    };
  }

  const results = result.suggestions.map((s) => toWire(s, country, schedule));
  const top = results[0] ?? null;
  if (result.blockedAll) message = "Every suggestion is on the organization's blocklist";
  return {
    status: 200,
    body: {
      success: true,
      message,
      ...common,
      customs_description: top ? top.tariff.description : null,
      top_result: top,
      results,
      ...(result.blockedAll ? { blocked: true } : {}),
    },
    log: {
      matchCount: results.length,
      detail: {
        mode: mode.slug,
        description: text.slice(0, 500),
        schedule: schedule ?? null,
        top_code: top?.code ?? null,
        confidence: top?.confidence ?? null,
        score: top?.score ?? null,
        codes: results.map((r) => r.code),
        blocked: result.blockedAll,
        data_version: dataSource.version,
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Blocklist (per organization)

export type BlocklistRow = typeof classifyBlocklist.$inferSelect;

export const entryToWire = (r: BlocklistRow) => ({
  id: r.id,
  hs_code: r.hsCode,
  country_code: r.countryCode,
  reason: r.reason,
  created_at: r.createdAt,
});

/** Adds a code; null when the same code is already blocked for the same destination. */
export async function addBlock(
  db: Db,
  organizationId: string,
  input: { hs_code: string; country_code: string; reason?: string | null | undefined },
  now: string,
) {
  try {
    const rows = await db
      .insert(classifyBlocklist)
      .values({
        organizationId,
        hsCode: input.hs_code,
        countryCode: input.country_code,
        reason: input.reason ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    return rows[0] ?? null;
  } finally {
    forgetBlocklist(organizationId); // after the write, so no lookup racing it caches the old list
  }
}

/** Deletes by entry id (404 when not the organization's) or by code and destination (404 when not blocked). */
export async function removeBlock(
  db: Db,
  organizationId: string,
  target: { id: number } | { hs_code: string; country_code: string },
) {
  const where =
    "id" in target
      ? and(eq(classifyBlocklist.organizationId, organizationId), eq(classifyBlocklist.id, target.id))
      : and(
          eq(classifyBlocklist.organizationId, organizationId),
          eq(classifyBlocklist.hsCode, target.hs_code),
          eq(classifyBlocklist.countryCode, target.country_code),
        );
  const rows = await db
    .delete(classifyBlocklist)
    .where(where)
    .returning({ id: classifyBlocklist.id })
    .finally(() => forgetBlocklist(organizationId));
  if (!rows.length)
    throw notFound(
      "id" in target
        ? `No blocklist entry ${target.id}`
        : `${target.hs_code} is not blocked for ${target.country_code}`,
    );
  return rows[0]!;
}

/** D1 allows 100 bound parameters per statement; a row binds 5. */
const IMPORT_ROWS_PER_STATEMENT = 20;

/**
 * Replaces the organization's whole blocklist in one D1 batch (one transaction): the old list stays when any
 * statement fails. Duplicate entries in the input count once (the first wins). Returns the number of entries loaded.
 */
export async function importBlocklist(
  db: Db,
  organizationId: string,
  entries: { hs_code: string; country_code: string; reason?: string | null | undefined }[],
  now: string,
): Promise<number> {
  // The first occurrence of a code and destination wins (its reason is kept).
  const byKey = new Map<string, (typeof entries)[number]>();
  for (const e of entries)
    if (!byKey.has(`${e.hs_code}|${e.country_code}`)) byKey.set(`${e.hs_code}|${e.country_code}`, e);
  const unique = [...byKey.values()];
  const values = unique.map((e) => ({
    organizationId,
    hsCode: e.hs_code,
    countryCode: e.country_code,
    reason: e.reason ?? null,
    createdAt: now,
  }));
  const statements = [db.delete(classifyBlocklist).where(eq(classifyBlocklist.organizationId, organizationId))];
  for (let i = 0; i < values.length; i += IMPORT_ROWS_PER_STATEMENT) {
    statements.push(db.insert(classifyBlocklist).values(values.slice(i, i + IMPORT_ROWS_PER_STATEMENT)) as never);
  }
  try {
    await db.batch(statements as [(typeof statements)[0], ...(typeof statements)[0][]]);
  } finally {
    forgetBlocklist(organizationId);
  }
  return unique.length;
}

/** Newest first; `starting_after` is an entry id. */
export async function listBlocks(
  db: Db,
  organizationId: string,
  q: { limit: number; starting_after?: number | undefined; country_code?: string | undefined },
) {
  const where = [eq(classifyBlocklist.organizationId, organizationId)];
  if (q.starting_after !== undefined) where.push(lt(classifyBlocklist.id, q.starting_after));
  if (q.country_code) where.push(eq(classifyBlocklist.countryCode, q.country_code));
  const rows = await db
    .select()
    .from(classifyBlocklist)
    .where(and(...where))
    .orderBy(desc(classifyBlocklist.id))
    .limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}
