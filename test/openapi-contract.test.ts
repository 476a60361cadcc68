/**
 * The OpenAPI document as a contract an SDK generator and a reader can rely on: operation ids, tags, examples
 * that validate, the headers and error answers, the webhooks section. (That every response the suite receives
 * matches the document is checked by test/contract.ts on every call.)
 */
import { Validator } from "@cfworker/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../src/engines/webhooks/catalogue";
import { call } from "./helpers";

type Json = Record<string, any>;
let doc: Json;

beforeAll(async () => {
  doc = (await (await call("/openapi.json", { host: "localhost:8787" })).json()) as Json;
});

const METHODS = ["get", "put", "post", "patch", "delete"];
const operations = () =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Json })),
  );
const escapePointer = (p: string) => p.replaceAll("~", "~0").replaceAll("/", "~1");

/** Every `example` beside a `schema` or inside one, with the JSON pointer of the schema it illustrates. */
function examples(node: unknown, at: string[], out: { where: string; schema: string; value: unknown }[]) {
  if (!node || typeof node !== "object") return out;
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) examples(n, [...at, String(i)], out);
    return out;
  }
  const o = node as Json;
  if ("example" in o && at.at(-1) !== "properties") {
    // A media type's example illustrates its `schema`; a schema's example illustrates the schema itself.
    const schemaAt = "schema" in o ? [...at, "schema"] : at;
    out.push({ where: at.join("/"), schema: `#/${schemaAt.map(escapePointer).join("/")}`, value: o.example });
  }
  for (const [k, v] of Object.entries(o)) if (k !== "example" && k !== "examples") examples(v, [...at, k], out);
  return out;
}

describe("the OpenAPI document", () => {
  it("gives every operation a unique, stable operationId", () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const byPath = Object.fromEntries(operations().map((o) => [`${o.method} ${o.path}`, o.op.operationId]));
    expect(byPath["post /admin/api/v1/consignments"]).toBe("postConsignments");
    expect(byPath["get /admin/api/v1/consignments/{id}"]).toBe("getConsignmentsById");
    expect(byPath["post /platform/v1/workspaces"]).toBe("postPlatformWorkspaces");
  });

  it("declares every tag it uses", () => {
    const declared = new Set((doc.tags as { name: string; description: string }[]).map((t) => t.name));
    for (const { op } of operations()) for (const t of op.tags ?? []) expect(declared).toContain(t);
  });

  it("has examples that validate against their own schemas", () => {
    const found = examples(doc.paths, ["paths"], examples(doc.components, ["components"], []));
    expect(found.length).toBeGreaterThan(50);
    // The validator reads every object it is given as a schema: an example's `id` would pass for a schema id.
    const schemas = JSON.parse(JSON.stringify(doc), (k, v) => (k === "example" || k === "examples" ? undefined : v));
    const at = (pointer: string) =>
      pointer
        .slice(2)
        .split("/")
        .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
        .reduce((node: Json, key) => node[key], schemas);
    const failures = found.flatMap((e) => {
      // The schema itself, with the components its references point into.
      const schema = { ...at(e.schema), components: schemas.components };
      const result = new Validator(schema as never, "2020-12", false).validate(e.value);
      return result.valid ? [] : [`${e.where}: ${result.errors.at(-1)?.error}`];
    });
    expect(failures).toEqual([]);
  });

  it("writes no JavaScript regex flags into patterns", () => {
    const patterns = JSON.stringify(doc).match(/"pattern":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter((p) => /\/[dgimsuvy]+"$/.test(p))).toEqual([]);
  });

  it("documents the headers and the error answers of every operation", () => {
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      for (const status of ["405", "429", "500"]) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      if (op.requestBody) for (const s of ["413", "415"]) expect(op.responses[s], `${where} ${s}`).toBeDefined();
      const ok = Object.entries(op.responses as Record<string, Json>).find(([s]) => s.startsWith("2"));
      expect(ok, where).toBeDefined();
      expect(Object.keys(ok![1].headers ?? {}), where).toEqual(
        expect.arrayContaining(["X-Request-Id", "Server-Timing"]),
      );
      if (["post", "put", "patch", "delete"].includes(method)) {
        expect(
          op.parameters.map((p: Json) => p.$ref ?? p.name),
          where,
        ).toContain("#/components/parameters/IdempotencyKey");
        expect(Object.keys(ok![1].headers), where).toContain("Idempotent-Replayed");
      }
    }
    expect(doc.components.responses.RateLimited.headers).toHaveProperty("Retry-After");
    expect(doc.components.headers).toHaveProperty("RateLimitRemaining");
  });

  it("says the token endpoint needs no bearer token", () => {
    expect(doc.paths["/admin/oauth2/token"].post.security).toEqual([]);
  });

  it("describes every webhook event: envelope with delivery and event ids, and the event's data", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(EVENT_TYPES.map((e) => e.type).sort());
    for (const e of EVENT_TYPES) {
      const schema = doc.webhooks[e.type].post.requestBody.content["application/json"].schema;
      expect(schema.required).toEqual(["id", "event_id", "type", "created_at", "data"]);
      expect(schema.properties.type.const).toBe(e.type);
      expect(schema.properties.data.required.length).toBeGreaterThan(0);
    }
  });

  it("types the consignment: create output, list rows and the retrieval object have no open maps", () => {
    const created = doc.paths["/admin/api/v1/consignments"].post.responses["201"].content["application/json"].schema;
    expect(created.properties.data.properties).toHaveProperty("parcels");
    expect(doc.components.schemas.ConsignmentItem.properties).toHaveProperty("amount");
    expect(doc.components.schemas.ConsignmentHead.properties).toHaveProperty("shipment_ref");
    const read = doc.paths["/admin/api/v1/consignments/{id}"].get.responses["200"].content["application/json"].schema;
    expect(read).toEqual({ $ref: "#/components/schemas/Consignment" });
    expect(doc.components.schemas.Consignment.properties ?? doc.components.schemas.Consignment.allOf).toBeDefined();
  });
});
