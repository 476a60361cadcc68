/**
 * The reference-table kind of dataset: the HS nomenclature (`hs`), VAT (`vat`), the customs rules
 * (`customs_rules`: de minimis, fees, excise) and a national tariff schedule (`tariffs-us`: the USITC tariff
 * database). Their live tables have no
 * version column (the engines read them as they stand), so a version is staged beside them, in
 * `dataset_staged_rows` (one JSON array per row), and activation swaps it in: one D1 batch deletes the live
 * rows in the dataset's scope (every row, or one schedule's) and copies the staged ones over with an
 * INSERT … SELECT. D1 runs a batch as one transaction, so a reader sees the old rows or the new ones, never
 * a mix or an empty table.
 *
 * The live tables are always the active version: the diff of an upload reads them, and before a swap the
 * version being replaced is copied into staging when it is not there yet (a version loaded with the
 * deployment), so a rollback finds it.
 */
import { and, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { bulkInsert } from "../../db/bulk";
import {
  calcDeMinimis,
  calcDestinationRules,
  calcExcise,
  calcFees,
  calcTariffLines,
  calcVatRates,
  calcVatReduced,
  datasetStagedRows,
  hsNomenclature as hsNomenclatureTable,
} from "../../db/schema/index";
import { hsNomenclature } from "../../engines/datasets/hs";
import {
  customsTables,
  DE_MINIMIS_COLUMNS,
  DESTINATION_RULE_COLUMNS,
  EXCISE_COLUMNS,
  FEE_COLUMNS,
  REDUCED_COLUMNS,
  type TableRows,
  VAT_RATE_COLUMNS,
  vatTables,
} from "../../engines/datasets/reference";
import type { ParseIssue } from "../../engines/datasets/sanctions";
import { hash53 } from "../../engines/datasets/sanctions";
import { usitcLines } from "../../engines/datasets/usitc";
import { unprocessable } from "../../lib/errors";
import type { UploadableDataset } from "./catalogue";
import { objectText, part, readJson } from "./files";
import { type DatasetKind, type Item, type SourceFile, type Statement, singleSourceActivation } from "./kinds";

interface LiveTable {
  name: string;
  table: SQLiteTable;
  /** The columns a version sets, in the order of its staged rows (an autoincrement id is left to SQLite). */
  columns: readonly string[];
  /** Columns that identify a row for the diff against the active version. */
  key: readonly string[];
  /** Only these rows of the table belong to the dataset (one schedule of the tariff lines). */
  scope?: { column: string; value: string };
}

interface TableDataset {
  tables: LiveTable[];
  /** The version's rows per live table, from its stored files. */
  read(
    bucket: R2Bucket,
    def: UploadableDataset,
    files: SourceFile[],
    issues: ParseIssue[],
  ): AsyncIterable<[string, unknown[]]>;
}

const TARIFF_LINE_COLUMNS = [
  "schedule",
  "code",
  "valid_from",
  "valid_to",
  "description",
  "q1",
  "q2",
  "currency",
  "mfn_text",
  "mfn",
  "col2_text",
  "col2",
  "special_text",
  "special",
] as const;

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

async function* fromTables(tables: Record<string, TableRows>, layout: LiveTable[]): AsyncIterable<[string, unknown[]]> {
  for (const t of layout) {
    const rows = tables[t.name];
    if (!rows) continue;
    if (rows.columns.join(",") !== t.columns.join(",")) throw new Error(`${t.name}: columns differ from the table's`);
    for (const r of rows.rows) yield [t.name, r];
  }
}

/** A curated JSON file of the version, required or optional. */
async function jsonPart(bucket: R2Bucket, def: UploadableDataset, files: SourceFile[], name: string) {
  const file = part(files, name);
  const spec = def.files.find((f) => f.part === name);
  if (!file) {
    if (spec?.required) throw unprocessable(`${def.name} needs its file (form field \`${name}\`)`);
    return undefined;
  }
  return readJson(bucket, file, spec?.description.split(":")[0] ?? name);
}

const TABLE_DATASETS: Record<string, TableDataset> = {
  hs: {
    // The nomenclature only: the national lines, the vocabulary and the precedents stay as loaded.
    tables: [
      {
        name: "hs_nomenclature",
        table: hsNomenclatureTable,
        columns: ["code", "parent", "section", "description"],
        key: ["code"],
      },
    ],
    async *read(bucket, def, files, issues) {
      const file = part(files, "csv");
      if (!file) throw unprocessable(`${def.name} needs its file (form field \`csv\`)`);
      for (const row of await hsNomenclature(objectText(bucket, file.key), issues)) yield ["hs_nomenclature", row];
    },
  },
  vat: {
    tables: [
      {
        name: "calc_vat_rates",
        table: calcVatRates,
        columns: VAT_RATE_COLUMNS,
        key: ["country", "region", "valid_from"],
      },
      {
        name: "calc_vat_reduced",
        table: calcVatReduced,
        columns: REDUCED_COLUMNS,
        key: ["country", "category", "hs_prefix", "valid_from"],
      },
      {
        name: "calc_destination_rules",
        table: calcDestinationRules,
        columns: DESTINATION_RULE_COLUMNS,
        key: ["country"],
      },
    ],
    async *read(bucket, def, files, issues) {
      const tables = vatTables(
        {
          rates: await jsonPart(bucket, def, files, "rates"),
          rules: await jsonPart(bucket, def, files, "rules"),
          reduced: await jsonPart(bucket, def, files, "reduced"),
          curated: await jsonPart(bucket, def, files, "curated"),
        },
        issues,
      );
      yield* fromTables(tables, this.tables);
    },
  },
  customs_rules: {
    tables: [
      {
        name: "calc_de_minimis",
        table: calcDeMinimis,
        columns: DE_MINIMIS_COLUMNS,
        key: ["country", "kind", "channel", "origins", "valid_from"],
      },
      {
        name: "calc_fees",
        table: calcFees,
        columns: FEE_COLUMNS,
        key: ["country", "code", "entry_type", "transport_mode", "valid_from"],
      },
      {
        name: "calc_excise",
        table: calcExcise,
        columns: EXCISE_COLUMNS,
        key: ["country", "code", "hs_prefix", "abv_over", "abv_min", "valid_from"],
      },
    ],
    async *read(bucket, def, files, issues) {
      const tables = customsTables(
        {
          de_minimis: await jsonPart(bucket, def, files, "de_minimis"),
          fees: await jsonPart(bucket, def, files, "fees"),
          excise: await jsonPart(bucket, def, files, "excise"),
        },
        issues,
      );
      yield* fromTables(tables, this.tables);
    },
  },
  "tariffs-us": {
    tables: [
      {
        name: "calc_tariff_lines",
        table: calcTariffLines,
        columns: TARIFF_LINE_COLUMNS,
        key: ["code", "valid_from"],
        scope: { column: "schedule", value: "US" },
      },
    ],
    async *read(bucket, def, files, issues) {
      const file = part(files, "tariff");
      if (!file) throw unprocessable(`${def.name} needs its file (form field \`tariff\`)`);
      for await (const l of usitcLines(objectText(bucket, file.key), issues))
        yield [
          "calc_tariff_lines",
          [
            "US",
            l.code,
            l.validFrom,
            l.validTo,
            l.description,
            l.q1,
            l.q2,
            "USD",
            l.mfnText,
            json(l.mfn),
            l.col2Text,
            json(l.col2),
            l.specialText,
            json(l.special),
          ],
        ];
    },
  },
};

function layout(def: UploadableDataset): TableDataset {
  const t = TABLE_DATASETS[def.dataset];
  if (!t) throw new Error(`${def.dataset} has no table layout`);
  return t;
}

/** Values as the live table gives them back: booleans are 0/1 in SQLite. */
const stored = (values: unknown[]) => values.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));

