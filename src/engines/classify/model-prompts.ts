/**
 * What the `ai` and `image` classify modes ask a hosted model, and how its answers are read. Pure: the
 * module service (modules/classify/model.ts) makes the calls, with a timeout and a fallback.
 *
 * - Rerank (`ai`): the standard ranking's candidates go to a text model with their legal texts (chapter,
 *   heading, subheading and national line), and the model picks one by the General Rules of Interpretation.
 *   It may only pick among the candidates: an answer naming any other code is refused, so the model can
 *   reorder the lexical evidence but never invent a code.
 * - Describe (`image`): a vision model describes the product in an image in the terms classification needs
 *   (what it is, its material, its function and use); that text is then classified like a description.
 */

export interface RerankCandidate {
  code: string;
  chapter: { number: string; description: string };
  heading: { number: string; description: string };
  subheading: { number: string; description: string };
  tariff: { number: string; description: string };
}

export interface ChatMessage {
  role: "system" | "user";
  content: string | ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[];
}

const RERANK_SYSTEM = [
  "You are a licensed customs broker classifying goods in the Harmonized System.",
  "Apply the General Rules of Interpretation in order: GRI 1 (the terms of the headings and the section and chapter notes decide),",
  "GRI 2 (incomplete or unassembled articles, mixtures), GRI 3 (most specific description, essential character, last in numerical order),",
  "GRI 4 (most akin), GRI 5 (cases and packing), GRI 6 (subheadings compared at the same level).",
  "Classify what the product is, what it is made of and what it is for; a word naming another article (a case FOR a phone,",
  "a strap OF a watch) does not make the product that article. Parts and accessories go to the parts heading that names them,",
  "else by material. Choose exactly one of the candidate codes given. Answer only with JSON:",
  '{"code": "<one candidate code, digits only>", "reasoning": "<two or three sentences citing the GRI and the heading texts>"}',
].join(" ");

/** A classification ruling on a similar product, as the rerank prompt shows it (precedents.ts `nearestRulings`). */
export interface RerankPrecedent {
  ruling_number: string;
  code: string;
  subject: string;
}

/**
 * The rerank prompt: the product, each candidate's legal texts numbered in the standard ranking's order, and the
 * rulings on the most similar products with the codes they gave (evidence of practice, not of the product: the
 * model is told they may concern other goods).
 */
export function rerankMessages(
  product: string,
  candidates: RerankCandidate[],
  precedents: readonly RerankPrecedent[] = [],
): ChatMessage[] {
  const lines = candidates.map((c, i) =>
    [
      `${i + 1}. code ${c.tariff.number}`,
      `   chapter ${c.chapter.number}: ${c.chapter.description}`,
      `   heading ${c.heading.number}: ${c.heading.description}`,
      `   subheading ${c.subheading.number}: ${c.subheading.description}`,
      c.tariff.number !== c.subheading.number ? `   national line ${c.tariff.number}: ${c.tariff.description}` : "",
    ]
      .filter(Boolean)
      .join("\n"),
  );
  const rulings = precedents.length
    ? `\nCBP rulings on similar products (they may concern other goods; weigh them, do not copy them):\n${precedents
        .map((p) => `- ${p.ruling_number}: ${p.code}, ${p.subject.slice(0, 200)}`)
        .join("\n")}\n`
    : "";
  return [
    { role: "system", content: RERANK_SYSTEM },
    {
      role: "user",
      content: `Product: ${product.slice(0, 2000)}\n\nCandidates:\n${lines.join("\n")}\n${rulings}\nWhich candidate code is right?`,
    },
  ];
}

/** JSON mode schema for the rerank answer (models that support it return the object directly). */
export const RERANK_SCHEMA = {
  type: "object",
  properties: { code: { type: "string" }, reasoning: { type: "string" } },
  required: ["code", "reasoning"],
} as const;

/**
 * The text a model answered, whatever its shape: `{response: string | object}` (Workers AI text generation),
 * a bare string, or an object already parsed by JSON mode.
 */
function answerBody(answer: unknown): unknown {
  if (answer && typeof answer === "object" && "response" in answer) return (answer as { response: unknown }).response;
  return answer;
}

/** The first JSON object in a text (models wrap JSON in prose or ``` fences). */
function firstJsonObject(text: string): unknown {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export type RerankAnswer = { ok: true; code: string; reasoning: string } | { ok: false; reason: string };

/** Reads the model's choice; refuses anything that is not one of the candidates' codes. */
export function parseRerank(answer: unknown, candidates: RerankCandidate[]): RerankAnswer {
  const body = answerBody(answer);
  const obj = typeof body === "string" ? firstJsonObject(body) : body;
  if (!obj || typeof obj !== "object") return { ok: false, reason: "the model's answer was not JSON" };
  const { code, reasoning } = obj as { code?: unknown; reasoning?: unknown };
  if (typeof code !== "string" && typeof code !== "number")
    return { ok: false, reason: "the model's answer named no code" };
  const digits = String(code).replace(/\D/g, "");
  const chosen = candidates.find((c) => c.tariff.number === digits);
  if (!chosen) return { ok: false, reason: `the model chose ${String(code)}, which is not one of the candidates` };
  const text = typeof reasoning === "string" ? reasoning.trim().replace(/\s+/g, " ").slice(0, 1000) : "";
  return { ok: true, code: chosen.tariff.number, reasoning: text || "no reasoning given" };
}

const DESCRIBE_PROMPT = [
  "Describe the product shown for a customs declaration, in one or two plain sentences:",
  "what the article is, what it is made of (materials, and knitted or woven for textiles), what it does or is used for,",
  "and for whom (men, women, children) when it is clothing or footwear. No brand names, no marketing words, no code numbers.",
  "If the image shows no product, answer exactly: NO PRODUCT.",
].join(" ");

/** The describe prompt; `hint` is the caller's own title or description, given to the model as context. */
export function describeMessages(imageDataUrl: string, hint: string): ChatMessage[] {
  const text = hint ? `${DESCRIBE_PROMPT}\nThe seller describes it as: ${hint.slice(0, 500)}` : DESCRIBE_PROMPT;
  return [
    {
      role: "user",
      content: [
        { type: "text", text },
        { type: "image_url", image_url: { url: imageDataUrl } },
      ],
    },
  ];
}

export type Description = { ok: true; description: string } | { ok: false; reason: string };

/** Reads the vision model's description; "NO PRODUCT" and empty answers are refusals. */
export function parseDescription(answer: unknown): Description {
  const body = answerBody(answer);
  if (typeof body !== "string") return { ok: false, reason: "the image model's answer was not text" };
  const text = body
    .replace(/^\s*(sure|here is|here's)[^:\n]*:\s*/i, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return { ok: false, reason: "the image model gave no description" };
  if (/^no product\.?$/i.test(text)) return { ok: false, reason: "the image shows no product" };
  return { ok: true, description: text.slice(0, 1000) };
}
