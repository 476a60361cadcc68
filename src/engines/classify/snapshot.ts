/**
 * The classification indexes as one compact binary object (src/lib/pack.ts), so that a new isolate loads
 * what another one built in one read instead of reading the `hs` rows from D1 and building again.
 *
 * Typed arrays are stored as they are; the postings map becomes its terms (a string table, in map order)
 * with one offsets array into the concatenated document ids and term frequencies, and the nodes their codes
 * and descriptions as string tables: restored, they are maps that make an entry when it is first read
 * (TableMap), so a new isolate neither parses nor fills ten thousand entries before its first answer. The
 * small maps become arrays of entries in map order, so a restored index iterates exactly like the built one
 * and ranks identically. The vocabulary is the terms and the synonyms' words.
 *
 * The national lines of each schedule and the US statistical lines are separate objects beside the main one
 * (`serializePart`, `attachPart`): together they are most of the bytes, and a request needs one schedule's
 * (a US one its statistical lines too), so a new isolate reads the main object and those parts side by side
 * instead of every schedule. Within a part the lines are JSON per chapter, parsed when first read.
 * Pure: the module service does the I/O.
 */
import { PartitionedMap, TableMap } from "../../lib/lazy-map";
import { jsonBytes, jsonOf, type PackedArray, pack, unpack } from "../../lib/pack";
import { readTable, StringTable, storeTable } from "../../lib/string-table";
import type { Index } from "./engine";
import type { PrecedentIndex, RulingRow } from "./precedents";
import type { StatisticalCandidate } from "./statistical";

/**
 * What POST /classify ranks with: the index, the US statistical lines by 8-digit line, the rulings. Restored
 * from the main object, `index.lines` and `statistical` hold only the parts attached so far (`attachPart`).
 */
export interface ClassifyIndexes {
  index: Index;
  statistical: Map<string, StatisticalCandidate[]>;
  precedents: PrecedentIndex;
}

/**
 * Bump when the layout below changes, or how the rows become the index (tokens, letter frames): older objects are
 * then refused and rebuilt. 10: "tights" keeps its own token; the rulings' frames are read more widely. 11: the
 * headings' centroids of the rulings; ambiguous product terms keep the headings that make them so. 12: more of the
 * letters' frames (appositions, "said to be", the sample sentences) are taken out of the rulings' texts. 13: the
 * heading model learned from the rulings (its weights and biases). 14: the subheading model beside it.
 */
const KIND = "classify-index/14";
const PART_KIND = "classify-lines/1";
/** The part holding the US statistical (10-digit) lines; a schedule's national lines are `lines-{schedule}`. */
const STAT_PART = "stat";
const linesPart = (schedule: string) => `lines-${schedule}`;

/** The parts a request for `schedule` reads: its national lines, and for the US the statistical lines. */
export const partsFor = (schedule: string | undefined): string[] =>
  schedule === undefined ? [] : schedule === "US" ? [linesPart(schedule), STAT_PART] : [linesPart(schedule)];

type Pair = [string, string];
type Synonym = { phrase: string[]; codes: string[]; ambiguous?: boolean; elsewhere?: string[]; index?: boolean };

interface Meta {
  docs: string[];
  avgLen: Index["avgLen"];
  headings: string[];
  synonyms: [string, Synonym[]][];
  /** The parts stored beside this object (`lines-{schedule}`, `stat`). */
  parts: string[];
  stats: Index["stats"];
  rulings: [string, string, string, string][];
  rulingHeadings: string[];
  rulingSubheadings: string[];
}

const FIELDS = ["sub", "nat", "head", "chap"] as const;
const pairs = (nodes: Iterable<{ code: string; description: string }>): Pair[] =>
  Array.from(nodes, (n) => [n.code, n.description]);
const nodesOf = (list: Pair[]) => list.map(([code, description]) => ({ code, description }));

/** A map keyed by code as lists of `[code, [[code, description], ...]]` per chapter (the code's first 2 digits). */
function byChapter(map: Map<string, { code: string; description: string }[]>): Map<string, [string, Pair[]][]> {
  const out = new Map<string, [string, Pair[]][]>();
  for (const [code, list] of map) {
    const chapter = code.slice(0, 2);
    const rows = out.get(chapter) ?? [];
    rows.push([code, pairs(list)]);
    out.set(chapter, rows);
  }
  return out;
}

