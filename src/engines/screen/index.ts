/**
 * The screening engine: an in-memory index over every listed name and alias, built once per data version,
 * and the search that uses it. Pure: no bindings, no I/O.
 *
 * Candidate generation never scans the list. Query tokens are looked up by transliteration key in a
 * token → names index; tokens with typos find their neighbours through a character-trigram index over the
 * token vocabulary (verified by edit distance); joined and split words are looked up as such. Candidates
 * whose best possible score is below the threshold are dropped before scoring (the pruning step in `search`);
 * the rest are scored with `scoreTokens` (score.ts).
 */
import { lowQualityAliases } from "../../lib/low-quality-aliases";
import { HashedKeys, StringTable } from "../../lib/string-table";
import {
  abjadExplanation,
  abjadMatch,
  isArabicScript,
  joinedReadings,
  joinSkeletons,
  nameSkeletons,
  nameWords,
  type SkeletonWord,
} from "./abjad";
import {
  hangulSurnameForms,
  hanName,
  hyphenGroups,
  koreanReadings,
  latinizations,
  normalizeName,
  tokenClass,
  tokenKey,
  tokens,
} from "./normalize";
import {
  allowedEdits,
  EVIDENCE_SIM,
  type Explanation,
  explainTokens,
  INITIAL_SIM,
  KEY_EQUAL_SIM,
  listedVariants,
  respelt,
  scoreTokens,
  skeleton,
  type Tok,
  tokenSim,
  toks,
  transcribedNames,
} from "./score";

export type EntryType = "individual" | "entity" | "vessel" | "aircraft" | "unknown";
export const ENTRY_TYPES: readonly EntryType[] = ["individual", "entity", "vessel", "aircraft", "unknown"];

export interface ListedEntry {
  id: string;
  listCode: string;
  entryType: EntryType;
}

export interface IndexInput {
  id: string;
  listCode: string;
  entryType: EntryType;
  name: string;
  altNames: readonly string[];
  /**
   * Free-text remarks; identifiers the list writes there (vessel IMO numbers) are indexed for exact lookup, and
   * so are its low-quality aliases (lib/low-quality-aliases.ts), matched only as written, at WEAK_ALIAS_SCORE.
   */
  remarks?: string | null | undefined;
}

/** IMO ship numbers: seven digits, as OFAC and the UN write them in remarks ("IMO 7406784"). */
const IMO_IN_REMARKS = /\bIMO\s*(\d{7})\b/gi;
const IMO_IN_QUERY = /(?:\bIMO\s*(?:NO\.?|NUMBER)?\s*:?\s*)?\b(\d{7})\b/gi;

/**
 * Other identifiers the lists write in remarks, one per `;`-separated segment: a label that names a document
 * or a register ("Passport", "National ID No.", "Tax ID No.", "Registration Number", "SWIFT/BIC", "C.U.R.P.",
 * "NIT #"…), the value, and often the issuing country in brackets ("Passport 1084010 (Egypt)").
 */
const ID_LABEL =
  /\b(passport|pasaporte|passeport|id|no\.?|number|n[uú]mero|num[eé]ro|#|cedula|c\.u\.r\.p\.|swift|bic|code|license|licence|registration|registry|register|certificate|card|v\.a\.t\.|vat|folio|c\.r\.|credencial|cartilla|permit|nit|ruc|rfc|r\.f\.c\.|d\.n\.i\.|uscc|lei)\b/i;
/** Not identifiers even when followed by a number: dates, ages, positions, vessel particulars. */
const NOT_ID_LABEL =
  /\b(dob|born|birth date|age|tonnage|grt|call sign|flag|title|listed on|gender|nationality|phone|fax|telephone|website|email)\b/i;

/** An identifier's value as compared: letters and digits only, upper case. */
const idValue = (raw: string) => raw.toUpperCase().replace(/[^A-Z0-9]/g, "");

/**
 * Whether a normalized value is specific enough to identify: at least 5 characters with 3 digits, or a
 * SWIFT/BIC code (8 or 11 characters) when the label says so. Short or all-letter values would meet names.
 */
function identifying(value: string, label: string): boolean {
  const bic = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value);
  if (/swift|bic/i.test(label)) return bic;
  const digits = value.match(/\d/g)?.length ?? 0;
  // A bare BIC-shaped token with a digit in it is no name (names carry no digits): taken without its label.
  return (value.length >= 5 && digits >= 3) || (bic && digits >= 1);
}

/** The labelled identifiers of a text ("Passport 1084010 (Egypt); Tax ID No. 7706107510 (Russia)"). */
function identifiersIn(text: string): { key: string; display: string }[] {
  const out: { key: string; display: string }[] = [];
  for (const segment of text.split(/;|\n/)) {
    // The value is the trailing run of tokens that hold a digit ("265 216", "800018928-0"), or, after a
    // SWIFT/BIC label, the last token; the label is what comes before it.
    const words = segment
      .trim()
      .replace(/\s*\([^)]*\)\.?$/, "")
      .replace(/\.$/, "")
      .split(/\s+/);
    let cut = words.length;
    while (cut > 1 && /\d/.test(words[cut - 1] as string)) cut--;
    if (cut === words.length && /swift|bic/i.test(words.slice(0, -1).join(" "))) cut = words.length - 1;
    if (cut === words.length || cut === 0) continue;
    const label = words.slice(0, cut).join(" ");
    const raw = words.slice(cut).join(" ");
    if (!ID_LABEL.test(label) || NOT_ID_LABEL.test(label) || /\bIMO\b/i.test(label)) continue;
    const value = idValue(raw);
    if (identifying(value, label)) out.push({ key: `ID ${value}`, display: `${label} ${raw}` });
  }
  return out;
}

export interface Hit {
  /** Position of the entry in the index's input. */
  entry: number;
  score: number;
  /** The listed name or alias that scored best. */
  matchedName: string;
  /** Which query produced the best score. */
  query: "name" | "company";
  /** Aligned words, unmatched words and the features that fired, so a false positive can be cleared fast. */
  explanation: Explanation;
}

const THRESHOLD = 0.7;
/**
 * The score of a query written exactly as a low-quality alias: a name to review (over 0.7), never a likely match
 * (under 0.85), since the lists mark these aliases too generic to identify anyone alone ("Abu Mohammed").
 */
