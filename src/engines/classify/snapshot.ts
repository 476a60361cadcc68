/**
 * The classification indexes as one compact binary object (src/lib/pack.ts), so that a new isolate loads
 * what another one built in one read instead of reading the `hs` rows from D1 and building again.
 *
 * Typed arrays are stored as they are; the postings map becomes its terms (a string table, in map order)
 * with one offsets array into the concatenated document ids and term frequencies, and the nodes their codes
 * and descriptions as string tables: restored, they are maps that make an entry when it is first read
 * (TableMap), so a new isolate neither parses nor fills ten thousand entries before its first answer. The
 * small maps become arrays of entries in map order, so a restored index iterates exactly like the built one
 * and ranks identically. The vocabulary is the terms and the synonyms' words. The national lines and the US
 * statistical lines are stored as separate JSON parts per schedule and chapter and parsed when first read:
 * they are about 80 % of the object's JSON, and a new isolate's first request needs a few chapters of one
 * schedule.
 * Pure: the module service does the I/O.
 */
import { PartitionedMap, TableMap } from "../../lib/lazy-map";
import { jsonBytes, jsonOf, type PackedArray, pack, unpack } from "../../lib/pack";
import { StringTable } from "../../lib/string-table";
import type { Index } from "./engine";
import type { PrecedentIndex, RulingRow } from "./precedents";
import type { StatisticalCandidate } from "./statistical";

/** What POST /classify ranks with: the index, the US statistical lines by 8-digit line, the rulings. */
export interface ClassifyIndexes {
  index: Index;
  statistical: Map<string, StatisticalCandidate[]>;
  precedents: PrecedentIndex;
}

/** Bump when the layout below changes: older objects are then refused and rebuilt. */
const KIND = "classify-index/3";

type Pair = [string, string];
type Synonym = { phrase: string[]; codes: string[] };

interface Meta {
  docs: string[];
  avgLen: Index["avgLen"];
  headings: string[];
  synonyms: [string, Synonym[]][];
  /** The schedules and their chapters whose lines are stored as `lines:{schedule}:{chapter}` parts. */
  schedules: [string, string[]][];
  stats: Index["stats"];
  /** The chapters whose statistical lines are stored as `stat:{chapter}` parts. */
  statChapters: string[];
  rulings: [string, string, string, string][];
  rulingIdf: [string, number][];
  rulingVectors: [string, number][][];
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

/** Lazily parsed chapters: `prefix{chapter}` parts of the object, or the first one missing. */
function chapterParts(
  arrays: Record<string, PackedArray>,
  prefix: string,
  chapters: string[],
): [string, () => [string, { code: string; description: string }[]][]][] | { missing: string } {
  const out: [string, () => [string, { code: string; description: string }[]][]][] = [];
  for (const chapter of chapters) {
    const bytes = arrays[`${prefix}${chapter}`];
    if (!(bytes instanceof Uint8Array)) return { missing: `${prefix}${chapter}` };
    // A view, not a copy: the parts are most of the object, so keeping its buffer alive costs little more than
    // copying them would, and copying thousands of small parts costs a new isolate tens of milliseconds.
    out.push([chapter, () => jsonOf<[string, Pair[]][]>(bytes).map(([code, l]) => [code, nodesOf(l)])]);
  }
  return out;
}

const chapterOf = (code: string) => code.slice(0, 2);

/** The indexes as bytes, stamped with the dataset version they were built from. */
export function serializeIndexes(built: ClassifyIndexes, version: string): Uint8Array {
  const { index, statistical, precedents } = built;
  const terms = [...index.postings.keys()];
  const offsets = new Uint32Array(terms.length + 1);
  let total = 0;
  terms.forEach((t, i) => {
    offsets[i] = total;
    total += index.postings.get(t)?.docs.length ?? 0;
  });
  offsets[terms.length] = total;
  const docs = new Int32Array(total);
  const tf = new Uint16Array(total * FIELDS.length);
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
    schedules: [],
    stats: index.stats,
    statChapters: [],
    rulings: precedents.rows.map((r) => [r.rulingNumber, r.code, r.subject, r.url]),
    rulingIdf: [...precedents.idf],
    rulingVectors: precedents.vectors.map((v) => [...v]),
  };
  const arrays: Record<string, PackedArray> = {
    offsets,
    postingDocs: docs,
    postingTf: tf,
    idf,
    docHeading: index.docHeading,
    docChapter: index.docChapter,
  };
  for (const f of FIELDS) arrays[`len_${f}`] = index.lens[f];
  const nodes = [...index.nodes.values()];
  const tables: [string, StringTable][] = [
    ["terms", StringTable.of(terms)],
    ["nodeCodes", StringTable.of(nodes.map((n) => n.code))],
    [
      "nodeText",
      StringTable.of(
        nodes.map((n) => n.description),
        { searchable: false },
      ),
    ],
  ];
  for (const [name, table] of tables) {
    const t = table.arrays();
    arrays[`${name}.chars`] = t.chars;
    arrays[`${name}.start`] = t.start;
    arrays[`${name}.slots`] = t.slots;
  }
  for (const [schedule, byHs6] of index.lines) {
    const parts = byChapter(byHs6);
    meta.schedules.push([schedule, [...parts.keys()]]);
    for (const [chapter, rows] of parts) arrays[`lines:${schedule}:${chapter}`] = jsonBytes(rows);
  }
  const stat = byChapter(statistical);
  meta.statChapters = [...stat.keys()];
  for (const [chapter, rows] of stat) arrays[`stat:${chapter}`] = jsonBytes(rows);
  return pack(KIND, version, meta, arrays);
}

