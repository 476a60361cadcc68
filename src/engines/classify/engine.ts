/**
 * The classification core: a BM25F index over the HS2022 subheadings and a ranker that turns a product text
 * into ranked subheadings, rolled up to headings and chapters, with a national tariff line per result.
 *
 * One document per HS6 subheading, with fields weighted by how directly they describe it:
 *   sub   the subheading's own description                       (exclusion clauses removed)
 *   nat   the national tariff lines under it (US HTS-8, UK)      (the everyday wording of customs)
 *   head  its heading's description; chap  its chapter's
 * A curated synonym list (retail words → codes) adds a boost for phrases found in the text. Exclusion clauses
 * ("other than cotton") are removed before indexing; qualifier clauses of the query ("case for laptop") count
 * half. The index is built once (per isolate) from plain rows; ranking one text costs well under a millisecond.
 *
 * No Hono, no bindings: the module service feeds it rows from D1, the tests feed it the files in data/hs.
 */
import { getOrInsert } from "../../lib/collections";
import { organicHeading } from "./organic";
import {
  type Bounds,
  chemicalName,
  constructionExcludes,
  DOSAGE_FORMS,
  FIBRE_CLASS_TERMS,
  FIBRE_WORDS,
  fibreShareBounds,
  footwearUpper,
  HEAD_BOUNDARIES,
  HOUSEHOLD,
  HOUSEHOLD_ARTICLES,
  headNouns,
  KEPT_BY_NOTES,
  MATERIAL_RESIDUALS,
  notesExclude,
  notesInclude,
  ORNAMENT_RESIDUALS,
  ORNAMENTAL,
  otherMaterialChapters,
  outside,
  PART_WORDS,
  PARTS_HEADINGS,
  PARTS_OF,
  PHARMA_CONTEXT,
  preciousExcludes,
  predominantFibre,
  preparedFoodChapters,
  QUALIFIERS,
  type Quantity,
  quantityBounds,
  STOPWORDS,
  sentences,
  statedGender,
  statedQuantities,
  statedWeight,
  stripExclusions,
  tokens,
  VAGUE_WORDS,
  weightBounds,
  withoutLetterFrame,
  words,
  wordsAndGaps,
} from "./text";

export interface NomenclatureRow {
  code: string;
  parent: string | null;
  description: string;
}
export interface TariffLineRow {
  schedule: string;
  code: string;
  description: string;
}
export interface SynonymRow {
  phrase: string;
  codes: string;
  /** "index": a customs authority's search-term guidance (data/hs/intercepts.tsv), weaker than a curated term. */
  kind?: string;
}

interface Node {
  code: string;
  description: string;
}

const FIELDS = ["sub", "nat", "head", "chap"] as const;
type Field = (typeof FIELDS)[number];

/** Tuned on bench/data/classify-eval.tsv (see bench/RESULTS.md). */
const PARAMS = {
  weights: { sub: 1.0, nat: 0.7, head: 0.6, chap: 0.25 } as Record<Field, number>,
  b: { sub: 0.6, nat: 0.5, head: 0.5, chap: 0.3 } as Record<Field, number>,
  k1: 1.2,
  /** Boost, in BM25 units, of a subheading a synonym phrase names (split among a synonym's codes). */
  synonym: 25,
  /**
   * Factor on the boost of a one-word product term the nomenclature also uses for other goods (Index.synonyms);
   * the term still counts as evidence for the confidence. 0.5 chosen on the development splits (0.3, 0.7 tried).
   */
  ambiguous: 0.5,
  /** Weight of the predominant fibre's class words ("synthetic", "manmade" for 64 % acrylic); 0.9 chosen on the development
   * splits once "man-made" became one word (0.6, 1.0, 1.2 tried). */
  fibreClass: 0.9,
  /** Factor on a fibre named in a composition whose class does not predominate ("30 % cotton"). */
  minorityFibre: 0.2,
  /**
   * Weight of a phrase of a customs authority's search-term guidance (data/hs/intercepts.tsv) against a curated
   * product term's 1. 0.5 chosen on the development splits (0.3: one item fewer right at 4 digits than without the
   * phrases, 0.8: the same top-1 as 0.5 and more wrong `high`).
   */
  indexTerm: 0.5,
  /** Weight of query tokens after a qualifier word ("for", "with"). */
  qualifier: 0.5,
  /** Weight of a product term that modifies another ("laptop backpack", "chocolate flavour"). */
  modifier: 0.5,
  /** Weight of a product term naming what a case holds ("earphone case", "violin case"). */
  contained: 0.2,
  /** Extra factor on a product term inside a qualifier clause ("lever for the ring of a drum"). */
  qualifiedSynonym: 0.5,
  /** Factor on a product term named after the head noun phrase, outside a qualifier clause ("..., tyres fitted"). */
  outsideHead: 0.5,
  /**
   * Weight of the words of every sentence after the first: a long description (a ruling's statement of the
   * facts) names the article first and then its parts, uses and packing. 0.5 chosen on the development splits
   * (0.3, 0.7 and 1 tried).
   */
  laterSentence: 0.5,
  /** Boost, in BM25 units, of the residual "articles of <material>" subheading of a material the text names. */
  material: 6,
  /** Boost of the household articles heading of the material of an article for the household. */
  household: 10,
  /** Factor on the apparel headings of the other gender than the one the text names (text.ts statedGender). */
  otherGender: 0.5,
  /** Factor on the score of goods the text's stated construction rules out (knitted vs woven). */
  construction: 0.5,
  /** Factor on the heading of the stuffed article a cover is for (coveredArticles). */
  covered: 0.3,
  /** Factor on the domestic-kind subheadings of Chapters 84-85 for goods the text says are industrial or commercial. */
  domestic: 0.2,
  /** Factor on the fibre chapters a fabric's or yarn's stated composition rules out (otherFibreChapters). */
  otherFibre: 0.1,
  /**
   * Factor on the precious-metal headings (7113-7116) for a text naming no precious metal, stone or pearl: the
   * headings require one (Chapter 71 note 1), so only a strong match elsewhere should leave them first.
   */
  notPrecious: 0.2,
  /** Factor on the headings the notes exclude the article from (pet toys from 9503, handbag parts from 4202). */
  notes: 0.2,
  /** Factor on the chapters of materials other than the one the text names (an acrylic vase is not glassware). */
  otherMaterial: 0.3,
  /** Factor on the chapters of raw food (02, 03, 07, 08) for food the text says was prepared (breaded, fried...). */
  prepared: 0.4,
  /** Factor on the headings of materials and semi-manufactures when the text names an article. */
  semiManufactures: 0.3,
  /**
   * Boost, in BM25 units, of the Chapter 29 heading a compound's name gives (organic.ts). 15 chosen on the
   * development splits (10: one item fewer; 25: as 15, one more `high`).
   */
  organic: 15,
  /** Boost, in BM25 units, of the footwear heading of the upper material the text names. */
  footwearUpper: 10,
  /**
   * Factor on a code whose bounds (weight per m2, fibre share, power, capacity, voltage) rule out a stated figure.
   * Applied after the rulings' votes: 0.5 until the votes were raised by 1.4 (PRECEDENT), then 0.35 to keep the
   * same hold over them (no item of the development splits moved but one).
   */
  statedFigures: 0.35,
  /** Factor on the other headings of whole footwear by upper then (6401-6404); after the votes, as statedFigures. */
  otherFootwear: 0.35,
  /** Boost, in BM25 units, of the parts heading of a vehicle or machine the text names the article a part of. */
  parts: 6,
  /** The same when the parts heading's own text names the head noun ("clutch": 8708.93). */
  partsNamed: 15,
  /** Boost, in BM25 units, of the parts subheading of the best heading for a text about a part. */
  partsSubheading: 10,
  /** Factor on the machine's own headings then (the article is a part, not the machine). */
  partsWhole: 0.5,
  /** Share of the heading's best child score added to every sibling (roll-up). */
  headingRollup: 0.3,
  chapterRollup: 0.1,
  /** Below this raw score nothing is suggested (422). */
  minScore: 1.5,
};

/**
 * Postings of one term, flat: `docs[i]` has `tf[i * FIELDS.length + f]` occurrences in field f. Stored in the
 * narrowest arrays the whole index fits (two-byte document ids below 65,536 documents, one-byte counts below
 * 256): they are most of the stored index's bytes, which a new isolate waits for. One width for every term,
 * so the ranking loop reads one kind of array.
 */
interface Postings {
  docs: Int32Array | Uint16Array;
  tf: Uint16Array | Uint8Array;
}

export interface Index {
  docs: string[]; // HS6 codes
  nodes: Map<string, Node>; // every chapter, heading and subheading
  postings: Map<string, Postings>;
  idf: Map<string, number>;
  avgLen: Record<Field, number>;
  lens: Record<Field, Float32Array>;
  docHeading: Int32Array; // index into headings
  docChapter: Uint8Array; // chapter number
  headings: string[];
  /**
   * Keyed by first word. `ambiguous`: a one-word phrase the nomenclature also uses as the noun of goods outside
   * the chapters of the phrase's codes ("pumps" shoes and pumps for liquids, "slides" sandals and slide rails, "sheets" bed
   * linen and sheets of steel): it counts for less, so the text's other words decide.
   */
  synonyms: Map<string, SynonymEntry[]>;
  lines: Map<string, Map<string, Node[]>>; // schedule → hs6 → lines
  /** The words the index knows: the postings' terms and the synonyms' words. */
  vocabulary: Pick<ReadonlySet<string>, "has">;
  /**
   * The words that name goods: the head noun of each phrase of the HS nomenclature's descriptions (text.ts
   * headNouns), of the tariff index phrases (INDEX_ONLY) and the last word of each synonym phrase. A text naming
   * none of them, nor a material or a chemical, is not a product description (rank).
   */
  goods: Pick<ReadonlySet<string>, "has">;
  stats: {
    subheadings: number;
    headings: number;
    chapters: number;
    lines: Record<string, number>;
    synonyms: number;
    terms: number;
  };
}

/** Builds the index from the nomenclature, the national lines and the synonym list. Pure; ~100 ms. */
export function buildIndex(nomenclature: NomenclatureRow[], lines: TariffLineRow[], synonyms: SynonymRow[]): Index {
  const nodes = new Map<string, Node>();
  for (const r of nomenclature) nodes.set(r.code, { code: r.code, description: r.description });
  const docs = nomenclature
    .filter((r) => r.code.length === 6)
    .map((r) => r.code)
    .sort();
  const headings = [...new Set(docs.map((c) => c.slice(0, 4)))];
  const headingIdx = new Map(headings.map((h, i) => [h, i]));

  const grouped = groupLines(lines, new Map(docs.map((c, i) => [c, i])), docs.length);
  const { postings, lens, avgLen } = buildPostings(docFieldTokens(docs, nodes, grouped.natTokens), docs.length);
  const idf = new Map<string, number>();
  for (const [t, p] of postings) idf.set(t, Math.log(1 + (docs.length - p.docs.length + 0.5) / (p.docs.length + 0.5)));
  const synIndex = synonymIndex(synonyms, nomenclature);
  const vocabulary = new Set(postings.keys());
  for (const list of synIndex.values()) for (const s of list) for (const w of s.phrase) vocabulary.add(w);
  const goods = new Set(nomenclature.flatMap((r) => headNouns(r.description)));
  // A tariff index phrase names goods before its first comma ("accelerometers", "ice skates, with boots
  // attached"); after it come the qualifiers of an inverted index entry.
  for (const l of lines)
    if (l.schedule === INDEX_ONLY)
      for (const phrase of l.description.split(";"))
        for (const n of headNouns(phrase.split(",")[0] ?? "")) goods.add(n);
  for (const list of synIndex.values()) for (const s of list) if (s.phrase.length) goods.add(s.phrase.at(-1) as string);

  return {
    docs,
    nodes,
    postings,
    idf,
    avgLen,
    lens,
    docHeading: Int32Array.from(docs.map((c) => headingIdx.get(c.slice(0, 4)) ?? 0)),
    docChapter: Uint8Array.from(docs.map((c) => Number(c.slice(0, 2)))),
    headings,
    synonyms: synIndex,
    lines: grouped.lineMap,
    vocabulary,
    goods,
    stats: {
      subheadings: docs.length,
      headings: headings.length,
      chapters: new Set(docs.map((c) => c.slice(0, 2))).size,
      lines: grouped.lineCounts,
      synonyms: synonyms.length,
      terms: postings.size,
    },
  };
}

/**
 * The "schedule" of the tariff index phrases (data/hs/search-references.json): their words join the national
 * wording of the subheading their code falls under ("accelerometers" → 9031.80), but they are no national line
 * and never an answer's code.
 */
export const INDEX_ONLY = "REF";

/** National lines by schedule and subheading (sorted by code), and each subheading's national wording. */
function groupLines(lines: TariffLineRow[], docIdx: Map<string, number>, docCount: number) {
  const natTokens: string[][] = Array.from({ length: docCount }, () => []);
  const lineMap = new Map<string, Map<string, Node[]>>();
  const lineCounts: Record<string, number> = {};
  for (const l of lines) {
    const hs6 = l.code.slice(0, 6);
    if (l.schedule === INDEX_ONLY) {
      natTokens[docIdx.get(hs6) ?? -1]?.push(...tokens(l.description));
      continue;
    }
    const bySchedule = getOrInsert(lineMap, l.schedule, () => new Map<string, Node[]>());
    getOrInsert(bySchedule, hs6, () => []).push({ code: l.code, description: l.description });
    lineCounts[l.schedule] = (lineCounts[l.schedule] ?? 0) + 1;
    // The EU lines repeat the UK ones (same source), so only US and GB wording feeds the index.
    const wording = l.schedule === "EU" ? undefined : natTokens[docIdx.get(hs6) ?? -1];
    wording?.push(...tokens(stripExclusions(l.description)));
  }
  for (const bySchedule of lineMap.values())
    for (const list of bySchedule.values()) list.sort((a, b) => a.code.localeCompare(b.code));
  return { natTokens, lineMap, lineCounts };
}

