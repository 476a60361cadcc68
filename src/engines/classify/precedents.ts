/**
 * Precedents: the classification rulings whose product is most like the one being classified. They serve twice:
 * an answer cites the nearest ones beside its suggestions (the spec's `rulings`), and the nearest vote in the
 * ranking (engine.ts `RankOptions.precedents`), a nearest-neighbour reading of how customs classified goods
 * described in the same words. A ruling is found by the cosine of TF-IDF vectors over the same stemmed tokens the
 * ranking uses, over its subject line and its description of the goods (the letter's frame left out); only
 * rulings above a similarity floor count, so an unrelated product finds none rather than the least unlike one.
 *
 * The vectors are kept as postings (per term: the rulings that use it and its weight there), so a query reads
 * only its own terms' lists, and a built index packs into typed arrays (snapshot.ts) for a new isolate.
 *
 * Pure: the module service feeds it the `hs_rulings` rows.
 */
import { tokens, withoutLetterFrame } from "./text";

export interface RulingRow {
  rulingNumber: string;
  code: string;
  subject: string;
  url: string;
  /** The ruling's description of the goods, when the data has it; matched with the subject. */
  description?: string | null;
}

export interface Precedent {
  ruling_number: string;
  code: string;
  subject: string;
  url: string;
  /** Cosine similarity of the product text and the ruling's subject and description, 0-1. */
  similarity: number;
}

export interface PrecedentIndex {
  rows: RulingRow[];
  /** The terms, in posting order; `termIds` maps each to its number (built on first use after a restore). */
  terms: string[];
  termIds?: Map<string, number>;
  /** The last text's query vector: a request matches one text to the rulings and then to the centroids. */
  lastQuery?: { text: string; vector: Map<number, number> };
  idf: Float64Array;
  /** Per term, where its postings start in `docs` and `weights` (length terms + 1). */
  offsets: Uint32Array;
  /** Two bytes a ruling number while there are fewer than 65,536 rulings: most of the stored bytes. */
  docs: Uint16Array | Uint32Array;
  /** The term's weight in the ruling's unit-length vector. */
  weights: Float32Array;
  /** The headings the rulings classify in, each once (the rows of the heading postings below). */
  headings: string[];
  /** Per term, where its heading postings start in `headingDocs` and `headingWeights` (length terms + 1). */
  headingOffsets: Uint32Array;
  headingDocs: Uint16Array;
  /** The term's weight in the heading's unit-length centroid: the sum of its rulings' vectors, normalized. */
  headingWeights: Float32Array;
  /** The heading model's weights (`trainHeadingModel`), in the centroids' layout: one per term and heading. */
  modelWeights: Float32Array;
  /** The heading model's bias per heading (the rows of `headings`). */
  modelBias: Float32Array;
  /** The six-digit subheadings the rulings classify in, each once (the rows of the subheading model). */
  subheadings: string[];
  /** Per term, where its subheading postings start in `subheadingDocs` (length terms + 1). */
  subheadingOffsets: Uint32Array;
  /** Per term, the subheadings whose rulings use it. */
  subheadingDocs: Uint16Array;
  /** The subheading model's weights (`trainHeadingModel` over subheadings): one per term and subheading. */
  subheadingWeights: Float32Array;
  /** The subheading model's bias per subheading. */
  subheadingBias: Float32Array;
}

/** A heading (or subheading) the rulings' models find likely for the text (`likelyHeadings`, `likelySubheadings`). */
export interface HeadingLikelihood {
  code: string;
  /**
   * The heading model's probability of the heading among those the text's words reach, 0-1; for a subheading, its
   * share of its heading's.
   */
  probability: number;
}

/** A heading whose rulings, taken together, read like the text (`nearestHeadings`). */
export interface HeadingMatch {
  code: string;
  /** Cosine similarity of the text and the heading's centroid, 0-1. */
  similarity: number;
}

/** Below this similarity a ruling is not cited (bench/classify-precedents.mjs shows how the floor was chosen). */
export const MIN_SIMILARITY = 0.4;

/**
 * Below this similarity a ruling does not vote in the ranking (engine.ts PRECEDENT). Lower than the citing floor:
 * a ruling sharing a fifth of its weighted words with the text is too far to show an officer, but five of them
 * agreeing on a heading say something about the goods. 0.2 chosen on the development splits (bench/results/
 * classify.md, "Farther precedents vote"): 0.4, 0.3, 0.25, 0.2, 0.15 and 0.1 tried.
 */
