/**
 * The restricted-goods matcher: a pure core with no bindings. Rules are compiled once into per-jurisdiction
 * indexes (HS prefix maps, a token trie for keywords and phrases, an origin map), so checking an item costs a
 * handful of map lookups and one pass over its words, never a scan of all rules.
 *
 * Matching (the spec's confidence levels):
 *  - HS prefix rule: the item's code starts with the rule's prefix → HIGH; the item's code is shallower than
 *    the prefix and the prefix starts with it (the rule may apply, depending on the full code) → MEDIUM.
 *  - keyword rule: a keyword or phrase occurs as whole words in title, description, materials, category or
 *    brand after normalization → MEDIUM. Phrases never span two fields. A rule may carry both an HS prefix
 *    and keywords: either matches, so an item sent under a plausible but different heading is still caught
 *    by its words.
 *  - exclusions keep everyday goods clean: an exclusion phrase cancels a keyword occurrence it covers
 *    ("ivory coloured"), and the patterns `word *` and `* word` cancel an occurrence preceded or followed by
 *    that word: a modifier that makes it something else ("artificial plant", "toy gun") or a compound head
 *    noun that makes the keyword a mere qualifier ("cheese grater", "cigar box", "meat thermometer").
 *  - origin rule (an origin and no other matcher): the item's country_of_origin is that origin → HIGH. An
 *    origin on an HS or keyword rule narrows it to goods of that origin.
 * A rule applies while `valid_from <= as_of` and `as_of <= valid_to` (both optional, inclusive dates).
 */
import { EU_MEMBERS } from "../../lib/iso";
import { tokens } from "./text";

type Direction = "IMPORT" | "EXPORT";
type RuleType = "prohibition" | "restriction" | "observation";
type Requirement = "required" | "may_be_required" | null;
type Confidence = "HIGH" | "MEDIUM";

export interface Rule {
  /** Wire id: `restriction_<n>` or `org_rule_<n>`. */
  id: string;
  source: "platform" | "org";
  /** ISO alpha-2, or `EU` for a Union-wide rule that every member state applies. */
  imposingCountry: string;
  direction: Direction;
  ruleType: RuleType;
  hsPrefix: string | null;
  keywords: string[] | null;
  /**
   * Phrases that, where they cover a keyword occurrence, stop it counting ("ivory coloured", "faux ivory");
   * `word *` / `* word` cancel an occurrence right after / right before `word`.
   */
  excludeKeywords?: string[] | null;
  originCountry: string | null;
  /** EXPORT rules limited to these destinations; null = any destination. */
  destinationCountries: string[] | null;
  /** Member states where a Union rule does not apply (a derogation, e.g. snus in Sweden); null = none. */
  exceptCountries?: string[] | null;
  title: string;
  summary: string;
  agency: string | null;
  agencyFlag: string | null;
  requirement: Requirement;
  sourceUrl: string | null;
  sourceRef: string | null;
  validFrom: string | null;
  validTo: string | null;
  /** The kind of goods (food_animal, weapons, …) for coverage reporting; null for organization rules. */
  family?: string | null;
  /** ISO date this rule was last checked against its source. */
  reviewedOn?: string | null;
}

export interface ItemInput {
  hs_code?: string | null | undefined;
  country_of_origin?: string | null | undefined;
  title?: string | null | undefined;
  description?: string | null | undefined;
  materials?: string | null | undefined;
  category?: string | null | undefined;
  brand?: string | null | undefined;
}

export interface Match {
  id: string;
  source: "platform" | "org";
  hs_code: string | null;
  imposing_country_code: string;
  measure_direction: Direction;
  rule_type: RuleType;
  title: string;
  summary: string;
  agency: string | null;
  agency_flag: string | null;
  requirement: Requirement;
  source_url: string | null;
  source_ref: string | null;
  confidence: Confidence;
}

export interface CheckQuery {
  destination: string;
  origin: string | null;
  /** `YYYY-MM-DD`: rules are resolved as of this date. */
  asOf: string;
}

interface TrieNode {
  /** Absent on a leaf: most nodes are leaves, and a Map each would dominate the compile's allocations. */
  next: Map<string, TrieNode> | null;
  /** Keyword rules whose phrase ends here (the shared empty list until one does). */
  rules: Rule[];
  /** Rules for which the phrase ending here is an exclusion (likewise). */
  excludes: Rule[];
}

interface Bucket {
  /** Rule prefix → rules. */
  prefix: Map<string, Rule[]>;
  /** Every shallower code (4+ digits) under which a rule prefix sits → rules, for MEDIUM matches. */
  deeper: Map<string, Rule[]>;
  /** Whether any rule of the bucket has keywords; `trie()` builds their trie on first use. */
  hasKeywords: boolean;
  trie: () => TrieNode;
  /** Origin-only rules by origin. */
  origin: Map<string, Rule[]>;
}

