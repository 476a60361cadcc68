/** POST /classify, GET /classify/modes, GET /usage-history/classify through the Worker, with the full hs data. */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { modes, readProductPage } from "../src/modules/classify/service";
import { ADMIN_TOKEN, call, createClient, getToken, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("hs");
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

type Level = { name: string; number: string; description: string };
type Result = {
  code: string;
  country: string;
  chapter: Level;
  heading: Level;
  subheading: Level;
  tariff: Level;
  score: number;
  confidence: string;
  reasoning: string;
};
type Body = Record<string, unknown> & { success: boolean; top_result: Result | null; results: Result[] };

async function classify(api: Awaited<ReturnType<typeof setup>>["api"], body: unknown) {
  const res = await api("/classify", { json: body });
  return { res, body: (await res.json()) as Body };
}

describe("POST /classify", () => {
  it("suggests US tariff lines for a product title, with every spec field", async () => {
    const { api } = await setup();
    const { res, body } = await classify(api, {
      description: "Men's cotton crew neck t-shirt",
      destination_country: "us",
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      message: "",
      usedWebSearch: false,
      country: "US",
      mode: "standard",
      original_description: "Men's cotton crew neck t-shirt",
    });
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
    expect(body.data_source).toMatchObject({
      version: expect.stringContaining("hs2022"),
      source: expect.any(String),
      imported_at: expect.any(String),
    });
    expect(body).not.toHaveProperty("classification_source_country");
    expect(body).not.toHaveProperty("blocked");
    const top = body.top_result!;
    // The full 10-digit HTS code: the statistical line of 6109.10.00 for men's T-shirts.
    expect(top.code).toBe("6109100012");
    expect(top).toMatchObject({
      country: "US",
      chapter: { number: "61", name: "Chapter 61" },
      heading: { number: "6109", name: "Heading 6109" },
      subheading: { number: "610910", name: "Subheading 6109.10" },
      tariff: { number: "6109100012", name: "US HTS 6109.10.0012" },
      // The rulings on men's cotton T-shirts agree with the ranking: over the 0.95 that `high` takes.
      confidence: "high",
    });
    expect(top.tariff.description).toContain("Men's or boys': Other T-shirts: Men's");
    expect(top.reasoning).toContain("National line 6109.10.00; statistical suffix 12:");
    expect(top.score).toBeGreaterThan(0.5);
    expect(top.score).toBeLessThanOrEqual(1);
    expect(top.reasoning).toBeTruthy();
    expect(body.customs_description).toBe(top.tariff.description);
    expect(body.results[0]).toEqual(top);
    expect(body.results.length).toBeGreaterThan(1);
    const scores = body.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it.each([
    ["Women's cotton t-shirt, knitted", "6109100040", "women"],
    ["Girls' cotton tank top", "6109100065", "girls"],
    ["Men's cotton tank top", "6109100018", "men"],
    ["Smartphone, 128 GB", "8517130000", "single statistical line"],
  ])(
    "gives the full 10-digit US code chosen on the attributes that split the statistical lines: %s",
    async (d, code, why) => {
      const { api } = await setup();
      const { body } = await classify(api, { description: d, destination_country: "US" });
      expect(body.top_result!.code).toBe(code);
      expect(body.top_result!.reasoning.toLowerCase()).toContain(why);
    },
  );

  it("narrows the statistical line to a 10-digit hs_code given, and keeps 8-digit national lines for GB", async () => {
    const { api } = await setup();
    const narrowed = await classify(api, {
      description: "cotton t-shirt",
      hs_code: "6109.10.0045",
      destination_country: "US",
    });
    expect(narrowed.body.top_result!.code).toBe("6109100045");
    const gb = await classify(api, { description: "Men's cotton crew neck t-shirt", destination_country: "GB" });
    expect(gb.body.top_result!.code).toHaveLength(8);
  });

  it("cites rulings about similar products as precedents, and none when no ruling is similar enough", async () => {
    const { api } = await setup();
    const { body } = await classify(api, {
      description: "polyvinylphenol polymer in granular powder form",
      destination_country: "US",
    });
    const rulings = body.rulings as {
      ruling_number: string;
      code: string;
      subject: string;
      url: string;
      similarity: number;
    }[];
    expect(rulings[0]).toMatchObject({
      ruling_number: "808491",
      code: "3911902500",
      subject: expect.stringContaining("polyvinylphenol"),
      url: "https://rulings.cbp.gov/ruling/808491",
    });
    expect(rulings[0]!.similarity).toBeGreaterThanOrEqual(0.4);
    expect(rulings.length).toBeLessThanOrEqual(3);
    const history = (await (await api("/usage-history/classify")).json()) as { data: { request_id: string }[] };
    expect(history.data[0]!.request_id).toBe(body.request_id);

    // The ruling nearest this title (0.31) is close enough to vote, not to be cited.
    const honey = await classify(api, { description: "Raw wildflower honey 500g jar", destination_country: "US" });
    expect(honey.body).not.toHaveProperty("rulings");
  });

  it("resolves EU member states to the EU schedule", async () => {
    const { api } = await setup();
    const { res, body } = await classify(api, {
      description: "Wireless noise cancelling headphones",
      destination_country: "DE",
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ country: "DE", classification_source_country: "EU" });
    expect(body.top_result!.country).toBe("EU");
    expect(body.top_result!.code).toMatch(/^851830\d{2}$/);
    expect(body.top_result!.tariff.name).toMatch(/^EU CN 8518\.30\.\d{2}$/);
  });

  it("uses the UK schedule for GB and HS6 subheadings where no national schedule is loaded", async () => {
    const { api } = await setup();
    const gb = await classify(api, { description: "Laptop 15.6 inch 16GB RAM", destination_country: "GB" });
    expect(gb.body.top_result!.code).toMatch(/^847130\d{2,4}$/);
    const ca = await classify(api, { description: "Laptop 15.6 inch 16GB RAM", destination_country: "CA" });
    expect(ca.body.top_result).toMatchObject({
      code: "847130",
      country: "CA",
      tariff: { number: "847130", name: "HS 8471.30" },
    });
  });

  it("narrows to a partial hs_code", async () => {
    const { api } = await setup();
    const { body } = await classify(api, { description: "cotton shirt", hs_code: "62.05", destination_country: "US" });
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((r) => r.code.startsWith("6205"))).toBe(true);
  });

  it.each([
    ["gibberish", "xqzvbn wprtkl flombix"],
    ["nothing left after normalization", "!!! 1234 -- 500ml"],
  ])("422 unclassifiable for %s, and logs it", async (_, description) => {
    const { api } = await setup();
    const { res, body } = await classify(api, { description, destination_country: "US" });
    expect(res.status).toBe(422);
    expect(body).toMatchObject({
      success: false,
      unclassifiable: true,
      top_result: null,
      results: [],
      country: "US",
      mode: "standard",
      usedWebSearch: false,
    });
    expect(body.reason).toEqual(expect.any(String));
    expect(body.message).toBe(body.reason);
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
    const history = (await (await api("/usage-history/classify")).json()) as {
      data: { request_id: string; unclassifiable: boolean }[];
    };
    expect(history.data[0]).toMatchObject({ request_id: body.request_id, unclassifiable: true });
  });

  it.each([
    ["no destination_country", { description: "mug" }, "destination_country"],
    ["unknown destination_country", { description: "mug", destination_country: "XX" }, "destination_country"],
    ["none of description, image_url, product_url", { title: "mug", destination_country: "US" }, "description"],
    [
      "image_url with product_url",
      {
        image_url: "https://x.example/a.jpg",
        product_url: "https://x.example/p",
        destination_country: "US",
        mode: "url",
      },
      "image_url",
    ],
    ["description over 2000", { description: "a".repeat(2001), destination_country: "US" }, "description"],
    ["title over 500", { description: "mug", title: "a".repeat(501), destination_country: "US" }, "title"],
    ["brand over 200", { description: "mug", brand: "a".repeat(201), destination_country: "US" }, "brand"],
    ["sku over 100", { description: "mug", sku: "a".repeat(101), destination_country: "US" }, "sku"],
    ["type over 200", { description: "mug", type: "a".repeat(201), destination_country: "US" }, "type"],
    [
      "product_url not http",
      { product_url: "ftp://x.example/p", destination_country: "US", mode: "url" },
      "product_url",
    ],
    [
      "product_url over 2000",
      { product_url: `https://x.example/${"a".repeat(2000)}`, destination_country: "US", mode: "url" },
      "product_url",
    ],
    ["image_url not a URL", { image_url: "not-a-url", destination_country: "US" }, "image_url"],
    ["hs_code of 1 digit", { description: "mug", hs_code: "6", destination_country: "US" }, "hs_code"],
    ["hs_code of 11 digits", { description: "mug", hs_code: "12345678901", destination_country: "US" }, "hs_code"],
    ["hs_code with letters", { description: "mug", hs_code: "69a2", destination_country: "US" }, "hs_code"],
    ["unknown mode", { description: "mug", mode: "magic", destination_country: "US" }, "mode"],
    ["bad currency", { description: "mug", currency: "XYZ", destination_country: "US" }, "currency"],
    [
      "bad country_of_origin",
      { description: "mug", country_of_origin: "ZZ", destination_country: "US" },
      "country_of_origin",
    ],
    ["price not a number", { description: "mug", price: "12", destination_country: "US" }, "price"],
    ["description not a string", { description: 12, destination_country: "US" }, "description"],
    ["unknown key", { description: "mug", destination_country: "US", colour: "red" }, ""],
  ])("400 for %s", async (_, json, field) => {
    const { api } = await setup();
    const res = await api("/classify", { json });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; errors: { field: string }[] };
    expect(body.error).toBe("validation_failed");
    if (field) expect(body.errors.map((e) => e.field)).toContain(field);
  });

  it("400 for malformed JSON", async () => {
    const { api } = await setup();
    const res = await api("/classify", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_json");
  });

  it.each([
    [
      "image_url to the default mode",
      { image_url: "https://x.example/a.jpg", destination_country: "US" },
      "does not accept image_url",
    ],
    [
      "a gs:// image_url (no Cloud Storage reader)",
      { image_url: "gs://bucket/a.jpg", mode: "image", destination_country: "US" },
      "Cloud Storage reader",
    ],
    [
      "product_url to the default mode",
      { product_url: "https://x.example/p", destination_country: "US" },
      'use mode "url"',
    ],
    [
      "text alone to the image mode",
      { description: "ceramic mug", mode: "image", destination_country: "US" },
      "needs its input (image_url)",
    ],
  ])("400 for %s", async (_, json, message) => {
    const { api } = await setup();
    const res = await api("/classify", { json });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(message);
  });

  it("401 without a token, 403 without classify:read", async () => {
    const { ws } = await setup();
    expect(
      (await call("/admin/api/v1/classify", { host: ws.host, json: { description: "mug", destination_country: "US" } }))
        .status,
    ).toBe(401);
    const client = await createClient(ws, ["calculate:read"]);
    const token = await getToken(ws, client);
    for (const [path, json] of [
      ["/classify", { description: "mug", destination_country: "US" }],
      ["/classify/modes", undefined],
      ["/usage-history/classify", undefined],
    ] as const) {
      const res = await call(`/admin/api/v1${path}`, { host: ws.host, token, ...(json ? { json } : {}) });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe("Missing scope: classify:read");
    }
  });
});

describe("mode url", () => {
  const page = `<!doctype html><html><head><title>Trail Runner 2 – Acme</title>
    <meta name="description" content="Lightweight trail shoe.">
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Runner 2 men's running shoes","description":"Sports footwear with textile mesh upper and rubber outer sole","category":"Shoes"}</script>
    </head><body>…</body></html>`;

  it("reads the product page and classifies its text", async () => {
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }));
    const { api } = await setup();
    const { res, body } = await classify(api, {
      product_url: "https://shop.example.com/p/trail-runner-2",
      mode: "url",
      destination_country: "US",
    });
    expect(res.status).toBe(200);
    expect(spy).toHaveBeenCalledOnce();
    expect(String(spy.mock.calls[0]![0])).toBe("https://shop.example.com/p/trail-runner-2");
    expect(body).toMatchObject({
      mode: "url",
      used_url: true,
      url_description: expect.stringContaining("Trail Runner 2 men's running shoes"),
    });
    expect(body.original_description).toContain("Trail Runner 2");
    expect(body.top_result!.code.slice(0, 6)).toBe("640411");
  });

  it("follows redirects, and classifies the description alone when the page cannot be read", async () => {
    vi.spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(new Response(null, { status: 301, headers: { location: "/moved" } }))
      .mockResolvedValueOnce(new Response("gone", { status: 404 }));
    const { api } = await setup();
    const { res, body } = await classify(api, {
      product_url: "https://shop.example.com/p/1",
      description: "ceramic coffee mug",
      mode: "url",
      destination_country: "US",
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ used_url: false, url_description: null });
    expect(body.message).toContain("HTTP 404");
    expect(body.top_result!.code.slice(0, 4)).toBe("6912");
  });

  it("422 when the page cannot be read and there is no description", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(Object.assign(new Error("timed out"), { name: "TimeoutError" }));
    const { api } = await setup();
    const { res, body } = await classify(api, {
      product_url: "https://slow.example.com/p",
      mode: "url",
      destination_country: "US",
    });
    expect(res.status).toBe(422);
    expect(body).toMatchObject({
      unclassifiable: true,
      used_url: false,
      reason: expect.stringContaining("did not answer"),
    });
  });

  it("refuses pages that are not HTML and reads at most 1 MB", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      new Response("%PDF", { headers: { "content-type": "application/pdf" } }),
    );
    const { api } = await setup();
    const pdf = await classify(api, {
      product_url: "https://shop.example.com/p.pdf",
      mode: "url",
      destination_country: "US",
    });
    expect(pdf.res.status).toBe(422);
    expect(pdf.body.reason).toContain("not a web page");

    // The title sits beyond the first megabyte: it is never read.
    const big = `<html><head>${" ".repeat(1_100_000)}<title>Ceramic coffee mug</title></head></html>`;
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      new Response(big, { headers: { "content-type": "text/html" } }),
    );
    const truncated = await classify(api, {
      product_url: "https://shop.example.com/big",
      mode: "url",
      destination_country: "US",
    });
    expect(truncated.res.status).toBe(422);
  });

  it("counts URL classification against the classify_heavy bucket, not text classification", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(
      async () => new Response(page, { headers: { "content-type": "text/html" } }),
    );
    const { ws, api } = await setup();
    const patch = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { rate_limits: { classify_heavy: { limit: 2, window_seconds: 60 } } },
    });
    expect(patch.status).toBe(200);
    const url = { product_url: "https://shop.example.com/p/1", mode: "url", destination_country: "US" };
    expect((await api("/classify", { json: url })).status).toBe(200);
    expect((await api("/classify", { json: url })).status).toBe(200);
    const limited = await api("/classify", { json: url });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: "rate_limited", message: expect.stringContaining("classify_heavy") });
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect((await api("/classify", { json: { description: "ceramic mug", destination_country: "US" } })).status).toBe(
      200,
    );
  });
});

