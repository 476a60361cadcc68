/**
 * Modes `ai` and `image` through the Worker, with the Workers AI binding replaced by the deterministic stand-in
 * of test/fakes/workers-ai.js (a remote model service, stubbed at its boundary). What is tested: what the model
 * is asked, how its answers are read, the fallbacks, the time limit and the rate-limit bucket. A real model's
 * accuracy cannot be measured here.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseDescription, parseRerank, type RerankCandidate } from "../src/engines/classify/model-prompts";
import { TEXT_MODEL, VISION_MODEL } from "../src/modules/classify/model";
import { ADMIN_TOKEN, call, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("hs");
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

type Level = { name: string; number: string; description: string };
type Result = {
  code: string;
  heading: Level;
  subheading: Level;
  tariff: Level;
  chapter: Level;
  score: number;
  confidence: string;
  reasoning: string;
};
type Body = Record<string, unknown> & {
  success: boolean;
  message: string;
  top_result: Result | null;
  results: Result[];
  ai?: { model: string; used: boolean; fallback: string | null; duration_ms: number };
};
type Api = Awaited<ReturnType<typeof setup>>["api"];
type Call = { model: string; inputs: { messages: { role: string; content: unknown }[]; [k: string]: unknown } };

const fake = env as unknown as { AI: { lastCall(): Promise<Call | null> } };

async function classify(api: Api, json: unknown) {
  const res = await api("/classify", { json });
  return { res, body: (await res.json()) as Body };
}

/** A data URL whose bytes carry what the stand-in vision model "sees". */
const image = (content: string, type = "image/png") => `data:${type};base64,${btoa(`\x89PNG\r\n${content}`)}`;

const SHIRT = "Men's cotton crew neck t-shirt, knitted";

