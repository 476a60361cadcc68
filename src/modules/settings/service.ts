/**
 * Workspace settings: one JSON document per workspace (`workspace_settings`), keys registered in
 * ./registry. Reads are cheap (one row by primary key) and may be batched with other reads by callers
 * through `settingsQuery`. Unknown keys in a stored document (from a removed setting) are ignored.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workspaceSettings } from "../../db/schema/index";
import type { Clock } from "../../lib/clock";
import { TtlCache } from "../../lib/ttl-cache";
import { SETTING_KEYS, SETTINGS, type SettingKey, type SettingsDocument } from "./registry";

/** The select statement, so callers can put it in a `db.batch` with their own reads. */
export const settingsQuery = (db: Db, workspaceId: string) =>
  db
    .select({ settings: workspaceSettings.settings, updatedAt: workspaceSettings.updatedAt })
    .from(workspaceSettings)
    .where(eq(workspaceSettings.workspaceId, workspaceId))
    .limit(1);

/** Parses a stored document, keeping only registered keys whose value still validates. */
export function parseDocument(raw: string | undefined | null): SettingsDocument {
  if (!raw) return {};
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (parsed[key] === undefined || parsed[key] === null) continue;
    const r = SETTINGS[key].schema.safeParse(parsed[key]);
    if (r.success) out[key] = r.data;
  }
  return out as SettingsDocument;
}

export async function getSettings(
  db: Db,
  workspaceId: string,
): Promise<{ settings: SettingsDocument; updatedAt: string | null }> {
  const rows = await settingsQuery(db, workspaceId);
  return { settings: parseDocument(rows[0]?.settings), updatedAt: rows[0]?.updatedAt ?? null };
}

/**
 * Hot-path read for engines: the workspace's settings from a short per-isolate cache. A change made in this
 * isolate is seen at once (patchSettings drops the entry); other isolates see it within SETTINGS_TTL_MS.
 */
export const SETTINGS_TTL_MS = 5_000;
const cache = new TtlCache<SettingsDocument>(SETTINGS_TTL_MS);

export async function cachedSettings(db: Db, workspaceId: string, clock: Clock): Promise<SettingsDocument> {
  const hit = cache.get(workspaceId, clock);
  if (hit) return hit;
  const { settings } = await getSettings(db, workspaceId);
  cache.set(workspaceId, settings, clock);
  return settings;
}

/** Every registered key with its stored value, or null when it is at its default. */
export function settingsToWire(doc: SettingsDocument): Record<SettingKey, unknown> {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, doc[k] ?? null])) as Record<SettingKey, unknown>;
}

/**
 * Merges a validated patch into the workspace's document: a value replaces the stored one, null removes the
 * key (back to its default), absent keys stay as they are. One upsert.
 */
export async function patchSettings(
  db: Db,
  workspaceId: string,
  patch: Partial<Record<SettingKey, unknown>>,
  now: string,
): Promise<{ settings: SettingsDocument; updatedAt: string }> {
  const { settings } = await getSettings(db, workspaceId);
  const next: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  const json = JSON.stringify(next);
  cache.delete(workspaceId);
  await db
    .insert(workspaceSettings)
    .values({ workspaceId, settings: json, updatedAt: now })
    .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: { settings: json, updatedAt: now } });
  return { settings: next as SettingsDocument, updatedAt: now };
}