/** Lazily parsed chapters: the part's `{chapter}` arrays, or the first one missing. */
function chapterParts(
  arrays: Record<string, PackedArray>,
  chapters: string[],
): [string, () => [string, { code: string; description: string }[]][]][] | { missing: string } {
  const out: [string, () => [string, { code: string; description: string }[]][]][] = [];
  for (const chapter of chapters) {
    const bytes = arrays[chapter];
    if (!(bytes instanceof Uint8Array)) return { missing: chapter };
    // A view, not a copy: the parts are most of the object, so keeping its buffer alive costs little more than
    // copying them would, and copying thousands of small parts costs a new isolate tens of milliseconds.
    out.push([chapter, () => jsonOf<[string, Pair[]][]>(bytes).map(([code, l]) => [code, nodesOf(l)])]);
  }
  return out;
}

const chapterOf = (code: string) => code.slice(0, 2);

/** The main object as bytes (the lines are parts: `serializePart`), stamped with the dataset version. */
export function serializeIndexes(built: ClassifyIndexes, version: string): Uint8Array {
  const { index, precedents } = built;
  const terms = [...index.postings.keys()];
  const offsets = new Uint32Array(terms.length + 1);
  let total = 0;
  terms.forEach((t, i) => {
    offsets[i] = total;
    total += index.postings.get(t)?.docs.length ?? 0;
  });
  offsets[terms.length] = total;
  // The postings' own widths (engine.ts buildPostings), the same for every term.
  const [first] = index.postings.values();
  const docs = first?.docs instanceof Uint16Array ? new Uint16Array(total) : new Int32Array(total);
  const tf =
    first?.tf instanceof Uint8Array ? new Uint8Array(total * FIELDS.length) : new Uint16Array(total * FIELDS.length);
  const idf = new Float64Array(terms.length);
  terms.forEach((t, i) => {
    const p = index.postings.get(t);
    if (p) {
      docs.set(p.docs, offsets[i]);
      tf.set(p.tf, (offsets[i] ?? 0) * FIELDS.length);
    }
    idf[i] = index.idf.get(t) ?? 0;
  });
  const meta: Meta = {
    docs: index.docs,
    avgLen: index.avgLen,
    headings: index.headings,
    synonyms: [...index.synonyms],
    parts: partNames(built),
    stats: index.stats,
    rulings: precedents.rows.map((r) => [r.rulingNumber, r.code, r.subject, r.url]),
    rulingHeadings: precedents.headings,
    rulingSubheadings: precedents.subheadings,
  };
  const arrays: Record<string, PackedArray> = {
    offsets,
    postingDocs: docs,
    postingTf: tf,
    idf,
    docHeading: index.docHeading,
    docChapter: index.docChapter,
    // The precedents' postings (precedents.ts): their terms are a string table below.
    rulingIdf: precedents.idf,
    rulingOffsets: precedents.offsets,
    rulingDocs: precedents.docs,
    rulingWeights: precedents.weights,
    // The headings' centroids over the same terms (precedents.ts headingCentroids).
    headingOffsets: precedents.headingOffsets,
    headingDocs: precedents.headingDocs,
    headingWeights: precedents.headingWeights,
    // The heading model learned from the rulings, in the centroids' layout (precedents.ts trainHeadingModel).
    modelWeights: precedents.modelWeights,
    modelBias: precedents.modelBias,
    // The subheading model, in its own layout: per term, the subheadings whose rulings use it.
    subheadingOffsets: precedents.subheadingOffsets,
    subheadingDocs: precedents.subheadingDocs,
    subheadingWeights: precedents.subheadingWeights,
    subheadingBias: precedents.subheadingBias,
  };
  for (const f of FIELDS) arrays[`len_${f}`] = index.lens[f];
  const nodes = [...index.nodes.values()];
  const tables: [string, StringTable][] = [
    ["terms", StringTable.of(terms)],
    ["nodeCodes", StringTable.of(nodes.map((n) => n.code))],
    ["rulingTerms", StringTable.of(precedents.terms, { searchable: false })],
    // The words that name goods (engine.ts Index.goods): a set, looked up by hash.
    [
      "goods",
      StringTable.of(index.goods instanceof StringTable ? index.goods.toArray() : [...(index.goods as Set<string>)]),
    ],
    [
      "nodeText",
      StringTable.of(
        nodes.map((n) => n.description),
        { searchable: false },
      ),
    ],
  ];
  for (const [name, table] of tables) storeTable(arrays, name, table);
  return pack(KIND, version, meta, arrays);
}