/** The tokens of every subheading in each field: its own text, national wording, heading and chapter. */
function docFieldTokens(docs: string[], nodes: Map<string, Node>, natTokens: string[][]): Record<Field, string[][]> {
  const fieldTokens: Record<Field, string[][]> = { sub: [], nat: [], head: [], chap: [] };
  docs.forEach((code, i) => {
    fieldTokens.sub.push(tokens(stripExclusions(nodes.get(code)?.description ?? "")));
    // National wording repeats itself line after line; presence matters, not repetition.
    fieldTokens.nat.push([...new Set(natTokens[i])]);
    fieldTokens.head.push(tokens(stripExclusions(nodes.get(code.slice(0, 4))?.description ?? "")));
    fieldTokens.chap.push(tokens(stripExclusions(nodes.get(code.slice(0, 2))?.description ?? "")));
  });
  return fieldTokens;
}

/** Per-term postings (document ids, term frequency per field) and the field lengths BM25F needs. */
function buildPostings(fieldTokens: Record<Field, string[][]>, docCount: number) {
  const building = new Map<string, { docs: number[]; tf: number[] }>();
  const lens = Object.fromEntries(FIELDS.map((f) => [f, new Float32Array(docCount)])) as Record<Field, Float32Array>;
  const totals = FIELDS.map(() => 0);
  for (let d = 0; d < docCount; d++) {
    const perDoc = new Map<string, number[]>();
    FIELDS.forEach((f, fi) => {
      const toks = fieldTokens[f][d] ?? [];
      lens[f][d] = toks.length;
      totals[fi] = (totals[fi] ?? 0) + toks.length;
      for (const t of toks) {
        const counts = getOrInsert(perDoc, t, () => FIELDS.map(() => 0));
        counts[fi] = (counts[fi] ?? 0) + 1;
      }
    });
    for (const [t, counts] of perDoc) {
      const p = getOrInsert(building, t, () => ({ docs: [] as number[], tf: [] as number[] }));
      p.docs.push(d);
      p.tf.push(...counts);
    }
  }
  const avgLen = Object.fromEntries(FIELDS.map((f, fi) => [f, (totals[fi] ?? 0) / Math.max(1, docCount)])) as Record<
    Field,
    number
  >;
  let most = 0;
  for (const p of building.values()) for (const n of p.tf) most = Math.max(most, n);
  const Docs = docCount <= 0x10000 ? Uint16Array : Int32Array;
  const Counts = most <= 0xff ? Uint8Array : Uint16Array;
  const postings = new Map<string, Postings>();
  for (const [t, p] of building) postings.set(t, { docs: Docs.from(p.docs), tf: Counts.from(p.tf) });
  return { postings, lens, avgLen };
}

interface SynonymEntry {
  phrase: string[];
  codes: string[];
  ambiguous?: boolean;
  /** For an ambiguous phrase, the headings that name other goods by it ("bracelet": 9113 watch bracelets). */
  elsewhere?: string[];
  /** From a customs authority's search-term guidance (SynonymRow.kind "index"). */
  index?: boolean;
}

/** Synonym phrases by their first word, longest first (the longest match wins); one-word ones marked ambiguous. */
function synonymIndex(synonyms: SynonymRow[], nomenclature: NomenclatureRow[]) {
  // The headings whose (or whose subheadings') descriptions name goods by each noun.
  const nounHeadings = new Map<string, Set<string>>();
  for (const r of nomenclature)
    if (r.code.length >= 4)
      for (const n of headNouns(r.description)) getOrInsert(nounHeadings, n, () => new Set()).add(r.code.slice(0, 4));
  const synIndex = new Map<string, SynonymEntry[]>();
  for (const s of synonyms) {
    const phrase = words(s.phrase);
    const [first] = phrase;
    if (first === undefined) continue;
    const codes = s.codes.split(/\s+/).filter(Boolean);
    const elsewhere = [...(nounHeadings.get(tokens(first)[0] ?? "") ?? [])].filter(
      (h) => !codes.some((c) => c.startsWith(h.slice(0, 2))),
    );
    const ambiguous = phrase.length === 1 && elsewhere.length > 0;
    const entry: SynonymEntry = ambiguous ? { phrase, codes, ambiguous, elsewhere } : { phrase, codes };
    if (s.kind === "index") entry.index = true;
    // A phrase in both lists keeps the curated entry, which comes first.
    const list = getOrInsert(synIndex, first, () => []);
    if (!list.some((e) => e.phrase.join(" ") === phrase.join(" "))) list.push(entry);
  }
  for (const list of synIndex.values()) list.sort((a, b) => b.phrase.length - a.phrase.length);
  return synIndex;
}

export interface RankOptions {
  /** Digits a partial code narrows to (2-10). */
  prefix?: string | undefined;
  /** National schedule for the tariff line ("US", "GB", "EU"); other destinations get the HS6 subheading. */
  schedule?: string | undefined;
  /** Codes (any length) the caller may not be offered; a prefix blocks every code under it. */
  blocked?: readonly string[];
  limit?: number;
  /**
   * Classification rulings about the most similar products (precedents.ts `nearestRulings`), each with the code
   * the ruling gave and its similarity to the text: each votes for its subheading and heading.
   */
  precedents?: readonly { code: string; similarity: number }[];
  /**
   * The headings whose rulings, taken together, read most like the text (precedents.ts `nearestHeadings`), each
   * with its centroid's similarity: each votes for its heading.
   */
  headings?: readonly { code: string; similarity: number }[];
  /**
   * The headings the rulings' learned model finds most likely for the text (precedents.ts `likelyHeadings`), each
   * with its probability: each votes for its heading.
   */
  model?: readonly { code: string; probability: number }[];
  /**
   * The six-digit subheadings of the model's likeliest headings, each with the heading's probability shared out
   * by the rulings' subheading model (precedents.ts `likelySubheadings`): each votes for its subheading.
   */
  subheadings?: readonly { code: string; probability: number }[];
}

export interface Suggestion {
  /** Full code: the national line when the schedule has one, else the HS6 subheading. */
  code: string;
  hs6: string;
  chapter: Node;
  heading: Node;
  subheading: Node;
  tariff: Node;
  /** Raw ranking score (BM25 units), before calibration. */
  raw: number;
  score: number;
  confidence: "high" | "medium" | "low";
  reasoning: string;
}

export type RankResult =
  | {
      ok: true;
      suggestions: Suggestion[];
      blockedAll: boolean;
      matchedTerms: string[];
      synonyms: string[];
      evidence: Evidence;
    }
  | { ok: false; reason: string; matchedTerms: string[] };

/** Participles after which the preceding word names how an article is powered or worked, not the article. */
const POWER_MARKERS = ["powered", "operated", "driven", "fired", "fueled", "fuelled", "charged", "activated"];
const POWERED = new Set(POWER_MARKERS.flatMap((w) => words(w)));

/** Words after which the preceding product term describes an attribute, not the product. */
const ATTRIBUTE_MARKERS = new Set([
  "style",
  "styled",
  "inspired",
  "flavour",
  "flavor",
  "flavored",
  "flavoured",
  "scent",
  "scented",
  "print",
  "printed",
  "pattern",
  "design",
  "themed",
  "shaped",
  // "battery-powered massager", "gas-fired burner", "hand-operated pump": the power source, not the article.
  ...POWER_MARKERS,
]);

interface QueryTerm {
  term: string;
  weight: number;
}

/** A curated phrase found in the text, the codes it names and how much it counts (1 for the product itself). */
interface SynonymHit {
  phrase: string;
  codes: string[];
  weight: number;
  /** In the head noun phrase of the description (before the first preposition or clause). */
  head?: boolean;
  /** A one-word phrase the nomenclature also uses for other goods (Index.synonyms): its boost is cut. */
  ambiguous?: boolean;
}

/** What the query analysis finds in a description. */
export interface Analysis {
  terms: QueryTerm[];
  synonyms: SynonymHit[];
  /** Content words of the head noun phrase, the head noun last ("steel lever" in "steel lever for a drum"). */
  head: string[];
  /** The text reads as a medicament: a dosage form in a medical context or next to a drug name. */
  pharma: boolean;
  /** Residual "articles of <material>" subheadings for the materials the head noun phrase names. */
  materials: string[];
  /** Codes the stated construction rules out (woven goods for a knitted article and the reverse). */
  excluded: string[];
  /** The precious-metal headings (7113-7116) when the text names no precious metal, stone or pearl. */
  notPrecious: string[];
  /** Material chapters other than the one material the text names for its article (text.ts otherMaterialChapters). */
  otherMaterials: string[];
  /** Chapters of raw or simply preserved food that the stated preparation rules out (text.ts preparedFoodChapters). */
  prepared: string[];
  /** Headings the notes exclude the article from (text.ts notesExclude: pet toys, parts of handbags). */
  notes: string[];
  /** Headings the notes put the article in instead (text.ts notesInclude: apparel for animals in 4201). */
  notesTo: string[];
  /** Headings of materials and semi-manufactures that an article named as the head noun rules out. */
  semiManufactures: string[];
  /** The fibre chapters (50-55) other than the predominant fibre's, for a fabric or yarn of stated composition. */
  otherFibres: string[];
  /** The Chapter 29 heading a compound's name gives (organic.ts), when the text is about a compound. */
  organic: string | undefined;
  /** The footwear heading the upper material the text names points to (text.ts footwearUpper). */
  footwear: string | undefined;
  /** Figures the text states that codes set bounds on: g/m2 and the main fibre's share; power, capacity, voltage. */
  figures: { weight?: number; fibreShare?: number; quantities: Partial<Record<Quantity, number>> };
  /** Parts headings of the vehicles or machines the text names the article a part of (text.ts PARTS_HEADINGS). */
  parts: string[];
  /**
   * The head noun phrase joins two articles ("a girls shirt and pullover", "glass tiles and porcelain tiles"):
   * a set (GRI 3) or two classifications, never one certain heading.
   */
  coordinated: boolean;
  /** The text says the goods are for industrial or commercial use: the domestic-kind appliances are ruled out. */
  industrial: boolean;
  /** Headings of the stuffed article a cover or shell is for ("pillow shell", "comforter cover"): not the cover's. */
  covered: string[];
  /** Whom the text says the goods are for (text.ts statedGender): the other's apparel headings are ruled out. */
  gender: "men" | "women" | undefined;
}

/**
 * Words that name the form a substance is put up in ("detergent sheets", "dishwasher tablets", "soap bar"):
 * after another product term, the earlier term is the product and the form word only describes it.
 */
const FORM_WORDS = new Set(["sheet", "tablet", "capsule", "pod", "bar", "stick", "strip", "roll", "cube", "block"]);

/**
 * Words a text has at most to be read as a title rather than prose (see headPhraseEnd); a title has no clause or
 * sentence punctuation either ("2-t-Butyl-4-methoxyphenol, a pharmaceutical intermediate" is a compound's name and
 * what it is).
 */
const TITLE_WORDS = 10;

/** The head noun phrase's end: the words before the first preposition, participle clause or punctuation. */
function headPhraseEnd(
  text: string,
  ws: string[],
  names?: (ws: string[]) => boolean,
  gaps?: readonly boolean[],
): number {
  const end = Math.min(ws.length, firstClauseLength(text, names) || ws.length);
  const title = ws.length <= TITLE_WORDS && !/[.!?]\s|[,;:]/.test(text.trim());
  // "a pair of leather gloves", "set of six steak knives": a word for how many or how put up names no goods; the
  // noun phrase after its "of" is the head.
  let from = 1;
  let first = ws[0] === "a" || ws[0] === "an" || ws[0] === "the" ? 1 : 0;
  // "five grades of ABS resin", "two types of hoses": a count before the collective word.
  if (COUNT_WORDS.has(ws[first] ?? "") && (COLLECTIVES.has(ws[first + 1] ?? "") || COUNTED.has(ws[first + 1] ?? "")))
    first++;
  // "boiled pieces of beef": one describing word before the collective one.
  if (!COLLECTIVES.has(ws[first] ?? "") && COLLECTIVES.has(ws[first + 1] ?? "") && ws[first + 2] === "of") first++;
  const counted = first > 0 && COUNT_WORDS.has(ws[first - 1] ?? "") && COUNTED.has(ws[first] ?? "");
  if ((COLLECTIVES.has(ws[first] ?? "") || counted) && ws[first + 1] === "of") from = first + 2;
  for (let i = from; i < end; i++) {
    const w = ws[i] ?? "";
    // A participle followed by "by" starts a clause ("fondue pot fueled by a denatured alcohol burner"); before the
    // noun it is a modifier ("battery operated toy").
    // "HDMI-compatible cable": "compatible" before a noun is its adjective, as a participle is.
    const adjective = (PARTICIPLES.has(w) || w === "compatible") && attributive(ws[i + 1]);
    if (HEAD_BOUNDARIES.has(w) && !adjective) return i;
    if (w.endsWith("ed") && ws[i + 1] === "by") return i;
    // In a title (a few words, no sentence), a figure after words that name goods starts their specification
    // ("Printer paper A4 500 sheets", "Tablet 10 inch 64GB"): the words after it are what the figure counts or
    // measures, not the head noun. A figure before the goods are named ("Men's 100% cotton shirt") is part of the
    // phrase; in prose a figure is mostly a share or a style number inside the noun phrase ("a long sleeve 100%
    // cotton woven shirt").
    if (title && gaps?.[i] && names?.(ws.slice(0, i))) return i;
  }
  return end;
}

