/**
 * Workspace settings: one JSON document per workspace (`workspace_settings`), keys registered in
 * ./registry. Reads are cheap (one row by primary key) and may be batched with other reads by callers
 * through `settingsQuery`. Unknown keys in a stored document (from a removed setting) are ignored.
 */
import { eq } from "drizzle-orm";
import type { Call, Deps, WorkspaceContext } from "../../core/context";
import type { Db } from "../../db/client";
import { workspaceSettings } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
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

/**
 * What a settings read needs: the database, the workspace's id and (for the cache) the clock. A
 * ServiceContext or a job's context qualifies; so does the narrower context of an engine's hot path.
 */
export interface SettingsReadContext {
  db: Db;
  workspace: Pick<WorkspaceContext, "id">;
  deps: Pick<Deps, "clock">;
}

export interface StoredSettings {
  settings: SettingsDocument;
  updatedAt: string | null;
}

export async function getSettings({ ctx }: { ctx: Omit<SettingsReadContext, "deps"> }): Promise<StoredSettings> {
  const [row] = await settingsQuery(ctx.db, ctx.workspace.id);
  return { settings: parseDocument(row?.settings), updatedAt: row?.updatedAt ?? null };
}

/**
 * Hot-path read for engines: the workspace's settings from a short per-isolate cache. A change made in this
 * isolate is seen at once (patchSettings drops the entry); other isolates see it within SETTINGS_TTL_MS.
 */
export const SETTINGS_TTL_MS = 5_000;
const cache = new TtlCache<SettingsDocument>(SETTINGS_TTL_MS);

export async function cachedSettings({ ctx }: { ctx: SettingsReadContext }): Promise<SettingsDocument> {
  const { clock } = ctx.deps;
  const hit = cache.get(ctx.workspace.id, clock);
  if (hit) return hit;
  const { settings } = await getSettings({ ctx });
  cache.set(ctx.workspace.id, settings, clock);
  return settings;
}

/** Every registered key with its stored value, or null when it is at its default. */
export function settingsToWire(doc: SettingsDocument): Record<SettingKey, unknown> {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, doc[k] ?? null])) as Record<SettingKey, unknown>;
}

/** A validated patch: a value per key to set, null to reset it to its default; absent keys stay. */
export type SettingsPatch = Partial<Record<SettingKey, unknown>>;

/**
 * Merges a validated patch into the workspace's document: a value replaces the stored one, null removes the
 * key (back to its default), absent keys stay as they are. One upsert.
 */
export async function patchSettings({
  ctx,
  input,
}: Call<SettingsPatch>): Promise<{ settings: SettingsDocument; updatedAt: string }> {
  const workspaceId = ctx.workspace.id;
  const now = isoAt(ctx.deps.clock.now());
  const { settings } = await getSettings({ ctx });
  const next: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  const json = JSON.stringify(next);
  cache.delete(workspaceId);
  await ctx.db
    .insert(workspaceSettings)
    .values({ workspaceId, settings: json, updatedAt: now })
    .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: { settings: json, updatedAt: now } });
  return { settings: next as SettingsDocument, updatedAt: now };
}
