/**
 * Every response a test receives through `call()` is checked against the OpenAPI document the Worker serves:
 * the operation (method and path template) must document the status, and a JSON body must match the
 * documented schema, with no undocumented properties (`unevaluatedProperties: false` is added to every
 * object schema that does not say otherwise). So the document and the code cannot disagree without a test
 * failing. A test that means to send what no route accepts (unknown paths, raw bodies) still gets checked:
 * unknown paths must be answered with the documented error shape.
 */

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Validator } from "@cfworker/json-schema";
import worker from "../src/index";

type Json = Record<string, unknown>;
interface Template {
  path: string;
  regex: RegExp;
  params: number;
  methods: Record<string, Json>;
}

let loaded: Promise<{ doc: Json; templates: Template[] }> | undefined;

/**
 * Object schemas become closed unless they say otherwise. The branches of an `allOf` are closed at their
 * parent instead (a closed branch would refuse its siblings' properties); a branch that is a reference is
 * inlined, open, for the same reason.
 */
function closeObjects(node: unknown, schemas: Record<string, unknown>, inAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((n) => closeObjects(n, schemas, inAllOf));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    // Examples are not schemas (and an example's `id` would read as a draft-4 schema id): left out here.
    if (k === "example" || k === "examples") continue;
    if (k === "allOf") {
      out[k] = (v as Json[]).map((branch) => {
        const target = typeof branch.$ref === "string" ? schemas[branch.$ref.split("/").pop() ?? ""] : branch;
        return closeObjects(target, schemas, true);
      });
    } else out[k] = closeObjects(v, schemas);
  }
  const isObject = out.type === "object" || (Array.isArray(out.type) && out.type.includes("object"));
  const open = "additionalProperties" in out || "unevaluatedProperties" in out || "patternProperties" in out;
  if (((isObject && out.properties) || out.allOf) && !open && !inAllOf) out.unevaluatedProperties = false;
  return out;
}

async function load() {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request("http://localhost/openapi.json") as Request<unknown, IncomingRequestCfProperties>,
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const raw = (await res.json()) as Json;
  const schemas = ((raw.components as Json).schemas ?? {}) as Record<string, unknown>;
  const doc = { components: closeObjects(raw.components, schemas), paths: closeObjects(raw.paths, schemas) } as Json;
  const templates: Template[] = Object.entries(doc.paths as Record<string, Record<string, Json>>).map(
    ([path, methods]) => ({
      path,
      regex: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      params: (path.match(/\{/g) ?? []).length,
      methods,
    }),
  );
  // Literal segments win over parameters: /settings/webhooks/event-types before /settings/webhooks/{id}.
  templates.sort((a, b) => a.params - b.params);
  return { doc, templates };
}

const pointer = (...parts: string[]) =>
  `#/${parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;

/** Throws when the response is not what the document says for this operation and status. */
export async function checkResponse(method: string, url: string, res: Response): Promise<void> {
  loaded ??= load();
  const { doc, templates } = await loaded;
  const path = new URL(url).pathname;
  const m = method.toLowerCase();
  // Not API operations: the health check and the reference itself.
  if (m === "options" || path === "/openapi.json" || path === "/docs" || path === "/health") return;
  const template = templates.find((t) => t.regex.test(path) && t.methods[m]);
  // Unmatched: an unknown path, or a method the path lacks. Answered with the error envelope (404 / 405).
  const where = template ? ["paths", template.path, m, "responses"] : undefined;
  let responsePointer: string[] | undefined;
  if (where) {
    const responses = (template!.methods[m] as Json).responses as Record<string, Json>;
    const key = String(res.status) in responses ? String(res.status) : "default" in responses ? "default" : undefined;
    if (!key)
      throw new Error(
        `${method} ${path}: status ${res.status} is not documented (documented: ${Object.keys(responses).join(", ")})`,
      );
    responsePointer = [...where, key];
    let response = responses[key] as Json;
    if (typeof response.$ref === "string") {
      const name = response.$ref.split("/").pop()!;
      response = ((doc.components as Json).responses as Record<string, Json>)[name]!;
      responsePointer = ["components", "responses", name];
    }
    const content = response.content as Record<string, Json> | undefined;
    const type = res.headers.get("content-type") ?? "";
    if (!content) return;
    if ("*/*" in content) return; // documented as any type: the archived bytes, answered as they were sent
    const mediaType = Object.keys(content).find((k) => type.startsWith(k)) ?? (type.includes("json") ? undefined : "");
    if (mediaType === "") return; // a non-JSON body (PDF, HTML, the archived bytes): its type is checked by its tests
    if (!mediaType) throw new Error(`${method} ${path} → ${res.status}: content type ${type} is not documented`);
    if (!content[mediaType]!.schema || !mediaType.includes("json")) return;
    const body = await res.clone().json();
    const schema = { ...doc, $ref: pointer(...responsePointer, "content", mediaType, "schema") };
    const result = new Validator(schema as never, "2020-12", false).validate(body);
    if (!result.valid) {
      const errors = result.errors
        .filter((e) => !/subschema had errors|False boolean schema/.test(e.error))
        .slice(0, 8)
        .map((e) => `  ${e.instanceLocation}: ${e.error}`)
        .join("\n");
      throw new Error(
        `${method} ${path} → ${res.status} does not match its documented schema:\n${errors}\nbody: ${JSON.stringify(body).slice(0, 600)}`,
      );
    }
    return;
  }
  // No operation: must be the error envelope.
  if (res.status < 400) throw new Error(`${method} ${path} → ${res.status} but no operation documents it`);
}
