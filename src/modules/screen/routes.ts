/**
 * `POST {api}/screen` and `GET {api}/screen/health` (scope screen:read). The screening answer departs from
 * the envelope (spec, Conventions 4): the result object itself, no `success`/`message`. Validation failures
 * still use the shared 400 error body.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  newWorkspaceRouter,
  scoped,
  scopedCompute,
} from "../../http/router";
import { CountryCode } from "../../http/schemas";
import { screenParty } from "./service";

const tags = ["Screen"];

const hasWord = (s: string) => /[\p{L}\p{N}]/u.test(s);
const partyName = (what: string, example: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} must not be empty`)
    .max(500, `${what} must be at most 500 characters`)
    .refine(hasWord, `${what} must contain a letter or digit`)
    .openapi({ example });

const short = (example: string) => z.string().trim().max(200).optional().openapi({ example });

const ScreenBody = z
  .object({
    name: partyName("name", "Banco Nacional de Cuba"),
    company: partyName("company", "Gazprom Bank").optional().nullable(),
    address: z
      .object({
        line_1: short("Zweierstrasse 35"),
        city: short("Zurich"),
        state: short("ZH"),
        postal_code: z.string().trim().max(20).optional().openapi({ example: "8022" }),
        country_code: CountryCode.optional(),
      })
      .strict()
      .optional()
      .openapi({ description: "Informational: validated and recorded in the screening's evidence, not matched" }),
    type: z.enum(["individual", "entity"]).optional().openapi({
      description:
        "Narrows hits to that party type: individual keeps individuals and unclassified entries; entity keeps entities, vessels, aircraft and unclassified entries",
    }),
  })
  .strict()
  .openapi("ScreenRequest");

const AddressSchema = z.object({
  address: z.string().nullable(),
  city: z
    .string()
    .nullable()
    .openapi({ description: "As listed; OFAC puts city, state and postal code together here" }),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
  note: z.string().nullable(),
});

const EntrySchema = z
  .object({
    name: z.string().openapi({ example: "BANCO NACIONAL DE CUBA" }),
    alt_names: z.array(z.string()).openapi({ example: ["NATIONAL BANK OF CUBA"] }),
    entry_type: z.enum(["individual", "entity", "vessel", "aircraft", "unknown"]).openapi({ example: "entity" }),
    programs: z.array(z.string()).openapi({ example: ["CUBA"] }),
    addresses: z.array(AddressSchema),
    source_ref: z.string().openapi({ example: "306", description: "OFAC ent_num, or the UN reference number" }),
    remarks: z.string().nullable().openapi({ example: "a.k.a. 'BNC'." }),
  })
  .openapi("ScreeningEntry");

const FEATURES = [
  "identifier",
  "exact",
  "transliteration",
  "phonetic",
  "edit_distance",
  "initials",
  "joined_split",
  "low_quality_alias",
] as const;

const MatchSchema = z
  .object({
    score: z.number().min(0.7).max(1).openapi({ example: 1 }),
    list_code: z.string().openapi({ example: "SDN" }),
    matched_name: z
      .string()
      .openapi({ example: "BANCO NACIONAL DE CUBA", description: "The listed name or alias that scored best" }),
    matched_query: z.enum(["name", "company"]).openapi({ example: "name" }),
    explanation: z
      .object({
        matched: z.array(
          z.object({
            query: z.string(),
            listed: z.string(),
            sim: z.number(),
            feature: z.enum(FEATURES),
          }),
        ),
        unmatched_query: z.array(z.string()),
        unmatched_listed: z.array(z.string()),
        features: z.array(z.enum(FEATURES)),
      })
      .openapi({
        description:
          "Why this entry matched: aligned query/listed words with their similarity and the feature that made them alike, words left unmatched on each side, and the features that fired",
      }),
    entry: EntrySchema,
  })
  .openapi("ScreeningMatch");

const ScreenResponse = z
  .object({
    matches: z.array(MatchSchema).openapi({ description: "Best score first; only scores ≥ 0.7; at most 20" }),
    match_count: z.number().int().openapi({ example: 1 }),
    searched_lists: z.array(z.string()).openapi({ example: ["SDN", "UN"] }),
    lists: z
      .array(
        z.object({
          code: z.string(),
          version: z.string(),
          published_at: z.string().nullable().openapi({ description: "The list's own date, when its file gives one" }),
        }),
      )
      .openapi({ description: "Each searched list's version (dataset registry) and publication date (extension)" }),
    data_source: z.object({
      version: z.string().openapi({ example: "SDN-2024-05-03+2026-06-02.UN-2025-11-18.r1" }),
      source: z.string(),
      imported_at: z.string(),
    }),
  })
  .openapi("ScreenResult");

const screenRoute = createRoute({
  method: "post",
  path: "/screen",
  tags,
  summary: "Screen a party against the OFAC SDN and UN Security Council lists",
  description:
    "Screens `name`, and `company` as a second query, against every name and alias of every loaded list. " +
    "Exact (normalized) matches score 1.0; fuzzy matches are scored as documented in the README. The answer is " +
    "not enveloped. Every screening is stored as evidence under the `X-Request-Id` of the response.",
  ...scopedCompute("screen:read"),
  request: { body: jsonBody(ScreenBody) },
  responses: {
    200: {
      description: "Screening result (no envelope)",
      content: {
        "application/json": {
          schema: ScreenResponse,
          example: {
            matches: [
              {
                score: 1,
                list_code: "SDN",
                matched_name: "BANCO NACIONAL DE CUBA",
                matched_query: "name",
                explanation: {
                  matched: [
                    { query: "banco", listed: "banco", sim: 1, feature: "exact" },
                    { query: "nacional", listed: "nacional", sim: 1, feature: "exact" },
                    { query: "de", listed: "de", sim: 1, feature: "exact" },
                    { query: "cuba", listed: "cuba", sim: 1, feature: "exact" },
                  ],
                  unmatched_query: [],
                  unmatched_listed: [],
                  features: ["exact"],
                },
                entry: {
                  name: "BANCO NACIONAL DE CUBA",
                  alt_names: ["NATIONAL BANK OF CUBA"],
                  entry_type: "entity",
                  programs: ["CUBA"],
                  addresses: [
                    {
                      address: "Zweierstrasse 35",
                      city: "Zurich CH-8022",
                      state: null,
                      postal_code: null,
                      country: "Switzerland",
                      note: null,
                    },
                  ],
                  source_ref: "306",
                  remarks: "a.k.a. 'BNC'.",
                },
              },
            ],
            match_count: 1,
            searched_lists: ["SDN", "UN"],
            lists: [
              { code: "SDN", version: "2024-05-03+alt-add-2026-06-02", published_at: null },
              { code: "UN", version: "2025-11-18", published_at: "2025-11-18T23:00:09.174Z" },
            ],
            data_source: {
              version: "SDN-2024-05-03+2026-06-02.UN-2025-11-18.r1",
              source: "SDN: ...; UN: ...",
              imported_at: "2026-11-22T02:00:00.000Z",
            },
          },
        },
      },
    },
    503: json(ErrorSchema, "No sanctions list is loaded"),
    ...errorResponses,
  },
});

const healthRoute = createRoute({
  method: "get",
  path: "/screen/health",
  tags,
  summary: "Screening service health",
  ...scoped("screen:read"),
  responses: {
    200: json(
      z
        .object({ status: z.literal("ok"), service: z.literal("screen") })
        .openapi({ example: { status: "ok", service: "screen" } }),
      "Up",
    ),
    ...errorResponses,
  },
});

export const screenRoutes = newWorkspaceRouter()
  .openapi(screenRoute, async (c) => {
    const body = c.req.valid("json");
    const ctx = c.get("ctx");
    const result = await screenParty({
      ctx,
      input: { name: body.name, company: body.company ?? undefined, type: body.type, address: body.address },
    });
    // The evidence row goes with the audit row, in the group-committed batch after the response.
    return c.json(result, 200);
  })
  .openapi(healthRoute, (c) => c.json({ status: "ok" as const, service: "screen" as const }, 200));