/**
 * Participles that end a head phrase when a clause follows ("fitted with", "packed in", "used for") but describe the
 * noun when one follows ("fitted protective case", "packaged food", "used clothing").
 */
const PARTICIPLES = new Set(
  "fitted mounted attached installed equipped packed packaged filled used".split(" ").flatMap((w) => words(w)),
);
const CLAUSE_STARTS = new Set(
  "with to on in into onto for by at from of as under inside within over and or primarily specifically exclusively solely mainly only entirely principally chiefly either"
    .split(" ")
    .flatMap((w) => words(w)),
);
/** Whether the word after a participle makes it an adjective of the noun that follows. */
const attributive = (next: string | undefined) => next !== undefined && !CLAUSE_STARTS.has(next);

/** Words for how many or how goods are put up, which name the goods after their "of" ("a pair of gloves"). */
const COLLECTIVES = new Set(
  "pair sample swatch set pack packet box bundle lot dozen assortment collection case carton bag bottle jar tin roll grade type variety kind piece chunk slice portion series"
    .split(" ")
    .flatMap((w) => words(w)),
);
/** Counts in words that make what follows a specification of the product before them. */
const MULTIPLES = new Set(
  "single double triple twin dual two three four five six multi".split(" ").flatMap((w) => words(w)),
);

/** Collective words only after a count ("four models of utility vehicles"; "a model of a ship" is a model). */
const COUNTED = new Set("model style version".split(" ").flatMap((w) => words(w)));
const COUNT_WORDS = new Set(
  "two three four five six seven eight nine ten several various multiple".split(" ").flatMap((w) => words(w)),
);

/**
 * The residual "articles of <material>" codes for the materials named (articleMaterials: the head noun phrase, "of"
 * and "from" phrases);
 * an ornament's and a household article's own headings before the residual ones.
 */
function residualMaterials(
  ws: string[],
  sentenceOf: number[],
  { named, drinkingGlass }: ReturnType<typeof articleMaterials>,
  headNoun: string,
): string[] {
  // Gloves, aprons and raincoats of plastics, rubber or leather are those materials' articles of apparel (3926.20,
  // 4015, 4203), not their residual articles: Chapter 39's, 40's and 42's own apparel headings.
  if (APPAREL.has(headNoun)) {
    const apparel = named.map((t) => APPAREL_OF[MATERIAL_RESIDUALS[t] ?? ""]).filter((c): c is string => !!c);
    if (apparel.length > 0) return [...new Set(apparel)];
  }
  const ornament = ws.some((w) => ORNAMENTAL.has(w));
  // A drinking glass of another material is tableware of that material (3924, 6912, 7323...).
  const household =
    !ornament &&
    (drinkingGlass || TABLEWARE.has(headNoun) || ws.some((w, i) => HOUSEHOLD.has(w) && (sentenceOf[i] ?? 0) < 2));
  const codes = named
    .map(
      (t) =>
        (ornament ? ORNAMENT_RESIDUALS[t] : undefined) ??
        (household ? HOUSEHOLD_ARTICLES[t] : undefined) ??
        MATERIAL_RESIDUALS[t],
    )
    .filter((c): c is string => c !== undefined);
  return [...new Set(codes)];
}

/**
 * Head nouns that name tableware, kitchenware or another household article whatever the text says of its use: the
 * examples the Explanatory Notes give under heading 69.12 (and 69.11 by reference), (A) tableware, (B) kitchenware
 * and (C) other household articles (HS 2022 ENs; seenthis.kr/hscode/770?page=12 quotes them), which the headings of
 * household articles of plastics, wood, glass and base metals (39.24, 44.19, 70.13, 73.23, 74.18, 76.15) cover alike.
 * Not the words that also name packing or garden goods (jar, pot).
 */
const TABLEWARE = new Set(
  (
    "cup teacup saucer plate bowl tureen dish platter tray teapot coffeepot jug pitcher mug tankard sauceboat cruet " +
    "saltcellar eggcup casserole stewpan basin ladle funnel canister colander ashtray"
  )
    .split(" ")
    .flatMap((w) => words(w)),
);

/** Articles of apparel and clothing accessories a material chapter holds in its own heading (head nouns). */
const APPAREL = new Set(
  "glove mitten mitt apron raincoat poncho bib cape coverall coat jacket".split(" ").flatMap((w) => words(w)),
);
/** The apparel code of a material, by its residual one (MATERIAL_RESIDUALS). */
const APPAREL_OF: Record<string, string> = { "392690": "392620", "401699": "4015", "420500": "4203" };

/**
 * The words that may name an article's material: the head noun phrase and "of"/"from" phrases. A glass named last
 * after another material is the article, a drinking glass ("stoneware ceramic shot glass"), not its material.
 */
function articleMaterials(ws: string[], headEnd: number, head: string[]): { named: string[]; drinkingGlass: boolean } {
  const named = ws.filter((_, i) => i < headEnd || madeOf(ws, i));
  if (head.at(-1) !== "glass" || !head.slice(0, -1).some((w) => MATERIAL_RESIDUALS[w] !== undefined))
    return { named, drinkingGlass: false };
  const at = named.lastIndexOf("glass");
  return { named: named.filter((_, i) => i !== at), drinkingGlass: true };
}

/** Words that introduce what an article is made of: "of", "from" ("cut from medium density fiberboard"). */
const MADE_OF = new Set(["of", "from"]);

/**
 * Whether word i is in the noun phrase an "of" or "from" opens ("of medium density fiberboard"): at most three
 * words on, with no other function word between.
 */
function madeOf(ws: string[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    const w = ws[j] ?? "";
    if (MADE_OF.has(w)) return true;
    if (STOPWORDS.has(w)) return false;
  }
  return false;
}

/** Whether the words from position `i` are the phrase `phrase` (a product term's words, in order). */
const phraseAt = (ws: readonly string[], i: number, phrase: readonly string[]) =>
  phrase.every((p, k) => ws[i + k] === p);

/** Where a product term ending at the head noun (the head phrase's last content word) starts, or -1. */
function headTermStart(index: Index, ws: string[], last: number): number {
  for (let start = Math.max(0, last - 3); start <= last; start++) {
    const len = last - start + 1;
    if (index.synonyms.get(ws[start] ?? "")?.some((s) => s.phrase.length === len && phraseAt(ws, start, s.phrase)))
      return start;
  }
  return -1;
}

/**
 * Whether the words from `from` run to the head noun phrase's last word (its head noun) as one compound, and that
 * word is a noun of goods other than a form, a packing or a material: other words of the compound may come between
 * ("refrigerator temperature sensor").
 */
function headNounAfter(index: Index, ws: string[], gaps: boolean[], from: number, last: number): boolean {
  if (from > last) return false;
  // A number or size in between makes a list of specifications, not a compound ("Laptop 15.6 inch 16GB RAM"), as
  // does a count in words ("Refrigerator double door", "gas stove dual burner").
  for (let k = from; k <= last; k++) if (gaps[k] || MULTIPLES.has(ws[k] ?? "")) return false;
  const w = ws[last];
  if (w === undefined) return false;
  // A head noun that is itself a product term is weighed as one (the compound rule in analyze); a phrase that only
  // starts with it ("case luggage" for "earphone case") does not make it one.
  if (index.synonyms.get(w)?.some((s) => phraseAt(ws, last, s.phrase))) return false;
  return namesArticle(index, w) && !PACKING_WORDS.has(w);
}

/** The index of the first word from `from` that is not a stopword. */
function nextContent(ws: string[], from: number): number {
  let j = from;
  while (j < ws.length && STOPWORDS.has(ws[j] ?? "")) j++;
  return j;
}

/**
 * Whether the product term ending before `from` names what a case holds: the next word of the head phrase is a
 * case ("earphone case", "violin case hard shell", "camera case leather"), with no number in between.
 */
function holdsGoods(ws: string[], gaps: boolean[], from: number, headEnd: number): boolean {
  const j = nextContent(ws, from);
  for (let k = from; k <= j; k++) if (gaps[k]) return false;
  return j < headEnd && CASES.has(ws[j] ?? "");
}

/**
 * Headings of materials and semi-manufactures, which hold a material as such, not articles made of it: Chapters
 * 28 and 29 (chemical elements and separate chemically defined compounds, their notes 1); plastics and rubber in
 * primary forms (3901-3914, Chapter 39 note 6: liquids, pastes, powders, granules, flakes and similar bulk forms;
 * 4001-4005); wood in the rough, sawn, as veneer, plywood, particle board or fibreboard (4401-4413); pulp and paper
 * in rolls or sheets (4701-4811); fibres, yarns and fabrics (Chapters 50-55 and 60, felt and nonwovens, the woven
 * special fabrics of Chapter 58, the coated fabrics of 5901-5907); base metals unwrought or as
 * bars, rods, profiles, wire, plates, sheets, foil and tubes (7201-7229, 7401-7411, 7501-7507, 7601-7609,
 * 7801-7804, 7901-7905, 8001-8003). A head noun naming an article ("vinyl tiles made from PVC", "placemat of
 * medium density fiberboard", "child's bib apron of polyester woven fabric", "woman's stretch wire belt") rules a
 * group out; a noun its own headings' texts use ("resin", "plywood", "yarn", "wire"), a form word, a material or
 * a noun the tariff does not know as goods does not.
 */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
/** The stemmed content tokens of a space-separated word list. */
const stems = (list: string) => list.split(" ").flatMap((w) => tokens(w));
/** Each group's headings, and the forms its goods are traded in (never an article's head noun there). */
const BULK = stems("powder granule pellet flake chip lump block liquid paste dispersion emulsion solution suspension");
const SEMI_MANUFACTURES: { headings: string[]; forms: string[] }[] = [
  { headings: ["28", "29"], forms: [...BULK, ...stems("crystal salt concentrate")] },
  { headings: range(3901, 3914), forms: [...BULK, ...stems("latex compound masterbatch concentrate bead crumb")] },
  { headings: range(4001, 4005), forms: [...BULK, ...stems("latex compound sheet crumb bale")] },
  { headings: range(4401, 4413), forms: stems("board panel veneer lumber timber log sheet plank beam pole chip") },
  { headings: range(4701, 4811), forms: stems("pulp sheet roll board paperboard reel") },
  {
    headings: [
      ...["50", "51", "52", "53", "54", "55", "5602", "5603"],
      ...[...range(5801, 5806), "5808", "5809", "5811", ...range(5901, 5907), "60"],
    ],
    forms: stems("fabric yarn thread fibre fiber filament tow roll material cloth"),
  },
  {
    headings: [
      ...range(7201, 7229),
      ...range(7401, 7411),
      ...range(7501, 7507),
      ...range(7601, 7609),
      ...range(7801, 7804),
      ...range(7901, 7905),
      ...range(8001, 8003),
    ],
    forms: stems("sheet plate strip foil film roll bar rod wire profile tube pipe coil ingot billet slab blank powder"),
  },
];

/**
 * Whether the headings or subheadings under `prefixes` use `noun` in their own texts (the HS descriptions, not the
 * national lines): read from the noun's postings, so nothing is decoded or built for it.
 */
function namedIn(index: Index, noun: string, prefixes: string[]): boolean {
  const p = index.postings.get(noun);
  if (!p) return false;
  const width = FIELDS.length;
  const sub = FIELDS.indexOf("sub");
  const head = FIELDS.indexOf("head");
  for (const prefix of prefixes) {
    const [from, to] = prefixRange(index.docs, prefix);
    let lo = 0;
    let hi = p.docs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((p.docs[mid] ?? 0) < from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < p.docs.length && (p.docs[i] ?? 0) < to; i++)
      if ((p.tf[i * width + sub] ?? 0) > 0 || (p.tf[i * width + head] ?? 0) > 0) return true;
  }
  return false;
}

/**
 * Words that say goods are for industrial or commercial use ("industrial floor polisher", "for use in commercial
 * kitchens"), which the tariff keeps apart from appliances "of a kind used for domestic purposes" (8509, 8516.60-79,
 * household refrigerators, dishwashers, washing and sewing machines): 8479, 8419.81, 8438, 8418.50-69.
 */
const INDUSTRIAL_USE =
  /\bindustrial\b|\bcommercial(?:[- ]grade|ly used| use| kitchens?| establishments?| settings?| applications?| food ?service| restaurants?| customers)\b|\bfor commercial\b|\bin restaurants\b/i;

/** Head nouns of an article made to cover or hold the filling of another ("cushion cover", "pillow shell"). */
const COVERS = new Set(stems("cover slipcover shell sham protector encasement"));
/**
 * The headings of stuffed bedding and furnishing (9404: "fitted with springs or stuffed or internally fitted with
 * any material") a product term before a cover names: the cover is not stuffed, so it is not that article, but bed
 * linen or a furnishing article (6302, 6304, 6307) of its material. The words right before the head noun are read.
 */
