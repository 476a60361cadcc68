/**
 * What differs between the kinds of dataset the registry takes at run time; everything else (validation
 * report, staging runs, activation, rollback, fetch) is shared in service.ts.
 *
 * - A **sanctions list** (`sanctions-sdn`, `sanctions-un`): the published CSV or XML, parsed as a stream;
 *   rows in `sanction_entries` under their `list_version`, plus one `sanction_lists` row per version; the
 *   `sanctions` row of data_sources names the active versions of both lists together.
 * - The **restriction rule set** (`restrictions`): the project's own rule file and its vocabulary (the two
 *   JSON files of data/restrictions), validated rule by rule and expanded with the same lexicon code the
 *   loader runs; rows in `restriction_rules` under their `version`.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { bulkInsert } from "../../db/bulk";
import type { Db } from "../../db/client";
import {
  dataSources,
  fxCustomsRates,
  fxRates,
  restrictionRules,
  sanctionEntries,
  sanctionLists,
} from "../../db/schema/index";
import { ecbCsvRates, ecbXmlRates, hmrcXmlRates } from "../../engines/datasets/fx";
import { cslEntries, euEntries, ukEntries } from "../../engines/datasets/lists";
import { ofacAdvancedEntries } from "../../engines/datasets/ofac-advanced";
import { entryHash, hash53, ofacEntries, type ParseIssue, unEntries } from "../../engines/datasets/sanctions";
import { expandRules, type Lexicon } from "../../engines/restrict/lexicon";
import { unprocessable } from "../../lib/errors";
import type { UploadableDataset } from "./catalogue";
import { objectText, part, readJson } from "./files";
import { referenceTables } from "./tables";

/** One published file of a version, as stored in the ARCHIVE bucket. */
export interface SourceFile {
  part: string;
  key: string;
  size: number;
  sha256: string;
}

/** One row of a version: its id (unique in the version), a hash of what it says, and its insert values. */
export interface Item {
  id: string;
  hash: string;
  type: string;
  values: Record<string, unknown>;
}

export type Statement = BatchItem<"sqlite">;

export interface DatasetKind {
  /**
   * Share of records the parser may skip before the version is refused: a publisher's file may carry a few
   * malformed rows, a curated rule set none.
   */
  maxSkippedShare: number;
  /**
   * A merging dataset's version is the previous version plus the file (the ECB's daily file adds a day to the
   * history): its rows are carried over when the load starts, and it can never shrink.
   */
  merges?: boolean;
  /** Copies the previous version's rows under the new version (merging datasets), in the first load batch. */
  carryOver?(db: Db, version: string, previous: string, def: UploadableDataset): Statement[];
  /** The items of a version's files, as a stream; `info.publishedAt` gets the file's own date, if any. */
  items(
    bucket: R2Bucket,
    def: UploadableDataset,
    files: SourceFile[],
    issues: ParseIssue[],
    info: { publishedAt: string | null },
  ): AsyncIterable<Item>;
  /** The (id, hash) pairs of a loaded version (a hash of "" means unknown: never counted as changed). */
  hashes(db: Db, def: UploadableDataset, version: string): Promise<Map<string, string>>;
  /** Inserts for some items of `version`. */
  inserts(db: Db, def: UploadableDataset, version: string, items: Item[]): Statement[];
  /** Written with the last staging batch (a version's own header row). */
  finish(db: Db, def: UploadableDataset, version: string, rows: number, source: string): Statement[];
  /**
   * First in the activation batch, before the switch: keeps what readers see now where a rollback can find it
   * (the live tables of a version loaded with the deployment).
   */
  beforeActivation?(db: Db, def: UploadableDataset): Statement[];
  /** Rewrites the data_sources row(s) from the registry as it stands inside the activation batch. */
  activation(db: Db, def: UploadableDataset, now: string): Statement[];
  /** Deletes the rows of these versions. */
  purge(db: Db, def: UploadableDataset, versions: string[]): Statement[];
}

// ------------------------------------------------------------------------------------------ sanctions

