/**
 * Precedents: the classification rulings whose product is most like the one being classified, for an answer to
 * cite beside its suggestions (the spec's `rulings`). A ruling is found by the cosine of TF-IDF vectors over the
 * same stemmed tokens the ranking uses; only rulings above a similarity floor are cited, so an unrelated product
 * cites none rather than the least unlike one. Citing does not change the ranking: a precedent is evidence for a
 * broker to read, and one whose code differs from the top suggestion is worth reading most.
 *
 * Pure: the module service feeds it the `hs_rulings` rows.
 */
import { tokens } from "./text";

export interface RulingRow {
  rulingNumber: string;
  code: string;
  subject: string;
  url: string;
}

export interface Precedent {
  ruling_number: string;
  code: string;
  subject: string;
  url: string;
  /** Cosine similarity of the product text and the ruling's subject, 0-1. */
  similarity: number;
}

export interface PrecedentIndex {
  rows: RulingRow[];
  vectors: Map<string, number>[];
  idf: Map<string, number>;
}

/** Below this similarity a ruling is not cited (bench/classify-precedents.mjs shows how the floor was chosen). */
export const MIN_SIMILARITY = 0.4;

function weigh(toks: string[], idf: Map<string, number>): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of toks) if (idf.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  let norm = 0;
  for (const [t, n] of tf) {
    const w = (1 + Math.log(n)) * (idf.get(t) ?? 0);
    tf.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, w] of tf) tf.set(t, w / norm);
  return tf;
}

export function buildPrecedents(rows: RulingRow[]): PrecedentIndex {
  const docs = rows.map((r) => [...new Set(tokens(r.subject))]);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log(1 + rows.length / n));
  return { rows, vectors: rows.map((r) => weigh(tokens(r.subject), idf)), idf };
}

/** The most similar rulings to `text`, best first, at most `limit`, each at or above the floor. */
export function nearestRulings(
  index: PrecedentIndex,
  text: string,
  { limit = 3, min = MIN_SIMILARITY, exclude }: { limit?: number; min?: number; exclude?: string } = {},
): Precedent[] {
  const q = weigh(tokens(text), index.idf);
  if (q.size === 0) return [];
  const scored: { i: number; s: number }[] = [];
  index.vectors.forEach((v, i) => {
    let s = 0;
    for (const [t, w] of q) s += w * (v.get(t) ?? 0);
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
            similarity: Math.round(s * 100) / 100,
          },
        ]
      : [];
  });
}