export const VOTE_SIMILARITY = 0.2;

/** Below this similarity a heading's centroid does not vote (engine.ts PRECEDENT.floor, where votes start). */
export const HEADING_SIMILARITY = 0.15;

/** How many headings' centroids vote (engine.ts headingVotes), and how many of the model's (engine.ts modelVotes). */
const HEADING_VOTES = 3;

/**
 * The heading model's training: passes over the rulings, the learning rate of the first (the n-th pass's is
 * RATE / n), and the biases' share of it. Chosen on the development splits (bench/results/classify.md, "fifteenth
 * stop"): 5 passes were as many right over the development files as 8 (4,384 each) and 3 fewer than 15 over three of
 * them (1,034 against 1,037), at a third of 15 passes' build time.
 */
const MODEL = { epochs: 5, subheadingEpochs: 2, rate: 4, biasRate: 0.1, seed: 20261129 };

/** The words a ruling is matched by: its subject and description, without the letter's frame. */
function rulingTokens(r: RulingRow): string[] {
  const text = [r.subject, r.description ?? ""].map(withoutLetterFrame).join(". ");
  return tokens(text);
}

/** Log-scaled term frequencies times idf, normalized to unit length; terms without an idf are dropped. */
function weigh(toks: string[], idf: (t: string) => number | undefined): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of toks) if (idf(t) !== undefined) tf.set(t, (tf.get(t) ?? 0) + 1);
  let norm = 0;
  for (const [t, n] of tf) {
    const w = (1 + Math.log(n)) * (idf(t) ?? 0);
    tf.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, w] of tf) tf.set(t, w / norm);
  return tf;
}

/** Where each term's postings start, given how many each has; the last entry is the total. */
function offsetsOf(lengths: number[]): Uint32Array {
  const offsets = new Uint32Array(lengths.length + 1);
  lengths.forEach((n, i) => {
    offsets[i + 1] = (offsets[i] ?? 0) + n;
  });
  return offsets;
}

export function buildPrecedents(rows: RulingRow[]): PrecedentIndex {
  const docs = rows.map(rulingTokens);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const terms = [...df.keys()].sort();
  const termIds = new Map(terms.map((t, i) => [t, i]));
  const idf = new Float64Array(terms.length);
  terms.forEach((t, i) => {
    idf[i] = Math.log(1 + rows.length / (df.get(t) ?? 1));
  });
  const idfOf = (t: string) => {
    const i = termIds.get(t);
    return i === undefined ? undefined : idf[i];
  };
  const lists: [number, number][][] = terms.map(() => []);
  docs.forEach((d, doc) => {
    for (const [t, w] of weigh(d, idfOf)) lists[termIds.get(t) ?? 0]?.push([doc, w]);
  });
  const offsets = offsetsOf(lists.map((l) => l.length));
  const total = offsets[terms.length] ?? 0;
  const postingDocs = rows.length < 65536 ? new Uint16Array(total) : new Uint32Array(total);
  const weights = new Float32Array(total);
  lists.forEach((l, i) => {
    l.forEach(([doc, w], k) => {
      postingDocs[(offsets[i] ?? 0) + k] = doc;
      weights[(offsets[i] ?? 0) + k] = w;
    });
  });
  const byHeading = headingRows(rows, 4);
  const centroids = headingCentroids(byHeading, lists);
  const bySubheading = headingRows(rows, 6);
  const { headingOffsets: subheadingOffsets, headingDocs: subheadingDocs } = headingCentroids(bySubheading, lists);
  const subheadingModel = trainHeadingModel(
    bySubheading,
    lists,
    { headingOffsets: subheadingOffsets, headingDocs: subheadingDocs },
    MODEL.subheadingEpochs,
  );
  return {
    rows,
    terms,
    termIds,
    idf,
    offsets,
    docs: postingDocs,
    weights,
    ...centroids,
    ...trainHeadingModel(byHeading, lists, centroids),
    subheadings: bySubheading.headings,
    subheadingOffsets,
    subheadingDocs,
    subheadingWeights: subheadingModel.modelWeights,
    subheadingBias: subheadingModel.modelBias,
  };
}

/**
 * Each heading's centroid (Rocchio): the sum of the unit vectors of the rulings that classify in it, normalized.
 * Where no single ruling is near the text, several of one heading that each share some of its words still say
 * where such goods go; a centroid pools them, as the nearest rulings alone cannot.
 */