const sanctionsList: DatasetKind = {
  maxSkippedShare: 0.01,
  async *items(bucket, def, files, issues, info) {
    const code = def.listCode as string;
    let entries: AsyncIterable<Parameters<typeof entryHash>[0]>;
    const dated = { dateGenerated: null as string | null, generated: null as string | null };
    const only = (name: string) => {
      const f = part(files, name);
      if (!f) throw unprocessable(`${def.name} needs its file (form field \`${name}\`)`);
      return objectText(bucket, f.key);
    };
    if (def.format === "un-xml") entries = unEntries(only("xml"), dated, issues);
    else if (def.format === "eu-xml") entries = euEntries(only("xml"), dated, issues);
    else if (def.format === "uk-xml") entries = ukEntries(only("xml"), dated, issues);
    else if (def.format === "csl-csv") entries = cslEntries(only("csv"), issues);
    else if (part(files, "advanced")) {
      if (files.length > 1)
        throw unprocessable(`Send ${def.name} as the advanced XML alone or as the CSV files, not both`);
      const issued = { dateOfIssue: null as string | null };
      entries = ofacAdvancedEntries(only("advanced"), issues, issued);
      for await (const e of entries) {
        info.publishedAt = issued.dateOfIssue;
        yield sanctionItem(code, e);
      }
      info.publishedAt = issued.dateOfIssue;
      return;
    } else {
      const primary = def.files[0]?.part as string;
      if (!part(files, primary))
        throw unprocessable(
          `${def.name} needs its ${primary}.csv (form field \`${primary}\`, with the aliases and addresses) or the advanced XML (field \`advanced\`)`,
        );
      const alt = part(files, def.files[1]?.part ?? "alt");
      const add = part(files, def.files[2]?.part ?? "add");
      entries = ofacEntries({
        sdn: only(primary),
        alt: alt ? objectText(bucket, alt.key) : undefined,
        add: add ? objectText(bucket, add.key) : undefined,
        issues,
      });
    }
    for await (const e of entries) {
      info.publishedAt = dated.dateGenerated ?? dated.generated;
      yield sanctionItem(code, e);
    }
    info.publishedAt = dated.dateGenerated ?? dated.generated;
  },
  async hashes(db, def, version) {
    const rows = await db
      .select({ id: sanctionEntries.id, hash: sanctionEntries.rowHash })
      .from(sanctionEntries)
      .where(and(eq(sanctionEntries.listCode, def.listCode as string), eq(sanctionEntries.listVersion, version)));
    return new Map(rows.map((r) => [r.id, r.hash]));
  },
  inserts(db, _def, version, items) {
    return [
      bulkInsert(
        db,
        sanctionEntries,
        items.map((i) => ({ ...(i.values as typeof sanctionEntries.$inferInsert), listVersion: version })),
      ),
    ];
  },
  finish(db, def, version, rows, source) {
    return [
      db
        .insert(sanctionLists)
        .values({ code: def.listCode as string, version, name: def.name, source, entryCount: rows })
        .onConflictDoUpdate({ target: [sanctionLists.code, sanctionLists.version], set: { entryCount: rows, source } }),
    ];
  },
  activation(db, _def, importedAt) {
    const active = sql`(SELECT l.code, l.version, l.source, l.entry_count FROM sanction_lists l
      JOIN dataset_versions v ON v.dataset = 'sanctions-' || lower(l.code) AND v.version = l.version
      WHERE v.status = 'active' ORDER BY l.code)`;
    return [
      db
        .insert(dataSources)
        .values({ dataset: "sanctions", version: "", source: "", importedAt, rowCount: 0 })
        .onConflictDoNothing(),
      db
        .update(dataSources)
        .set({
          version: sql`(SELECT group_concat(code || '-' || version, '.') FROM ${active})`,
          source: sql`(SELECT group_concat(code || ': ' || source, '; ') FROM ${active})`,
          importedAt,
          rowCount: sql`(SELECT coalesce(sum(entry_count), 0) FROM ${active})`,
        })
        .where(eq(dataSources.dataset, "sanctions")),
    ];
  },
  purge(db, def, versions) {
    const code = def.listCode as string;
    return [
      db
        .delete(sanctionEntries)
        .where(and(eq(sanctionEntries.listCode, code), inArray(sanctionEntries.listVersion, versions))),
      db.delete(sanctionLists).where(and(eq(sanctionLists.code, code), inArray(sanctionLists.version, versions))),
    ];
  },
};

