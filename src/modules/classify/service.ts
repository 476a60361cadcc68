/**
 * Classification and blocklist verbs. No Hono: handlers validate and call one verb.
 *
 * The engine's index is built from the `hs` dataset in D1 once per dataset version and import time, by the
 * first isolate that needs it, which stores it in R2 (core/prebuilt-index.ts); every later isolate reads it in
 * one round trip: the main object and, beside it, the parts its request needs (a schedule's national lines,
 * the US statistical lines), the other schedules' parts only when a request asks for them. Each isolate keeps it in a DatasetCache keyed on the version and import time. The `data_sources` row and each organization's
 * blocklist are read together and kept for 5 s per isolate, so the hot path usually makes no D1 round trip:
 * a blocklist change applies at once in the isolate that made it and within 5 s everywhere, a data reload
 * within 5 s.
 */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import {
  type BaseContext,
  type Call,
  type ConfigScope,
  configKey,
  configScope,
  type ServiceContext,
  type WorkspaceScopedContext,
} from "../../core/context";
import type { DataSource } from "../../core/data-source";
import { DatasetCache } from "../../core/dataset-cache";
import { loadPrebuilt, readPart, type Speculation, speculate, storePart } from "../../core/prebuilt-index";
import { recordUsage, recordUsageRows, type UsageSummary } from "../../core/usage";
import { chunkedInserts } from "../../db/bulk";
import type { Db } from "../../db/client";
import {
  classifyBlocklist,
  dataSources,
  hsNomenclature,
  hsRulings,
  hsSynonyms,
  hsTariffLines,
} from "../../db/schema/index";
import { buildIndex, rank, type Suggestion } from "../../engines/classify/engine";
import { extractProduct, pageText } from "../../engines/classify/page";
import {
  buildPrecedents,
  likelyHeadings,
  likelySubheadings,
  MIN_SIMILARITY,
  nearestHeadings,
  nearestRulings,
  type Precedent,
  VOTE_SIMILARITY,
} from "../../engines/classify/precedents";
import {
  attachFromBuilt,
  attachPart,
  type ClassifyIndexes,
  deserializeIndexes,
  partNames,
  partsFor,
  serializeIndexes,
  serializePart,
} from "../../engines/classify/snapshot";
import { pickStatistical, type StatisticalCandidate } from "../../engines/classify/statistical";
import { isoAt, systemClock } from "../../lib/clock";
import { getOrInsert } from "../../lib/collections";
import { isDevelopment } from "../../lib/environment";
import { ApiError, badRequest, forbidden, notFound } from "../../lib/errors";
import { EU_MEMBERS } from "../../lib/iso";
import { readLimited } from "../../lib/outbound";
import { TtlCache } from "../../lib/ttl-cache";
import { onDatasetActivated } from "../datasets/service";
import { fetchPublic } from "./fetch-public";
import { describeImage, type ModelUse, modelBinding, rerank, textModel, visionModel } from "./model";

const DATASET = "hs";

// ---------------------------------------------------------------------------------------------------------
// Index, once per isolate and dataset version

/**
 * The indexes of one version, with their parts: those stored beside the main object (`declared`) and, per
 * part, the attachment in progress or done (a request awaits the parts it needs).
 */
interface Loaded {
  indexes: ClassifyIndexes;
  declared: ReadonlySet<string>;
  attached: Map<string, Promise<void>>;
}

const indexCache = new DatasetCache<Loaded>("classify-index");

/** Schedule of the 10-digit US lines in hs_tariff_lines (scripts/data/hs.mjs). */
const STATISTICAL_SCHEDULE = "US10";

async function buildFromD1(db: Db): Promise<ClassifyIndexes> {
  const [nomenclature, lines, synonyms, rulings] = await db.batch([
    db
      .select({ code: hsNomenclature.code, parent: hsNomenclature.parent, description: hsNomenclature.description })
      .from(hsNomenclature),
    db.select().from(hsTariffLines),
    db.select({ phrase: hsSynonyms.phrase, codes: hsSynonyms.codes, kind: hsSynonyms.kind }).from(hsSynonyms),
    db
      .select({
        rulingNumber: hsRulings.rulingNumber,
        code: hsRulings.code,
        subject: hsRulings.subject,
        description: hsRulings.description,
        url: hsRulings.url,
      })
      .from(hsRulings),
  ]);
  const statistical = new Map<string, StatisticalCandidate[]>();
  for (const line of lines)
    if (line.schedule === STATISTICAL_SCHEDULE) getOrInsert(statistical, line.code.slice(0, 8), () => []).push(line);
  for (const list of statistical.values()) list.sort((a, b) => a.code.localeCompare(b.code));
  // The statistical lines' wording also feeds each subheading's national text (it names products the 8-digit
  // lines leave as "Other"); no answer is ever a US10 line by itself, only through the US line above it.
  return { index: buildIndex(nomenclature, lines, synonyms), statistical, precedents: buildPrecedents(rulings) };
}