const rowId = (t: LiveTable, values: unknown[]) =>
  `${t.name}:${JSON.stringify(t.key.map((k) => values[t.columns.indexOf(k)] ?? null))}`;

const scopeOf = (t: LiveTable): SQL =>
  t.scope ? sql`${sql.identifier(t.scope.column)} = ${t.scope.value}` : sql`1 = 1`;

const columnList = (t: LiveTable) =>
  sql.join(
    t.columns.map((c) => sql.identifier(c)),
    sql`, `,
  );

export const referenceTables: DatasetKind = {
  // A rate table is refused whole on one row that does not read: a skipped line would quote as "no rate".
  maxSkippedShare: 0,
  async *items(bucket, def, files, issues) {
    const dataset = layout(def);
    const byName = new Map(dataset.tables.map((t) => [t.name, t]));
    let seq = 0;
    for await (const [name, raw] of dataset.read(bucket, def, files, issues)) {
      const t = byName.get(name) as LiveTable;
      const values = stored(raw);
      seq++;
      yield {
        id: rowId(t, values),
        hash: hash53(JSON.stringify(values)),
        type: name,
        values: { tbl: name, seq, row: JSON.stringify(values) },
      } satisfies Item;
    }
  },
  async hashes(db, def) {
    // The live tables are the active version.
    const out = new Map<string, string>();
    for (const t of layout(def).tables) {
      const rows = await db.values<unknown[]>(
        sql`SELECT ${columnList(t)} FROM ${sql.identifier(t.name)} WHERE ${scopeOf(t)}`,
      );
      for (const values of rows) out.set(rowId(t, values), hash53(JSON.stringify(values)));
    }
    return out;
  },
  inserts(db, def, version, items) {
    return [
      bulkInsert(
        db,
        datasetStagedRows,
        items.map((i) => ({
          dataset: def.dataset,
          version,
          tbl: i.values.tbl as string,
          seq: i.values.seq as number,
          row: i.values.row as string,
        })),
      ),
    ];
  },
  finish() {
    return [];
  },
  beforeActivation(db, def) {
    // The outgoing version's rows, when only the live tables hold them (loaded with the deployment).
    return layout(def).tables.map((t) =>
      db.insert(datasetStagedRows).select(
        sql`SELECT ${def.dataset}, v.version, ${t.name}, t.rowid, json_array(${columnList(t)})
          FROM ${sql.identifier(t.name)} t,
               (SELECT version FROM dataset_versions WHERE dataset = ${def.dataset} AND status = 'active') v
          WHERE ${scopeOf(t)} AND NOT EXISTS (SELECT 1 FROM dataset_staged_rows s
            WHERE s.dataset = ${def.dataset} AND s.version = v.version AND s.tbl = ${t.name})`,
      ),
    );
  },
  activation(db, def, importedAt) {
    const swap = layout(def).tables.flatMap((t) => {
      // drizzle's INSERT … SELECT names every column of the table in its declared order: an autoincrement id
      // gets NULL (SQLite numbers it), every other column its place in the staged row.
      const picks = Object.values(getTableColumns(t.table)).map((c) => {
        const i = t.columns.indexOf(c.name);
        return sql.raw(i < 0 ? "NULL" : `json_extract(row, '$[${i}]')`);
      });
      return [
        db.delete(t.table).where(scopeOf(t)),
        db.insert(t.table).select(
          sql`SELECT ${sql.join(picks, sql`, `)} FROM dataset_staged_rows
            WHERE dataset = ${def.dataset} AND tbl = ${t.name}
              AND version = (SELECT version FROM dataset_versions WHERE dataset = ${def.dataset} AND status = 'active')
            ORDER BY seq`,
        ),
      ];
    });
    return [...swap, ...singleSourceActivation(db, def, importedAt)] as Statement[];
  },
  purge(db, def, versions) {
    return [
      db
        .delete(datasetStagedRows)
        .where(and(eq(datasetStagedRows.dataset, def.dataset), inArray(datasetStagedRows.version, versions))),
    ];
  },
};