function sanctionItem(code: string, e: Parameters<typeof entryHash>[0]): Item {
  const hash = entryHash(e);
  return {
    id: `${code}:${e.ref}`,
    hash,
    type: e.type,
    values: {
      id: `${code}:${e.ref}`,
      listCode: code,
      sourceRef: e.ref,
      name: e.name,
      altNames: JSON.stringify(e.alt_names),
      entryType: e.type,
      programs: JSON.stringify(e.programs),
      addresses: JSON.stringify(e.addresses),
      remarks: e.remarks,
      rowHash: hash,
    },
  };
}

// ---------------------------------------------------------------------------------------- restrictions

const iso2 = z.string().regex(/^[A-Z]{2}$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const phrases = z.array(z.string().trim().min(1).max(200)).min(1).max(2_000).nullable();

/** One rule of data/restrictions/rules.json: the registry refuses a rule set whose rule does not fit. */
const RuleFileRule = z
  .object({
    id: z.number().int().positive(),
    imposing_country: z.union([iso2, z.literal("EU")]),
    direction: z.enum(["IMPORT", "EXPORT"]),
    rule_type: z.enum(["prohibition", "restriction", "observation"]),
    hs_prefix: z
      .string()
      .regex(/^\d{2,10}$/)
      .nullable(),
    keywords: phrases,
    exclude_keywords: phrases,
    origin_country: iso2.nullable(),
    destination_countries: z.array(iso2).nullable(),
    except_countries: z.array(iso2).nullable(),
    title: z.string().trim().min(1).max(300),
    summary: z.string().trim().min(1).max(4_000),
    agency: z.string().max(200).nullable(),
    agency_flag: z.string().max(100).nullable(),
    requirement: z.enum(["required", "may_be_required"]).nullable(),
    source_url: z.url({ protocol: /^https$/ }),
    source_ref: z.string().trim().min(1).max(500),
    valid_from: isoDate.nullable(),
    valid_to: isoDate.nullable(),
    family: z.string().max(60).nullable(),
    reviewed_on: isoDate.nullable(),
  })
  .strict()
  .refine((r) => r.hs_prefix !== null || r.keywords !== null || r.origin_country !== null, {
    message: "a rule needs an hs_prefix, keywords or an origin_country to match on",
  });

const LexiconFile = z.object({
  description: z.string().optional(),
  contexts: z.record(z.string(), z.array(z.string())),
  concepts: z.record(z.string(), z.object({ terms: z.array(z.string()).min(1), exclude: z.array(z.string()) })),
});

const RULE_COLUMNS = [
  "imposingCountry",
  "direction",
  "ruleType",
  "hsPrefix",
  "keywords",
  "excludeKeywords",
  "originCountry",
  "destinationCountries",
  "exceptCountries",
  "title",
  "summary",
  "agency",
  "agencyFlag",
  "requirement",
  "sourceUrl",
  "sourceRef",
  "validFrom",
  "validTo",
  "family",
  "reviewedOn",
] as const;

const ruleSet: DatasetKind = {
  maxSkippedShare: 0,
  async *items(bucket, _def, files, issues, _info) {
    const rulesFile = part(files, "rules");
    if (!rulesFile) throw unprocessable("The rule set needs its rules file (form field `rules`)");
    const raw = await readJson(bucket, rulesFile, "rules.json");
    const lexiconFile = part(files, "lexicon");
    const lexiconRaw = lexiconFile
      ? await readJson(bucket, lexiconFile, "lexicon.json")
      : { contexts: {}, concepts: {} };
    const lexicon = LexiconFile.safeParse(lexiconRaw);
    if (!lexicon.success) throw unprocessable(`lexicon.json: ${lexicon.error.issues[0]?.message ?? "invalid"}`);
    if (!Array.isArray(raw)) throw unprocessable("rules.json must be a JSON array of rules");
    const rules: z.infer<typeof RuleFileRule>[] = [];
    raw.forEach((r, i) => {
      const parsed = RuleFileRule.safeParse(r);
      if (parsed.success) rules.push(parsed.data);
      else
        issues.push({
          record: i + 1,
          message: `rule ${(r as { id?: unknown })?.id ?? `#${i + 1}`}: ${parsed.error.issues.map((x) => `${x.path.join(".") || "rule"}: ${x.message}`).join("; ")}`,
        });
    });
    let expanded: typeof rules;
    try {
      expanded = expandRules(rules, lexicon.data as Lexicon);
    } catch (err) {
      throw unprocessable(`The rule set does not expand: ${(err as Error).message}`);
    }
    for (const r of expanded) {
      const values: Record<string, unknown> = { id: r.id };
      const wire = r as unknown as Record<string, unknown>;
      for (const c of RULE_COLUMNS) {
        const key = c.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
        const v = wire[key];
        values[c] = Array.isArray(v) ? JSON.stringify(v) : (v ?? null);
      }
      yield { id: String(r.id), hash: hash53(JSON.stringify(values)), type: r.rule_type, values };
    }
  },
  async hashes(db, _def, version) {
    const rows = await db.select().from(restrictionRules).where(eq(restrictionRules.version, version));
    return new Map(
      rows.map((r) => {
        const values: Record<string, unknown> = { id: r.id };
        for (const c of RULE_COLUMNS) values[c] = r[c] ?? null;
        return [String(r.id), hash53(JSON.stringify(values))];
      }),
    );
  },
  inserts(db, _def, version, items) {
    return [
      bulkInsert(
        db,
        restrictionRules,
        items.map((i) => ({ ...(i.values as typeof restrictionRules.$inferInsert), version })),
      ),
    ];
  },
  finish() {
    return [];
  },
  activation: singleSourceActivation,
  purge(db, _def, versions) {
    return [db.delete(restrictionRules).where(inArray(restrictionRules.version, versions))];
  },
};

// ------------------------------------------------------------------------------------------------- FX

const fxSeries: DatasetKind = {
  maxSkippedShare: 0.01,
  merges: true,
  async *items(bucket, _def, files, issues, info) {
    const file = part(files, "rates");
    if (!file) throw unprocessable("The FX dataset needs the ECB file (form field `rates`)");
    // The ECB publishes the same rates as CSV and as XML: the first character tells which this is.
    const text = objectText(bucket, file.key);
    const first = await text.next();
    const head = first.done ? "" : first.value;
    async function* again() {
      yield head;
      yield* text;
    }
    const rates = head.trimStart().startsWith("<") ? ecbXmlRates(again(), issues) : ecbCsvRates(again(), issues);
    for await (const r of rates) {
      if (!info.publishedAt || r.date > info.publishedAt) info.publishedAt = r.date;
      yield { id: `${r.currency}:${r.date}`, hash: r.rate, type: r.currency, values: { ...r } };
    }
  },
  async hashes(db, _def, version) {
    const rows = await db
      .select({ currency: fxRates.currency, date: fxRates.date, rate: fxRates.rate })
      .from(fxRates)
      .where(eq(fxRates.version, version));
    return new Map(rows.map((r) => [`${r.currency}:${r.date}`, r.rate]));
  },
  carryOver(db, version, previous) {
    return [
      db.insert(fxRates).select(sql`SELECT ${version}, currency, date, rate FROM fx_rates WHERE version = ${previous}`),
    ];
  },
  inserts(db, _def, version, items) {
    // A corrected rate in the file replaces the carried-over one. `WHERE true` resolves SQLite's parsing
    // ambiguity between an INSERT … SELECT and its ON CONFLICT clause.
    const payload = JSON.stringify(items.map((i) => [version, i.values.currency, i.values.date, i.values.rate]));
    return [
      db
        .insert(fxRates)
        .select(sql`SELECT value->>0, value->>1, value->>2, value->>3 FROM json_each(${payload}) WHERE true`)
        .onConflictDoUpdate({
          target: [fxRates.version, fxRates.currency, fxRates.date],
          set: { rate: sql`excluded.rate` },
        }),
    ];
  },
  finish() {
    return [];
  },
  activation: singleSourceActivation,
  purge(db, _def, versions) {
    return [db.delete(fxRates).where(inArray(fxRates.version, versions))];
  },
};

// ------------------------------------------------------------------------------------- customs FX

/**
 * A customs authority's own rates per period (HMRC's monthly rates): each upload adds its month to the
 * periods the active version holds, like the ECB series, in a table keyed by dataset so authorities never mix.
 */
const fxCustoms: DatasetKind = {
  maxSkippedShare: 0.01,
  merges: true,
  async *items(bucket, def, files, issues, info) {
    const file = part(files, "rates");
    if (!file) throw unprocessable(`The ${def.dataset} dataset needs the authority's file (form field \`rates\`)`);
    for await (const r of hmrcXmlRates(objectText(bucket, file.key), issues)) {
      if (!info.publishedAt || r.periodStart > info.publishedAt) info.publishedAt = r.periodStart;
      yield { id: `${r.currency}:${r.periodStart}`, hash: r.rate, type: r.currency, values: { ...r } };
    }
  },
  async hashes(db, def, version) {
    const rows = await db
      .select({ currency: fxCustomsRates.currency, start: fxCustomsRates.periodStart, rate: fxCustomsRates.rate })
      .from(fxCustomsRates)
      .where(and(eq(fxCustomsRates.dataset, def.dataset), eq(fxCustomsRates.version, version)));
    return new Map(rows.map((r) => [`${r.currency}:${r.start}`, r.rate]));
  },
  carryOver(db, version, previous, def) {
    return [
      db
        .insert(fxCustomsRates)
        .select(
          sql`SELECT dataset, ${version}, currency, period_start, period_end, rate FROM fx_customs_rates WHERE dataset = ${def.dataset} AND version = ${previous}`,
        ),
    ];
  },
  inserts(db, def, version, items) {
    const payload = JSON.stringify(
      items.map((i) => [
        def.dataset,
        version,
        i.values.currency,
        i.values.periodStart,
        i.values.periodEnd,
        i.values.rate,
      ]),
    );
    return [
      db
        .insert(fxCustomsRates)
        .select(
          sql`SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5 FROM json_each(${payload}) WHERE true`,
        )
        .onConflictDoUpdate({
          target: [fxCustomsRates.dataset, fxCustomsRates.version, fxCustomsRates.currency, fxCustomsRates.periodStart],
          set: { rate: sql`excluded.rate`, periodEnd: sql`excluded.period_end` },
        }),
    ];
  },
  finish() {
    return [];
  },
  activation: singleSourceActivation,
  purge(db, def, versions) {
    return [
      db
        .delete(fxCustomsRates)
        .where(and(eq(fxCustomsRates.dataset, def.dataset), inArray(fxCustomsRates.version, versions))),
    ];
  },
};

/** The dataset's data_sources row follows its active registry row (one dataset, one row). */
export function singleSourceActivation(db: Db, def: UploadableDataset, importedAt: string): Statement[] {
  const active = sql`(SELECT version, source, rows FROM dataset_versions WHERE dataset = ${def.dataset} AND status = 'active')`;
  return [
    db
      .insert(dataSources)
      .values({ dataset: def.dataset, version: "", source: "", importedAt, rowCount: 0 })
      .onConflictDoNothing(),
    db
      .update(dataSources)
      .set({
        version: sql`(SELECT version FROM ${active})`,
        source: sql`(SELECT source FROM ${active})`,
        importedAt,
        rowCount: sql`(SELECT rows FROM ${active})`,
      })
      .where(eq(dataSources.dataset, def.dataset)),
  ];
}

export const KINDS: Record<UploadableDataset["kind"], DatasetKind> = {
  "sanctions-list": sanctionsList,
  "reference-tables": referenceTables,
  "rule-set": ruleSet,
  "fx-series": fxSeries,
  "fx-customs": fxCustoms,
};