describe("GET /classify/modes", () => {
  it("lists standard, url, ai and image, the model modes available with a Workers AI binding", async () => {
    const { api } = await setup();
    const res = await api("/classify/modes");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      success: boolean;
      modes: {
        slug: string;
        available: boolean;
        default: boolean;
        inputs: string[];
        unavailable_reason: string | null;
      }[];
    };
    expect(body.success).toBe(true);
    expect(body.modes.map((m) => [m.slug, m.available, m.default])).toEqual([
      ["standard", true, true],
      ["url", true, false],
      ["ai", true, false],
      ["image", true, false],
    ]);
    expect(body.modes[1]!.inputs).toContain("product_url");
    expect(body.modes[3]!.inputs).toContain("image_url");
    expect(body.modes.every((m) => m.unavailable_reason === null)).toBe(true);
  });

  it("marks ai and image unavailable, with the reason, in a deployment without the AI binding", () => {
    const without = { ...env, AI: undefined } as unknown as Env;
    const listed = modes(without);
    expect(listed.filter((m) => !m.available).map((m) => m.slug)).toEqual(["ai", "image"]);
    for (const m of listed.filter((x) => !x.available))
      expect(m.unavailable_reason).toContain("Workers AI binding (AI)");
  });
});

describe("OpenAPI", () => {
  it("documents every classify route with its scope and examples", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            security: unknown;
            requestBody?: { content: Record<string, { schema: unknown }> };
            responses: Record<string, unknown>;
          }
        >
      >;
      components: { schemas: Record<string, { example?: unknown }> };
    };
    const routes = [
      ["post", "/admin/api/v1/classify"],
      ["get", "/admin/api/v1/classify/modes"],
      ["get", "/admin/api/v1/classify/blocklist"],
      ["post", "/admin/api/v1/classify/blocklist"],
      ["delete", "/admin/api/v1/classify/blocklist/{code}"],
      ["post", "/admin/api/v1/classify/blocklist/import"],
      ["get", "/admin/api/v1/usage-history/classify"],
    ] as const;
    for (const [method, path] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.security).toEqual([{ oauth2: ["classify:read"] }]);
      expect(JSON.stringify(op), `${method} ${path} has an example`).toMatch(/"example"|"\$ref"/);
    }
    for (const name of [
      "ClassifyRequest",
      "ClassifyResponse",
      "Unclassifiable",
      "BlocklistEntry",
      "ClassifyHistoryRow",
    ]) {
      expect(doc.components.schemas[name]?.example, name).toBeDefined();
    }
  });
});