const WEAK_ALIAS_SCORE = 0.75;
const MAX_MATCHES = 20;

/** Smallest query coverage that can still reach the threshold: harmonic(c, 1) ≥ 0.7 ⇔ c ≥ 0.7 / 1.3. */
const PRUNE_COVERAGE = THRESHOLD / (2 - THRESHOLD) - 1e-9;

const trigrams = (key: string): string[] => {
  const s = `^${key}$`;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return [...out];
};

interface Neighbours {
  ids: Int32Array;
  sims: Float64Array;
}

const NEIGHBOUR_CACHE_SIZE = 20_000;
/**
 * Edits tolerated when looking up candidates (scoring itself allows up to 3 in long words): two per word,
 * one per joined pair. Wider lookups cost far more (a long key with 3 edits shares almost no trigrams with
 * its neighbours, so nearly every key would have to be verified) for almost no recall.
 */
const CANDIDATE_EDITS = 2;
const JOINED_CANDIDATE_EDITS = 1;

interface QueryUnit {
  keys: Neighbours[];
  weight: number;
  generates: boolean;
}

/** Listed keys reached with similarity 1 (the halves of a split token). */
const ones = (ids: number[]): Neighbours => ({ ids: Int32Array.from(ids), sims: new Float64Array(ids.length).fill(1) });

/**
 * What the index is made of: every listed spelling (names, aliases and their latinizations) with its
 * normalized words, the exact-match keys, the identifiers of the remarks, and the lookup tables over the
 * words' transliteration keys, all as flat arrays. Making it is the build (normalizing and latinizing every
 * name); the index itself only wraps it, so a stored snapshot of the parts is restored without that work.
 */
export interface IndexParts {
  /** Per entry: its id, its list (a position in `listCodes`) and its type (a position in ENTRY_TYPES). */
  entryIds: StringTable;
  entryList: Uint8Array;
  entryType: Uint8Array;
  listCodes: string[];
  /** Per name: the entry it belongs to, and its text as listed. */
  nameEntry: IdArray;
  nameText: StringTable;
  /**
   * Names from here on are low-quality aliases: in the exact keys only (no word postings, so no loose match),
   * and an exact match on one scores WEAK_ALIAS_SCORE.
   */
  weakFrom: number;
  /** The distinct normalized words; a name's words are `nameTokIds[nameTokStart[n] .. nameTokStart[n + 1]]`. */
  norms: StringTable;
  nameTokStart: Int32Array;
  nameTokIds: IdArray;
  /**
   * Normalized full name → name ids (`exactIds[exactStart[i] .. exactStart[i + 1]]`), in first-seen order. Keyed
   * by hash alone: a candidate is confirmed against the normalized text of its first name, which is its key.
   */
  exact: HashedKeys;
  exactStart: Int32Array;
  exactIds: IdArray;
  /** Transliteration keys (first seen first), each word's key id, and per key the names holding it. */
  keys: StringTable;
  normKey: IdArray;
  postingStart: Int32Array;
  postingIds: IdArray;
  /** Trigram → key ids (keys of 3+ characters), and first letter + consonant skeleton → key ids. */
  grams: StringTable;
  gramStart: Int32Array;
  gramIds: IdArray;
  skeletons: StringTable;
  skeletonStart: Int32Array;
  skeletonIds: IdArray;
  /**
   * Identifier key → entries (`identifierIds[identifierStart[i] .. identifierStart[i + 1]]`), and beside each
   * entry how it writes the identifier ("Passport 1084010" for `ID 1084010`), empty when as the key.
   */
  identifiers: StringTable;
  identifierStart: Int32Array;
  identifierIds: IdArray;
  identifierShown: StringTable;
}

/** The identifiers the entries' remarks give (IMO numbers, documents), each with the entries and how they write it. */
function remarkIdentifiers(input: readonly IndexInput[]) {
  const identifiers = new Map<string, number[]>();
  const identifierDisplay = new Map<string, string>();
  input.forEach((e, entryIdx) => {
    const file = (key: string, display: string) => {
      const l = identifiers.get(key);
      if (!l) identifiers.set(key, [entryIdx]);
      else if (!l.includes(entryIdx)) l.push(entryIdx);
      identifierDisplay.set(`${key}#${entryIdx}`, display);
    };
    for (const m of (e.remarks ?? "").matchAll(IMO_IN_REMARKS)) file(`IMO ${m[1]}`, `IMO ${m[1]}`);
    for (const id of identifiersIn(e.remarks ?? "")) file(id.key, id.display);
  });
  return { identifiers, identifierDisplay };
}