/** The parts `serializePart` makes of `built`: each schedule's national lines, and the statistical lines. */
export function partNames(built: ClassifyIndexes): string[] {
  return [...[...built.index.lines.keys()].map(linesPart), STAT_PART];
}

/** Part `part` of the built indexes as bytes (JSON per chapter), stamped with the dataset version. */
export function serializePart(built: ClassifyIndexes, part: string, version: string): Uint8Array {
  const map = part === STAT_PART ? built.statistical : built.index.lines.get(part.slice(linesPart("").length));
  if (!map) throw new Error(`no part ${part}`);
  const arrays: Record<string, PackedArray> = {};
  for (const [chapter, rows] of byChapter(map)) arrays[chapter] = jsonBytes(rows);
  return pack(PART_KIND, version, { part, chapters: Object.keys(arrays) }, arrays);
}

/**
 * Adds a part stored by `serializePart` to restored indexes, or says why it cannot be used (another part,
 * layout or dataset version, a damaged object): the caller then takes the part from a build.
 */
export function attachPart(
  indexes: ClassifyIndexes,
  part: string,
  buffer: ArrayBuffer,
  version: string,
): { refused: string } | null {
  const unpacked = unpack(buffer, PART_KIND, version);
  if ("refused" in unpacked) return unpacked;
  const meta = unpacked.meta as { part?: unknown; chapters?: unknown };
  if (meta.part !== part) return { refused: `part ${String(meta.part)}` };
  if (!Array.isArray(meta.chapters) || !meta.chapters.every((c) => typeof c === "string"))
    return { refused: "malformed part" };
  const chapters = chapterParts(unpacked.arrays, meta.chapters);
  if ("missing" in chapters) return { refused: `chapter ${chapters.missing}` };
  const map = new PartitionedMap<string, { code: string; description: string }[]>(chapterOf, chapters);
  if (part === STAT_PART) indexes.statistical = map;
  else indexes.index.lines.set(part.slice(linesPart("").length), map);
  return null;
}

/** Every part of `built` copied into `into` (restored indexes whose parts could not be read). */
export function attachFromBuilt(into: ClassifyIndexes, built: ClassifyIndexes, part: string): void {
  if (part === STAT_PART) into.statistical = built.statistical;
  else {
    const schedule = part.slice(linesPart("").length);
    const lines = built.index.lines.get(schedule);
    if (lines) into.index.lines.set(schedule, lines);
  }
}

/**
 * The indexes stored by `serializeIndexes` for `version`, or why they cannot be used (another layout or
 * dataset version, a damaged object): the caller then builds from the rows.
 */
export function deserializeIndexes(
  buffer: ArrayBuffer,
  version: string,
): (ClassifyIndexes & { parts: string[] }) | { refused: string } {
  const unpacked = unpack(buffer, KIND, version);
  if ("refused" in unpacked) return unpacked;
  const meta = unpacked.meta as Meta;
  const a = unpacked.arrays;
  const { offsets, postingDocs, postingTf, idf: idfs, docHeading, docChapter } = a;
  const [terms, nodeCodes, nodeText, goods] = [
    readTable(a, "terms"),
    readTable(a, "nodeCodes"),
    readTable(a, "nodeText"),
    readTable(a, "goods"),
  ];
  if (
    "refused" in terms ||
    "refused" in nodeCodes ||
    "refused" in nodeText ||
    "refused" in goods ||
    nodeCodes.length !== nodeText.length
  )
    return { refused: "term or node tables are damaged" };
  if (
    !(offsets instanceof Uint32Array) ||
    !(postingDocs instanceof Int32Array || postingDocs instanceof Uint16Array) ||
    !(postingTf instanceof Uint16Array || postingTf instanceof Uint8Array) ||
    !(idfs instanceof Float64Array) ||
    !(docHeading instanceof Int32Array) ||
    !(docChapter instanceof Uint8Array) ||
    offsets.length !== terms.length + 1 ||
    idfs.length !== terms.length ||
    offsets[terms.length] !== postingDocs.length ||
    postingTf.length !== postingDocs.length * FIELDS.length
  )
    return { refused: "arrays do not match the terms" };
  const lens = {} as Index["lens"];
  for (const f of FIELDS) {
    const l = a[`len_${f}`];
    if (!(l instanceof Float32Array) || l.length !== meta.docs.length) return { refused: `lengths of ${f}` };
    lens[f] = l;
  }
  for (let i = 0; i < terms.length; i++)
    if ((offsets[i] as number) > (offsets[i + 1] as number)) return { refused: "posting offsets go back" };
  // Views on the object, not copies: the lazily read parts keep its buffer alive in any case.
  const postings: Index["postings"] = new TableMap(terms, (i) => {
    const from = offsets[i] as number;
    const to = offsets[i + 1] as number;
    return { docs: postingDocs.subarray(from, to), tf: postingTf.subarray(from * FIELDS.length, to * FIELDS.length) };
  });
  const idf: Index["idf"] = new TableMap(terms, (i) => idfs[i] as number);
  const synonyms: Index["synonyms"] = new Map(meta.synonyms);
  const synonymWords = new Set<string>();
  for (const list of synonyms.values()) for (const s of list) for (const w of s.phrase) synonymWords.add(w);
  const vocabulary: Index["vocabulary"] = { has: (w) => terms.has(w) || synonymWords.has(w) };
  if (!Array.isArray(meta.parts)) return { refused: "malformed header" };
  const lines: Index["lines"] = new Map();
  const index: Index = {
    docs: meta.docs,
    nodes: new TableMap(nodeCodes, (i) => ({ code: nodeCodes.at(i) as string, description: nodeText.at(i) as string })),
    postings,
    idf,
    avgLen: meta.avgLen,
    lens,
    docHeading,
    docChapter,
    headings: meta.headings,
    synonyms,
    lines,
    vocabulary,
    goods,
    stats: meta.stats,
  };
  const precedents = restorePrecedents(a, meta);
  if ("refused" in precedents) return precedents;
  return {
    index,
    statistical: new Map(),
    parts: meta.parts,
    precedents,
  };
}