describe("product page rules in production", () => {
  it.each(["http://127.0.0.1/admin", "http://localhost/", "http://[::1]/", "http://10.0.0.5/p"])(
    "refuses %s without fetching it",
    async (url) => {
      const spy = vi.spyOn(globalThis, "fetch");
      const r = await readProductPage(url, true);
      expect(r).toEqual({ error: expect.stringMatching(/local host|private/) });
      expect(spy).not.toHaveBeenCalled();
    },
  );

  it("checks every redirect hop", async () => {
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(
        new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data" } }),
      );
    const r = await readProductPage("https://shop.example.com/p", true);
    expect(r).toEqual({ error: expect.stringContaining("private") });
    expect(spy).toHaveBeenCalledOnce();
  });
});

describe("GET /usage-history/classify", () => {
  it("lists each classification newest first with keyset pagination, per workspace", async () => {
    const { api } = await setup();
    const ids: string[] = [];
    for (const description of ["ceramic coffee mug", "leather wallet", "cotton socks"]) {
      const { body } = await classify(api, { description, destination_country: "GB" });
      ids.push(body.request_id as string);
    }
    const page1 = (await (await api("/usage-history/classify?limit=2")).json()) as {
      data: Record<string, unknown>[];
      has_more: boolean;
    };
    expect(page1.data.map((r) => r.request_id)).toEqual([ids[2], ids[1]]);
    expect(page1.has_more).toBe(true);
    expect(page1.data[0]).toMatchObject({
      destination_country: "GB",
      mode: "standard",
      description: "cotton socks",
      top_code: expect.stringMatching(/^6115/),
      result_count: expect.any(Number),
      blocked: false,
      unclassifiable: false,
    });
    const page2 = (await (await api(`/usage-history/classify?limit=2&starting_after=${ids[1]}`)).json()) as {
      data: { request_id: string }[];
      has_more: boolean;
    };
    expect(page2.data.map((r) => r.request_id)).toEqual([ids[0]]);
    expect(page2.has_more).toBe(false);

    const other = await setup();
    const mine = (await (await other.api("/usage-history/classify")).json()) as { data: unknown[] };
    expect(mine.data).toEqual([]);
  });
});
