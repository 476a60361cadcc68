/**
 * The workspace settings keys. Each area adds its keys here: a dotted name (`<area>.<setting>`), the zod
 * schema a value must satisfy, and a description. `null` always resets a key to its default, so every
 * schema is made nullable by the settings routes. Values are stored in one JSON document per workspace.
 */
import { z } from "@hono/zod-openapi";
import { CountryCode } from "../../http/schemas";

export const SETTINGS = {
  "restrict.enabled_destinations": {
    schema: z
      .array(CountryCode)
      .max(250)
      .transform((codes) => [...new Set(codes)].sort())
      .openapi({ example: ["US", "GB", "DE"] }),
    description:
      "Destinations for which restricted-goods checks are enabled (POST /restrict answers 403 for others). Default (null): every destination with platform rules.",
  },
  "consignments.delete_guards": {
    schema: z
      .array(z.enum(["active_holds", "assessed"]))
      .max(2)
      .transform((g) => [...new Set(g)].sort())
      .openapi({ example: ["active_holds", "assessed"] }),
    description:
      'Why DELETE /consignments/{id} is refused (409): `active_holds` (the consignment has a hold not yet released), `assessed` (a duty assessment is stored for it). Default (null): ["active_holds"]; [] allows every deletion.',
  },
  "screening.alert_threshold": {
    schema: z.number().min(0.7).max(1).openapi({ example: 0.85 }),
    description:
      "Ongoing screening: the score from which a stored party's match opens an alert (GET /screening/alerts). Default (null): 0.85, the score from which a match is worth an officer's review (README, Screen, Scoring).",
  },
  "screening.hold_on": {
    schema: z.enum(["off", "confirmed", "high_score"]).openapi({ example: "confirmed" }),
    description:
      'Ongoing screening: when a match places a `screening` hold on the party\'s consignments. `confirmed`: when an officer confirms the alert; `high_score`: also as soon as an alert scoring 0.95 or more opens; `off`: never. Default (null): "confirmed".',
  },
  "compliance.holds": {
    schema: z.enum(["on", "off"]).openapi({ example: "on" }),
    description:
      'Whether a consignment compliance check (POST /consignments/{id}/compliance-check, flow action `compliance_check`) places holds for what it finds: `screening`, `prohibited_goods`, `licence_required`. `off` still records the check and its outcome. Default (null): "on".',
  },
  "compliance.screening_hold_score": {
    schema: z.number().min(0.7).max(1).openapi({ example: 0.85 }),
    description:
      "Compliance check: the screening score from which a party's match places a `screening` hold; matches from 0.7 below it are warnings. Default (null): 0.85.",
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;
type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]["schema"]>;
export type SettingsDocument = { [K in SettingKey]?: SettingValue<K> };

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