function headingCentroids({ headings, ofRow }: HeadingRows, lists: [number, number][][]) {
  // Per term, the summed weight per heading.
  const sums = lists.map((l) => {
    const m = new Map<number, number>();
    for (const [doc, w] of l) m.set(ofRow[doc] ?? 0, (m.get(ofRow[doc] ?? 0) ?? 0) + w);
    return m;
  });
  const norms = new Float64Array(headings.length);
  for (const m of sums) for (const [h, w] of m) norms[h] = (norms[h] ?? 0) + w * w;
  const headingOffsets = offsetsOf(sums.map((m) => m.size));
  const total = headingOffsets[lists.length] ?? 0;
  const headingDocs = new Uint16Array(total);
  const headingWeights = new Float32Array(total);
  let k = 0;
  for (const m of sums)
    for (const [h, w] of [...m].sort((a, b) => a[0] - b[0])) {
      headingDocs[k] = h;
      headingWeights[k] = w / Math.sqrt(norms[h] || 1);
      k++;
    }
  return { headings, headingOffsets, headingDocs, headingWeights };
}

/**
 * The headings (`digits` 4) or subheadings (6) the rulings classify in, each once and sorted, and each ruling's
 * by its number there.
 */
interface HeadingRows {
  headings: string[];
  ofRow: number[];
}

function headingRows(rows: RulingRow[], digits: 4 | 6): HeadingRows {
  const of = rows.map((r) => r.code.replace(/\D/g, "").slice(0, digits));
  const headings = [...new Set(of)].sort();
  const ids = new Map(headings.map((h, i) => [h, i]));
  return { headings, ofRow: of.map((h) => ids.get(h) ?? 0) };
}

/**
 * A linear model of the heading given the words (multinomial logistic regression over the rulings' TF-IDF
 * vectors), learned by stochastic gradient descent at build time. A centroid weighs a word by how much its
 * heading's rulings use it; the model learns how much the word tells that heading from the others that use it
 * too ("pullover" against 6109 and 6110 alike, "sweatshirt" for 6110 alone), which is what separates the
 * neighbouring headings most misses fall between. Its weights live where the centroids' do: a term's weight for
 * a heading exists only when a ruling of that heading uses the term, and a text's softmax runs over the headings
 * its words reach, so training and a query read the same postings as the centroids. Deterministic: the rulings
 * are visited in a seeded order and the arithmetic is the same on every isolate.
 */
function trainHeadingModel(
  { headings, ofRow: label }: HeadingRows,
  lists: [number, number][][],
  { headingOffsets: off, headingDocs: hd }: { headingOffsets: Uint32Array; headingDocs: Uint16Array },
  epochs = MODEL.epochs,
): { modelWeights: Float32Array; modelBias: Float32Array } {
  const modelWeights = new Float32Array(hd.length);
  const modelBias = new Float32Array(headings.length);
  const rows = label.length;
  // Each ruling's vector as (term, weight) pairs, from the term postings, packed in typed arrays (the passes
  // below read them millions of times): ruling i's pairs are at start[i] ... start[i + 1] - 1.
  const counts = label.map(() => 0);
  for (const l of lists) for (const [doc] of l) counts[doc] = (counts[doc] ?? 0) + 1;
  const start = offsetsOf(counts);
  const fill = start.slice(0, rows);
  const terms = new Uint32Array(start[rows] ?? 0);
  const weights = new Float64Array(terms.length);
  lists.forEach((l, term) => {
    for (const [doc, w] of l) {
      const at = fill[doc] ?? 0;
      terms[at] = term;
      weights[at] = w;
      fill[doc] = at + 1;
    }
  });
  const model = { off, hd, weights: modelWeights, bias: modelBias };
  const scratch = newScratch(headings.length);
  const order = label.map((_, i) => i);
  let seed = MODEL.seed;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      const j = Math.floor((seed / 2 ** 32) * (i + 1));
      const t = order[i] ?? 0;
      order[i] = order[j] ?? 0;
      order[j] = t;
    }
    const rate = MODEL.rate / (1 + epoch);
    for (const doc of order) {
      const from = start[doc] ?? 0;
      const to = start[doc + 1] ?? 0;
      if (from === to) continue;
      softmax(model, terms, weights, from, to, scratch);
      const { p, candidates, count } = scratch;
      // The gradient of the log loss: the probabilities, less one at the ruling's own heading.
      const own = label[doc] ?? 0;
      p[own] = (p[own] ?? 0) - 1;
      for (let i = from; i < to; i++) {
        const step = rate * (weights[i] ?? 0);
        const term = terms[i] ?? 0;
        const last = off[term + 1] ?? 0;
        for (let k = off[term] ?? 0; k < last; k++)
          modelWeights[k] = (modelWeights[k] ?? 0) - step * (p[hd[k] ?? 0] ?? 0);
      }
      for (let c = 0; c < count; c++) {
        const h = candidates[c] ?? 0;
        modelBias[h] = (modelBias[h] ?? 0) - rate * MODEL.biasRate * (p[h] ?? 0);
      }
    }
  }
  return { modelWeights, modelBias };
}

