export declare const root: string;
export declare const dataDir: string;
export declare function sqlValue(v: unknown): string;
export declare function insertStatements(
  table: string,
  columns: string[],
  rows: unknown[][],
  maxBytes?: number,
): string[];
export interface DatasetModule {
  dataset: string;
  version: string;
  source: string;
  tables: string[];
  rows(opts: { fixture: boolean }): Promise<Record<string, { columns: string[]; rows: unknown[][] }>>;
}
export declare function datasetStatements(
  mod: DatasetModule,
  opts?: { fixture?: boolean; importedAt?: string },
): Promise<string[]>;
export declare function loadDatasetModules(): Promise<DatasetModule[]>;
