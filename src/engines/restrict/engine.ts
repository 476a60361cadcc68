/**
 * The restricted-goods matcher: a pure core with no bindings. Rules are compiled once into per-jurisdiction
 * indexes (HS prefix maps, a token trie for keywords and phrases, an origin map), so checking an item costs a
 * handful of map lookups and one pass over its words, never a scan of all rules.
 *
 * Matching (the spec's confidence levels):
 *  - HS prefix rule: the item's code starts with the rule's prefix → HIGH; the item's code is shallower than
 *    the prefix and the prefix starts with it (the rule may apply, depending on the full code) → MEDIUM.
 *  - keyword rule: a keyword or phrase occurs as whole words in title, description, materials, category or
 *    brand after normalization → MEDIUM. Phrases never span two fields.
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
  /** Phrases that, where they cover a keyword occurrence, stop it counting ("ivory coloured", "faux ivory"). */
  excludeKeywords?: string[] | null;
  originCountry: string | null;
  /** EXPORT rules limited to these destinations; null = any destination. */
  destinationCountries: string[] | null;
  title: string;
  summary: string;
  agency: string | null;
  agencyFlag: string | null;
  requirement: Requirement;
  sourceUrl: string | null;
  sourceRef: string | null;
  validFrom: string | null;
  validTo: string | null;
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
  next: Map<string, TrieNode>;
  /** Keyword rules whose phrase ends here. */
  rules: Rule[];
  /** Rules for which the phrase ending here is an exclusion. */
  excludes: Rule[];
}

interface Bucket {
  /** Rule prefix → rules. */
  prefix: Map<string, Rule[]>;
  /** Every shallower code (4+ digits) under which a rule prefix sits → rules, for MEDIUM matches. */
  deeper: Map<string, Rule[]>;
  keywords: TrieNode;
  /** Origin-only rules by origin. */
  origin: Map<string, Rule[]>;
}

export interface RuleIndex {
  buckets: Map<string, Bucket>;
  ruleCount: number;
}

const MIN_ITEM_DIGITS = 4;
const newNode = (): TrieNode => ({ next: new Map(), rules: [], excludes: [] });
const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};
const bucketKey = (direction: Direction, jurisdiction: string) => `${direction}:${jurisdiction}`;

/** Compiles rules into per-jurisdiction indexes. Pure; callers cache the result per data version. */
export function compileRules(rules: readonly Rule[]): RuleIndex {
  const buckets = new Map<string, Bucket>();
  for (const rule of rules) {
    const key = bucketKey(rule.direction, rule.imposingCountry);
    let b = buckets.get(key);
    if (!b) {
      b = { prefix: new Map(), deeper: new Map(), keywords: newNode(), origin: new Map() };
      buckets.set(key, b);
    }
    if (rule.hsPrefix) {
      push(b.prefix, rule.hsPrefix, rule);
      for (let len = MIN_ITEM_DIGITS; len < rule.hsPrefix.length; len++)
        push(b.deeper, rule.hsPrefix.slice(0, len), rule);
    } else if (rule.keywords?.length) {
      for (const keyword of rule.keywords) {
        const node = insertPhrase(b.keywords, keyword);
        if (node && !node.rules.includes(rule)) node.rules.push(rule);
      }
      for (const phrase of rule.excludeKeywords ?? []) {
        const node = insertPhrase(b.keywords, phrase);
        if (node && !node.excludes.includes(rule)) node.excludes.push(rule);
      }
    } else if (rule.originCountry) {
      push(b.origin, rule.originCountry, rule);
    }
  }
  return { buckets, ruleCount: rules.length };
}

function insertPhrase(root: TrieNode, phrase: string): TrieNode | null {
  const words = tokens(phrase);
  if (!words.length) return null;
  let node = root;
  for (const w of words) {
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
function keywordMatches(root: TrieNode, words: readonly string[]): Set<Rule> {
  const hits: { rule: Rule; start: number; end: number }[] = [];
  let excluded: { rule: Rule; start: number; end: number }[] | undefined;
  for (const [i, first] of words.entries()) {
    let node = root.next.get(first);
    for (let k = i + 1; node; k++) {
      for (const r of node.rules) hits.push({ rule: r, start: i, end: k });
      if (node.excludes.length) {
        excluded ??= [];
        for (const r of node.excludes) excluded.push({ rule: r, start: i, end: k });
      }
      const next = words[k];
      if (next === undefined) break;
      node = node.next.get(next);
    }
  }
  const out = new Set<Rule>();
  for (const h of hits) {
    if (out.has(h.rule)) continue;
    const covered = excluded?.some((x) => x.rule === h.rule && x.start <= h.start && x.end >= h.end);
    if (!covered) out.add(h.rule);
  }
  return out;
}

/** The jurisdictions whose rules a country applies: itself, and the Union for EU member states. */
export function jurisdictions(country: string): string[] {
  return EU_MEMBERS.has(country) ? [country, "EU"] : [country];
}

/** Countries with at least one IMPORT rule in the index (EU rules count for every member state). */
export function importCountries(index: RuleIndex): Set<string> {
  const out = new Set<string>();
  for (const key of index.buckets.keys()) {
    if (!key.startsWith("IMPORT:")) continue;
    const j = key.slice("IMPORT:".length);
    if (j === "EU") for (const m of EU_MEMBERS) out.add(m);
    else out.add(j);
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
    const prev = found.get(rule);
    if (!prev || (prev.confidence === "MEDIUM" && confidence === "HIGH")) found.set(rule, { confidence, country });
  };

  const scopes: [Direction, string][] = [["IMPORT", query.destination]];
  if (query.origin) scopes.push(["EXPORT", query.origin]);

  for (const [direction, country] of scopes) {
    for (const j of jurisdictions(country)) {
      for (const index of indexes) {
        const b = index.buckets.get(bucketKey(direction, j));
        if (!b) continue;
        if (hs) {
          for (let len = 2; len <= hs.length; len++) {
            const rules = b.prefix.get(hs.slice(0, len));
            if (rules) for (const r of rules) consider(r, "HIGH", country);
          }
          const deeper = b.deeper.get(hs);
          if (deeper) for (const r of deeper) consider(r, "MEDIUM", country);
        }
        if (b.keywords.next.size) {
          words ??= itemWords(item);
          for (const r of keywordMatches(b.keywords, words)) consider(r, "MEDIUM", country);
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
