/**
 * Expansion of the shared vocabulary (data/restrictions/lexicon.json) into rule keywords. Pure (no file
 * access), so the loader, the dataset registry's upload of a new rule set and the rule-file test run the same
 * code.
 */

/** A rule as the rule file holds it: keyword lists may name `@concept`s. */
export interface LexiconRule {
  id: number;
  keywords: string[] | null;
  exclude_keywords: string[] | null;
}

export interface Lexicon {
  contexts: Record<string, string[]>;
  concepts: Record<string, { terms: string[]; exclude: string[] }>;
}

/** `fresh {apple|apples}` → `fresh apple`, `fresh apples`: one brace group per term, for word families. */
const alternatives = (term: string): string[] => {
  const m = /\{([^}]*)\}/.exec(term);
  if (!m) return [term];
  return (m[1] as string)
    .split("|")
    .flatMap((alt) => alternatives(term.slice(0, m.index) + alt + term.slice(m.index + m[0].length)));
};

/**
 * Replaces `@concept` keywords with the concept's terms and adds its exclusions; `@context` inside an
 * exclusion list expands to that context's patterns. Unknown names throw, so a typo cannot silently turn a
 * rule into one that never matches. A term may hold one or more `{a|b}` groups. Duplicates are dropped, order
 * kept.
 */
export function expandRules<R extends LexiconRule>(rules: R[], lexicon: Lexicon): R[] {
  const excludes = (list: string[], where: string) =>
    list.flatMap((x) => {
      if (!x.startsWith("@")) return [x];
      const ctx = lexicon.contexts[x.slice(1)];
      if (!ctx) throw new Error(`${where}: unknown context ${x}`);
      return ctx;
    });
  return rules.map((r) => {
    if (!r.keywords) return r;
    const keywords: string[] = [];
    const exclude: string[] = [];
    for (const k of r.keywords) {
      if (!k.startsWith("@")) {
        keywords.push(k);
        continue;
      }
      const concept = lexicon.concepts[k.slice(1)];
      if (!concept) throw new Error(`rule ${r.id}: unknown concept ${k}`);
      keywords.push(...concept.terms.flatMap(alternatives));
      exclude.push(...excludes(concept.exclude, `concept ${k}`));
    }
    exclude.push(...excludes(r.exclude_keywords ?? [], `rule ${r.id}`));
    return {
      ...r,
      keywords: [...new Set(keywords)],
      exclude_keywords: exclude.length ? [...new Set(exclude)] : null,
    };
  });
}
