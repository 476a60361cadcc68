/**
 * A deterministic stand-in for the Workers AI binding (`AI`), bound to the test Worker as an RPC service with
 * the binding's `run(model, inputs)` shape. Workers AI is a remote model service: the tests exercise everything
 * up to that boundary (the prompts, the parsing of answers, timeouts and fallbacks), not a model's judgement.
 *
 * Text model (messages without an image): picks among the prompt's numbered candidates. The product text steers it:
 *   [pick:NNNN]      the first candidate whose code starts with NNNN (else the last candidate)
 *   [model-error]    throws, as a failed inference does
 *   [model-slow]     answers after 3 s (past the suite's AI_TIMEOUT_MS)
 *   [model-invalid]  answers prose without JSON
 *   [model-outside]  names a code that is not a candidate
 *   [model-fenced]   answers the JSON as a string inside a ``` fence, as models without JSON mode do
 * Vision model (a message with an image_url part): decodes the data URL and answers the text after
 * "describe:" in the image bytes, "NO PRODUCT" when they hold "no-product", and throws on "vision-error".
 */
import { WorkerEntrypoint } from "cloudflare:workers";

let last = null;

const textOf = (m) =>
  typeof m.content === "string"
    ? m.content
    : (Array.isArray(m.content) ? m.content : [m.content])
        .filter((p) => p?.type === "text")
        .map((p) => p.text)
        .join("\n");

const imageOf = (messages) => {
  for (const m of messages)
    for (const p of Array.isArray(m.content) ? m.content : []) if (p?.type === "image_url") return p.image_url.url;
  return null;
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default class FakeWorkersAi extends WorkerEntrypoint {
  /** The last call's model and inputs, for tests that check what was asked. */
  lastCall() {
    return last;
  }

  async run(model, inputs) {
    last = { model, inputs };
    const messages = inputs.messages ?? [];
    const image = imageOf(messages);
    if (image !== null) {
      const bytes = atob(image.slice(image.indexOf(",") + 1));
      if (bytes.includes("vision-error")) throw new Error("InferenceUpstreamError: vision model overloaded");
      if (bytes.includes("no-product")) return { response: "NO PRODUCT" };
      const at = bytes.indexOf("describe:");
      return { response: at >= 0 ? bytes.slice(at + 9).trim() : "An article" };
    }
    const prompt = messages.map(textOf).join("\n");
    const product = /Product: (.*)/.exec(prompt)?.[1] ?? "";
    if (product.includes("[model-error]")) throw new Error("InferenceUpstreamError: model overloaded");
    if (product.includes("[model-slow]")) await sleep(3000);
    if (product.includes("[model-invalid]")) return { response: "I think it is probably a kind of shirt." };
    const codes = [...prompt.matchAll(/^\d+\. code (\d+)$/gm)].map((m) => m[1]);
    const hint = /\[pick:(\d+)\]/.exec(product)?.[1];
    let code = (hint && codes.find((c) => c.startsWith(hint))) || codes[codes.length - 1];
    if (product.includes("[model-outside]")) code = "9999999999";
    const answer = { code, reasoning: `GRI 1: the terms of heading ${code.slice(0, 4)} describe the product.` };
    if (product.includes("[model-fenced]"))
      return { response: `Here you go:\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` };
    return { response: answer };
  }
}