function indexParts(input: readonly IndexInput[]): IndexParts {
  const { identifiers, identifierDisplay } = remarkIdentifiers(input);
  const exact = new Map<string, number[]>();
  const nameEntry: number[] = [];
  const nameText: string[] = [];
  const normIds = new Map<string, number>();
  const norms: string[] = [];
  const nameTokStart: number[] = [0];
  const nameTokIds: number[] = [];
  /** One listed spelling: its entry, text, word ids (in scoring order) and exact key. */
  const addName = (entryIdx: number, text: string, words: readonly string[], full: string) => {
    const nameId = nameEntry.length;
    nameEntry.push(entryIdx);
    nameText.push(text);
    for (const t of words) {
      let id = normIds.get(t);
      if (id === undefined) {
        id = norms.length;
        normIds.set(t, id);
        norms.push(t);
      }
      nameTokIds.push(id);
    }
    nameTokStart.push(nameTokIds.length);
    const ex = exact.get(full);
    if (ex) ex.push(nameId);
    else exact.set(full, [nameId]);
  };
  input.forEach((e, entryIdx) => {
    const seen = new Set<string>();
    // Names in another script are also indexed in Latin letters, so a Latin query finds an entry the list
    // gives only in Cyrillic, Greek, Hebrew, CJK or Hangul (and a query in those scripts, latinized, finds
    // the Latin names).
    const spellings = [e.name, ...e.altNames];
    for (const text of [e.name, ...e.altNames]) spellings.push(...latinizations(text));
    for (const text of spellings) {
      const norm = tokens(text);
      const full = norm.join(" ");
      // "LAST, First Middle" (OFAC's form for people) is scored in natural order, First Middle LAST, so
      // that a name typed as people write it aligns without a reorder and joins where it should.
      const comma = e.entryType === "individual" ? text.split(",") : [];
      const [last, first] = comma;
      const ordered =
        comma.length === 2 && last !== undefined && first !== undefined ? [...tokens(first), ...tokens(last)] : norm;
      if (!full || seen.has(full)) continue;
      seen.add(full);
      addName(entryIdx, text, ordered, full);
    }
  });
  // Low-quality aliases last, as written (no reordering, no latinization): exact keys only.
  const weakFrom = nameEntry.length;
  input.forEach((e, entryIdx) => {
    const seen = new Set<string>();
    for (const text of lowQualityAliases(e.remarks)) {
      const norm = tokens(text);
      const full = norm.join(" ");
      // Only an alias with a word of its own: "Abu Mohammed", "Chairman" name nobody in particular.
      if (!full || seen.has(full) || !toks(norm).some((t) => t.cls === "distinctive" && !t.common)) continue;
      seen.add(full);
      addName(entryIdx, text, norm, full);
    }
  });
  const starts = Int32Array.from(nameTokStart);
  const wordIds = compactIds(nameTokIds, norms.length);
  const listCodes = [...new Set(input.map((e) => e.listCode))];
  const exactLists = flat(exact, nameEntry.length);
  const identifierLists = flat(identifiers, input.length);
  return {
    entryIds: StringTable.of(
      input.map((e) => e.id),
      { searchable: false },
    ),
    entryList: Uint8Array.from(input, (e) => listCodes.indexOf(e.listCode)),
    entryType: Uint8Array.from(input, (e) => ENTRY_TYPES.indexOf(e.entryType)),
    listCodes,
    nameEntry: compactIds(nameEntry, input.length),
    nameText: StringTable.of(nameText, { searchable: false }),
    weakFrom,
    norms: StringTable.of(norms, { searchable: false }),
    nameTokStart: starts,
    nameTokIds: wordIds,
    exact: HashedKeys.of(exactLists.keys),
    exactStart: exactLists.start,
    exactIds: exactLists.ids,
    identifiers: StringTable.of(identifierLists.keys),
    identifierStart: identifierLists.start,
    identifierIds: identifierLists.ids,
    identifierShown: StringTable.of(
      identifierLists.keys.flatMap((key) =>
        (identifiers.get(key) ?? []).map((entry) => {
          const shown = identifierDisplay.get(`${key}#${entry}`) ?? key;
          return shown === key ? "" : shown;
        }),
      ),
      { searchable: false },
    ),
    // The word postings cover the strong names only: a low-quality alias is never a loose candidate.
    ...keyTables(norms, starts.subarray(0, weakFrom + 1), wordIds),
  };
}

/**
 * The lookup tables over the words' transliteration keys: key ids in order of first appearance over the
 * names, per key the names holding it (each name once), and the trigram and skeleton indexes over the keys.
 */
function keyTables(
  norms: readonly string[],
  nameTokStart: Int32Array,
  nameTokIds: IdArray,
): Pick<
  IndexParts,
  | "keys"
  | "normKey"
  | "postingStart"
  | "postingIds"
  | "grams"
  | "gramStart"
  | "gramIds"
  | "skeletons"
  | "skeletonStart"
  | "skeletonIds"
> {
  // Key ids in order of first appearance over the names; per key the names holding it, each name once.
  const keyIds = new Map<string, number>();
  const keys: string[] = [];
  const normKey = Int32Array.from(norms, (norm) => {
    const key = tokenKey(norm);
    let id = keyIds.get(key);
    if (id === undefined) {
      id = keys.length;
      keyIds.set(key, id);
      keys.push(key);
    }
    return id;
  });
  const order = new Int32Array(keys.length).fill(-1);
  const renumbered: string[] = [];
  const perName: number[][] = [];
  for (let nameId = 0; nameId + 1 < nameTokStart.length; nameId++) {
    const held: number[] = [];
    for (let i = nameTokStart[nameId] as number; i < (nameTokStart[nameId + 1] as number); i++) {
      const k = normKey[nameTokIds[i] as number] as number;
      if (order[k] === -1) {
        order[k] = renumbered.length;
        renumbered.push(keys[k] as string);
      }
      const id = order[k] as number;
      if (!held.includes(id)) held.push(id);
    }
    perName.push(held);
  }
  // Keys only the low-quality aliases hold (outside `nameTokStart`) come last, with no postings, trigrams or
  // skeletons: the exact match reads those aliases' words, nothing else reaches them.
  const searchable = renumbered.length;
  order.forEach((o, k) => {
    if (o !== -1) return;
    order[k] = renumbered.length;
    renumbered.push(keys[k] as string);
  });
  const postings = lists(
    renumbered.length,
    perName.flatMap((held, nameId) => held.map((k) => [k, nameId] as const)),
    perName.length,
  );
  const gramsOf = new Map<string, number[]>();
  const skeletonsOf = new Map<string, number[]>();
  renumbered.forEach((k, id) => {
    if (id >= searchable) return;
    if (k.length >= 3) for (const g of trigrams(k)) getOrPush(gramsOf, g, id);
    const sk = k[0] + skeleton(k);
    if (sk.length >= 4) getOrPush(skeletonsOf, sk, id);
  });
  const grams = flat(gramsOf, renumbered.length);
  const skeletons = flat(skeletonsOf, renumbered.length);
  return {
    keys: StringTable.of(renumbered),
    normKey: compactIds(
      Int32Array.from(normKey, (k) => order[k] as number),
      renumbered.length,
    ),
    postingStart: postings.start,
    postingIds: postings.ids,
    grams: StringTable.of(grams.keys),
    gramStart: grams.start,
    gramIds: grams.ids,
    skeletons: StringTable.of(skeletons.keys),
    skeletonStart: skeletons.start,
    skeletonIds: skeletons.ids,
  };
}

function getOrPush<K>(map: Map<K, number[]>, key: K, value: number): void {
  const l = map.get(key);
  if (l) l.push(value);
  else map.set(key, [value]);
}

/**
 * Ids below `bound` (names, words, keys, entries): two bytes each while they fit, as every id of the bundled
 * lists does, else four. The stored index is read whole by a cold isolate, so its size is time.
 */
