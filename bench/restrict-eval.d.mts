export interface EvalRow {
  split: "dev" | "test";
  /** "late": written after the rules were frozen and scored once. */
  batch: string | null;
  destination: string;
  family: string | null;
  title: string;
  expect: string | null;
  got: string | null;
  ids: string[];
  caught: boolean | null;
  rightLabel: boolean | null;
  falseFlag: boolean | null;
}
export interface Score {
  restricted: number;
  caught: number;
  right: number;
  recall: number;
  label: number;
  clean: number;
  flagged: number;
  falseFlagRate: number;
}
export interface EvalCase {
  destination_country: string;
  origin_country?: string;
  item: Record<string, string>;
  expect: string | null;
  family: string | null;
  split: "dev" | "test";
  batch?: string;
}
export declare function evaluate(
  evalSet: { cases: readonly EvalCase[] },
  rules: unknown[],
  check: (c: EvalCase) => Promise<{ id: string; rule_type: string }[]>,
): Promise<EvalRow[]>;
export declare function score(rows: EvalRow[]): Score;
export declare function toMarkdown(rows: EvalRow[]): string;