/**
 * The index for the loaded dataset version: on first use in this isolate, the prebuilt one from R2, else built
 * from D1 (and stored for the next isolates); shared by concurrent requests.
 */
/**
 * A new isolate's reads of the current stored index and the parts `schedule` needs, started before it knows
 * the version (core/prebuilt-index.ts); none once this isolate holds an index.
 */
const coldReads = (env: Env, schedule: string | undefined): Speculation | undefined =>
  indexCache.version === undefined ? speculate(env.ARCHIVE, DATASET, partsFor(schedule)) : undefined;

async function indexFor(
  { db, env }: Pick<BaseContext, "db" | "env">,
  source: DataSource,
  schedule: string | undefined,
  speculation: Speculation | undefined,
): Promise<ClassifyIndexes> {
  const versionKey = `${source.version}@${source.imported_at}`;
  const wanted = partsFor(schedule);
  // A cold isolate reads the parts its request needs beside the main object: one round trip, not two.
  const early =
    speculation?.parts ??
    (indexCache.version === versionKey
      ? undefined
      : new Map(wanted.map((part) => [part, readPart(env.ARCHIVE, DATASET, versionKey, part)])));
  const loaded = await indexCache.get(versionKey, () =>
    loadPrebuilt<Loaded>({
      bucket: env.ARCHIVE,
      dataset: DATASET,
      versionKey,
      early: speculation?.main,
      build: async () => {
        const indexes = await buildFromD1(db);
        const names = partNames(indexes);
        return { indexes, declared: new Set(names), attached: new Map(names.map((n) => [n, Promise.resolve()])) };
      },
      encode: (loaded, key) => serializeIndexes(loaded.indexes, key),
      decode: (buffer, key) => {
        const restored = deserializeIndexes(buffer, key);
        if ("refused" in restored) return restored;
        const { parts, ...indexes } = restored;
        return { indexes, declared: new Set(parts), attached: new Map() };
      },
      parts: {
        names: (loaded) => [...loaded.declared],
        encode: (loaded, part, key) => serializePart(loaded.indexes, part, key),
      },
    }),
  );
  await Promise.all(
    wanted.map((part) =>
      getOrInsert(loaded.attached, part, () => {
        const attaching = attach(db, env.ARCHIVE, loaded, part, versionKey, early?.get(part));
        // A failed attachment is forgotten, so the next request tries again.
        attaching.catch(() => loaded.attached.delete(part));
        return attaching;
      }),
    ),
  );
  return loaded.indexes;
}

/**
 * Adds one part to restored indexes: the stored object (read beside the main one, or now), or, when it is
 * missing or refused, the part of a build from D1, stored for the next isolates.
 */
async function attach(
  db: Db,
  bucket: R2Bucket,
  loaded: Loaded,
  part: string,
  versionKey: string,
  early: Promise<ArrayBuffer | null> | undefined,
): Promise<void> {
  if (!loaded.declared.has(part)) return;
  // The read started early (the current part, or this version's), then this version's object.
  let refused: { refused: string } | null = { refused: "not stored" };
  for (const read of early ? [early, undefined] : [undefined]) {
    const buffer = await (read ?? readPart(bucket, DATASET, versionKey, part));
    refused = buffer ? attachPart(loaded.indexes, part, buffer, versionKey) : { refused: "not stored" };
    if (!refused) return;
  }
  console.warn(JSON.stringify({ msg: "prebuilt index part unusable; building from D1", part, ...refused }));
  const built = await buildFromD1(db);
  attachFromBuilt(loaded.indexes, built, part);
  const { waitUntil } = await import("cloudflare:workers");
  waitUntil(storePart(bucket, DATASET, versionKey, part, serializePart(built, part, versionKey)));
}

// ---------------------------------------------------------------------------------------------------------
// Modes

export interface Mode {
  slug: ModeSlug;
  name: string;
  description: string;
  inputs: ("description" | "title" | "product_url" | "image_url")[];
  available: boolean;
  default: boolean;
  unavailable_reason: string | null;
}

