/**
 * `{api}/settings`: the workspace settings document. GET (settings:read) lists every registered key with its
 * value, null meaning "default"; PATCH (settings:write) sets or resets (null) any subset of keys, each
 * validated by its own schema. Unknown keys are a 400 so a typo never passes silently.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, json, jsonBody, newWorkspaceRouter, scoped } from "../../http/router";
import { SETTING_KEYS, SETTINGS, type SettingKey } from "./registry";
import { getSettings, patchSettings, settingsToWire } from "./service";

const tags = ["Settings"];

const valueShape = Object.fromEntries(
  SETTING_KEYS.map((k) => [
    k,
    SETTINGS[k].schema.nullable().optional().openapi({ description: SETTINGS[k].description }),
  ]),
) as { [K in SettingKey]: z.ZodOptional<z.ZodNullable<(typeof SETTINGS)[K]["schema"]>> };

const PatchBody = z
  .object(valueShape)
  .strict()
  .openapi("SettingsPatch", { example: { "restrict.enabled_destinations": ["US", "GB", "DE"] } });

const SettingsSchema = z
  .object(
    Object.fromEntries(
      SETTING_KEYS.map((k) => [k, z.unknown().openapi({ description: SETTINGS[k].description })]),
    ) as Record<SettingKey, z.ZodUnknown>,
  )
  .openapi("Settings", { example: { "restrict.enabled_destinations": null } });

const SettingsResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  settings: SettingsSchema,
  updated_at: z.string().nullable(),
});

const get = createRoute({
  method: "get",
  path: "/settings",
  tags,
  summary: "Workspace settings (null = default)",
  ...scoped("settings:read"),
  responses: { 200: json(SettingsResponse, "Every registered setting"), ...errorResponses },
});

const patch = createRoute({
  method: "patch",
  path: "/settings",
  tags,
  summary: "Change workspace settings (null resets a key to its default)",
  ...scoped("settings:write"),
  request: { body: jsonBody(PatchBody) },
  responses: { 200: json(SettingsResponse, "The settings after the change"), ...errorResponses },
});

export const settingsRoutes = newWorkspaceRouter()
  .openapi(get, async (c) => {
    const { settings, updatedAt } = await getSettings({ ctx: c.get("ctx") });
    return c.json(
      { success: true as const, message: "", settings: settingsToWire(settings), updated_at: updatedAt },
      200,
    );
  })
  .openapi(patch, async (c) => {
    const { settings, updatedAt } = await patchSettings({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json(
      {
        success: true as const,
        message: "Settings updated",
        settings: settingsToWire(settings),
        updated_at: updatedAt,
      },
      200,
    );
  });