function coveredArticles(index: Index, ws: string[], headLast: number): string[] {
  if (!COVERS.has(ws[headLast] ?? "")) return [];
  for (let i = Math.max(0, headLast - 3); i < headLast; i++)
    for (const s of index.synonyms.get(ws[i] ?? "") ?? [])
      if (phraseAt(ws, i, s.phrase) && i + s.phrase.length <= headLast && s.codes.some((c) => c.startsWith("9404")))
        return ["9404"];
  return [];
}

/** The fibre chapters of Section XI each class of fibre (text.ts FIBRE_CLASSES) puts a yarn or fabric in. */
const FIBRE_CHAPTERS: Record<string, string[]> = {
  silk: ["50"],
  wool: ["51"],
  cashmere: ["51"],
  fine: ["51"],
  cotton: ["52"],
  flax: ["53"],
  vegetable: ["53"],
  synthetic: ["54", "55"],
  artificial: ["54", "55"],
};

/**
 * A fabric or yarn of a stated composition goes to the chapter of the fibre that predominates by weight (Section XI
 * note 2(A)): "85% cotton and 15% filament polyester" is a cotton fabric (5208), whatever the filament's heading
 * text says. The other fibre chapters are ruled out.
 */
function otherFibreChapters(noun: string | undefined, fibre: ReturnType<typeof predominantFibre>): string[] {
  if (noun === undefined || !TEXTILE_FORMS.has(noun) || fibre?.share === undefined) return [];
  const own = FIBRE_CHAPTERS[fibre.fibre] ?? [];
  return own.length ? ["50", "51", "52", "53", "54", "55"].filter((c) => !own.includes(c)) : [];
}

function semiManufacturesRuledOut(index: Index, noun: string | undefined, text: string): string[] {
  if (noun === undefined || !index.goods.has(noun) || /\bprimary forms?\b/i.test(text)) return [];
  if (
    noun.startsWith("poly") ||
    noun.endsWith("mer") ||
    MATERIAL_RESIDUALS[noun] !== undefined ||
    FIBRE_WORDS.has(noun)
  )
    return [];
  // The reverse within Section XI: a fabric, a yarn or a fibre is not a garment or a made-up article.
  if (TEXTILE_FORMS.has(noun)) return ["61", "62", "63"];
  return SEMI_MANUFACTURES.flatMap((g) =>
    g.forms.includes(noun) || namedIn(index, noun, g.headings) ? [] : g.headings,
  );
}
const TEXTILE_FORMS = new Set(stems("fabric yarn fibre fiber filament tow"));

/** Nouns that name a chemical as such ("malic acid", "a pharmaceutical intermediate"). */
const COMPOUND_NOUNS = new Set(
  stems("acid salt ester compound intermediate derivative monomer hydrochloride chloride sulfate sulphate"),
);

/** Nouns that name a polymer: "maleic anhydride modified propylene copolymer" is no compound of Chapter 29. */
const POLYMER_NOUNS = new Set(stems("polymer copolymer homopolymer terpolymer resin elastomer"));

/** A CAS registry number in a text, before the letter's frame (which drops it as a reference) is taken out. */
const CAS_NUMBER = /\bCAS\b[^0-9]{0,12}\d{2,7}-\d{2}-\d\b/i;

/**
 * Whether a text is about a chemical compound: it gives a CAS registry number, or its head noun is a chemical's
 * name or a word for a compound rather than an article ("malic acid", "cyclohexylamine"; not "acetate sunglasses").
 */
function aboutCompound(index: Index, noun: string | undefined, text: string, cas: boolean): boolean {
  // A polymer is a plastic or a rubber in a primary form (Chapters 39, 40) whatever its monomers' names say.
  if (noun !== undefined && POLYMER_NOUNS.has(noun)) return false;
  if (cas || /\b\d{2,7}-\d{2}-\d\b/.test(text)) return true;
  if (noun === undefined || (namesArticle(index, noun) && !COMPOUND_NOUNS.has(noun))) return false;
  return COMPOUND_NOUNS.has(noun) || chemicalName(noun) || organicHeading(noun) !== undefined;
}

/** A noun the tariff names goods by that is not a material, a fibre or a form ("shirt", not "cotton"). */
function namesArticle(index: Index, w: string): boolean {
  return (
    index.goods.has(w) &&
    !STOPWORDS.has(w) &&
    !FORM_WORDS.has(w) &&
    MATERIAL_RESIDUALS[w] === undefined &&
    !FIBRE_WORDS.has(w)
  );
}

/**
 * Head nouns of the containers heading 4202 holds whatever they are for ("camera cases, musical instrument cases,
 * gun cases, holsters and similar containers"): a product term before one names what the article holds, not the
 * article, and counts at PARAMS.contained. Covers, sleeves, bags and boxes are left out: their headings depend
 * on the material and the use (bedspreads, lavatory covers, cartons, packing bags).
 */
const CASES = new Set(stems("case pouch holster"));
/** Words before "case" that say what the case is for, not what it holds ("packing cases", "display cases"). */
const CASE_USES = new Set(stems("packing display storage carrying carry travel transport shipping"));

/** Seasonings and flavours a food's title names after the food ("chips sea salt", "almonds honey roasted"). */
const SEASONINGS = new Set(
  stems(
    "salt pepper vinegar spice herb garlic onion chili chilli paprika cinnamon vanilla honey bbq barbecue lime lemon cheese",
  ),
);

/**
 * Words a retail title puts after the product for its packing, form or count ("jam 340g jar", "whey protein
 * powder", "tent 4 person"): not the head of the phrase, though the tariff names some of them as goods.
 */
const PACKING_WORDS = new Set(
  stems(
    "jar bag box can pack bottle tube pouch packet tin carton container sachet tub powder liquid paste granule flake person serving",
  ),
);

/**
 * The liquids food is put up in ("tuna in olive oil", "peaches in light syrup", "mushrooms in brine"): the medium
 * after the food's "in" is how it is packed, not the goods (Chapter 16 and 20 headings take the food, whatever it
 * swims in), though the tariff names some of them as goods of their own (olive oil 1509, fruit juice 2009).
 */
const PACKING_MEDIA = new Set(stems("oil syrup brine sauce water juice vinegar jelly gravy broth"));

/**
 * The positions of a packing medium phrase right after the head noun phrase: "in", up to two describing words
 * ("olive", "light", "tomato"), then a medium; empty when the text has none.
 */
function packingMedium(ws: string[], headEnd: number): Set<number> {
  const at = new Set<number>();
  if (headEnd < 1 || ws[headEnd] !== "in") return at;
  for (let k = headEnd + 1; k <= headEnd + 3 && k < ws.length; k++)
    if (PACKING_MEDIA.has(ws[k] ?? "")) {
      for (let i = headEnd; i <= k; i++) at.add(i);
      return at;
    }
  return at;
}

/**
 * Where the first clause of a text ends (comma, colon, semicolon, bracket, dash, sentence end), in words. A first
 * clause of describing words that `names` finds no article in runs on past its comma, twice at most: "highly
 * detailed, non-functional miniature replicas", "frozen, cooked beef".
 */
function firstClauseLength(text: string, names?: (ws: string[]) => boolean): number {
  // A sentence's end ends the clause too ("an oil bearing seed. An initial laboratory analysis ...").
  const re = /[,;:()[\]]|\s[-\u2013\u2014]\s|[.!?]["\u201d']?\s+(?=["\u201c(]?[A-Z])/g;
  const ws: string[] = [];
  let joins = 0;
  let start = 0;
  for (;;) {
    const m = re.exec(text);
    // Each part's words are read once, the clause so far growing part by part.
    ws.push(...words(text.slice(start, m ? m.index : text.length)));
    if (ws.length > 0 && !(m?.[0] === "," && names && joins < 2 && !names(ws))) return ws.length;
    if (!m) return ws.length;
    if (ws.length > 0) joins++;
    start = m.index + m[0].length;
  }
}

/** Whether words name goods: a noun the tariff names goods by, or the start of a product term. */
const namesGoods = (index: Index, clause: readonly string[]) =>
  clause.some((w, i) => namesArticle(index, w) || index.synonyms.get(w)?.some((s) => phraseAt(clause, i, s.phrase)));

/** Query analysis: weighted content terms and the synonym phrases found (longest first, no overlap). */
export function analyze(index: Index, description: string): Analysis {
  const text = withoutLetterFrame(description);
  const ws: string[] = [];
  const sentenceOf: number[] = [];
  const gaps: boolean[] = [];
  sentences(text).forEach((sentence, k) => {
    const found = wordsAndGaps(sentence);
    ws.push(...found.words);
    gaps.push(...found.gaps);
    for (const _ of found.words) sentenceOf.push(k);
  });
  const weights = new Map<string, number>();
  const found: (SynonymHit & { end: number; start: number; elsewhere: string[] })[] = [];
  const headEnd = headPhraseEnd(text, ws, (clause) => namesGoods(index, clause), gaps);
  const content = (t: string) => !STOPWORDS.has(t) && t.length > 1;
  const head = ws.slice(0, headEnd).filter(content);
  let qualified = false;
  // A case or holster for goods the text names (heading 4202).
  let holder = false;
  // The head noun: the head phrase's last content word.
  let headLast = headEnd - 1;
  while (headLast > 0 && STOPWORDS.has(ws[headLast] ?? "")) headLast--;
  const [headTerm, medium] = [headTermStart(index, ws, headLast), packingMedium(ws, headEnd)];
  // Where a curated product term starts.
  const curated = ws.map((w, i) => (index.synonyms.get(w) ?? []).some((s) => !s.index && phraseAt(ws, i, s.phrase)));
  for (let i = 0; i < ws.length; ) {
    const w = ws[i] ?? "";
    // A qualifier clause ends with its sentence.
    if (i > 0 && sentenceOf[i] !== sentenceOf[i - 1]) qualified = false;
    if (QUALIFIERS.has(w) && !(w === "compatible" && attributive(ws[i + 1]))) qualified = true;
    const weight = (qualified ? PARAMS.qualifier : 1) * ((sentenceOf[i] ?? 0) > 0 ? PARAMS.laterSentence : 1);
    // A phrase that would swallow the start of the head noun's own product term ("cell phone" in "cell phone
    // case", whose head term is "phone case") gives way to it.
    const match = index.synonyms.get(w)?.find(
      (s) =>
        phraseAt(ws, i, s.phrase) &&
        !(i < headTerm && i + s.phrase.length > headTerm) &&
        // A guidance phrase gives way to a curated one inside it ("cotton dress" to "dress shirt").
        !(s.index && curated.slice(i, i + s.phrase.length).some(Boolean)),
    );
    // "cell phone case", "watch strap": in the head noun phrase, a product term followed by the head noun (a noun
    // the tariff names goods by, not a form, packing or material) is that noun's modifier; its words count less.
    const modifies = match !== undefined && headNounAfter(index, ws, gaps, i + match.phrase.length, headLast);
    // "earphone case", "pistol case": a case named by what it holds is no such goods (a material before it,
    // "leather case", is what the case is made of).
    const span = match ? match.phrase.length : 1;
    const holds =
      (match !== undefined || (namesArticle(index, w) && !CASE_USES.has(w))) && holdsGoods(ws, gaps, i + span, headEnd);
    const modifier = holds ? PARAMS.contained : PARAMS.modifier;
    if (holds) holder = true;
    if (match && !found.some((f) => f.phrase === match.phrase.join(" "))) {
      // In an English compound the last noun is the head ("laptop backpack" is a backpack), so a product term
      // directly followed by another one counts as a modifier; so does one followed by "flavour", "print"...
      // A form word is the exception: "detergent sheets" are detergent, put up as sheets.
      const prev = found[found.length - 1];
      const phrase = match.phrase.join(" ");
      // A packing medium's product term ("olive oil" in "tuna in olive oil") names no goods of the text.
      let w2 = medium.has(i) ? 0 : weight * (qualified ? PARAMS.qualifiedSynonym : 1);
      if (prev && prev.end === i) {
        // "Potato chips sea salt": after a food, a seasoning is the food's flavour, as a form word is its form.
        const flavour = SEASONINGS.has(match.phrase.at(-1) ?? "") && prev.codes.every((c) => c < "25");
        if (FORM_WORDS.has(phrase) || flavour) w2 *= PARAMS.modifier;
        else prev.weight *= PARAMS.modifier;
      }
      const after = ws[i + match.phrase.length];
      const byClause = POWERED.has(after ?? "") && ws[i + match.phrase.length + 1] === "by";
      if (after && ATTRIBUTE_MARKERS.has(after) && !byClause) w2 *= PARAMS.modifier;
      else if (modifies || holds) w2 *= modifier;
      // "self-adhesive", "self-propelled": an adjective, not the product.
      if (ws[i - 1] === "self") w2 *= PARAMS.modifier;
      // After the head noun phrase ("agricultural tractor imported ..., tyres fitted after import") a product
      // term is a component or a use, not the article; a qualifier clause has its own, lower weight.
      if (i >= headEnd && !qualified) w2 *= PARAMS.outsideHead;
      found.push({
        phrase,
        codes: match.codes,
        weight: w2 * (match.index ? PARAMS.indexTerm : 1),
        start: i,
        end: i + match.phrase.length,
        head: i < headEnd,
        ambiguous: match.ambiguous ?? false,
        elsewhere: match.elsewhere ?? [],
      });
    }
    // "battery powered": the power source counts as a modifier ("forklifts powered by" names the article).
    const powers = POWERED.has(ws[i + span] ?? "") && ws[i + span + 1] !== "by";
    const factor = modifies || holds ? modifier : powers || medium.has(i) ? PARAMS.modifier : 1;
    for (const t of ws.slice(i, i + span)) {
      if (!content(t)) continue;
      weights.set(t, Math.max(weights.get(t) ?? 0, weight * factor));
    }
    i += span;
  }
  const pharma = medicamentReading(index, ws, weights, found);
  const fibre = predominantFibre(text);
  fibreSense(fibre, weights);
  const cas = CAS_NUMBER.test(description);
  const structure = legalStructure(index, text, { ws, sentenceOf, headEnd, headLast, head, cas }, fibre);
  return {
    terms: [...weights].map(([term, weight]) => ({ term, weight })),
    synonyms: found.filter((f) => f.weight > 0).map((f) => synonymHit(f, head, headLast, structure)),
    head,
    pharma,
    ...structure,
    notesTo: holder ? [...structure.notesTo, "4202"] : structure.notesTo,
  };
}