/** The heading model's postings, as `softmax` reads them. */
interface HeadingModel {
  off: Uint32Array;
  hd: Uint16Array;
  weights: Float32Array;
  bias: Float32Array;
}

/** Per-heading probabilities, the headings reached (the first `count` of `candidates`) and a mark per heading. */
interface Scratch {
  p: Float64Array;
  candidates: Uint32Array;
  count: number;
  reached: Uint8Array;
}

const newScratch = (headings: number): Scratch => ({
  p: new Float64Array(headings),
  candidates: new Uint32Array(headings),
  count: 0,
  reached: new Uint8Array(headings),
});

/**
 * The model's probabilities (into `scratch.p`) over the headings that the terms `terms[from..to)`, weighted by
 * `weights` alongside, reach, listed in `scratch.candidates`; `reached` is left all zero.
 */
function softmax(
  { off, hd, weights: w, bias }: HeadingModel,
  terms: Uint32Array,
  weights: Float64Array,
  from: number,
  to: number,
  scratch: Scratch,
): void {
  const { p, candidates, reached } = scratch;
  let count = 0;
  for (let i = from; i < to; i++) {
    const x = weights[i] ?? 0;
    const term = terms[i] ?? 0;
    const last = off[term + 1] ?? 0;
    for (let k = off[term] ?? 0; k < last; k++) {
      const h = hd[k] ?? 0;
      if (reached[h] === 0) {
        reached[h] = 1;
        candidates[count++] = h;
        p[h] = bias[h] ?? 0;
      }
      p[h] = (p[h] ?? 0) + x * (w[k] ?? 0);
    }
  }
  let max = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < count; c++) max = Math.max(max, p[candidates[c] ?? 0] ?? 0);
  let sum = 0;
  for (let c = 0; c < count; c++) {
    const h = candidates[c] ?? 0;
    const e = Math.exp((p[h] ?? 0) - max);
    p[h] = e;
    sum += e;
  }
  for (let c = 0; c < count; c++) {
    const h = candidates[c] ?? 0;
    p[h] = (p[h] ?? 0) / sum;
    reached[h] = 0;
  }
  scratch.count = count;
}

/** The text's unit vector over the index's terms: term numbers and weights. */
function queryVector(index: PrecedentIndex, text: string): Map<number, number> {
  if (index.lastQuery?.text === text) return index.lastQuery.vector;
  index.termIds ??= new Map(index.terms.map((t, i) => [t, i]));
  const ids = index.termIds;
  const q = weigh(tokens(withoutLetterFrame(text)), (t) => {
    const i = ids.get(t);
    return i === undefined ? undefined : index.idf[i];
  });
  const vector = new Map([...q].map(([t, w]) => [ids.get(t) ?? 0, w]));
  index.lastQuery = { text, vector };
  return vector;
}

/** The query's dot product with every row of a postings layout (the rulings', or the headings' centroids). */
function similarities(
  q: Map<number, number>,
  offsets: Uint32Array,
  docs: Uint16Array | Uint32Array,
  weights: Float32Array,
  rows: number,
): Float64Array {
  const sims = new Float64Array(rows);
  for (const [i, w] of q)
    for (let k = offsets[i] ?? 0; k < (offsets[i + 1] ?? 0); k++) {
      const doc = docs[k] ?? 0;
      sims[doc] = (sims[doc] ?? 0) + w * (weights[k] ?? 0);
    }
  return sims;
}

/**
 * The headings whose rulings, taken together, read most like `text`, best first, at most `limit`, each at or above
 * `min` (engine.ts RankOptions.headings).
 */