export type IdArray = Int32Array | Uint16Array;
const idArray = (length: number, bound: number): IdArray =>
  bound <= 0x10000 ? new Uint16Array(length) : new Int32Array(length);
function compactIds(values: ArrayLike<number>, bound: number): IdArray {
  const out = idArray(values.length, bound);
  out.set(values);
  return out;
}

/** `[slot, value]` pairs as one flat list per slot: `ids[start[s] .. start[s + 1]]`, in pair order. */
function lists(
  slots: number,
  pairs: readonly (readonly [number, number])[],
  bound: number,
): { start: Int32Array; ids: IdArray } {
  const start = new Int32Array(slots + 1);
  for (const [slot] of pairs) start[slot + 1] = (start[slot + 1] as number) + 1;
  for (let i = 0; i < slots; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const fill = start.slice(0, slots);
  const ids = idArray(pairs.length, bound);
  for (const [slot, value] of pairs) {
    const at = fill[slot] as number;
    ids[at] = value;
    fill[slot] = at + 1;
  }
  return { start, ids };
}

/** A multimap as its keys (in map order) and flat lists. */
function flat(map: Map<string, number[]>, bound: number): { keys: string[]; start: Int32Array; ids: IdArray } {
  const keys = [...map.keys()];
  const { start, ids } = lists(
    keys.length,
    keys.flatMap((k, slot) => (map.get(k) ?? []).map((v) => [slot, v] as const)),
    bound,
  );
  return { keys, start, ids };
}

export class ScreenIndex {
  private entryList: readonly ListedEntry[] | undefined;
  /** Per name: owning entry, raw text, tokens (made on first use from the word ids). */
  private readonly nameEntry: IdArray;
  private readonly nameText: StringTable;
  private readonly nameToks: (Tok[] | undefined)[];
  private readonly surnameAt: Int32Array;
  /** Per distinct word, its token (made on first use). */
  private readonly normToks: (Tok | undefined)[];
  /**
   * Token keys; the names holding key k are `parts.postingIds[postingStart[k] .. postingStart[k + 1]]`. The
   * other lookups (exact names, trigrams, skeletons, identifiers) are string tables of the parts too: stored as
   * typed arrays, so a restored index is ready without parsing or filling a Map.
   */
  private readonly keys: StringTable;
  /** Scratch space for a search (searches are synchronous, so one set per index is enough). */
  private readonly acc: Float64Array;
  private readonly stamp: Int32Array;
  private stampNo = 0;
  private readonly lastUnit: Int32Array;
  private readonly unitGain: Float64Array;
  private readonly strongHit: Uint8Array;
  private unitNo = 0;
  private readonly gramCount: Int32Array;
  private readonly gramSeen: Int32Array;
  private gramNo = 0;
  private readonly neighbourCache = new Map<string, Neighbours>();
  /** Work done by the last search: names reached through the index, and names actually scored. */
  lastStats = { candidates: 0, scored: 0 };

  /** What the index was made from: kept so it can be stored (snapshot.ts) and restored without the lists. */
  readonly parts: IndexParts;

  private constructor(parts: IndexParts) {
    this.parts = parts;
    this.nameEntry = parts.nameEntry;
    this.nameText = parts.nameText;
    this.nameToks = new Array<Tok[] | undefined>(parts.nameText.length);
    this.surnameAt = new Int32Array(parts.nameText.length).fill(-2);
    this.normToks = new Array<Tok | undefined>(parts.norms.length);
    this.keys = parts.keys;
    const names = parts.nameText.length;
    this.acc = new Float64Array(names);
    this.stamp = new Int32Array(names);
    this.lastUnit = new Int32Array(names);
    this.unitGain = new Float64Array(names);
    this.strongHit = new Uint8Array(names);
    this.gramCount = new Int32Array(this.keys.length);
    this.gramSeen = new Int32Array(this.keys.length);
  }

  static build(input: readonly IndexInput[]): ScreenIndex {
    return new ScreenIndex(indexParts(input));
  }

  /** The index again from stored parts (snapshot.ts): the same lookup tables, so the same answers. */
  static fromParts(parts: IndexParts): ScreenIndex {
    return new ScreenIndex(parts);
  }

  /** Every listed entry (made on first read, for tools and tests; a request reads the few it needs by `entry`). */
  get entries(): readonly ListedEntry[] {
    this.entryList ??= Array.from({ length: this.parts.entryIds.length }, (_, i) => this.entry(i) as ListedEntry);
    return this.entryList;
  }

  /** Listed entry `i`, made from the stored parts when asked. */
  entry(i: number): ListedEntry | undefined {
    const id = this.parts.entryIds.at(i);
    const type = this.entryTypeOf(i);
    const listCode = this.parts.listCodes[this.parts.entryList[i] ?? -1];
    return id === undefined || type === undefined || listCode === undefined
      ? undefined
      : { id, listCode, entryType: type };
  }

  /** An entry's type, without making the entries. */
  entryTypeOf(entry: number): EntryType | undefined {
    const t = this.parts.entryType[entry];
    return t === undefined ? undefined : ENTRY_TYPES[t];
  }

  /** The name ids of a flat list in `table` (`start`/`ids`) under `key`, or none. */
  private listOf(table: StringTable, start: Int32Array, ids: IdArray, key: string): IdArray | undefined {
    const slot = table.find(key);
    return slot < 0 ? undefined : ids.subarray(start[slot], start[slot + 1]);
  }

  /**
   * Entries carrying an identifier written in `text`: an IMO number (with or without the "IMO" prefix), or a
   * passport, national id, tax id, register number or SWIFT/BIC the list gives in its remarks.
   */
  identifierHits(text: string): { entry: number; identifier: string }[] {
    const out: { entry: number; identifier: string }[] = [];
    for (const m of text.matchAll(IMO_IN_QUERY)) this.pushIdentifier(out, `IMO ${m[1]}`);
    // Other identifiers: as labelled in the query ("Passport 265 216"), or a bare token specific enough to
    // identify ("7706107510"); either is looked up by its normalized value, whatever label the list used.
    const keys = new Set(identifiersIn(text).map((i) => i.key));
    for (const token of text.split(/[\s,;]+/)) {
      const value = idValue(token);
      if (identifying(value, "")) keys.add(`ID ${value}`);
    }
    for (const key of keys) this.pushIdentifier(out, key);
    return out;
  }

  /** The entries carrying identifier `key`, each with the identifier as it writes it. */
  private pushIdentifier(out: { entry: number; identifier: string }[], key: string): void {
    const { identifiers, identifierStart, identifierIds, identifierShown } = this.parts;
    const slot = identifiers.find(key);
    if (slot < 0) return;
    for (let j = identifierStart[slot] as number; j < (identifierStart[slot + 1] as number); j++)
      out.push({ entry: identifierIds[j] as number, identifier: identifierShown.at(j) || key });
  }

  /**
   * Where a person's surname begins in the name's natural-order tokens, when the list marks it with a comma ("LAST,
   * First Middle" puts it last), else -1; worked out on first use.
   */
  private surnameStart(nameId: number): number {
    let at = this.surnameAt[nameId] ?? -1;
    if (at === -2) {
      at = -1;
      const text = this.nameText.at(nameId) ?? "";
      const parts = text.split(",");
      if (this.entryTypeOf(this.nameEntry[nameId] ?? -1) === "individual" && parts.length === 2) {
        const surname = tokens(parts[0] ?? "").length;
        const total = this.toksOf(nameId).length;
        if (surname > 0 && surname < total) at = total - surname;
      }
      this.surnameAt[nameId] = at;
    }
    return at;
  }

  /** A name's tokens (natural order), made from the word ids on first use. */
  private toksOf(nameId: number): Tok[] {
    let ts = this.nameToks[nameId];
    if (!ts) {
      const { nameTokStart: start, nameTokIds: ids, norms } = this.parts;
      ts = [];
      for (let i = start[nameId] ?? 0; i < (start[nameId + 1] ?? 0); i++) {
        const n = ids[i] as number;
        let tok = this.normToks[n];
        if (!tok) {
          tok = toks([norms.at(n) as string])[0] as Tok;
          this.normToks[n] = tok;
        }
        ts.push(tok);
      }
      this.nameToks[nameId] = ts;
    }
    return ts;
  }

  get nameCount(): number {
    return this.nameEntry.length;
  }

  /** Every listed name's words with their consonant skeletons (abjad.ts), and skeleton → names; made on first use. */
  private abjad: { words: (SkeletonWord[] | undefined)[]; postings: Map<string, number[]> } | undefined;

  /**
   * Listed names whose consonant skeletons align with an Arabic-script query's (abjad.ts): the Latin names the
   * lists give, and their Arabic-script names spelled another way. The best per entry, with its explanation.
   */
  abjadSearch(
    text: string,
    allow: (entry: number) => boolean,
  ): Map<number, { score: number; name: number; explain: () => Explanation }> {
    const out = new Map<number, { score: number; name: number; explain: () => Explanation }>();
    const queryWords = nameSkeletons(text);
    const query = queryWords.map((w) => w.variants);
    if (query.length < 2) return out;
    this.abjad ??= this.buildAbjad();
    const { words, postings } = this.abjad;
    // Every query word must be matched, alone or joined with a neighbour: a name that can match holds the
    // rarest word's skeleton (or a join with it), so only those names are compared.
    const keysAt = (i: number) => {
      const own = query[i] ?? [];
      const keys = new Set([
        ...own,
        ...(i > 0 ? joinedReadings(query[i - 1] ?? [], own) : []),
        ...(i + 1 < query.length ? joinedReadings(own, query[i + 1] ?? []) : []),
      ]);
      return [...keys].map((k) => postings.get(k) ?? []).filter((l) => l.length > 0);
    };
    let rarest: number[][] = [];
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < query.length; i++) {
      const lists = keysAt(i);
      const size = lists.reduce((n, l) => n + l.length, 0);
      if (size < fewest) [rarest, fewest] = [lists, size];
    }
    const candidates = new Set<number>(rarest.flat());
    for (const name of [...candidates].sort((a, b) => a - b)) {
      const entry = this.nameEntry[name] ?? -1;
      const listed = words[name];
      if (!listed || !allow(entry)) continue;
      const match = abjadMatch(
        query,
        listed.map((w) => w.skeleton),
      );
      if (match && match.score > (out.get(entry)?.score ?? 0))
        out.set(entry, { score: match.score, name, explain: () => abjadExplanation(queryWords, listed, match) });
    }
    return out;
  }

  private buildAbjad(): { words: (SkeletonWord[] | undefined)[]; postings: Map<string, number[]> } {
    const { nameTokStart: start, nameTokIds: ids, norms, weakFrom } = this.parts;
    const words: (SkeletonWord[] | undefined)[] = [];
    const postings = new Map<string, number[]>();
    for (let n = 0; n < weakFrom; n++) {
      const raw: string[] = [];
      for (let i = start[n] ?? 0; i < (start[n + 1] ?? 0); i++) raw.push(norms.at(ids[i] as number) as string);
      const ws = nameWords(raw);
      if (ws.length === 0) continue;
      words[n] = ws;
      const s = ws.map((w) => w.skeleton);
      for (const key of new Set([...s, ...s.slice(1).map((w, i) => joinSkeletons(s[i] ?? "", w))])) {
        const list = postings.get(key);
        if (list) list.push(n);
        else postings.set(key, [n]);
      }
    }
    return { words, postings };
  }

  get vocabularySize(): number {
    return this.keys.length;
  }

  /**
   * Key ids within edit distance of `key` (the key itself included), through the trigram index, with the
   * best similarity a token of that key can have with the query token. Memoized per isolate: common query
   * tokens recur across requests.
   */
  private neighbours(key: string, edits: number): Neighbours {
    const cacheKey = `${edits}:${key}`;
    const hit = this.neighbourCache.get(cacheKey);
    if (hit) return hit;
    const ids: number[] = [];
    const sims: number[] = [];
    const own = this.keyId(key);
    if (own !== undefined) {
      ids.push(own);
      sims.push(1);
    }
    const max = Math.min(edits, allowedEdits(key.length));
    if (max === 0) return this.remember(cacheKey, ids, sims);
    const gs = trigrams(key);
    // An edit destroys at most 3 trigrams (a transposition 4); a neighbour shares at least this many.
    const need = Math.max(1, gs.length - 4 * max);
    const counts = this.gramCount;
    const seen = this.gramSeen;
    const no = ++this.gramNo;
    const found: number[] = [];
    for (const g of gs) {
      const l = this.listOf(this.parts.grams, this.parts.gramStart, this.parts.gramIds, g);
      if (!l) continue;
      for (const id of l) {
        if (seen[id] !== no) {
          seen[id] = no;
          counts[id] = 0;
          found.push(id);
        }
        counts[id] = (counts[id] ?? 0) + 1;
      }
    }
    // Vowel variants (Mohamed / Muhamad) share few trigrams: they come from the skeleton index.
    const vowelVariants =
      key.length >= 4
        ? this.listOf(this.parts.skeletons, this.parts.skeletonStart, this.parts.skeletonIds, key[0] + skeleton(key))
        : undefined;
    // So are the spellings the lists give for the same name (score.ts `listedVariants`: Ihor / Igor), and the word
    // respelt as the lists' romanization writes it (score.ts `respelt`: Iwanow / Ivanov, Juri / Yuri).
    const listed: number[] = [];
    for (const v of [...listedVariants(key), ...respelt(key).keys]) {
      const id = this.keyId(v);
      if (id !== undefined) listed.push(id);
    }
    for (const id of [...(vowelVariants ?? []), ...listed]) {
      if (seen[id] !== no) {
        seen[id] = no;
        counts[id] = 0;
        found.push(id);
      }
      counts[id] = need;
    }
    for (const id of found) {
      const other = this.keys.at(id);
      if ((counts[id] ?? 0) < need || id === own || other === undefined) continue;
      if (Math.abs(other.length - key.length) > max + 2) continue;
      const s = tokenSim(key, key, other, other);
      if (s > 0) {
        ids.push(id);
        sims.push(s);
      }
    }
    return this.remember(cacheKey, ids, sims);
  }

  private remember(key: string, ids: number[], sims: number[]): Neighbours {
    if (this.neighbourCache.size >= NEIGHBOUR_CACHE_SIZE) this.neighbourCache.clear();
    const n = { ids: Int32Array.from(ids), sims: Float64Array.from(sims) };
    this.neighbourCache.set(key, n);
    return n;
  }

  /**
   * Names scoring at least `threshold` against one query, best per entry. `allow` filters entries by index.
   */
  search(
    query: string,
    allow: (entry: number) => boolean,
    threshold = THRESHOLD,
  ): Map<number, { score: number; name: number }> {
    const best = new Map<number, { score: number; name: number }>();
    const qNorm = tokens(query);
    if (qNorm.length === 0) return best;
    const consider = (nameId: number, score: number) => {
      if (score < threshold) return;
      const entry = this.nameEntry[nameId];
      if (entry === undefined || !allow(entry)) return;
      const cur = best.get(entry);
      if (!cur || score > cur.score || (score === cur.score && nameId < cur.name))
        best.set(entry, { score, name: nameId });
    };
    const { exact, exactStart, exactIds } = this.parts;
    const full = qNorm.join(" ");
    for (const slot of exact.candidates(full)) {
      const names = exactIds.subarray(exactStart[slot], exactStart[slot + 1]);
      if (names.length && tokens(this.nameOf(names[0] as number)).join(" ") === full)
        for (const nameId of names) consider(nameId, this.isWeak(nameId) ? WEAK_ALIAS_SCORE : 1);
    }

    const q = this.queryToks(query, qNorm);
    // Distinctive tokens generate candidates; a query without any (only generic words) uses its generic
    // words, since it can still match a listed name made of the same generic words (see hasEvidence).
    // Every other token only adds to the bound of names already found.
    const genCls = q.some((t) => t.cls === "distinctive") ? "distinctive" : "generic";
    let totalW = 0;
    for (const t of q) totalW += t.weight;
    // An initial ("J." for John) is matched against the words it starts in the name, which the key units do not
    // reach: its best possible similarity is added to every name's bound, so the prune stays an upper bound.
    let initials = 0;
    for (const t of q) if (t.norm.length === 1) initials += t.weight * INITIAL_SIM;
    const touched = this.accumulate(this.queryUnits(q, genCls));
    // Prune: `acc` bounds the query coverage from above (every query token, alone or joined, counted with
    // the best similarity any of its units can reach in that name); below PRUNE_COVERAGE the harmonic mean
    // cannot reach the threshold even with the name fully covered. And the evidence rule (score.ts) needs a
    // generating token matched at EVIDENCE_SIM or better, which only a strong unit hit can give.
    const memo = q.map(() => new Map<Tok, number>());
    let scored = 0;
    for (const nameId of touched) {
      if (!this.strongHit[nameId] || ((this.acc[nameId] ?? 0) + initials) / totalW < PRUNE_COVERAGE) continue;
      const entry = this.nameEntry[nameId];
      if (entry === undefined || !allow(entry)) continue;
      const nameToks = this.toksOf(nameId);
      scored++;
      const score = scoreTokens(q, nameToks, memo, this.surnameStart(nameId), this.entryTypeOf(entry));
      consider(nameId, Math.round(score * 1000) / 1000);
    }
    this.lastStats = { candidates: touched.length, scored };
    return best;
  }

  /**
   * Units of a query: each token (its own key and its neighbours, plus the halves of a token that splits into
   * two listed words) and each adjacent pair joined, in both orders. A unit generates candidates when it
   * involves a token of the generating class; generating units come first, so the others only ever touch
   * names already found.
   */
  private queryUnits(q: Tok[], genCls: string): QueryUnit[] {
    const units: QueryUnit[] = [];
    for (const t of q) {
      const keys = [this.neighbours(t.key, CANDIDATE_EDITS)];
      const { genHalves, otherHalves } = this.halves(t.norm, genCls);
      const generates = t.cls === genCls;
      if (genHalves.length) keys.push(ones(genHalves));
      units.push({ keys, weight: t.weight, generates });
      if (otherHalves.length) {
        // Generic halves lead to candidates only when no half is of the generating class; legal forms and
        // particles never do.
        const generic =
          genHalves.length === 0 ? otherHalves.filter((id) => tokenClass(this.keys.at(id) ?? "") === "generic") : [];
        const rest = otherHalves.filter((id) => !generic.includes(id));
        if (generic.length) units.push({ keys: [ones(generic)], weight: t.weight, generates });
        if (rest.length) units.push({ keys: [ones(rest)], weight: t.weight, generates: false });
      }
    }
    for (let i = 0; i + 1 < q.length; i++) {
      const a = q[i];
      const b = q[i + 1];
      if (!a || !b) continue;
      for (const joined of [a.norm + b.norm, b.norm + a.norm]) {
        const n = this.neighbours(tokenKey(joined), JOINED_CANDIDATE_EDITS);
        if (n.ids.length)
          units.push({ keys: [n], weight: a.weight + b.weight, generates: a.cls === genCls || b.cls === genCls });
      }
    }
    units.sort((a, b) => Number(b.generates) - Number(a.generates));
    return units;
  }

  /**
   * Halves of a token that splits into two listed words ("gazprombank" → gazprom|bank). Halves of the
   * generating class lead to candidates; the others only add to the bound ("tatburneft|limited" must not
   * pull in every LIMITED on the lists).
   */
  private halves(k: string, genCls: string): { genHalves: number[]; otherHalves: number[] } {
    const genHalves: number[] = [];
    const otherHalves: number[] = [];
    for (let p = 2; p <= k.length - 2; p++) {
      const a = k.slice(0, p);
      const b = k.slice(p);
      const left = this.keyId(tokenKey(a));
      const right = this.keyId(tokenKey(b));
      if (left === undefined || right === undefined) continue;
      (tokenClass(a) === genCls ? genHalves : otherHalves).push(left);
      (tokenClass(b) === genCls ? genHalves : otherHalves).push(right);
    }
    return { genHalves, otherHalves };
  }

  /**
   * Adds every unit's gain to the names it reaches (`acc`, one count per unit and name, with its best
   * similarity) and marks names a generating unit hit strongly. Returns the names touched. Runs over the
   * postings of every neighbour of every query token: typed arrays reused across searches, no allocation.
   */
  private accumulate(units: QueryUnit[]): number[] {
    const touched: number[] = [];
    const { acc, stamp, lastUnit, unitGain, strongHit } = this;
    const searchNo = ++this.stampNo;
    for (const u of units) {
      const unitNo = ++this.unitNo;
      for (const nb of u.keys) {
        for (let x = 0; x < nb.ids.length; x++) {
          const k = nb.ids[x] ?? -1;
          if (k < 0 || k >= this.keys.length) continue;
          const p = this.parts.postingIds.subarray(this.parts.postingStart[k], this.parts.postingStart[k + 1]);
          const sim = nb.sims[x] ?? 0;
          const gain = u.weight * sim;
          const strong = sim >= EVIDENCE_SIM;
          for (const nameId of p) {
            if (stamp[nameId] !== searchNo) {
              if (!u.generates) continue;
              stamp[nameId] = searchNo;
              acc[nameId] = 0;
              lastUnit[nameId] = 0;
              strongHit[nameId] = 0;
              touched.push(nameId);
            }
            if (strong && u.generates) strongHit[nameId] = 1;
            const had = unitGain[nameId] ?? 0;
            if (lastUnit[nameId] === unitNo) {
              if (gain > had) {
                acc[nameId] = (acc[nameId] ?? 0) + gain - had;
                unitGain[nameId] = gain;
              }
              continue;
            }
            lastUnit[nameId] = unitNo;
            unitGain[nameId] = gain;
            acc[nameId] = (acc[nameId] ?? 0) + gain;
          }
        }
      }
    }
    return touched;
  }

  /** The alignment behind the score of `query` against listed name `nameId`. */
  explain(nameId: number, query: string): Explanation {
    const explanation = explainTokens(this.queryToks(query, tokens(query)), this.toksOf(nameId));
    return this.isWeak(nameId)
      ? { ...explanation, features: [...explanation.features, "low_quality_alias"] }
      : explanation;
  }

  /** Whether a name is one of the lists' low-quality aliases (matched only as written). */
  isWeak(nameId: number): boolean {
    return nameId >= this.parts.weakFrom;
  }

  /** The query's tokens as scoring sees them: its hyphenated names, and which words the lists know. */
  private queryToks(query: string, qNorm: string[]): Tok[] {
    const q = toks(qNorm);
    hyphenGroups(query).forEach((g, i) => {
      const t = q[i];
      if (t && g >= 0) t.group = g;
    });
    for (const t of q) t.known = this.keys.has(t.key);
    return q;
  }

  nameOf(nameId: number): string {
    return this.nameText.at(nameId) ?? "";
  }

  private keyId(key: string): number | undefined {
    const id = this.keys.find(key);
    return id < 0 ? undefined : id;
  }
}