/**
 * The indexes stored by `serializeIndexes` for `version`, or why they cannot be used (another layout or
 * dataset version, a damaged object): the caller then builds from the rows.
 */
export function deserializeIndexes(buffer: ArrayBuffer, version: string): ClassifyIndexes | { refused: string } {
  const unpacked = unpack(buffer, KIND, version);
  if ("refused" in unpacked) return unpacked;
  const meta = unpacked.meta as Meta;
  const a = unpacked.arrays;
  const { offsets, postingDocs, postingTf, idf: idfs, docHeading, docChapter } = a;
  const table = (name: string) => {
    const [chars, start, slots] = [a[`${name}.chars`], a[`${name}.start`], a[`${name}.slots`]];
    if (!(chars instanceof Uint8Array) || !(start instanceof Int32Array)) return null;
    if (!(slots instanceof Int32Array || slots instanceof Uint16Array)) return null;
    return StringTable.restore({ chars, start, slots });
  };
  const [terms, nodeCodes, nodeText] = [table("terms"), table("nodeCodes"), table("nodeText")];
  if (!terms || !nodeCodes || !nodeText || nodeCodes.length !== nodeText.length)
    return { refused: "term or node tables are damaged" };
  if (
    !(offsets instanceof Uint32Array) ||
    !(postingDocs instanceof Int32Array) ||
    !(postingTf instanceof Uint16Array) ||
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
  const lines: Index["lines"] = new Map();
  for (const [schedule, chapters] of meta.schedules) {
    const parts = chapterParts(a, `lines:${schedule}:`, chapters);
    if ("missing" in parts) return { refused: `part ${parts.missing}` };
    lines.set(schedule, new PartitionedMap(chapterOf, parts));
  }
  const statParts = chapterParts(a, "stat:", meta.statChapters);
  if ("missing" in statParts) return { refused: `part ${statParts.missing}` };
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
    stats: meta.stats,
  };
  const rows: RulingRow[] = meta.rulings.map(([rulingNumber, code, subject, url]) => ({
    rulingNumber,
    code,
    subject,
    url,
  }));
  return {
    index,
    statistical: new PartitionedMap(chapterOf, statParts),
    precedents: { rows, idf: new Map(meta.rulingIdf), vectors: meta.rulingVectors.map((v) => new Map(v)) },
  };
}