describe("mode ai", () => {
  it("reranks the standard ranking's first ten: the model's pick first with its reasoning, the rest in order, scores kept", async () => {
    const { api } = await setup();
    const standard = await classify(api, { description: SHIRT, destination_country: "US" });
    const ai = await classify(api, { description: SHIRT, destination_country: "US", mode: "ai" });
    expect(ai.res.status).toBe(200);
    // The stand-in picks the last candidate it was given when not steered: the order visibly changes.
    const asked = (await fake.AI.lastCall())!.inputs.messages.map((m) => String(m.content)).join("\n");
    const offered = [...asked.matchAll(/^\d+\. code (\d+)$/gm)].map((m) => m[1]!);
    expect(offered).toHaveLength(10);
    expect(offered.slice(0, 5)).toEqual(standard.body.results.map((r) => r.code));
    const pick = offered.at(-1)!;
    expect(ai.body.top_result!.code).toBe(pick);
    expect(ai.body.results.map((r) => r.code)).toEqual([pick, ...offered.slice(0, 4)]);
    expect(ai.body.results.slice(1)).toEqual(standard.body.results.slice(0, 4));
    expect(ai.body.top_result!.score).toBeLessThanOrEqual(standard.body.results.at(-1)!.score);
    expect(ai.body.top_result!.reasoning).toContain(`${TEXT_MODEL} chose this line: GRI 1`);
    expect(ai.body.top_result!.reasoning).toContain("Standard evidence:");
    expect(ai.body).toMatchObject({
      mode: "ai",
      message: "",
      ai: { model: TEXT_MODEL, used: true, fallback: null, duration_ms: expect.any(Number) },
      customs_description: ai.body.top_result!.tariff.description,
    });
  });

  it("asks the text model with every candidate's legal texts, deterministically and for JSON", async () => {
    const { api } = await setup();
    const { body } = await classify(api, {
      description: `${SHIRT} [pick:6109]`,
      destination_country: "US",
      mode: "ai",
    });
    expect(body.top_result!.code.slice(0, 4)).toBe("6109");
    const last = (await fake.AI.lastCall())!;
    expect(last.model).toBe(TEXT_MODEL);
    expect(last.inputs).toMatchObject({ temperature: 0, response_format: { type: "json_schema" } });
    const [system, user] = last.inputs.messages as { role: string; content: string }[];
    expect(system!.role).toBe("system");
    expect(system!.content).toContain("General Rules of Interpretation");
    expect(user!.content).toContain(`Product: ${SHIRT}`);
    for (const r of body.results) {
      expect(user!.content).toContain(`code ${r.tariff.number}`);
      expect(user!.content).toContain(`heading ${r.heading.number}: ${r.heading.description}`);
      expect(user!.content).toContain(`chapter ${r.chapter.number}: ${r.chapter.description}`);
    }
    // The rulings the answer cites go with the candidates, each with the code it gave.
    const rulings = body.rulings as { ruling_number: string; code: string }[];
    expect(rulings.length).toBeGreaterThan(0);
    expect(user!.content).toContain("CBP rulings on similar products");
    for (const r of rulings) expect(user!.content).toContain(`- ${r.ruling_number}: ${r.code},`);
  });

  it("reads an answer fenced in prose, as models without JSON mode give it", async () => {
    const { api } = await setup();
    const { body } = await classify(api, {
      description: `${SHIRT} [model-fenced]`,
      destination_country: "US",
      mode: "ai",
    });
    expect(body.ai).toMatchObject({ used: true });
  });

  it.each([
    ["the model fails", "[model-error]", "failed: InferenceUpstreamError"],
    ["the model times out", "[model-slow]", "did not answer within 500 ms"],
    ["the answer is not JSON", "[model-invalid]", "not JSON"],
    ["the model names a code outside the candidates", "[model-outside]", "not one of the candidates"],
  ])("falls back to the standard ranking, and says so, when %s", async (_, marker, reason) => {
    const { api } = await setup();
    const description = `${SHIRT} ${marker}`;
    const standard = await classify(api, { description, destination_country: "US" });
    const started = Date.now();
    const ai = await classify(api, { description, destination_country: "US", mode: "ai" });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(ai.res.status).toBe(200);
    expect(ai.body.results).toEqual(standard.body.results);
    expect(ai.body.ai).toMatchObject({ model: TEXT_MODEL, used: false, fallback: expect.stringContaining(reason) });
    expect(ai.body.message).toContain("standard ranking returned");
  });

  it("answers 422 unclassifiable without asking the model when the text is not a product", async () => {
    const { api } = await setup();
    const { res, body } = await classify(api, { description: "xqzvbn wprtkl", destination_country: "US", mode: "ai" });
    expect(res.status).toBe(422);
    expect(body).toMatchObject({ unclassifiable: true, mode: "ai" });
  });

  it("counts against the classify_heavy bucket and is logged in the classify history", async () => {
    const { ws, api } = await setup();
    const patch = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { rate_limits: { classify_heavy: { limit: 1, window_seconds: 60 } } },
    });
    expect(patch.status).toBe(200);
    const json = { description: SHIRT, destination_country: "US", mode: "ai" };
    const first = await classify(api, json);
    expect(first.res.status).toBe(200);
    expect((await api("/classify", { json })).status).toBe(429);
    expect((await api("/classify", { json: { description: SHIRT, destination_country: "US" } })).status).toBe(200);
    const history = (await (await api("/usage-history/classify")).json()) as {
      data: { request_id: string; mode: string; top_code: string }[];
    };
    expect(history.data.find((r) => r.request_id === first.body.request_id)).toMatchObject({
      mode: "ai",
      top_code: first.body.top_result!.code,
    });
  });
});