export interface ScreenInput {
  name: string;
  company?: string | undefined;
  type?: "individual" | "entity" | undefined;
}

/**
 * Entry types a `type` filter keeps: a person is screened against individuals (and entries of unknown type), a
 * company against entities, vessels, aircraft and unknown entries (a shipping company shares names with its ships).
 */
export function allowedTypes(type: ScreenInput["type"]): ReadonlySet<EntryType> {
  if (type === "individual") return new Set(["individual", "unknown"]);
  if (type === "entity") return new Set(["entity", "vessel", "aircraft", "unknown"]);
  return new Set(ENTRY_TYPES);
}

/**
 * Whether a listed name carries one of a Korean surname's spellings: the part before the comma ("KIM, Jong
 * Un"), else the first or the last word ("KIM JONG UN", "Jong Un Kim"), compared by transliteration key or
 * one letter apart for spellings of three letters or more (Pak/Park).
 */
function surnameAgrees(listed: string, forms: string[]): boolean {
  const comma = listed.indexOf(",");
  const words = tokens(comma > 0 ? listed.slice(0, comma) : listed);
  const candidates = comma > 0 ? words : [words[0], words[words.length - 1]];
  return candidates.some(
    (w) =>
      w !== undefined &&
      forms.some((f) => tokenKey(f) === tokenKey(w) || (f.length >= 3 && w.length >= 3 && withinOneEdit(f, w))),
  );
}