/**
 * Word sequences that cancel a rule's keyword occurrence when they stand right before / right after it,
 * keyed by the word next to the occurrence so the check is one map lookup in the common case.
 */
interface Context {
  before: Map<string, string[][]>;
  after: Map<string, string[][]>;
}

export interface RuleIndex {
  /** The `DIRECTION:jurisdiction` buckets that hold at least one rule. */
  bucketKeys: ReadonlySet<string>;
  /** A bucket's compiled matchers, built on its first use (see compileRules). */
  bucket(key: string): Bucket | undefined;
  /** Rules with `word *` / `* word` exclusions (filled as their buckets compile). */
  context: Map<Rule, Context>;
  ruleCount: number;
}

const MIN_ITEM_DIGITS = 4;
const NONE: Rule[] = [];
const newNode = (): TrieNode => ({ next: null, rules: NONE, excludes: NONE });
const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};
const bucketKey = (direction: Direction, jurisdiction: string) => `${direction}:${jurisdiction}`;

/**
 * Groups rules into per-jurisdiction buckets, each compiled into its indexes on first use. Pure; callers
 * cache the result per data version. Lazy because a check reads one or two of the forty-odd buckets, and
 * compiling every keyword trie up front (about 11,000 phrases) was most of a cold isolate's first check.
 */
export function compileRules(rules: readonly Rule[]): RuleIndex {
  const grouped = new Map<string, Rule[]>();
  for (const rule of rules) push(grouped, bucketKey(rule.direction, rule.imposingCountry), rule);
  const compiled = new Map<string, Bucket>();
  const context = new Map<Rule, Context>();
  // Shared vocabularies repeat the same phrases across many rules and buckets: normalize each once.
  const seen = new Map<string, string[]>();
  const tokensOf = (phrase: string) => {
    const known = seen.get(phrase);
    if (known) return known;
    const fresh = tokens(phrase);
    seen.set(phrase, fresh);
    return fresh;
  };
  return {
    bucketKeys: new Set(grouped.keys()),
    context,
    ruleCount: rules.length,
    bucket(key) {
      let b = compiled.get(key);
      if (b) return b;
      const members = grouped.get(key);
      if (!members) return undefined;
      b = compileBucket(members, context, tokensOf);
      compiled.set(key, b);
      return b;
    },
  };
}

/**
 * A bucket's code and origin maps at once; its keyword trie when an item with words first needs it (a quote's
 * warnings check codes and origins only, and should not pay for a thousand phrases).
 */
function compileBucket(
  rules: readonly Rule[],
  context: Map<Rule, Context>,
  tokensOf: (phrase: string) => string[],
): Bucket {
  let trie: TrieNode | undefined;
  const b: Bucket = {
    prefix: new Map(),
    deeper: new Map(),
    hasKeywords: rules.some((r) => r.keywords?.length),
    trie: () => {
      trie ??= compileTrie(rules, context, tokensOf);
      return trie;
    },
    origin: new Map(),
  };
  for (const rule of rules) {
    if (rule.hsPrefix) {
      push(b.prefix, rule.hsPrefix, rule);
      for (let len = MIN_ITEM_DIGITS; len < rule.hsPrefix.length; len++)
        push(b.deeper, rule.hsPrefix.slice(0, len), rule);
    }
    if (!rule.hsPrefix && !rule.keywords?.length && rule.originCountry) push(b.origin, rule.originCountry, rule);
  }
  return b;
}

function compileTrie(
  rules: readonly Rule[],
  context: Map<Rule, Context>,
  tokensOf: (phrase: string) => string[],
): TrieNode {
  const root = newNode();
  for (const rule of rules) {
    if (rule.keywords?.length) {
      for (const keyword of rule.keywords) {
        const node = insertPhrase(root, tokensOf(keyword));
        if (node && !node.rules.includes(rule)) node.rules = added(node.rules, rule);
      }
      for (const phrase of rule.excludeKeywords ?? []) {
        const side = phrase.startsWith("* ") ? "after" : phrase.endsWith(" *") ? "before" : null;
        if (side) {
          const seq = tokensOf(phrase);
          const next = side === "after" ? seq[0] : seq[seq.length - 1];
          if (next === undefined) continue;
          let c = context.get(rule);
          if (!c) {
            c = { before: new Map(), after: new Map() };
            context.set(rule, c);
          }
          push(c[side], next, seq);
          continue;
        }
        const node = insertPhrase(root, tokensOf(phrase));
        if (node && !node.excludes.includes(rule)) node.excludes = added(node.excludes, rule);
      }
    }
  }
  return root;
}