/** A product term found, as Analysis reports it: settled by its material (`inItsMaterial`), positions dropped. */
function synonymHit(
  found: SynonymHit & { start: number; end: number; elsewhere: string[] },
  head: string[],
  headLast: number,
  structure: { otherMaterials: string[] },
): SynonymHit {
  const { start: _, end: __, elsewhere: ___, ...hit } = found;
  return {
    ...hit,
    head: hit.head ?? false,
    ...(inItsMaterial(found, head, headLast, structure) ? { ambiguous: false } : {}),
  };
}

/**
 * "stainless steel bracelet", "leather pumps": a head noun after the material it is made of is the article in that
 * material; the noun's other sense (watch bracelets, pumps for liquids) is no longer in doubt when the material does
 * not rule the term's own goods out, nor is its own chapter one that names goods by the noun ("steel washers" are
 * 7318, not washing machines; "paper cups" 4823).
 */
function inItsMaterial(
  hit: { ambiguous?: boolean; end: number; codes: string[]; elsewhere: string[] },
  head: string[],
  headLast: number,
  structure: { otherMaterials: string[] },
): boolean {
  if (!hit.ambiguous || hit.end !== headLast + 1) return false;
  const own = new Set(
    head
      .slice(0, -1)
      .map((w) => MATERIAL_RESIDUALS[w]?.slice(0, 2))
      .filter((c): c is string => c !== undefined),
  );
  return (
    own.size > 0 &&
    !hit.codes.some((c) => structure.otherMaterials.includes(c.slice(0, 2))) &&
    !hit.elsewhere.some((h) => own.has(h.slice(0, 2)))
  );
}

/**
 * What the tariff's legal structure reads in the text: the material headings it points to, and the headings
 * and chapters its construction, material, preparation, form and stated figures rule out.
 */
function legalStructure(
  index: Index,
  text: string,
  {
    ws,
    sentenceOf,
    headEnd,
    headLast,
    head,
    cas,
  }: { ws: string[]; sentenceOf: number[]; headEnd: number; headLast: number; head: string[]; cas: boolean },
  fibre: ReturnType<typeof predominantFibre>,
): Omit<Analysis, "terms" | "synonyms" | "head" | "pharma"> {
  const weight = statedWeight(text);
  const materialWords = articleMaterials(ws, headEnd, head);
  return {
    materials: residualMaterials(ws, sentenceOf, materialWords, ws[headLast] ?? ""),
    excluded: constructionExcludes(ws),
    notes: notesExclude(ws),
    notesTo: notesInclude(ws),
    notPrecious: preciousExcludes(ws),
    otherMaterials: otherMaterialChapters(materialWords.named, text),
    prepared: preparedFoodChapters(ws),
    semiManufactures: semiManufacturesRuledOut(index, ws[headLast], text),
    otherFibres: otherFibreChapters(ws[headLast], fibre),
    organic: aboutCompound(index, ws[headLast], text, cas) ? organicHeading(text)?.heading : undefined,
    footwear: footwearUpper(ws, (i) => i + 1 === headLast && namesArticle(index, ws[headLast] ?? "")),
    figures: {
      ...(weight === undefined ? {} : { weight }),
      ...(fibre?.share === undefined ? {} : { fibreShare: fibre.share }),
      quantities: statedQuantities(text),
    },
    parts: partsHeadings(ws, sentenceOf, headEnd),
    coordinated: ws.slice(1, headEnd).some((w, k) => w === "and" && namesArticle(index, ws[k] ?? "")),
    gender: statedGender(ws),
    industrial: INDUSTRIAL_USE.test(text),
    covered: coveredArticles(index, ws, headLast),
  };
}

/**
 * A textile's stated composition, read as the tariff reads it: the predominant fibre's class words ("synthetic",
 * "man-made" for 64 % acrylic) count as product words, and the fibres of the other classes (the 30 % cotton)
 * count for little, so that "of cotton" lines do not win on a minority fibre.
 */
function fibreSense(found: ReturnType<typeof predominantFibre>, weights: Map<string, number>): void {
  if (!found) return;
  for (const t of tokens(FIBRE_CLASS_TERMS[found.fibre] ?? ""))
    weights.set(t, Math.max(weights.get(t) ?? 0, PARAMS.fibreClass));
  for (const w of found.minority)
    for (const t of tokens(w)) weights.set(t, (weights.get(t) ?? 0) * PARAMS.minorityFibre);
}

/**
 * The parts headings a text points to: a word naming a vehicle or machine whose parts have a heading of their own,
 * in the first two sentences, that is not itself the article (the head noun): a modifier of the head noun ("truck
 * cargo rack", "automotive components"), or named after the head noun phrase ("assembly installed on the pickup
 * truck", "for use in motor vehicles").
 */
function partsHeadings(ws: string[], sentenceOf: number[], headEnd: number): string[] {
  let end = 0;
  while (end < ws.length && (sentenceOf[end] ?? 0) < 2) end++;
  // The machine is the article itself ("utility terrain vehicles", "pickup truck"): no part of it is described.
  // A title may name the material after the noun ("quartz wrist watch stainless steel").
  let lastAt = headEnd - 1;
  while (lastAt > 0 && MATERIAL_RESIDUALS[ws[lastAt] ?? ""] !== undefined) lastAt--;
  if (PARTS_OF.has(ws[lastAt] ?? "")) return [];
  const partWord = ws.slice(0, end).some((w) => PART_WORDS.has(w));
  const out = new Set<string>();
  for (let i = 0; i < end; i++) {
    const code = PARTS_OF.get(ws[i] ?? "");
    if (!code) continue;
    // A modifier of the head noun ("truck cargo rack"), or a use clause ("for use in motor vehicles", "designed
    // for", "installed on") or any mention once the text says it is a part, component or assembly.
    const modifier = i < headEnd - 1;
    // The use word may stand seven words before the machine ("used on Cummins ISX 15 L diesel engines"; four before
    // missed the makes and models between them, with nothing lost on the development splits at seven).
    const use = ws.slice(Math.max(0, i - 7), i).some((w) => USE_WORDS.has(w));
    if (modifier || use || partWord) out.add(code);
  }
  return [...out];
}

/** Words that say, in the head noun phrase, the article is a part ("pump parts", "replacement blade"). */
const PART_NOUNS = new Set(["part", "component", "spare", "replacement"]);
const partsDocs = new WeakMap<Index, Map<string, number[]>>();
const PARTS_TEXT = /^parts\b|;\s*parts\b/i;

/**
 * Section XVI note 2(b): a part of a machine goes with it, in the parts subheading of its heading ("Parts" of
 * 8413.91, 8414.90, 8481.90...). When the text says it is a part, that subheading of the best-scoring heading
 * gains (PARAMS.partsSubheading).
 */
function partsSubheadings(index: Index, scores: Float64Array) {
  let top = 0;
  for (let d = 1; d < scores.length; d++) if ((scores[d] ?? 0) > (scores[top] ?? 0)) top = d;
  const heading = index.docs[top]?.slice(0, 4) ?? "";
  const memo = getOrInsert(partsDocs, index, () => new Map<string, number[]>());
  const parts = getOrInsert(memo, heading, () => {
    const [from, to] = prefixRange(index.docs, heading);
    const out: number[] = [];
    for (let d = from; d < to; d++)
      if (PARTS_TEXT.test(index.nodes.get(index.docs[d] ?? "")?.description ?? "")) out.push(d);
    return out;
  });
  for (const d of parts) scores[d] = (scores[d] ?? 0) + PARAMS.partsSubheading;
}

/** Words of a use clause: "for use in", "designed for", "installed on", "fits". */
const USE_WORDS = new Set([
  "for",
  "used",
  "use",
  "designed",
  "intended",
  "installed",
  "mounted",
  "fitted",
  "fit",
  "fits",
]);

/** A dosage form next to a medical word or a drug-shaped name the nomenclature does not know. */
/** Words that claim a treatment, which a food supplement cannot (Chapter 30 note 1(a)). */
const THERAPEUTIC = new Set(
  stems(
    "treat treating treatment therapy therapeutic prescription rx disease deficiency patient clinical medicament medicinal drug",
  ),
);

/**
 * Whether the text reads as a medicament, and if so its weights read it so. A food supplement ("vitamin D3 capsules
 * 1000 IU") is put up in the same doses but is not one: Chapter 30 note 1(a) keeps food supplements out of the
 * medicaments, unless the text claims a treatment.
 */
function medicamentReading(index: Index, ws: string[], weights: Map<string, number>, found: SynonymHit[]): boolean {
  const supplement =
    found.some((f) => f.codes.some((c) => c.startsWith("2106"))) && !ws.some((w) => THERAPEUTIC.has(w));
  const pharma = !supplement && readsAsMedicament(index, ws);
  if (pharma) medicamentSense(ws, weights, found);
  return pharma;
}

function readsAsMedicament(index: Index, ws: string[]): boolean {
  if (!ws.some((w) => DOSAGE_FORMS.has(w))) return false;
  return ws.some((w) => PHARMA_CONTEXT.has(w) || (!index.vocabulary.has(w) && chemicalName(w)));
}

/**
 * A medicament's dosage form names heading 3004 (medicaments in measured doses), not the tablet computer or
 * the coffee capsule the same word names elsewhere; the form word itself says little about the heading.
 */
function medicamentSense(ws: string[], weights: Map<string, number>, found: SynonymHit[]) {
  const form = ws.find((w) => DOSAGE_FORMS.has(w)) ?? "medicament";
  for (const s of found) if (DOSAGE_FORMS.has(s.phrase)) s.weight = 0;
  for (const w of ws)
    if (DOSAGE_FORMS.has(w) && weights.has(w)) weights.set(w, (weights.get(w) ?? 0) * PARAMS.modifier);
  found.push({ phrase: form, codes: ["300490"], weight: 1, head: true });
}

/**
 * Ranks subheadings for a product text. Never throws for bad input: an empty, unknown or too weak text is
 * `{ok: false, reason}`. Blocked codes are removed after ranking; `blockedAll` says every candidate was.
 */
/** The stemmed forms of the words that do not describe goods (text.ts VAGUE_WORDS). */
const VAGUE = new Set(VAGUE_WORDS.flatMap((w) => tokens(w)));