/** One letter more or less (Pak/Park): substitutions are not allowed, since Kang, Gang, Wang and Lang are other names. */
function withinOneEdit(a: string, b: string): boolean {
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return false;
  for (let k = 0; k < long.length; k++) if (long.slice(0, k) + long.slice(k + 1) === short) return true;
  return false;
}

/**
 * The explanation of a hit found through a respelt name (`transcribedNames`) in the query's own words: each respelt
 * word shown as written, and a word respelt to the listed spelling matched by transliteration, not exactly. A
 * name read from another script (`koreanReadings`) keeps the reading's words, every one read.
 */
function asWritten(e: Explanation, respelt: string, written: string | undefined): Explanation {
  if (written === undefined) return e;
  const from = tokens(respelt);
  const to = tokens(written);
  const sameWords = from.length === to.length;
  const wordOf = new Map(sameWords ? from.map((w, i) => [w, to[i] ?? w]) : []);
  const back = (words: string) =>
    words
      .split(" ")
      .map((w) => wordOf.get(w) ?? w)
      .join(" ");
  const matched = e.matched.map((m) => {
    const query = back(m.query);
    return (query !== m.query || !sameWords) && m.feature === "exact"
      ? { ...m, query, sim: KEY_EQUAL_SIM, feature: "transliteration" as const }
      : { ...m, query };
  });
  return {
    matched,
    unmatched_query: e.unmatched_query.map(back),
    unmatched_listed: e.unmatched_listed,
    features: [
      ...new Set([...matched.map((m) => m.feature), ...e.features.filter((f) => f === "low_quality_alias")]),
    ].sort(),
  };
}