/** `list` with `rule` appended; the shared empty list is replaced, never written to. */
function added(list: Rule[], rule: Rule): Rule[] {
  if (list === NONE) return [rule];
  list.push(rule);
  return list;
}

function insertPhrase(root: TrieNode, words: readonly string[]): TrieNode | null {
  if (!words.length) return null;
  let node = root;
  for (const w of words) {
    node.next ??= new Map();
    let child = node.next.get(w);
    if (!child) {
      child = newNode();
      node.next.set(w, child);
    }
    node = child;
  }
  return node;
}

/**
 * Keyword rules that match `words`: every phrase occurrence found by walking the trie from each position,
 * minus occurrences covered by one of the same rule's exclusion phrases.
 */
function keywordMatches(root: TrieNode, words: readonly string[], context: Map<Rule, Context>): Set<Rule> {
  const hits: { rule: Rule; start: number; end: number }[] = [];
  let excluded: { rule: Rule; start: number; end: number }[] | undefined;
  for (const [i, first] of words.entries()) {
    let node = root.next?.get(first);
    for (let k = i + 1; node; k++) {
      for (const r of node.rules) hits.push({ rule: r, start: i, end: k });
      if (node.excludes.length) {
        excluded ??= [];
        for (const r of node.excludes) excluded.push({ rule: r, start: i, end: k });
      }
      const next = words[k];
      if (next === undefined || !node.next) break;
      node = node.next.get(next);
    }
  }
  const out = new Set<Rule>();
  for (const h of hits) {
    if (out.has(h.rule)) continue;
    const covered = excluded?.some((x) => x.rule === h.rule && x.start <= h.start && x.end >= h.end);
    if (covered) continue;
    const c = context.size ? context.get(h.rule) : undefined;
    if (c && (cancelledBefore(c, words, h.start) || cancelledAfter(c, words, h.end))) continue;
    out.add(h.rule);
  }
  return out;
}

/** Whether `seq` stands in `words` from `at` on (never across a field separator: it is never in a pattern). */
const standsAt = (words: readonly string[], seq: readonly string[], at: number) =>
  at >= 0 && seq.every((w, k) => words[at + k] === w);

/**
 * A modifier cancels the noun phrase it opens, so it may stand right before the keyword or one word earlier
 * ("artificial succulent plants"); the field separator stops the look-back at the start of a field.
 */
function cancelledBefore(c: Context, words: readonly string[], start: number): boolean {
  for (const end of [start - 1, start - 2]) {
    const w = words[end];
    if (w === undefined || w === "\u0000") return false;
    for (const seq of c.before.get(w) ?? []) if (standsAt(words, seq, end - seq.length + 1)) return true;
  }
  return false;
}

/**
 * A compound head right after the keyword, or one word later, cancels it: the last noun of an English
 * compound names the thing ("cheese grater", "beef jerky seasoning", "wine bottle opener").
 */
function cancelledAfter(c: Context, words: readonly string[], end: number): boolean {
  for (const at of [end, end + 1]) {
    const w = words[at];
    if (w === undefined || w === "\u0000") return false;
    for (const seq of c.after.get(w) ?? []) if (standsAt(words, seq, at)) return true;
  }
  return false;
}

/** The jurisdictions whose rules a country applies: itself, and the Union for EU member states. */
export function jurisdictions(country: string): string[] {
  return EU_MEMBERS.has(country) ? [country, "EU"] : [country];
}

/** Countries with at least one IMPORT rule in the index (EU rules count for every member state). */
export function importCountries(index: RuleIndex): Set<string> {
  const out = new Set<string>();
  for (const key of index.bucketKeys) {
    if (!key.startsWith("IMPORT:")) continue;
    const j = key.slice("IMPORT:".length);
    if (j === "EU") for (const m of EU_MEMBERS) out.add(m);
    else out.add(j);
  }
  return out;
}

export interface Coverage {
  /** Import rules the destination's checks run (its own and, for EU members, the Union's). */
  rule_count: number;
  /** Of those, rules by kind of goods. */
  families: Record<string, number>;
  /** The most recent date any of those rules was checked against its source. */
  last_reviewed: string | null;
}

/**
 * Coverage per importing destination, EU rules counted for every member state. Rules in force `asOf`
 * only, so a lapsed rule never makes a destination look covered.
 */
export function coverageByDestination(rules: readonly Rule[], asOf: string): Map<string, Coverage> {
  const own = new Map<string, Rule[]>();
  for (const r of rules) if (r.direction === "IMPORT" && inForce(r, asOf)) push(own, r.imposingCountry, r);
  const out = new Map<string, Coverage>();
  const countries = new Set([...own.keys()].filter((c) => c !== "EU"));
  if (own.has("EU")) for (const m of EU_MEMBERS) countries.add(m);
  for (const country of countries) {
    const applied = jurisdictions(country)
      .flatMap((j) => own.get(j) ?? [])
      .filter((r) => !r.exceptCountries?.includes(country));
    const families: Record<string, number> = {};
    let last: string | null = null;
    for (const r of applied) {
      const f = r.family ?? "other";
      families[f] = (families[f] ?? 0) + 1;
      if (r.reviewedOn && (!last || r.reviewedOn > last)) last = r.reviewedOn;
    }
    out.set(country, { rule_count: applied.length, families, last_reviewed: last });
  }
  return out;
}