export function modes(env: Env): Mode[] {
  const model = modelBinding(env) !== undefined;
  const noModel = model ? null : "No Workers AI binding (AI) is configured for this deployment";
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
      slug: "ai",
      name: "AI rerank",
      description: `The standard mode's candidates, reranked by a Workers AI text model (${textModel(env)}) given their legal texts, with GRI-based reasoning; falls back to the standard ranking, and says so, when the model fails or times out.`,
      inputs: ["description", "title"],
      available: model,
      default: false,
      unavailable_reason: noModel,
    },
    {
      slug: "image",
      name: "Image",
      description: `Describes image_url with a Workers AI vision model (${visionModel(env)}), then classifies that description with any description given.`,
      inputs: ["description", "title", "image_url"],
      available: model,
      default: false,
      unavailable_reason: noModel,
    },
  ];
}

export const MODE_SLUGS = ["standard", "url", "ai", "image"] as const;
type ModeSlug = (typeof MODE_SLUGS)[number];

// ---------------------------------------------------------------------------------------------------------
// Product pages

const PAGE_TIMEOUT_MS = 5_000;
const PAGE_MAX_BYTES = 1_000_000;

/**
 * Fetches a product page (under the outbound rules, redirects checked hop by hop) and returns the text to
 * classify. Failures are `{error}`, never thrown: the caller decides.
 */
