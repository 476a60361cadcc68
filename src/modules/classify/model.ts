/**
 * The hosted-model side of the `ai` and `image` classify modes: Workers AI through the optional `AI` binding.
 *
 * The binding is a remote model service. It is configured for deployments (scripts/lib/deploy-plan.mjs adds it)
 * and absent from `wrangler dev`; the test suite binds a deterministic stand-in with the same `run()` shape
 * (test/fakes/workers-ai.ts). Every call has a time limit; a failure is returned, never thrown, so the caller can
 * fall back to the standard ranking (`ai`) or to the caller's own text (`image`) and say so.
 */
import {
  type ChatMessage,
  describeMessages,
  parseDescription,
  parseRerank,
  RERANK_SCHEMA,
  type RerankCandidate,
  type RerankPrecedent,
  rerankMessages,
} from "../../engines/classify/model-prompts";
import { readBytesLimited } from "../../lib/outbound";
import { fetchPublic } from "./fetch-public";

/** The part of the Workers AI binding used here. */
interface ModelBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

/** The `AI` binding when this deployment has one (it is not in every deployment's bindings, nor in Env). */
export function modelBinding(env: Env): ModelBinding | undefined {
  const ai = Reflect.get(env, "AI") as ModelBinding | undefined;
  return ai && typeof ai.run === "function" ? ai : undefined;
}

/** Models, overridable per deployment with the vars AI_TEXT_MODEL and AI_VISION_MODEL. */
export const TEXT_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
export const VISION_MODEL = "@cf/meta/llama-3.2-11b-vision-instruct";
const setting = (env: Env, name: string): string | undefined => {
  const v = Reflect.get(env, name);
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
};
export const textModel = (env: Env) => setting(env, "AI_TEXT_MODEL") ?? TEXT_MODEL;
export const visionModel = (env: Env) => setting(env, "AI_VISION_MODEL") ?? VISION_MODEL;

/** How long a model may take (AI_TIMEOUT_MS, default 8 s): past it the answer falls back rather than wait. */
const DEFAULT_TIMEOUT_MS = 8_000;
function timeoutMs(env: Env): number {
  const n = Number(setting(env, "AI_TIMEOUT_MS"));
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_TIMEOUT_MS;
}

class ModelTimeout extends Error {}

/** Runs one model call against the time limit. */
async function runModel(
  env: Env,
  ai: ModelBinding,
  model: string,
  inputs: Record<string, unknown>,
): Promise<{ answer: unknown } | { error: string }> {
  const limit = timeoutMs(env);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ModelTimeout()), limit);
  });
  try {
    return { answer: await Promise.race([ai.run(model, inputs), expired]) };
  } catch (e) {
    if (e instanceof ModelTimeout) return { error: `${model} did not answer within ${limit} ms` };
    return { error: `${model} failed: ${String((e as Error)?.message ?? e).slice(0, 200)}` };
  } finally {
    clearTimeout(timer);
  }
}

export interface ModelUse {
  model: string;
  /** The model's answer was used. */
  used: boolean;
  /** Why it was not, when it was not. */
  fallback: string | null;
  duration_ms: number;
}

export type Rerank = ModelUse & { code: string | null; reasoning: string | null };

/** Asks the text model to pick among the standard ranking's candidates. */
export async function rerank(
  env: Env,
  product: string,
  candidates: RerankCandidate[],
  precedents: readonly RerankPrecedent[] = [],
): Promise<Rerank> {
  const model = textModel(env);
  const started = Date.now();
  const done = (r: Omit<Rerank, "model" | "duration_ms">): Rerank => ({
    model,
    duration_ms: Date.now() - started,
    ...r,
  });
  const ai = modelBinding(env);
  if (!ai) return done({ used: false, fallback: "no model binding", code: null, reasoning: null });
  const messages: ChatMessage[] = rerankMessages(product, candidates, precedents);
  const out = await runModel(env, ai, model, {
    messages,
    max_tokens: 400,
    temperature: 0,
    response_format: { type: "json_schema", json_schema: RERANK_SCHEMA },
  });
  if ("error" in out) return done({ used: false, fallback: out.error, code: null, reasoning: null });
  const parsed = parseRerank(out.answer, candidates);
  if (!parsed.ok) return done({ used: false, fallback: parsed.reason, code: null, reasoning: null });
  return done({ used: true, fallback: null, code: parsed.code, reasoning: parsed.reasoning });
}

// ---------------------------------------------------------------------------------------------------------
// Images

/** The spec's limit on an image: about 9 MB. */
const IMAGE_MAX_BYTES = 9 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 5_000;

/** Why an image could not be read: the caller's input (`input`) or the model service (`model`). */
type ImageFailure = { error: string; cause: "input" | "model" };

function base64Of(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The image as a data URL (the vision model takes no http URLs): a data URL as given, an http(s) URL fetched (gs:// is refused earlier, 400). */
async function imageDataUrl(imageUrl: string, production: boolean): Promise<{ dataUrl: string } | ImageFailure> {
  if (imageUrl.startsWith("data:")) {
    const m = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]*)$/i.exec(imageUrl);
    if (!m?.[2]) return { error: "image_url is not a valid base64 image data URL", cause: "input" };
    if ((m[2].length * 3) / 4 > IMAGE_MAX_BYTES)
      return { error: "image_url is larger than about 9 MB", cause: "input" };
    return { dataUrl: imageUrl };
  }
  const image = await fetchPublic(imageUrl, {
    field: "image_url",
    production,
    accept: "image/*",
    timeoutMs: IMAGE_TIMEOUT_MS,
    what: "an image",
    accepts: (type) => type.startsWith("image/"),
  });
  if ("error" in image) return { error: image.error, cause: "input" };
  const { bytes, truncated } = await readBytesLimited(image.res, IMAGE_MAX_BYTES);
  if (truncated) return { error: "image_url is larger than about 9 MB", cause: "input" };
  return { dataUrl: `data:${image.mediaType};base64,${base64Of(bytes)}` };
}

export type ImageDescription = (ModelUse & { description: string | null }) | ImageFailure;

/** Reads the image and asks the vision model what product it shows. */
export async function describeImage(
  env: Env,
  imageUrl: string,
  hint: string,
  production: boolean,
): Promise<ImageDescription> {
  const ai = modelBinding(env);
  if (!ai) return { error: "no model binding", cause: "model" };
  const image = await imageDataUrl(imageUrl, production);
  if ("error" in image) return image;
  const model = visionModel(env);
  const started = Date.now();
  const out = await runModel(env, ai, model, { messages: describeMessages(image.dataUrl, hint), max_tokens: 200 });
  const duration_ms = Date.now() - started;
  if ("error" in out) return { error: out.error, cause: "model" };
  const parsed = parseDescription(out.answer);
  if (!parsed.ok) return { model, used: false, fallback: parsed.reason, duration_ms, description: null };
  return { model, used: true, fallback: null, duration_ms, description: parsed.description };
}
