/** Wire schemas of API clients, shared by the settings routes and the platform API (workspaces module). */
import { z } from "@hono/zod-openapi";
import { SCOPES } from "../../lib/scopes";

const ScopesSchema = z
  .array(z.enum(SCOPES))
  .max(SCOPES.length * 2)
  .openapi({ example: ["consignments:read", "consignments:write"] });

export const CreateClientBody = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Checkout integration" }),
    scopes: ScopesSchema,
    customer_id: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .openapi({ description: "Pin the client to one customer" }),
  })
  .strict();

export const UpdateClientBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), scopes: ScopesSchema.optional() })
  .strict();

export const ApiClientSchema = z
  .object({
    id: z.string().openapi({ example: "apc_019a8f0c5b7e7d2a9c1e4f6a8b0c2d4e" }),
    client_id: z.string().openapi({ example: "ci_Xq3v1Yb5mK0pQ9sT2wZ8nA" }),
    name: z.string(),
    scopes: z.array(z.string()),
    customer_id: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ApiClient");

export const ApiClientWithSecret = ApiClientSchema.extend({
  client_secret: z.string().openapi({ description: "Shown once; store it now", example: "cs_9fJ2..." }),
}).openapi("ApiClientWithSecret");