export async function readProductPage(url: string, production: boolean): Promise<{ text: string } | { error: string }> {
  const page = await fetchPublic(url, {
    field: "product_url",
    production,
    accept: "text/html,application/xhtml+xml",
    timeoutMs: PAGE_TIMEOUT_MS,
    what: "a web page",
    accepts: (type) => type === "" || /html|xml|text\/plain/.test(type),
  });
  if ("error" in page) return page;
  const text = pageText(extractProduct(await readLimited(page.res, PAGE_MAX_BYTES)));
  return text ? { text } : { error: "product_url has no title, description or product data to classify" };
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

/** Which schedule a destination classifies through: its own (US, GB), the union's (EU members), or HS6 only. */
function scheduleFor(country: string): { schedule: string | undefined; source: string | undefined } {
  if (country === "US" || country === "GB") return { schedule: country, source: undefined };
  if (EU_MEMBERS.has(country)) return { schedule: "EU", source: "EU" };
  return { schedule: undefined, source: undefined };
}

/** Checks the input against the mode before any work: image and URL inputs need a mode that takes them. */
function resolveMode(input: ClassifyInput, env: Env): Mode {
  const slug = input.mode ?? "standard";
  const mode = modes(env).find((m) => m.slug === slug);
  if (!mode) throw badRequest(`Unknown mode "${slug}"`);
  if (input.image_url !== undefined && !mode.inputs.includes("image_url")) {
    throw badRequest(`Mode "${mode.slug}" does not accept image_url; use an image-capable mode (GET /classify/modes)`);
  }
  if (!mode.available) throw badRequest(`Mode "${mode.slug}" is not available: ${mode.unavailable_reason}`);
  if (mode.slug === "image" && input.image_url === undefined)
    throw badRequest('Mode "image" needs its input (image_url); classify text alone with mode "standard" or "ai"');
  if (input.image_url?.startsWith("gs://"))
    throw badRequest(
      "image_url: gs:// URIs need a Cloud Storage reader, which this deployment does not configure; send an https URL or a data:image URL",
    );
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

const dotted = (code: string) =>
  code.length <= 4
    ? code
    : code.length <= 6
      ? `${code.slice(0, 4)}.${code.slice(4)}`
      : `${code.slice(0, 4)}.${code.slice(4, 6)}.${code.slice(6)}`;

const SCHEDULE_NAMES: Record<string, string> = { US: "US HTS", GB: "UK tariff", EU: "EU CN" };

type SuggestionWire = ReturnType<typeof toWire>;

/**
 * The US answer's full national code: the 10-digit statistical line under the ranked 8-digit line that fits the
 * text (gender, fibre, construction, measures...), with what decided it; the 8-digit line when none is known.
 */
function statisticalLine(
  s: Suggestion,
  text: string,
  statistical: Map<string, StatisticalCandidate[]>,
  prefix: string | undefined,
): { code: string; description: string; note: string } | null {
  let candidates = statistical.get(s.code) ?? [];
  const wanted = prefix?.replace(/\D/g, "") ?? "";
  if (wanted.length > 8) candidates = candidates.filter((c) => c.code.startsWith(wanted));
  const picked = pickStatistical(text, s.code, candidates);
  if (!picked) return null;
  return {
    code: picked.code,
    description: picked.description,
    note: `statistical suffix ${picked.code.slice(8)}: ${picked.attributes.join("; ")}`,
  };
}

function toWire(
  s: Suggestion,
  country: string,
  schedule: string | undefined,
  stat: { code: string; description: string; note: string } | null = null,
) {
  const national = s.code.length > 6;
  const scheduleName = schedule === undefined ? undefined : (SCHEDULE_NAMES[schedule] ?? schedule);
  const tariff = stat
    ? {
        name: `${scheduleName} ${dotted(stat.code)}`,
        number: stat.code,
        description: `${s.tariff.description}: ${stat.description}`,
      }
    : {
        name: national ? `${scheduleName} ${dotted(s.tariff.code)}` : `HS ${dotted(s.tariff.code)}`,
        number: s.tariff.code,
        description: s.tariff.description,
      };
  return {
    code: stat?.code ?? s.code,
    country: schedule ?? country,
    chapter: { name: `Chapter ${s.chapter.code}`, number: s.chapter.code, description: s.chapter.description },
    heading: { name: `Heading ${s.heading.code}`, number: s.heading.code, description: s.heading.description },
    subheading: {
      name: `Subheading ${dotted(s.subheading.code)}`,
      number: s.subheading.code,
      description: s.subheading.description,
    },
    tariff,
    score: s.score,
    confidence: s.confidence,
    reasoning: stat ? `${s.reasoning} National line ${dotted(s.code)}; ${stat.note}.` : s.reasoning,
  };
}

/** The organization's blocked codes that apply to a destination (its own entries and GLOBAL ones). */
const inScope = (scope: ConfigScope) =>
  and(eq(classifyBlocklist.organizationId, scope.organizationId), eq(classifyBlocklist.mode, scope.mode));

const blockedQuery = (db: Db, scope: ConfigScope, country: string) =>
  db
    .select({ hsCode: classifyBlocklist.hsCode })
    .from(classifyBlocklist)
    .where(and(inScope(scope), inArray(classifyBlocklist.countryCode, [country, "GLOBAL"])));

/**
 * The dataset row and an organization's blocklist for one destination, read together. A blocklist has no
 * dataset version to key on (it changes with every write), so the pair stays in a short per-isolate TTL
 * cache instead of a DatasetCache; this isolate's writes make older entries unreachable at once.
 */
const LOOKUP_TTL_MS = 5_000;
const lookups = new TtlCache<{ dataSource: DataSource | null; blocked: string[] }>(LOOKUP_TTL_MS);
/** Per organization and mode, bumped by every blocklist write in this isolate: older cached lookups are never read again. */
const blocklistGeneration = new Map<string, number>();
/** Bumped when the registry activates an `hs` version in this isolate: the next lookup reads the new row at once. */
let nomenclatureGeneration = 0;
onDatasetActivated(async (ctx, event) => {
  if (event.dataset !== DATASET) return;
  nomenclatureGeneration++;
  // The new version's index is built and stored as soon as it is active, in the background: the first partner
  // request after an activation, on any isolate, then reads it from R2 instead of building it from D1.
  const { waitUntil } = await import("cloudflare:workers");
  waitUntil(
    prebuild(ctx).catch((err) =>
      console.warn(JSON.stringify({ msg: "classification index not prebuilt", error: String(err) })),
    ),
  );
});

/** Builds (or restores) the active version's index in this isolate, storing it and its parts in R2 when built. */
async function prebuild({ db, env }: BaseContext): Promise<void> {
  const [source] = await sourceQuery(db);
  if (source) await indexFor({ db, env }, source, "US", undefined);
}
const lookupKey = (scope: ConfigScope, country: string) =>
  `${nomenclatureGeneration}|${configKey(scope)}|${blocklistGeneration.get(configKey(scope)) ?? 0}|${country}`;
const forgetBlocklist = (scope: ConfigScope) =>
  blocklistGeneration.set(configKey(scope), (blocklistGeneration.get(configKey(scope)) ?? 0) + 1);

async function lookupsFor(db: Db, scope: ConfigScope, country: string) {
  const key = lookupKey(scope, country);
  const hit = lookups.get(key, systemClock);
  if (hit) return hit;
  const [sources, blockedRows] = await db.batch([sourceQuery(db), blockedQuery(db, scope, country)]);
  const value = { dataSource: sources[0] ?? null, blocked: blockedRows.map((r) => r.hsCode) };
  // An empty dataset is not cached: the loader may be filling it right now.
  if (value.dataSource) lookups.set(key, value, systemClock);
  return value;
}

/** The nomenclature version a classification for `country` reads now; null when none is loaded. */
export async function nomenclatureSource(ctx: WorkspaceScopedContext, country: string): Promise<DataSource | null> {
  return (await lookupsFor(ctx.db, configScope(ctx.workspace), country)).dataSource;
}

const sourceQuery = (db: Db) =>
  db
    .select({ version: dataSources.version, source: dataSources.source, imported_at: dataSources.importedAt })
    .from(dataSources)
    .where(eq(dataSources.dataset, DATASET));

/** What every classification answer states, suggestions or not. */
export interface ClassificationBasis {
  mode: ModeSlug;
  country: string;
  /** The schedule the country classifies through (EU for member states) when it is not the country itself. */
  sourceCountry: string | undefined;
  dataSource: DataSource;
  /** The product page's contribution, for mode `url`. */
  page: { used_url: boolean; url_description: string | null } | null;
  /** The image's contribution, for mode `image`. */
  image: { used_image: boolean; image_description: string | null } | null;
  /** The hosted model's part (modes `ai` and `image`): which model, whether its answer was used, and why not. */
  model: ModelUse | null;
}

export interface Classification extends ClassificationBasis {
  message: string;
  /** The text ranked (the page's and the request's). */
  text: string;
  originalDescription: string | null;
  results: SuggestionWire[];
  /** Every suggestion was on the organization's blocklist. */
  blockedAll: boolean;
  /** Rulings about similar products (precedents), best first; empty when none is similar enough. */
  rulings: Precedent[];
  schedule: string | undefined;
}

/** The text could not be classified: 422 with the classify answer's shape and `unclassifiable: true`. */
export class UnclassifiableError extends ApiError {
  constructor(
    readonly reason: string,
    readonly basis: ClassificationBasis,
    readonly text: string,
  ) {
    super("unprocessable", reason);
  }

  override body(requestId: string): Record<string, unknown> {
    const b = this.basis;
    return {
      success: false,
      message: this.reason,
      unclassifiable: true,
      reason: this.reason,
      original_description: this.text || null,
      customs_description: null,
      usedWebSearch: false,
      top_result: null,
      results: [],
      country: b.country,
      ...(b.sourceCountry ? { classification_source_country: b.sourceCountry } : {}),
      mode: b.mode,
      data_source: b.dataSource,
      request_id: requestId,
      ...(b.page ?? {}),
      ...(b.image ?? {}),
      ...(b.model ? { ai: b.model } : {}),
    };
  }
}

interface ProductText {
  text: string;
  page: ClassificationBasis["page"];
  image: ClassificationBasis["image"];
  model: ModelUse | null;
  message: string;
  /** Nothing to classify: the reason, answered as 422 unclassifiable. */
  failure: string | null;
}

/**
 * The product text: title, description and type, with the product page's text first in mode `url` and the
 * image's description first in mode `image`. When the page or image cannot be read the caller's own text is
 * classified, with the reason in `message`; without any, the reason is the failure (422), except a model
 * service failure with nothing else to go on, which is 503 (retry later), not the caller's fault.
 */
async function productText(ctx: WorkspaceScopedContext, input: ClassifyInput, mode: Mode): Promise<ProductText> {
  const text = [input.title, input.description, input.type].filter((s) => s?.trim()).join(". ");
  const plain: ProductText = { text, page: null, image: null, model: null, message: "", failure: null };
  const fallback = (error: string) =>
    text
      ? { message: `${error}; classified from the description alone`, failure: null }
      : { message: "", failure: error };
  if (mode.slug === "url" && input.product_url) {
    const page = await readProductPage(input.product_url, !isDevelopment(ctx.env));
    if ("text" in page)
      return {
        ...plain,
        text: text ? `${page.text}. ${text}` : page.text,
        page: { used_url: true, url_description: page.text },
      };
    return { ...plain, page: { used_url: false, url_description: null }, ...fallback(page.error) };
  }
  if (mode.slug === "image" && input.image_url) {
    const seen = await describeImage(ctx.env, input.image_url, text, !isDevelopment(ctx.env));
    const unused = { used_image: false, image_description: null };
    if ("error" in seen) {
      if (seen.cause === "model" && !text)
        throw new ApiError("unavailable", `The image model did not answer (${seen.error}); retry later`);
      const model =
        seen.cause === "model"
          ? { model: visionModel(ctx.env), used: false, fallback: seen.error, duration_ms: 0 }
          : null;
      return { ...plain, image: unused, model, ...fallback(seen.error) };
    }
    const { description, ...model } = seen;
    if (description === null)
      return { ...plain, image: unused, model, ...fallback(model.fallback ?? "no description") };
    return {
      ...plain,
      text: text ? `${description}. ${text}` : description,
      image: { used_image: true, image_description: description },
      model,
    };
  }
  return plain;
}

/**
 * Mode `ai`: the model picks among the standard ranking's suggestions; the pick moves first with the
 * model's reasoning, the others keep their order. Each keeps its standard score and label (the lexical
 * evidence, calibrated); the model's choice is stated in `reasoning` and in `ai`. On any model failure the
 * standard ranking stands and `message` says why.
 */
async function reranked(env: Env, text: string, candidates: SuggestionWire[], precedents: readonly Precedent[]) {
  const r = await rerank(env, text, candidates, precedents);
  const { code, reasoning, ...model } = r;
  const chosen = model.used ? candidates.find((x) => x.code === code) : undefined;
  if (!chosen)
    return {
      results: candidates.slice(0, ANSWER_LIMIT),
      model,
      message: `The model's ranking is not used (${model.fallback}); standard ranking returned`,
    };
  const top = {
    ...chosen,
    reasoning: `${model.model} chose this line: ${reasoning} Standard evidence: ${chosen.reasoning}`,
  };
  return {
    results: [top, ...candidates.filter((x) => x !== chosen)].slice(0, ANSWER_LIMIT),
    model,
    message: "",
  };
}

/** Suggestions in an answer. */
const ANSWER_LIMIT = 5;
/**
 * Candidates the `ai` mode's model chooses among: twice the answer, because the standard ranking's right answer
 * is often just below its top five on technical descriptions (bench/results/classify.md: top-5 at 6 digits).
 */
const MODEL_CANDIDATES = 10;
/** Rulings on similar products that vote in the ranking (engine.ts RankOptions.precedents). */
const PRECEDENT_VOTES = 5;
/** Of those, the ones an answer cites in `rulings`. */
const PRECEDENTS_CITED = 3;

/**
 * Ranks codes for one product without logging it: the shared step of POST /classify and of callers that
 * only need a suggestion (a consignment's items without a code). Returns the classification, or the
 * UnclassifiableError for text that cannot be classified (not thrown, so the caller decides); throws
 * ApiError for requests the mode cannot serve (400) and when no nomenclature is loaded (503).
 */
export async function suggestCodes({
  ctx,
  input,
}: Call<ClassifyInput, WorkspaceScopedContext>): Promise<Classification | UnclassifiableError> {
  const mode = resolveMode(input, ctx.env);
  const country = input.destination_country;
  const { schedule, source: sourceCountry } = scheduleFor(country);
  const speculation = coldReads(ctx.env, schedule);
  const { dataSource, blocked } = await lookupsFor(ctx.db, configScope(ctx.workspace), country);
  if (!dataSource)
    throw new ApiError("unavailable", "The HS nomenclature is not loaded; run the data loader (npm run dev loads it)");

  const { text, page, image, model, message, failure } = await productText(ctx, input, mode);
  const basis: ClassificationBasis = { mode: mode.slug, country, sourceCountry, dataSource, page, image, model };
  if (failure !== null) return new UnclassifiableError(failure, basis, text);
  const { index, statistical, precedents } = await indexFor(ctx, dataSource, schedule, speculation);
  const limit = mode.slug === "ai" ? MODEL_CANDIDATES : ANSWER_LIMIT;
  // The rulings on the most similar products vote in the ranking; the nearest are cited with the answer.
  const near = nearestRulings(precedents, text, { limit: PRECEDENT_VOTES, min: VOTE_SIMILARITY });
  const votes = near.map((p) => ({ code: p.code, similarity: p.similarity }));
  const cited = near.filter((p) => p.similarity >= MIN_SIMILARITY).slice(0, PRECEDENTS_CITED);
  // So do the headings whose rulings, pooled, read most like the text.
  const headings = nearestHeadings(precedents, text);
  // And the headings the model learned from the rulings finds likeliest.
  const likely = likelyHeadings(precedents, text);
  // Which of their subheadings, by the model of the subheading learned from the same rulings.
  const subheadings = likelySubheadings(precedents, text, likely);
  const result = rank(index, text, {
    prefix: input.hs_code,
    schedule,
    blocked,
    limit,
    precedents: votes,
    headings,
    model: likely,
    subheadings,
  });
  if (!result.ok) return new UnclassifiableError(result.reason, basis, text);
  const national = result.suggestions.map((s) =>
    toWire(
      s,
      country,
      schedule,
      schedule === "US" && s.code.length === 8 ? statisticalLine(s, text, statistical, input.hs_code) : null,
    ),
  );
  // A blocked statistical line (9-10 digits) is only known once the line is chosen.
  const fine = blocked.filter((b) => b.length > 8);
  let results = fine.length ? national.filter((r) => !fine.some((b) => r.code.startsWith(b))) : national;
  const blockedAll = result.blockedAll || (national.length > 0 && results.length === 0);
  let note = message;
  if (mode.slug === "ai" && results.length > 1) {
    const r = await reranked(ctx.env, text, results, cited);
    results = r.results;
    basis.model = r.model;
    note = [message, r.message].filter(Boolean).join("; ");
  }
  return {
    ...basis,
    schedule,
    text,
    message: blockedAll ? "Every suggestion is on the organization's blocklist" : note,
    originalDescription: (page?.used_url || image?.used_image ? text : input.description) || text || null,
    results,
    blockedAll,
    rulings: cited,
  };
}

/**
 * POST /classify: classifies one product and records the call in the usage log, an unclassifiable one too
 * (then throws the UnclassifiableError, 422).
 */
export async function classify({ ctx, input }: Call<ClassifyInput>): Promise<Classification> {
  const out = await suggestCodes({ ctx, input });
  recordUsage(ctx, usageOf(input, out));
  if (out instanceof UnclassifiableError) throw out;
  return out;
}

/** The classify history's row for one classification (documented with GET /usage-history/classify). */
function usageOf(input: ClassifyInput, out: Classification | UnclassifiableError, extra: object = {}): UsageSummary {
  const common = {
    kind: "classify" as const,
    senderCountryCode: input.country_of_origin ?? null,
    receiverCountryCode: input.destination_country,
    itemCount: 1,
  };
  if (out instanceof UnclassifiableError)
    return {
      ...common,
      matchCount: 0,
      detail: {
        ...extra,
        mode: out.basis.mode,
        description: out.text.slice(0, 500),
        unclassifiable: true,
        reason: out.reason,
      },
    };
  const top = out.results[0];
  return {
    ...common,
    matchCount: out.results.length,
    detail: {
      ...extra,
      mode: out.mode,
      description: out.text.slice(0, 500),
      schedule: out.schedule ?? null,
      top_code: top?.code ?? null,
      confidence: top?.confidence ?? null,
      score: top?.score ?? null,
      codes: out.results.map((r) => r.code),
      blocked: out.blockedAll,
      data_version: out.dataSource.version,
      ...(out.model ? { model: out.model.model, model_used: out.model.used } : {}),
      ...(out.rulings.length ? { rulings: out.rulings.map((r) => r.ruling_number) } : {}),
    },
  };
}

/** One item of POST /classify/bulk as the route validated it: its input, or why it is invalid. */
export type BulkClassifyItem = { index: number; ref: string | null } & ({ input: ClassifyInput } | { error: string });

export type BulkClassifyResult = { index: number; ref: string | null } & (
  | { success: true; classification: Classification }
  | { success: false; error: string; unclassifiable?: UnclassifiableError }
);

/** Items classified at once: the standard mode is CPU only, the others wait on a page, an image or a model. */
const BULK_CONCURRENCY = 4;

/**
 * POST /classify/bulk: each item classified on its own, in request order. An invalid or unclassifiable item,
 * or one its mode cannot serve (400 alone), is reported in its result and the batch goes on; a missing
 * nomenclature (503) fails the batch. Every item that was classified, or found unclassifiable, gets its own
 * classify-history row, tied to the bulk request by `request_id`, `index` and `ref`.
 */
export async function classifyBulk({ ctx, input: items }: Call<BulkClassifyItem[]>): Promise<BulkClassifyResult[]> {
  const results: BulkClassifyResult[] = new Array(items.length);
  const logged: { at: number; summary: UsageSummary }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      const item = items[at] as BulkClassifyItem;
      const { index, ref } = item;
      if ("error" in item) {
        results[at] = { index, ref, success: false, error: item.error };
        continue;
      }
      let out: Classification | UnclassifiableError;
      try {
        out = await suggestCodes({ ctx, input: item.input });
      } catch (e) {
        if (e instanceof ApiError && e.code !== "unavailable") {
          results[at] = { index, ref, success: false, error: e.message };
          continue;
        }
        throw e;
      }
      logged.push({ at, summary: usageOf(item.input, out, { request_id: ctx.requestId, index, ref }) });
      results[at] =
        out instanceof UnclassifiableError
          ? { index, ref, success: false, error: out.reason, unclassifiable: out }
          : { index, ref, success: true, classification: out };
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, items.length) }, worker));
  logged.sort((a, b) => a.at - b.at);
  recordUsageRows(
    ctx,
    logged.map((l) => l.summary),
  );
  return results;
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