export function rank(index: Index, text: string, opts: RankOptions = {}): RankResult {
  const analysis = analyze(index, text);
  const { terms, synonyms } = analysis;
  const known = terms.filter((t) => index.vocabulary.has(t.term));
  if (terms.length === 0 && synonyms.length === 0)
    return { ok: false, reason: "The description has no words to classify by", matchedTerms: [] };
  if (terms.every((t) => VAGUE.has(t.term)))
    return {
      ok: false,
      reason:
        "The description does not say what the goods are (words such as gift, sample or items are not a customs description); give what the article is, what it is made of and what it is for",
      matchedTerms: [],
    };
  if (known.length === 0 && synonyms.length === 0) {
    return {
      ok: false,
      reason: "None of the words in the description appear in the HS nomenclature or the product vocabulary",
      matchedTerms: [],
    };
  }
  // Words the tariff knows, none of which names an article, a material or a product term ("thank you for your
  // business", "return to sender", "invoice number"): a sentence, not a description of goods. A word the tariff
  // does not know may be the article ("porcelain teapot"), so such a text is still ranked.
  const namesGoods =
    synonyms.length > 0 ||
    terms.some(
      (t) =>
        index.goods.has(t.term) ||
        MATERIAL_RESIDUALS[t.term] !== undefined ||
        ORNAMENTAL.has(t.term) ||
        chemicalName(t.term),
    );
  if (!namesGoods && known.length === terms.length)
    return {
      ok: false,
      reason:
        "The description does not name goods: none of its words is a kind of article, a material or a product term; say what the article is, what it is made of and what it is for",
      matchedTerms: [],
    };

  const scores = scoreDocs(index, known, synonyms, analysis);
  if (opts.precedents?.length) precedentVotes(index, scores, opts.precedents, analysis.terms.length);
  if (opts.headings?.length) headingVotes(index, scores, opts.headings, analysis.terms.length);
  if (opts.model?.length) modelVotes(index, scores, opts.model, analysis.terms.length, 4, PRECEDENT.model);
  if (opts.subheadings?.length)
    modelVotes(index, scores, opts.subheadings, analysis.terms.length, 6, PRECEDENT.subheadingModel);
  // After the votes: a ruling on woven shorts says nothing of knitted ones, nor one on men's trousers of women's,
  // whose headings the tariff keeps apart.
  scaleUnder(index, scores, analysis.excluded, PARAMS.construction);
  // Nor a ruling on a cotton fabric of a fabric whose stated composition is mostly polyester, nor one on a light
  // fabric, a small engine or a low voltage of goods whose stated figures the voted subheading's bounds exclude.
  scaleUnder(index, scores, analysis.otherFibres, PARAMS.otherFibre);
  statedFiguresRuleOut(index, scores, analysis.figures);
  // The upper's material decides among the headings for whole footwear; the others are ruled out.
  if (analysis.footwear)
    scaleUnder(
      index,
      scores,
      FOOTWEAR_HEADINGS.filter((h) => h !== analysis.footwear),
      PARAMS.otherFootwear,
    );
  if (analysis.gender) otherGender(index, scores, analysis.gender);
  if (analysis.industrial) scaleDocs(scores, domesticDocs(index), PARAMS.domestic);
  scaleUnder(index, scores, analysis.covered, PARAMS.covered);
  if (analysis.head.some((w) => PART_NOUNS.has(w))) partsSubheadings(index, scores);
  const prefix = opts.prefix?.slice(0, 6);
  const candidates = rollUp(index, scores, prefix);
  const matchedTerms = known.map((t) => t.term);
  const top = candidates[0];
  if (!top || (scores[top.d] ?? 0) < PARAMS.minScore) {
    return {
      ok: false,
      reason: prefix
        ? `Nothing under ${opts.prefix} matches the description closely enough`
        : "Nothing in the nomenclature matches the description closely enough",
      matchedTerms,
    };
  }
  const calibration = calibrate(top, candidates, index, analysis, known, namesGoods, opts);
  const { picked, removed } = pickSuggestions(index, {
    scores,
    candidates,
    top,
    calibration,
    known,
    synonyms,
    opts,
    words: analysis.terms.length,
  });
  return {
    ok: true,
    suggestions: picked,
    blockedAll: picked.length === 0 && removed > 0,
    matchedTerms,
    synonyms: synonyms.map((s) => s.phrase),
    evidence: calibration.evidence,
  };
}

/** BM25F over the four fields for the known terms, plus each synonym's share spread over its codes. */
function scoreDocs(index: Index, known: QueryTerm[], synonyms: SynonymHit[], analysis: Analysis): Float64Array {
  const scores = new Float64Array(index.docs.length);
  const { k1 } = PARAMS;
  // Per-field constants, read once instead of per posting.
  const fields = FIELDS.map((field) => ({
    weight: PARAMS.weights[field],
    b: PARAMS.b[field],
    lens: index.lens[field],
    avg: index.avgLen[field] || 1,
  }));
  const width = FIELDS.length;
  for (const { term, weight } of known) {
    const p = index.postings.get(term);
    if (!p) continue;
    const idf = index.idf.get(term) ?? 0;
    for (let i = 0; i < p.docs.length; i++) {
      const doc = p.docs[i] ?? 0;
      let tf = 0;
      for (let f = 0; f < width; f++) {
        const raw = p.tf[i * width + f] ?? 0;
        const field = fields[f];
        if (raw === 0 || !field) continue;
        const norm = 1 - field.b + field.b * ((field.lens[doc] ?? 0) / field.avg);
        tf += (field.weight * raw) / norm;
      }
      scores[doc] = (scores[doc] ?? 0) + weight * idf * ((tf * (k1 + 1)) / (tf + k1));
    }
  }
  for (const s of synonyms) {
    const share = (PARAMS.synonym * s.weight * (s.ambiguous ? PARAMS.ambiguous : 1)) / Math.sqrt(s.codes.length);
    // An ornament or a household article whose product term names only headings of a material the text rules
    // out ("vase": glass 7013, ceramics 6913) is the same kind of article in the material the text names: an
    // acrylic vase is an ornamental article of plastics (3926.40), so the term's boost goes to that heading.
    const noun = s.phrase.split(" ").at(-1) ?? "";
    const moved =
      analysis.materials.length > 0 &&
      (ORNAMENTAL.has(noun) || HOUSEHOLD.has(noun)) &&
      s.codes.every((c) => analysis.otherMaterials.includes(c.slice(0, 2)));
    // Jewellery is imitation jewellery (7117) only when it has no pearl, precious or semi-precious stone (natural,
    // synthetic or reconstructed) and no precious metal (Chapter 71 note 11): a zircon ring on brass is an article
    // of synthetic stones (7116), a 925 silver ring jewellery of precious metal (7113).
    const jewellery = s.codes.every((c) => JEWELLERY.includes(c.slice(0, 4)));
    const codes = moved ? analysis.materials : jewellery ? [jewelleryHeading(analysis.notPrecious)] : s.codes;
    for (const code of codes) addUnder(index, scores, code, share);
  }
  // A part of a vehicle or machine: its parts heading, not the machine itself. Goods the section notes keep in
  // their own heading ("seat", "bearing", "tyre", text.ts KEPT_BY_NOTES) get no boost; a head noun the parts
  // heading's own text names ("clutch": 8708.93 clutches and parts thereof) counts more.
  const headNoun = analysis.head[analysis.head.length - 1] ?? "";
  // A title runs on after its noun ("car floor mats rubber all weather"): any kept word in the head phrase counts.
  const kept = analysis.head.some((w) => KEPT_BY_NOTES.has(w));
  let partOf = false;
  for (const code of analysis.parts) {
    const [from, to] = prefixRange(index.docs, code);
    let named = false;
    for (let d = from; d < to && !named; d++)
      named = tokens(index.nodes.get(index.docs[d] ?? "")?.description ?? "").includes(headNoun);
    const boost = kept ? 0 : named ? PARAMS.partsNamed : PARAMS.parts;
    for (let d = from; d < to; d++) scores[d] = (scores[d] ?? 0) + boost;
    const serves = PARTS_HEADINGS[code]?.serves;
    if (!serves) continue;
    const [lo] = prefixRange(index.docs, serves[0]);
    const [, hi] = prefixRange(index.docs, serves[1]);
    for (let d = lo; d < hi; d++) scores[d] = (scores[d] ?? 0) * PARAMS.partsWhole;
    if (boost > 0) partOf = true;
  }
  // The tariff's residual headings: an article of steel that no heading names is an "article of iron or steel".
  // A part of a vehicle or machine has its parts heading, which comes before the residual "articles of" ones.
  if (PARAMS.material > 0 && !partOf)
    for (const code of analysis.materials) {
      // A household heading (a 4-digit code) and an ornaments subheading ("statuettes and other ornaments of",
      // "glassware for indoor decoration") name a class of articles; a residual subheading only takes the rest.
      addUnder(index, scores, code, code.length === 4 || ORNAMENT_CODES.has(code) ? PARAMS.household : PARAMS.material);
    }
  // A heading the notes name for the article (apparel for animals: 4201) names its class, as a household one does.
  for (const code of analysis.notesTo) addUnder(index, scores, code, PARAMS.household);
  // A compound's name gives its Chapter 29 heading (note 3: the last that could hold it).
  if (analysis.organic) addUnder(index, scores, analysis.organic, PARAMS.organic);
  // The chapters' legal structure rules out goods (text.ts: preciousExcludes, otherMaterialChapters) and names
  // footwear's heading; the construction ("knit", "woven"), the fibre chapter and the stated figures (weight, fibre
  // share, power...) are ruled on after the rulings' votes (rank).
  const scale = (codes: readonly string[], factor: number) => scaleUnder(index, scores, codes, factor);
  scale(analysis.otherMaterials, PARAMS.otherMaterial);
  scale(analysis.notPrecious, PARAMS.notPrecious);
  scale(analysis.notes, PARAMS.notes);
  scale(analysis.prepared, PARAMS.prepared);
  scale(analysis.semiManufactures, PARAMS.semiManufactures);
  if (analysis.footwear) addUnder(index, scores, analysis.footwear, PARAMS.footwearUpper);
  return scores;
}

const ORNAMENT_CODES = new Set(Object.values(ORNAMENT_RESIDUALS));

/** Multiplies the score of every subheading under each of `codes` by `factor`. */
function scaleUnder(index: Index, scores: Float64Array, codes: readonly string[], factor: number): void {
  for (const code of codes) {
    const [from, to] = prefixRange(index.docs, code);
    for (let d = from; d < to; d++) scores[d] = (scores[d] ?? 0) * factor;
  }
}

/** Adds `amount` to the score of every subheading under `code` (a chapter, heading or subheading). */
function addUnder(index: Index, scores: Float64Array, code: string, amount: number): void {
  const [from, to] = prefixRange(index.docs, code);
  for (let d = from; d < to; d++) scores[d] = (scores[d] ?? 0) + amount;
}

/**
 * Rulings on similar products (RankOptions.precedents) vote for the subheading and the heading they gave: a
 * learned, nearest-neighbour reading of how customs classified goods described in the same words. A vote is its
 * similarity above PRECEDENT.floor, rescaled to 0-1, times the weights below (BM25 units), and counts in full only
 * for a text of PRECEDENT.words + 8 content words or more, nothing at PRECEDENT.words or fewer: two short texts
 * are alike by chance as often as by kind ("women's silk blouse" and a ruling on a knit blouse). Chosen on the
 * development splits (bench/results/classify.md, "Precedents vote"): 20 / 10 / 4 against 30 / 15, 15 / 5 and word
 * counts 2 and 6, all within a point of each other; none moved a retail title. With 12,918 rulings (against 3,015
 * then) the votes say more: 28 / 14 and the centroids at 42 against 20 / 10 / 30, 24 / 12 / 36 and 34 / 17 / 51
 * ("fourteenth stop": the ruling letters' splits gain, the short descriptions of ATLAS and the retail titles of
 * HSCodeComp lose from 34 on). The floor sits just under the
 * voting similarity (precedents.ts VOTE_SIMILARITY), so the many rulings near 0.2-0.4 add small votes: 0.15
 * against 0.3 with the voting similarity at 0.4 was 6 points more right at 4 digits on the ruling letters'
 * development split ("Farther precedents vote").
 */
const PRECEDENT = {
  subheading: 28,
  heading: 14,
  floor: 0.15,
  words: 4,
  centroid: 42,
  model: 34,
  subheadingModel: 60,
};

function precedentVotes(
  index: Index,
  scores: Float64Array,
  precedents: readonly { code: string; similarity: number }[],
  words: number,
): void {
  const length = voteLength(words);
  if (length === 0) return;
  for (const p of precedents) {
    const vote = voteOf(p.similarity, length);
    const code = p.code.replace(/\D/g, "");
    addUnder(index, scores, code.slice(0, 6), PRECEDENT.subheading * vote);
    addUnder(index, scores, code.slice(0, 4), PRECEDENT.heading * vote);
  }
}

/** How much a text's length lets the rulings vote: nothing at PRECEDENT.words content words, in full 8 words on. */
const voteLength = (words: number) => Math.min(1, Math.max(0, (words - PRECEDENT.words) / 8));

/** A vote: the similarity above PRECEDENT.floor, rescaled to 0-1, times the text's voteLength. */
const voteOf = (similarity: number, length: number) =>
  (length * Math.max(0, similarity - PRECEDENT.floor)) / (1 - PRECEDENT.floor);

/**
 * A heading whose rulings, pooled, read like the text votes for that heading as a ruling of the same similarity
 * votes for its subheading and heading together (PRECEDENT.centroid), on the same floor and length scale. Chosen
 * on the development splits (bench/results/classify.md, "Headings' centroids vote"): the three nearest centroids,
 * against one, two and five, and weights of 0.6 and 1.5 times.
 */
function headingVotes(
  index: Index,
  scores: Float64Array,
  headings: readonly { code: string; similarity: number }[],
  words: number,
): void {
  const length = voteLength(words);
  if (length === 0) return;
  for (const h of headings)
    addUnder(index, scores, h.code.slice(0, 4), PRECEDENT.centroid * voteOf(h.similarity, length));
}

/**
 * The rulings' heading model (precedents.ts trainHeadingModel) votes for each of its three likeliest headings its
 * probability times PRECEDENT.model, on the same length scale as the rulings (`digits` 4). Beside the centroids,
 * not instead of them: the two disagree where a heading's rulings share its words with another's, and the model in
 * the centroids' place was 9 fewer right at 4 digits over three development files than beside them. 34 chosen on
 * the development splits (bench/results/classify.md, "fifteenth stop") against 17, 25 and 50 (the top-1 gain flat
 * from 34 on, while `high` fell under 90 % right on one letters file at 50). The subheading model shares each of
 * those headings' probability among its subheadings (precedents.ts likelySubheadings), and each votes its share
 * times PRECEDENT.subheadingModel for its subheading alone (`digits` 6): 60 chosen on the development splits
 * ("sixteenth stop") against 28, 42 and 84 (top-5 at 6 digits still rising at 84, top-1 at 4 digits falling).
 */
function modelVotes(
  index: Index,
  scores: Float64Array,
  likely: readonly { code: string; probability: number }[],
  words: number,
  digits: 4 | 6,
  weight: number,
): void {
  const length = voteLength(words);
  if (length === 0) return;
  for (const h of likely) addUnder(index, scores, h.code.slice(0, digits), weight * length * h.probability);
}