/**
 * Screens `name` and `company` (when given) and merges: an entry hit by both keeps its best score. Hits are
 * ≥ THRESHOLD, best first (ties: list code, then input order), at most `limit`.
 */
export function screen(index: ScreenIndex, input: ScreenInput, limit = MAX_MATCHES): Hit[] {
  const types = allowedTypes(input.type);
  const allow = (e: number) => {
    const type = index.entryTypeOf(e);
    return type !== undefined && types.has(type);
  };
  const merged = new Map<
    number,
    {
      entry: number;
      score: number;
      name: number | string;
      query: "name" | "company";
      text: string;
      /** The alignment of a hit scored outside `search` (abjad.ts), made only if the hit is returned. */
      explain?: () => Explanation;
    }
  >();
  const queries: ["name" | "company", string][] = [["name", input.name]];
  if (input.company && normalizeName(input.company) !== normalizeName(input.name))
    queries.push(["company", input.company]);
  // A query in another script is also searched in Latin letters (the best score of the two spellings counts).
  // A Korean name's romanized syllables are short and resemble many names: a hit through them must agree on
  // the surname, which Korean names always carry and never vary. A name in Chinese characters is also read as
  // Korean (normalize.ts `koreanReadings`: 金正恩 as 김정은, Kim Jong Un), a reading that assumes the name is
  // Korean: its hits score at most as a same-key spelling. And a name in the German or French transcription of
  // Russian is also searched as the lists' romanization writes it (score.ts `transcribedNames`: Guennadi Jidko as
  // Gennadi Zhidko), another spelling, never the listed name itself, so its hits score at most as that too.
  const surnameOf = new Map<string, string[]>();
  /** Spellings searched for a query, each to the query as written: their hits are capped and explained in its words. */
  const respeltFrom = new Map<string, string>();
  /** Spellings read from Chinese characters: every word must match at transliteration strength. */
  const fromHan = new Set<string>();
  for (const [query, text] of [...queries]) {
    for (const respelling of transcribedNames(text)) {
      queries.push([query, respelling]);
      respeltFrom.set(respelling, text);
    }
    const han = hanName(text) !== null;
    const direct = latinizations(text);
    for (const source of [text, ...koreanReadings(text)])
      for (const latin of source === text ? direct : latinizations(source)) {
        if (source !== text && (direct.includes(latin) || respeltFrom.has(latin))) continue;
        queries.push([query, latin]);
        const forms = hangulSurnameForms(source);
        if (forms) surnameOf.set(latin, forms);
        if (source !== text) respeltFrom.set(latin, text);
        if (han) fromHan.add(latin);
      }
  }
  for (const [query, text] of queries) {
    const surname = surnameOf.get(text);
    const cap = respeltFrom.has(text) ? KEY_EQUAL_SIM : 1;
    // An identifier is a fact, not a resemblance: a listed IMO number in the query is a certain match (1.0),
    // whatever the name beside it says.
    for (const { entry, identifier } of index.identifierHits(text))
      if (allow(entry)) merged.set(entry, { entry, score: 1, name: identifier, query, text });
    for (const [entry, { score: found, name }] of index.search(text, allow)) {
      if (surname && !surnameAgrees(index.nameOf(name), surname)) continue;
      // Pinyin and the Korean readings are regular spellings of the characters: a syllable that is only near a
      // listed word (Jin-Zhong / Junzheng, a vowel apart) is another name.
      if (fromHan.has(text) && index.explain(name, text).matched.some((m) => m.sim < KEY_EQUAL_SIM)) continue;
      const score = Math.min(found, cap);
      const cur = merged.get(entry);
      if (!cur || score > cur.score) merged.set(entry, { entry, score, name, query, text });
    }
    // Arabic script writes no short vowels: its names are compared with the listed Latin spellings by their
    // consonants (abjad.ts), below the band of names accounted for word by word.
    if (isArabicScript(text))
      for (const [entry, { score, name, explain }] of index.abjadSearch(text, allow)) {
        const cur = merged.get(entry);
        if (!cur || score > cur.score) merged.set(entry, { entry, score, name, query, text, explain });
      }
  }
  // Explanations only for what is returned: the alignment is recomputed for at most `limit` hits.
  return [...merged.values()]
    .sort((a, b) => b.score - a.score || a.entry - b.entry)
    .slice(0, limit)
    .map(({ entry, score, name, query, text, explain }) => ({
      entry,
      score,
      query,
      matchedName: typeof name === "string" ? name : index.nameOf(name),
      explanation:
        explain?.() ??
        (typeof name === "string"
          ? {
              matched: [{ query: name, listed: name, sim: 1, feature: "identifier" as const }],
              unmatched_query: [],
              unmatched_listed: [],
              features: ["identifier" as const],
            }
          : asWritten(index.explain(name, text), text, respeltFrom.get(text))),
    }));
}