export interface BlockInput {
  hs_code: string;
  country_code: string;
  reason?: string | null | undefined;
}

/** The blocklist belongs to the whole organization: a client pinned to one customer may read it, not change it. */
function assertMayChangeBlocklist(ctx: ServiceContext) {
  if (ctx.actor.customerId !== null)
    throw forbidden("Customer-pinned clients cannot change the organization's blocklist");
}

const blockRow = (scope: ConfigScope, e: BlockInput, createdAt: string) => ({
  organizationId: scope.organizationId,
  mode: scope.mode,
  hsCode: e.hs_code,
  countryCode: e.country_code,
  reason: e.reason ?? null,
  createdAt,
});

/** Adds a code; null when the same code is already blocked for the same destination. */
export async function addBlock({ ctx, input }: Call<BlockInput>): Promise<BlocklistRow | null> {
  assertMayChangeBlocklist(ctx);
  try {
    const rows = await ctx.db
      .insert(classifyBlocklist)
      .values(blockRow(configScope(ctx.workspace), input, isoAt(ctx.deps.clock.now())))
      .onConflictDoNothing()
      .returning();
    return rows[0] ?? null;
  } finally {
    forgetBlocklist(configScope(ctx.workspace)); // after the write, so no lookup racing it caches the old list
  }
}