/**
 * Chapters 61 and 62 keep men's or boys' garments and women's or girls' garments in headings and subheadings of
 * their own ("Trousers ...; men's or boys', of cotton"): for goods the text says are for one, the other's score
 * less (PARAMS.otherGender).
 */
function otherGender(index: Index, scores: Float64Array, gender: "men" | "women"): void {
  scaleDocs(scores, genderDocs(index)[gender === "men" ? "women" : "men"], PARAMS.otherGender);
}

/** Multiplies the score of each of `docs` (subheadings by position) by `factor`. */
function scaleDocs(scores: Float64Array, docs: readonly number[], factor: number): void {
  for (const d of docs) scores[d] = (scores[d] ?? 0) * factor;
}

const domesticDocCache = new WeakMap<Index, number[]>();

/**
 * The subheadings of Chapters 84 and 85 their own text keeps to goods of a domestic kind ("of a kind used for
 * domestic purposes", "household-type", "electro-mechanical domestic appliances": 8509, 8516.50-8516.79, 8450,
 * 8418.21-8418.29, 8422.11, 8452.10), not those whose text excludes them ("not used for domestic purposes").
 */
function domesticDocs(index: Index): number[] {
  return getOrInsert(domesticDocCache, index, () => {
    const out: number[] = [];
    for (const chapter of ["84", "85"]) {
      const [from, to] = prefixRange(index.docs, chapter);
      for (let d = from; d < to; d++) {
        const text = index.nodes.get(index.docs[d] ?? "")?.description ?? "";
        if (DOMESTIC_KIND.test(text) && !/\bnot (?:used for )?(?:domestic|household)|domestic or other/i.test(text))
          out.push(d);
      }
    }
    return out;
  });
}
const DOMESTIC_KIND =
  /\b(?:used for domestic|for household|household[- ]type|household or laundry|household,|household scales|domestic appliances|of the household type)/i;

const genderDocCache = new WeakMap<Index, { men: number[]; women: number[] }>();

/** The subheadings of Chapters 61 and 62 for men's or boys' garments, and those for women's or girls'. */
function genderDocs(index: Index): { men: number[]; women: number[] } {
  return getOrInsert(genderDocCache, index, () => {
    const out = { men: [] as number[], women: [] as number[] };
    for (const chapter of ["61", "62"]) {
      const [from, to] = prefixRange(index.docs, chapter);
      for (let d = from; d < to; d++) {
        const text = index.nodes.get(index.docs[d] ?? "")?.description ?? "";
        if (/\bmen's or boys'/i.test(text)) out.men.push(d);
        else if (/women's or girls'/i.test(text)) out.women.push(d);
      }
    }
    return out;
  });
}

/** The headings of jewellery: of precious metal, of pearls or stones, imitation. */
const JEWELLERY = ["7113", "7116", "7117"];

/** The jewellery heading of what the text names (text.ts preciousExcludes: the headings its materials rule out). */
function jewelleryHeading(notPrecious: readonly string[]): string {
  if (notPrecious.length === 0) return "7113";
  return notPrecious.includes("7116") ? "7117" : "7116";
}

/** The bounds a subheading (or, failing that, its heading) sets on the figures of Analysis.figures. */
interface FigureBounds {
  weight: Bounds | undefined;
  share: Bounds | undefined;
  quantities: Partial<Record<Quantity, Bounds>>;
}
const figureBounds = new WeakMap<Index, Map<number, FigureBounds>>();

function boundsOf(index: Index, d: number): FigureBounds {
  let memo = figureBounds.get(index);
  if (!memo) {
    memo = new Map();
    figureBounds.set(index, memo);
  }
  return getOrInsert(memo, d, () => {
    const code = index.docs[d] ?? "";
    const own = index.nodes.get(code)?.description ?? "";
    const heading = index.nodes.get(code.slice(0, 4))?.description ?? "";
    const chapter = index.docChapter[d] ?? 0;
    return {
      weight: weightBounds(own) ?? weightBounds(heading),
      // In Chapters 50-55 a share by weight is the goods' own fibre's; elsewhere it is another component's
      // (elastomeric yarn in 6002, oil in 2710).
      share: chapter >= 50 && chapter <= 55 ? (fibreShareBounds(own) ?? fibreShareBounds(heading)) : undefined,
      quantities: { ...quantityBounds(heading), ...quantityBounds(own) },
    };
  });
}

/**
 * Paper (Chapter 48) and textiles (Chapters 50-60) are split by figures: weight per square metre ("weighing
 * more than 200 g/m2": 5209, not 5208) and the share of the main fibre ("85% or more by weight": 5512, not
 * 5514); machines and vehicles by power, cylinder capacity and voltage ("of an output not exceeding 750 W").
 * A code whose bounds a figure the text states falls outside is scaled down.
 */
function statedFiguresRuleOut(index: Index, scores: Float64Array, figures: Analysis["figures"]): void {
  const { weight, fibreShare, quantities } = figures;
  const stated = Object.entries(quantities) as [Quantity, number][];
  if (weight === undefined && fibreShare === undefined && stated.length === 0) return;
  for (let d = 0; d < scores.length; d++) {
    const chapter = index.docChapter[d] ?? 0;
    const paperOrTextile = chapter >= 48 && chapter <= 60;
    if (!scores[d] || (!paperOrTextile && stated.length === 0)) continue;
    const b = boundsOf(index, d);
    const ruledOut =
      (paperOrTextile && weight !== undefined && b.weight !== undefined && outside(weight, b.weight)) ||
      (paperOrTextile && fibreShare !== undefined && b.share !== undefined && outside(fibreShare, b.share)) ||
      stated.some(([q, v]) => {
        const bounds = b.quantities[q];
        return bounds !== undefined && outside(v, bounds);
      });
    if (ruledOut) scores[d] = (scores[d] ?? 0) * PARAMS.statedFigures;
  }
}

/**
 * The headings of whole footwear named by the material of the upper (Chapter 64 note 4): an upper of one
 * material rules out the others. 6405 (other footwear) stays: it takes the soles 6401-6404 do not name (a felt
 * slipper's felt sole); 6406 is parts.
 */
const FOOTWEAR_HEADINGS = ["6401", "6402", "6403", "6404"];

/**
 * Roll-up: a heading (and a chapter) is as strong as its best subheading; siblings share some of it. Returns
 * the scored subheadings under `prefix`, strongest first.
 */
function rollUp(index: Index, scores: Float64Array, prefix: string | undefined): { d: number; s: number }[] {
  const n = index.docs.length;
  const headBest = new Float64Array(index.headings.length);
  const chapBest = new Float64Array(100);
  for (let d = 0; d < n; d++) {
    const score = scores[d] ?? 0;
    if (score === 0) continue;
    const h = index.docHeading[d] ?? 0;
    if (score > (headBest[h] ?? 0)) headBest[h] = score;
    const c = index.docChapter[d] ?? 0;
    if (score > (chapBest[c] ?? 0)) chapBest[c] = score;
  }
  const [from, to] = prefix ? prefixRange(index.docs, prefix) : [0, n];
  const candidates: { d: number; s: number }[] = [];
  for (let d = from; d < to; d++) {
    const score = scores[d] ?? 0;
    if (score === 0) continue;
    const s =
      score +
      PARAMS.headingRollup * (headBest[index.docHeading[d] ?? 0] ?? 0) +
      PARAMS.chapterRollup * (chapBest[index.docChapter[d] ?? 0] ?? 0);
    candidates.push({ d, s });
  }
  candidates.sort((a, b) => b.s - a.s || a.d - b.d);
  return candidates;
}

interface PickInput {
  scores: Float64Array;
  candidates: { d: number; s: number }[];
  top: { d: number; s: number };
  calibration: ReturnType<typeof calibrate>;
  known: QueryTerm[];
  synonyms: SynonymHit[];
  opts: RankOptions;
  /** Content words of the text (Analysis.terms), which decide whether the rulings vote (voteLength). */
  words: number;
}

/**
 * How many of the suggestions one heading may take while other headings have strong candidates (for a statement of
 * the goods not labelled high: pickSuggestions). 3 chosen on the development splits (top five at 6 digits,
 * fourteenth stop): 3 against 2 and no limit.
 */
const SAME_HEADING = 3;

/**
 * The first `limit` candidates that are strong enough and not blocked, as suggestions with their national line.
 * The last place goes to a heading the rulings point to (rulingsHeadings: the nearest heading centroids, where one
 * of the nearest rulings agrees) when the places before it hold none of it: the tariff's words and the rulings are
 * two readings of the goods, and a broker's shortlist should carry the second where the first missed it. Only where
 * the rulings vote (a text long enough to be compared with them, voteLength); the order of the others is unchanged.
 * On the development files the right subheading was among the five 0.9-2.0 points more often on the ruling letters,
 * summaries and statements, 1.5 less on the ATLAS restatements, and no retail title moved (bench/results/
 * classify.md, "The rulings' heading in the shortlist"); the centroids alone, without the rulings' agreement, lost
 * 3 points there.
 */
function pickSuggestions(index: Index, input: PickInput): { picked: Suggestion[]; removed: number } {
  const { scores, candidates, top, calibration, known, synonyms, opts } = input;
  const limit = opts.limit ?? 5;
  const blocked = opts.blocked ?? [];
  const picked: Suggestion[] = [];
  let removed = 0;
  const wanted = voteLength(input.words) > 0 && limit > 1 ? rulingsHeadings(opts) : [];
  const suggestion = (c: { d: number; s: number }): Suggestion | "blocked" | undefined => {
    const hs6 = index.docs[c.d];
    if (hs6 === undefined) return undefined;
    const line = bestLine(index, hs6, opts.schedule, known, opts.prefix);
    const code = line?.code ?? hs6;
    if (blocked.some((b) => code.startsWith(b))) return "blocked";
    const score = Math.max(0.01, Math.min(0.99, calibration.top * (c.s / top.s) ** 2));
    const subheading = index.nodes.get(hs6) ?? { code: hs6, description: "" };
    return {
      code,
      hs6,
      chapter: index.nodes.get(hs6.slice(0, 2)) ?? { code: hs6.slice(0, 2), description: "" },
      heading: index.nodes.get(hs6.slice(0, 4)) ?? { code: hs6.slice(0, 4), description: "" },
      subheading,
      tariff: line ? { code: line.code, description: line.description } : subheading,
      raw: Math.round(c.s * 1000) / 1000,
      score: Math.round(score * 1000) / 1000,
      confidence: label(score),
      reasoning: reasoning(index, hs6, known, synonyms, opts.schedule !== undefined && line === null),
    };
  };
  // Weak tail candidates are never offered, not even in place of blocked strong ones.
  const strong = (c: { d: number }) => (scores[c.d] ?? 0) >= PARAMS.minScore / 2;
  // The last place is looked for once: the places before it do not change while it stays open.
  let lastTried = false;
  const held: { d: number; s: number }[] = [];
  // Only for a statement of the goods whose first answer is not labelled high: a title names its article, and a
  // high answer is right at 4 digits nine times in ten or more, so their heading's other subheadings are the
  // alternatives then (the retail titles' top five at 6 digits lost 2 to 4 points with the limit on every text).
  const diverse = input.words > LONG_TEXT && label(calibration.top) !== "high";
  for (const c of candidates) {
    if (picked.length >= limit) break;
    if (!strong(c)) break;
    // The last place: the rulings' heading, if the places before it do not hold it already.
    if (picked.length === limit - 1 && !lastTried) {
      lastTried = true;
      const heading = wanted.find((h) => !picked.some((p) => p.hs6.startsWith(h)));
      const other = heading && candidates.find((o) => strong(o) && index.docs[o.d]?.startsWith(heading));
      const s = other && suggestion(other);
      if (s && s !== "blocked") {
        picked.push(s);
        break;
      }
    }
    // At most SAME_HEADING places for one heading while other headings have strong candidates: the alternatives an
    // officer weighs are other headings more often than a fourth subheading of the first.
    if (diverse && picked.filter((p) => p.hs6.startsWith(index.docs[c.d]?.slice(0, 4) ?? "-")).length >= SAME_HEADING) {
      held.push(c);
      continue;
    }
    const s = suggestion(c);
    if (s === "blocked") removed++;
    else if (s) picked.push(s);
  }
  // Places left open when no other heading had strong candidates go to the held ones, in their order.
  for (const c of held) {
    if (picked.length >= limit) break;
    const s = suggestion(c);
    if (s && s !== "blocked") picked.push(s);
  }
  picked.sort((a, b) => b.raw - a.raw);
  return { picked, removed };
}

/**
 * The headings the rulings point to on both readings: a heading centroid that votes (above PRECEDENT.floor) whose
 * heading one of the nearest rulings gave too, nearest centroid first.
 */
function rulingsHeadings({ headings = [], precedents = [] }: Pick<RankOptions, "headings" | "precedents">): string[] {
  return headings
    .filter((h) => h.similarity > PRECEDENT.floor)
    .map((h) => h.code.slice(0, 4))
    .filter((h) => precedents.some((p) => p.code.replace(/\D/g, "").startsWith(h)));
}