export function nearestHeadings(
  index: PrecedentIndex,
  text: string,
  { limit = HEADING_VOTES, min = HEADING_SIMILARITY }: { limit?: number; min?: number } = {},
): HeadingMatch[] {
  if (index.headings.length === 0) return [];
  const q = queryVector(index, text);
  const sims = similarities(q, index.headingOffsets, index.headingDocs, index.headingWeights, index.headings.length);
  const out: HeadingMatch[] = [];
  sims.forEach((raw, h) => {
    const similarity = Math.round(raw * 1e6) / 1e6;
    if (similarity >= min) out.push({ code: index.headings[h] ?? "", similarity });
  });
  out.sort((a, b) => b.similarity - a.similarity || a.code.localeCompare(b.code));
  return out.slice(0, limit);
}

/**
 * The headings the rulings' model (`trainHeadingModel`) finds most likely for `text`, most likely first, at most
 * `limit` (engine.ts RankOptions.model).
 */
export function likelyHeadings(
  index: PrecedentIndex,
  text: string,
  { limit = HEADING_VOTES }: { limit?: number } = {},
): HeadingLikelihood[] {
  const model = {
    off: index.headingOffsets,
    hd: index.headingDocs,
    weights: index.modelWeights,
    bias: index.modelBias,
  };
  return reached(index, index.headings, model, text)
    .map(({ code, p }) => ({ code, probability: Math.round(p * 1e6) / 1e6 }))
    .sort((x, y) => y.probability - x.probability || x.code.localeCompare(y.code))
    .slice(0, limit);
}

/**
 * The six-digit subheadings of `headings` (the heading model's likeliest, `likelyHeadings`), each with its
 * heading's probability shared out among the heading's subheadings by the rulings' subheading model (its
 * probabilities renormalized within the heading): the heading model chooses between headings, the subheading
 * model only within one (engine.ts RankOptions.subheadings). Alone, the subheading model's probabilities favour
 * a heading whose rulings fall in one subheading over one whose rulings spread over several.
 */
export function likelySubheadings(
  index: PrecedentIndex,
  text: string,
  headings: readonly HeadingLikelihood[],
): HeadingLikelihood[] {
  if (headings.length === 0) return [];
  const model = {
    off: index.subheadingOffsets,
    hd: index.subheadingDocs,
    weights: index.subheadingWeights,
    bias: index.subheadingBias,
  };
  const subheadings = reached(index, index.subheadings, model, text);
  return headings.flatMap((h) => {
    const within = subheadings.filter((s) => s.code.startsWith(h.code));
    const total = within.reduce((sum, s) => sum + s.p, 0);
    if (total <= 0) return [];
    return within
      .map((s) => ({ code: s.code, probability: Math.round(((h.probability * s.p) / total) * 1e6) / 1e6 }))
      .sort((x, y) => y.probability - x.probability || x.code.localeCompare(y.code));
  });
}

/** A model's probabilities over the classes (of `classes`) that `text`'s words reach, in no order. */
function reached(
  index: PrecedentIndex,
  classes: string[],
  model: HeadingModel,
  text: string,
): { code: string; p: number }[] {
  if (classes.length === 0) return [];
  const q = queryVector(index, text);
  if (q.size === 0) return [];
  const scratch = newScratch(classes.length);
  softmax(model, Uint32Array.from(q.keys()), Float64Array.from(q.values()), 0, q.size, scratch);
  return [...scratch.candidates.subarray(0, scratch.count)].map((c) => ({
    code: classes[c] ?? "",
    p: scratch.p[c] ?? 0,
  }));
}

/** The most similar rulings to `text`, best first, at most `limit`, each at or above the floor. */
export function nearestRulings(
  index: PrecedentIndex,
  text: string,
  { limit = 3, min = MIN_SIMILARITY, exclude }: { limit?: number; min?: number; exclude?: string } = {},
): Precedent[] {
  if (index.rows.length === 0) return [];
  const q = queryVector(index, text);
  if (q.size === 0) return [];
  const sims = similarities(q, index.offsets, index.docs, index.weights, index.rows.length);
  const scored: { i: number; s: number }[] = [];
  // Float sums of the same terms in another order may differ in the last bits: rounded, ties break by row.
  sims.forEach((raw, i) => {
    const s = Math.round(raw * 1e6) / 1e6;
    if (s >= min && index.rows[i]?.rulingNumber !== exclude) scored.push({ i, s });
  });
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.slice(0, limit).flatMap(({ i, s }) => {
    const r = index.rows[i];
    return r
      ? [
          {
            ruling_number: r.rulingNumber,
            code: r.code,
            subject: r.subject,
            url: r.url,
            similarity: Math.round(Math.min(1, s) * 100) / 100,
          },
        ]
      : [];
  });
}