const inForce = (rule: Rule, asOf: string) =>
  (!rule.validFrom || rule.validFrom <= asOf) && (!rule.validTo || asOf <= rule.validTo);

const TYPE_ORDER: Record<RuleType, number> = { prohibition: 0, restriction: 1, observation: 2 };

/**
 * Checks one item against the rules of every index that applies: the destination's IMPORT rules and, when
 * an origin country is given, its EXPORT rules. Returns the matches (one per rule, the most confident way it
 * matched), prohibitions first.
 */
export function checkItem(indexes: readonly RuleIndex[], query: CheckQuery, item: ItemInput): Match[] {
  const found = new Map<Rule, { confidence: Confidence; country: string }>();
  const itemOrigin = item.country_of_origin ?? null;
  const hs = item.hs_code ? item.hs_code.replace(/[^0-9]/g, "") : "";
  let words: string[] | undefined;

  const consider = (rule: Rule, confidence: Confidence, country: string) => {
    if (!inForce(rule, query.asOf)) return;
    if (rule.originCountry && rule.originCountry !== itemOrigin) return;
    if (rule.destinationCountries && !rule.destinationCountries.includes(query.destination)) return;
    if (rule.exceptCountries?.includes(country)) return;
    const prev = found.get(rule);
    if (!prev || (prev.confidence === "MEDIUM" && confidence === "HIGH")) found.set(rule, { confidence, country });
  };

  const scopes: [Direction, string][] = [["IMPORT", query.destination]];
  if (query.origin) scopes.push(["EXPORT", query.origin]);

  for (const [direction, country] of scopes) {
    for (const j of jurisdictions(country)) {
      for (const index of indexes) {
        const b = index.bucket(bucketKey(direction, j));
        if (!b) continue;
        if (hs) {
          for (let len = 2; len <= hs.length; len++) {
            const rules = b.prefix.get(hs.slice(0, len));
            if (rules) for (const r of rules) consider(r, "HIGH", country);
          }
          const deeper = b.deeper.get(hs);
          if (deeper) for (const r of deeper) consider(r, "MEDIUM", country);
        }
        if (b.hasKeywords) {
          words ??= itemWords(item);
          if (words.length)
            for (const r of keywordMatches(b.trie(), words, index.context)) consider(r, "MEDIUM", country);
        }
        if (itemOrigin) {
          const rules = b.origin.get(itemOrigin);
          if (rules) for (const r of rules) consider(r, "HIGH", country);
        }
      }
    }
  }

  const matches = [...found].map(([rule, m]) => toMatch(rule, m.confidence, m.country));
  matches.sort(
    (a, b) =>
      TYPE_ORDER[a.rule_type] - TYPE_ORDER[b.rule_type] ||
      (a.confidence === b.confidence ? 0 : a.confidence === "HIGH" ? -1 : 1) ||
      (a.source === b.source ? 0 : a.source === "platform" ? -1 : 1) ||
      idNumber(a.id) - idNumber(b.id),
  );
  return matches;
}

/** The `<n>` of `restriction_<n>` / `org_rule_<n>` (ordering without a locale-aware compare on the hot path). */
const idNumber = (id: string) => Number(id.slice(id.lastIndexOf("_") + 1)) || 0;

/** The words of the item's text fields, with a separator between fields so phrases never span two of them. */
function itemWords(item: ItemInput): string[] {
  const out: string[] = [];
  for (const field of [item.title, item.description, item.materials, item.category, item.brand]) {
    if (!field) continue;
    if (out.length) out.push("\u0000");
    for (const w of tokens(field)) out.push(w);
  }
  return out;
}

function toMatch(rule: Rule, confidence: Confidence, country: string): Match {
  return {
    id: rule.id,
    source: rule.source,
    hs_code: rule.hsPrefix,
    // A Union-wide rule is reported as the member state's: that is where it was applied.
    imposing_country_code: rule.imposingCountry === "EU" ? country : rule.imposingCountry,
    measure_direction: rule.direction,
    rule_type: rule.ruleType,
    title: rule.title,
    summary: rule.summary,
    agency: rule.agency,
    agency_flag: rule.agencyFlag,
    requirement: rule.requirement,
    source_url: rule.sourceUrl,
    source_ref: rule.sourceRef,
    confidence,
  };
}