describe("mode image", () => {
  it("describes a data-URL image with the vision model, then classifies the description", async () => {
    const { api } = await setup();
    const { res, body } = await classify(api, {
      image_url: image("describe: Men's t-shirt of knitted cotton jersey, short sleeves"),
      destination_country: "US",
      mode: "image",
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      mode: "image",
      used_image: true,
      image_description: "Men's t-shirt of knitted cotton jersey, short sleeves",
      original_description: "Men's t-shirt of knitted cotton jersey, short sleeves",
      ai: { model: VISION_MODEL, used: true, fallback: null },
    });
    expect(body.top_result!.code.slice(0, 4)).toBe("6109");
    const last = (await fake.AI.lastCall())!;
    expect(last.model).toBe(VISION_MODEL);
    const parts = last.inputs.messages[0]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.find((p) => p.type === "image_url")!.image_url!.url).toMatch(/^data:image\/png;base64,/);
    expect(parts.find((p) => p.type === "text")!.text).toContain("customs declaration");
  });

  it("fetches an https image, gives the caller's title to the model as context, and classifies both texts", async () => {
    const bytes = new TextEncoder().encode("\x89PNG describe: Ceramic coffee mug of stoneware");
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(new Response(bytes, { headers: { "content-type": "image/png" } }));
    const { api } = await setup();
    const { res, body } = await classify(api, {
      image_url: "https://cdn.example.com/p/mug.png",
      title: "Morning mug",
      destination_country: "US",
      mode: "image",
    });
    expect(res.status).toBe(200);
    expect(String(spy.mock.calls[0]![0])).toBe("https://cdn.example.com/p/mug.png");
    expect(body.original_description).toBe("Ceramic coffee mug of stoneware. Morning mug");
    expect(body.top_result!.code.slice(0, 4)).toBe("6912");
    const last = (await fake.AI.lastCall())!;
    const parts = last.inputs.messages[0]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.find((p) => p.type === "text")!.text).toContain("The seller describes it as: Morning mug");
    expect(parts.find((p) => p.type === "image_url")!.image_url!.url).toMatch(/^data:image\/png;base64,/);
  });

  it("classifies the caller's text, and says why, when the image cannot be used", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response("<html></html>", { headers: { "content-type": "text/html" } }),
    );
    const { api } = await setup();
    const page = await classify(api, {
      image_url: "https://cdn.example.com/not-an-image",
      description: "ceramic coffee mug",
      destination_country: "US",
      mode: "image",
    });
    expect(page.res.status).toBe(200);
    expect(page.body).toMatchObject({ used_image: false, image_description: null });
    expect(page.body.message).toContain("is not an image (text/html); classified from the description alone");

    const failed = await classify(api, {
      image_url: image("vision-error"),
      description: "ceramic coffee mug",
      destination_country: "US",
      mode: "image",
    });
    expect(failed.res.status).toBe(200);
    expect(failed.body).toMatchObject({ used_image: false, ai: { model: VISION_MODEL, used: false } });
    expect(failed.body.message).toContain("classified from the description alone");
    expect(failed.body.top_result!.code.slice(0, 4)).toBe("6912");
  });

  it.each([
    ["the image shows no product", image("no-product"), 422, "shows no product"],
    ["the image URL answers 404", "https://cdn.example.com/gone.png", 422, "HTTP 404"],
    ["the image is over 9 MB", "https://cdn.example.com/huge.png", 422, "larger than about 9 MB"],
    ["the model fails and there is no text", image("vision-error"), 503, "retry later"],
  ])("with no text to fall back on: %s → %s", async (_, imageUrl, status, message) => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) =>
      String(input).endsWith("gone.png")
        ? new Response("missing", { status: 404 })
        : new Response(new Uint8Array(9 * 1024 * 1024 + 10), { headers: { "content-type": "image/png" } }),
    );
    const { api } = await setup();
    const { res, body } = await classify(api, { image_url: imageUrl, destination_country: "US", mode: "image" });
    expect(res.status).toBe(status);
    expect(body.message).toContain(message);
    if (status === 422) expect(body).toMatchObject({ unclassifiable: true, used_image: false, top_result: null });
  });
});

describe("model answers (pure)", () => {
  const candidates = [
    {
      code: "61091000",
      chapter: { number: "61", description: "Knitted apparel" },
      heading: { number: "6109", description: "T-shirts" },
      subheading: { number: "610910", description: "Of cotton" },
      tariff: { number: "61091000", description: "Of cotton" },
    },
  ] satisfies RerankCandidate[];

  it.each([
    [{ response: { code: "6109.10.00", reasoning: "GRI 1." } }, { ok: true, code: "61091000", reasoning: "GRI 1." }],
    [{ response: '{"code": "61091000"}' }, { ok: true, code: "61091000", reasoning: "no reasoning given" }],
    [{ response: { code: 61091000, reasoning: "x" } }, { ok: true, code: "61091000" }],
    [{ response: "no idea" }, { ok: false, reason: "not JSON" }],
    [{ response: { reasoning: "x" } }, { ok: false, reason: "named no code" }],
    [{ response: '{"code": "6109' }, { ok: false, reason: "not JSON" }],
    [null, { ok: false, reason: "not JSON" }],
  ])("parseRerank(%j)", (answer, expected) => {
    const out = parseRerank(answer, candidates);
    if (expected.ok) expect(out).toMatchObject(expected);
    else
      expect(out).toMatchObject({
        ok: false,
        reason: expect.stringContaining((expected as { reason: string }).reason),
      });
  });

  it.each([
    [
      { response: "Here is the description: A steel chef's knife." },
      { ok: true, description: "A steel chef's knife." },
    ],
    [{ response: "  NO PRODUCT. " }, { ok: false }],
    [{ response: "" }, { ok: false }],
    [{ response: { x: 1 } }, { ok: false }],
  ])("parseDescription(%j)", (answer, expected) => {
    expect(parseDescription(answer)).toMatchObject(expected);
  });
});
