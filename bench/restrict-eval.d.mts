export interface EvalRow {
  title: string;
  destination: string;
  want: string[];
  got: string[];
  ok: boolean;
  note: string;
}
export interface EvalResult {
  cases: number;
  expected: number;
  found: number;
  recall: number;
  clean: number;
  falsePositives: number;
  rows: EvalRow[];
}
export declare function evaluate(
  evalSet: unknown,
  rules: unknown,
  call: (method: string, path: string, body: unknown) => Promise<{ status: number; json: any }>,
): Promise<EvalResult>;
export declare function toMarkdown(r: EvalResult): string;