/** The precedents' rows and postings from a main object's header and arrays. */
function restorePrecedents(a: Record<string, PackedArray>, meta: Meta): PrecedentIndex | { refused: string } {
  const rows: RulingRow[] = meta.rulings.map(([rulingNumber, code, subject, url]) => ({
    rulingNumber,
    code,
    subject,
    url,
  }));
  const terms = readTable(a, "rulingTerms");
  const { rulingIdf: idf, rulingOffsets: offsets, rulingDocs: docs, rulingWeights: weights } = a;
  const { headingOffsets, headingDocs, headingWeights, modelWeights, modelBias } = a;
  const headings = meta.rulingHeadings;
  if (
    "refused" in terms ||
    !Array.isArray(headings) ||
    !(headingOffsets instanceof Uint32Array) ||
    !(headingDocs instanceof Uint16Array) ||
    !(headingWeights instanceof Float32Array) ||
    headingOffsets.length !== terms.length + 1 ||
    headingOffsets[terms.length] !== headingDocs.length ||
    headingWeights.length !== headingDocs.length
  )
    return { refused: "heading centroids do not match the ruling terms" };
  if (
    !(modelWeights instanceof Float32Array) ||
    !(modelBias instanceof Float32Array) ||
    modelWeights.length !== headingDocs.length ||
    modelBias.length !== headings.length
  )
    return { refused: "the heading model does not match the centroids" };
  const { subheadingOffsets, subheadingDocs, subheadingWeights, subheadingBias } = a;
  const subheadings = meta.rulingSubheadings;
  if (
    !Array.isArray(subheadings) ||
    !(subheadingOffsets instanceof Uint32Array) ||
    !(subheadingDocs instanceof Uint16Array) ||
    !(subheadingWeights instanceof Float32Array) ||
    !(subheadingBias instanceof Float32Array) ||
    subheadingOffsets.length !== terms.length + 1 ||
    subheadingOffsets[terms.length] !== subheadingDocs.length ||
    subheadingWeights.length !== subheadingDocs.length ||
    subheadingBias.length !== subheadings.length
  )
    return { refused: "the subheading model does not match the ruling terms" };
  if (
    "refused" in terms ||
    !(idf instanceof Float64Array) ||
    !(offsets instanceof Uint32Array) ||
    !(docs instanceof Uint16Array || docs instanceof Uint32Array) ||
    !(weights instanceof Float32Array) ||
    idf.length !== terms.length ||
    offsets.length !== terms.length + 1 ||
    offsets[terms.length] !== docs.length ||
    weights.length !== docs.length
  )
    return { refused: "ruling postings do not match their terms" };
  return {
    rows,
    terms: terms.toArray(),
    idf,
    offsets,
    docs,
    weights,
    headings,
    headingOffsets,
    headingDocs,
    headingWeights,
    modelWeights,
    modelBias,
    subheadings,
    subheadingOffsets,
    subheadingDocs,
    subheadingWeights,
    subheadingBias,
  };
}