/** The national line under `hs6` whose wording best overlaps the query; null when the schedule has none. */
function bestLine(index: Index, hs6: string, schedule: string | undefined, terms: QueryTerm[], prefix?: string) {
  if (!schedule) return null;
  let list = index.lines.get(schedule)?.get(hs6);
  if (!list?.length) return null;
  if (prefix && prefix.length > 6) {
    const narrowed = list.filter((l) => l.code.startsWith(prefix));
    if (narrowed.length) list = narrowed;
  }
  let best: Node | null = null;
  let bestScore = -1;
  for (const l of list) {
    let s = 0;
    const lineTokens = new Set(tokens(stripExclusions(l.description)));
    for (const t of terms) if (lineTokens.has(t.term)) s += t.weight * (index.idf.get(t.term) ?? 1);
    // Ties keep the first (lowest) code.
    if (s > bestScore) {
      best = l;
      bestScore = s;
    }
  }
  return best;
}

/** One sentence on why a subheading was suggested: the product terms and the words that matched where. */
function reasoning(
  index: Index,
  hs6: string,
  terms: QueryTerm[],
  synonyms: { phrase: string; codes: string[] }[],
  noNationalLine: boolean,
): string {
  const parts: string[] = [];
  const syn = synonyms.filter((s) => s.codes.some((c) => hs6.startsWith(c))).map((s) => `"${s.phrase}"`);
  if (syn.length) parts.push(`product term ${syn.join(", ")} points to ${hs6.slice(0, 4)}`);
  const sub = new Set(tokens(stripExclusions(index.nodes.get(hs6)?.description ?? "")));
  const head = new Set(tokens(stripExclusions(index.nodes.get(hs6.slice(0, 4))?.description ?? "")));
  const inSub = terms.filter((t) => sub.has(t.term)).map((t) => t.term);
  const inHead = terms.filter((t) => !sub.has(t.term) && head.has(t.term)).map((t) => t.term);
  if (inSub.length) parts.push(`subheading text matches ${inSub.join(", ")}`);
  if (inHead.length) parts.push(`heading text matches ${inHead.join(", ")}`);
  if (!parts.length) parts.push("matched through the national tariff wording");
  if (noNationalLine)
    parts.push("the national schedule has no line under this HS2022 subheading, so the 6-digit code is given");
  return `${parts.join("; ")}.`;
}

/**
 * `high` at 0.95. The score is fitted on retail titles and ruling descriptions together, and on terse ruling
 * subjects ("rings", "cat toy", "a napkin") it runs ahead of the truth: on the outside subject lines
 * (bench/data/labelled/us-cbp-subjects.tsv) the 0.90-0.95 band was right at 4 digits 15 times in 32 on the even half
 * and 10 in 30 on the odd half, against 46 in 57 and 39 in 50 from 0.95; on the retail splits the same band was
 * right 54 times in 54. A confident wrong code is the costliest answer, so the label errs towards `medium`; the
 * score itself is unchanged (0.75 and 0.9 were the earlier thresholds).
 */
export const label = (score: number): "high" | "medium" | "low" =>
  score >= 0.95 ? "high" : score >= 0.45 ? "medium" : "low";

/**
 * Calibrated probability that the top suggestion is right at heading level, from the evidence the ranking
 * has (see Evidence). Logistic weights fitted on the development splits only (bench/data/classify-eval.tsv and
 * bench/data/classify-rulings-dev.tsv, ruling items weighted 3x so the short retail titles do not dominate, L2
 * 0.5, checked by 5-fold cross-validation); the held-out splits check them (bench/classify-eval.mjs prints the
 * reliability tables). `conflict` is held at 0 rather than reward disagreeing product terms. `unsupported`
 * applies when no word of the head noun phrase names the top suggestion, `nounUnsupported` when its head noun
 * (last word) does not ("cheese knife set" named by "cheese"); `words` (log of 1 + known content words) makes a
 * long technical description less certain than a short title with the same margin.
 */
const CALIBRATION = {
  bias: 1.31,
  /** On the square root of the margin: a small lead over the next heading is already telling. */
  margin: 3.49,
  synonym: 0.24,
  conflict: 0,
  strength: 0.4,
  coverage: 0.27,
  unsupported: -0.68,
  nounUnsupported: -1.06,
  words: -1.88,
  votes: 0,
  centroid: 0,
  learned: 0,
};

/** What the confidence is computed from; returned with every ranking so the calibration can be refitted. */
interface Evidence {
  /** (best - best of another heading) / best, 0-1. */
  margin: number;
  /** A curated product term (not a modifier) names the top suggestion. */
  synonym: boolean;
  /** Product terms (not modifiers) name other headings too. */
  conflict: boolean;
  /** Raw score of the best suggestion. */
  strength: number;
  /** Share of the text's known words (by weight) found in the best suggestion's document. */
  coverage: number;
  /**
   * A word of the head noun phrase ("steel lever" in "steel lever for the closing ring of a drum") is in the
   * best suggestion's own, national or heading text, or a product term there names it.
   */
  head: boolean;
  /** The head noun (last content word of the head noun phrase) names the best suggestion, as `head` does. */
  headNoun: boolean;
  /** Known content words of the text (a short retail title has few, a ruling description many). */
  words: number;
  /** Share of the text's known words (by weight) in the best suggestion's own subheading text. */
  ownText: number;
  /** A word of the text names goods (an article, a material, a product term): see Index.goods. */
  namesGoods: boolean;
  /**
   * Share of the rulings' votes (by similarity above the floor) cast for the best suggestion's heading, 0-1; 0 when
   * no ruling voted. Rulings on goods described alike agreeing with the words is the surest sign of a right answer.
   */
  votes: number;
  /** The heading whose rulings, pooled, read most like the text is the best suggestion's. */
  centroid: boolean;
  /** The models learned from the rulings voted (RankOptions.model and .subheadings, on a text long enough). */
  learned: boolean;
}

/**
 * The most a text that names no goods is given: its words met the tariff's only as qualifiers ("account" in
 * "account books") or as words the tariff does not know, so whatever ranks first is a guess, never `medium`.
 */
const NO_GOODS_CAP = 0.3;
/**
 * Below this raw score the top suggestion is never `high`: on the outside sets such answers labelled `high` were
 * right 9 times in 16 (CBP ruling subjects) and 7 in 44 (UK parcel declarations); no retail title of the
 * development or held-out splits scored so low.
 */
const WEAK_MATCH = 20;
/** The most an ornament named without its material scores: `medium` at best. */
const NO_MATERIAL_CAP = 0.85;

function calibrate(
  top: { d: number; s: number },
  candidates: { d: number; s: number }[],
  index: Index,
  analysis: Analysis,
  terms: QueryTerm[],
  namesGoods: boolean,
  opts: Pick<RankOptions, "precedents" | "headings" | "model" | "subheadings">,
) {
  const { synonyms } = analysis;
  const topCode = index.docs[top.d] ?? "";
  const topHeading = index.docHeading[top.d];
  const next = candidates.find((c) => index.docHeading[c.d] !== topHeading);
  const margin = next ? (top.s - next.s) / top.s : 1;
  const heads = synonyms.filter((s) => s.weight === 1);
  const names = (s: { codes: string[] }) => s.codes.some((c) => topCode.startsWith(c.slice(0, 4)));
  let total = 0;
  let found = 0;
  let own = 0;
  for (const t of terms) {
    total += t.weight;
    const p = index.postings.get(t.term);
    const i = p ? docPosition(p.docs, top.d) : -1;
    if (!p || i < 0) continue;
    found += t.weight;
    if ((p.tf[i * FIELDS.length] ?? 0) > 0) own += t.weight;
  }
  const coverage = total ? found / total : 0;
  const last = analysis.head[analysis.head.length - 1];
  const evidence: Evidence = {
    margin,
    synonym: heads.some(names),
    conflict: heads.some((s) => !names(s)),
    strength: top.s,
    coverage,
    head: headSupports(index, top.d, analysis.head, analysis, names),
    headNoun: last === undefined || headSupports(index, top.d, [last], analysis, names, last),
    words: terms.length,
    ownText: total ? own / total : 0,
    namesGoods,
    ...votesFor(index.docs[top.d]?.slice(0, 4) ?? "", opts, analysis.terms.length),
    learned: voteLength(analysis.terms.length) > 0 && (opts.model?.length ?? 0) + (opts.subheadings?.length ?? 0) > 0,
  };
  const p = probability(evidence);
  if (!namesGoods) return { top: Math.min(p, NO_GOODS_CAP), evidence };
  // An ornament or a figurine is classified by what it is made of (3926.40, 4420.11, 6913, 7013, 8306.29...):
  // named without its material, the heading is a guess, never `high`.
  // A product term naming the heading (festive decorations, 9505) is not such a guess.
  const ornamentOnly =
    analysis.head.some((w) => ORNAMENTAL.has(w)) && analysis.materials.length === 0 && !evidence.synonym;
  // A weak best match (a raw score under WEAK_MATCH: one uncommon word met once, "pizza" meeting "pizza ovens") is
  // a guess however far it leads the next heading.
  // Nor is a best match the head noun does not name ("cell phone lanyard" meeting smartphones, "lipstick case" lip
  // make-up): the words that did match describe what the article is for, not what it is.
  const capped = ornamentOnly || analysis.coordinated || top.s < WEAK_MATCH || !evidence.headNoun;
  return { top: capped ? Math.min(p, NO_MATERIAL_CAP) : p, evidence };
}

/** How the rulings that voted (RankOptions.precedents, .headings) stand to a heading: Evidence.votes, .centroid. */
function votesFor(
  heading: string,
  { precedents = [], headings = [] }: Pick<RankOptions, "precedents" | "headings">,
  words: number,
): Pick<Evidence, "votes" | "centroid"> {
  if (voteLength(words) === 0) return { votes: 0, centroid: false };
  let all = 0;
  let mine = 0;
  for (const p of precedents) {
    const w = Math.max(0, p.similarity - PRECEDENT.floor);
    all += w;
    if (p.code.replace(/\D/g, "").startsWith(heading)) mine += w;
  }
  const [nearest] = headings;
  return {
    votes: all > 0 ? mine / all : 0,
    centroid: nearest !== undefined && nearest.similarity > PRECEDENT.floor && nearest.code.startsWith(heading),
  };
}

/**
 * A statement of the goods (more than LONG_TEXT known content words: a ruling's facts, a technical description)
 * has its own weights, fitted the same way on the long texts of the development splits (mostly the ruling letters
 * of bench/data/classify-rulings-pages-dev.tsv, ranked with the precedents' votes): the short-text weights, whose
 * `words` term was fitted where long texts were few, put the score of such a text near 0.15 when it was right
 * about two times in three (bench/results/classify.md, "Confidence for long descriptions").
 */
const LONG_TEXT = 15;
const CALIBRATION_LONG: typeof CALIBRATION = {
  bias: -4.52,
  margin: 3.44,
  synonym: -0.87,
  conflict: 0,
  strength: 1.5,
  coverage: 1.49,
  unsupported: 0.69,
  nounUnsupported: -0.94,
  words: -0.92,
  // The bias and these two refitted with the other weights held (bench/classify-calibrate.mjs, "agreement refit";
  // bench/results/classify.md, "Confidence from the rulings' agreement").
  votes: 0.71,
  centroid: 0.4,
  // Where the models learned from the rulings vote (modelVotes), they widen the lead of the answers the rulings
  // agree on, at no better precision: 0.3 off with the heading model (`high` fell to 88 % right on one letters'
  // development file without it, 90.6 % and more on every one with it; bench/results/classify.md, "fifteenth
  // stop"), 0.6 more with the subheading model (87.7-89.5 % on five development files at -0.3, 88.8 % on one at
  // -0.6, 90.0 % at -0.75, 90.5 % and more on every one at -0.9; "sixteenth stop").
  learned: -0.9,
};

function probability(e: Evidence): number {
  const c = e.words > LONG_TEXT ? CALIBRATION_LONG : CALIBRATION;
  const z =
    c.bias +
    c.margin * Math.sqrt(Math.max(0, e.margin)) +
    (e.synonym ? c.synonym : 0) +
    (e.conflict ? c.conflict : 0) +
    c.strength * Math.log(1 + e.strength) +
    c.coverage * e.coverage +
    (e.head ? 0 : c.unsupported) +
    (e.headNoun ? 0 : c.nounUnsupported) +
    c.words * Math.log(1 + e.words) +
    c.votes * e.votes +
    (e.centroid ? c.centroid : 0) +
    (e.learned ? c.learned : 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * Whether words of the head noun phrase name the document: one of them in a non-chapter field, or a product
 * term of the head phrase (with `word`, only a product term that contains that word).
 */
function headSupports(
  index: Index,
  d: number,
  head: string[],
  analysis: Analysis,
  names: (s: SynonymHit) => boolean,
  word?: string,
): boolean {
  if (head.length === 0) return true;
  const covers = (s: SynonymHit) => word === undefined || s.phrase.split(" ").includes(word);
  if (analysis.synonyms.some((s) => s.head && s.weight > 0 && names(s) && covers(s))) return true;
  const width = FIELDS.length;
  for (const t of head) {
    const p = index.postings.get(t);
    if (!p) continue;
    const i = docPosition(p.docs, d);
    if (i < 0) continue;
    for (let f = 0; f < width - 1; f++) if ((p.tf[i * width + f] ?? 0) > 0) return true;
  }
  return false;
}

/** [from, to) of the sorted codes that start with `prefix`. */
function prefixRange(sorted: string[], prefix: string): [number, number] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? "") < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (sorted[end]?.startsWith(prefix)) end++;
  return [lo, end];
}

/** Position of `d` in sorted postings, -1 when absent. */
function docPosition(sorted: Int32Array | Uint16Array, d: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid] ?? 0;
    if (v === d) return mid;
    if (v < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