export type BlockTarget = { id: number } | { hs_code: string; country_code: string };

/** Deletes by entry id (404 when not the organization's) or by code and destination (404 when not blocked). */
export async function removeBlock({ ctx, input }: Call<BlockTarget>): Promise<{ id: number }> {
  assertMayChangeBlocklist(ctx);
  const scope = configScope(ctx.workspace);
  const where =
    "id" in input
      ? and(inScope(scope), eq(classifyBlocklist.id, input.id))
      : and(
          inScope(scope),
          eq(classifyBlocklist.hsCode, input.hs_code),
          eq(classifyBlocklist.countryCode, input.country_code),
        );
  const [row] = await ctx.db
    .delete(classifyBlocklist)
    .where(where)
    .returning({ id: classifyBlocklist.id })
    .finally(() => forgetBlocklist(scope));
  if (!row)
    throw notFound(
      "id" in input ? `No blocklist entry ${input.id}` : `${input.hs_code} is not blocked for ${input.country_code}`,
    );
  return row;
}

/**
 * Replaces the organization's whole blocklist in one D1 batch (one transaction): the old list stays when any
 * statement fails. Duplicate entries in the input count once (the first wins, its reason is kept). Returns
 * the number of entries loaded.
 */
export async function importBlocklist({ ctx, input }: Call<{ entries: BlockInput[] }>): Promise<number> {
  assertMayChangeBlocklist(ctx);
  const scope = configScope(ctx.workspace);
  const byKey = new Map<string, BlockInput>();
  for (const e of input.entries) {
    const key = `${e.hs_code}|${e.country_code}`;
    if (!byKey.has(key)) byKey.set(key, e);
  }
  const unique = [...byKey.values()];
  const clear = ctx.db.delete(classifyBlocklist).where(inScope(scope));
  const now = isoAt(ctx.deps.clock.now());
  const inserts = chunkedInserts(
    ctx.db,
    classifyBlocklist,
    unique.map((e) => blockRow(scope, e, now)),
  );
  try {
    await ctx.db.batch([clear, ...inserts]);
  } finally {
    forgetBlocklist(scope);
  }
  return unique.length;
}

/** Newest first; `starting_after` is an entry id. */
export async function listBlocks({
  ctx,
  input,
}: Call<{ limit: number; starting_after?: number | undefined; country_code?: string | undefined }>): Promise<{
  rows: BlocklistRow[];
  hasMore: boolean;
}> {
  const where = [inScope(configScope(ctx.workspace))];
  if (input.starting_after !== undefined) where.push(lt(classifyBlocklist.id, input.starting_after));
  if (input.country_code) where.push(eq(classifyBlocklist.countryCode, input.country_code));
  const rows = await ctx.db
    .select()
    .from(classifyBlocklist)
    .where(and(...where))
    .orderBy(desc(classifyBlocklist.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}
