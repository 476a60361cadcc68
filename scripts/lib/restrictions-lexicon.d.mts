export declare function expandRules<
  T extends { id: number; keywords: string[] | null; exclude_keywords: string[] | null },
>(
  rules: T[],
  lexicon: { contexts: Record<string, string[]>; concepts: Record<string, { terms: string[]; exclude: string[] }> },
): T[];
