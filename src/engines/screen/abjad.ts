/**
 * Names in Arabic script against listed names the lists give only in Latin letters.
 *
 * Arabic script writes no short vowels, so no letter-by-letter Latin spelling of "محمد" ("mhmd") resembles
 * "Muhammad", "Mohamed" or "Mohammad"; what all of them share is the consonants. Both sides are reduced to a
 * consonant skeleton: the Arabic through any-ascii's letter-by-letter transliteration (the same library that
 * latinizes the other scripts, normalize.ts), the Latin as written; vowels, w, y, v and the glottal marks go, the
 * letters romanizations write for one Arabic sound fold together (th/dh, ch/sch/sh, q/k/c, g/j, d/z, p/b), doubled
 * letters collapse and a final h (ta marbuta, "Fatimah" / "Fatima") goes. The article goes on both sides ("al-",
 * "ad-Din", "التكريتي"), and "Abdul" is "Abd".
 *
 * A skeleton is much less specific than a spelling, so a hit needs every word of the query accounted for (a join
 * or split counts: "Abd al-Rahman" / "Abdulrahman") and every word of the listed name but at most one (a middle
 * name the query leaves out, when the query has three words or more), and scores in the band of partial
 * resemblances (README, "What the scores mean"): 0.8 all words, 0.72 one listed word left over.
 */

import anyAscii from "any-ascii";
import { tokens } from "./normalize";
import type { Explanation } from "./score";

const ARABIC_RE = /\p{Script=Arabic}/u;
/** Harakat, superscript alef and tatweel: vowel signs and elongation, which names in running text rarely carry. */
const ARABIC_MARKS_RE = /[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]/g;

/** Whether a text has Arabic-script letters (Arabic, Persian, Urdu, Pashto spellings). */
export const isArabicScript = (text: string): boolean => ARABIC_RE.test(text);

/** The Latin article's forms, before a sun letter too ("ad-Din", "as-Sayyid", "ar-Rahman"): not a name's word. */
const ARTICLES = new Set("al el ul ol il ad ed ud ar er ur as es us ash esh an en un at et ut az ez uz ath".split(" "));

/**
 * The consonants as both sides write them, vowels gone, folded by class: the letter pairs romanizations write for
 * one Arabic letter and that a letter-by-letter Latin writes for two side by side are folded alike (th and dh are
 * z: ث ذ ظ; a French ch, a German sch and Persian چ are sh), so are q, c, k (ق ك), g and j (ج غ گ), p and b,
 * d and z (ذ ض ظ ز: z in Persian, d, dh or z in Arabic romanizations). kh, sh and gh stay two letters: Arabic
 * script writes خ or ك + ح, ش or س + ه, which the letter-by-letter Latin gives alike.
 */
const LETTERS: Record<string, string> = { q: "k", c: "k", g: "j", p: "b", d: "z" };
const DROPPED = new Set([..."aeiouywv'`0123456789"]);

/** The consonant skeleton of one Latin word. */
function consonantSkeleton(word: string): string {
  // French romanizations: a soft c is s ("Lounici"; it needs the vowel after it), dj is j ("Djamel"). Not in
  // `consonants`: Arabic script's د + ج side by side are two letters.
  return consonants(
    word
      .toLowerCase()
      .replace(/c(?=[eiy])/g, "s")
      .replace(/dj/g, "j"),
  );
}

/**
 * A word's letters without its vowels, folded by class (sch, ch: sh; ph: f; ck: k; th, dh: z; then LETTERS),
 * doubled letters collapsed (shadda, "Muhammad"). One pass: every listed word goes through it once.
 */
function consonants(letters: string): string {
  const cs: string[] = [];
  for (const ch of letters) if (!DROPPED.has(ch)) cs.push(ch);
  let out = "";
  let last = "";
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i] as string;
    const next = cs[i + 1];
    let add: string;
    if (c === "s" && next === "c" && cs[i + 2] === "h") {
      add = "sh";
      i += 2;
    } else if (c === "c" && next === "h") {
      add = "sh";
      i++;
    } else if (next === "h" && (c === "p" || c === "t" || c === "d")) {
      add = c === "p" ? "f" : "z";
      i++;
    } else if (c === "c" && next === "k") {
      add = "k";
      i++;
    } else add = LETTERS[c] ?? c;
    for (const a of add)
      if (a !== last) {
        out += a;
        last = a;
      }
  }
  return finish(out);
}

/** A final h goes (ta marbuta: "Fatimah" / "Fatima"), unless it ends kh, sh or gh ("Agha", "Shah"). */
function finish(t: string): string {
  return t.length > 1 ? t.replace(/(?<![kjs])h$/, "") : t;
}

/** A name's words as written, each with its consonant skeleton (words whose skeleton is empty are left out). */
export interface SkeletonWord {
  word: string;
  skeleton: string;
  /**
   * Every skeleton the word may be written with, `skeleton` first: an Arabic-script word's letters that romanizations
   * write two ways give two (ث: Tharwat or Saqib; ق: Qasem, Ghasem or Gasmi); a Latin word has its one.
   */
  variants: readonly string[];
}

/**
 * A name's words (as `tokens` or an Arabic-script split gives them), each with its skeleton: without the article
 * ("al-", "ad-Din", ال), "Abdul Rahman" and "Nasiruddin" read as "Abd", "din"; words of other scripts left out.
 */
export function nameWords(words: readonly string[]): SkeletonWord[] {
  return words
    .filter((w, i) => !(ARTICLES.has(w) && i < words.length - 1))
    .map((word) => {
      const variants = wordSkeletons(word);
      return { word, skeleton: variants[0] ?? "", variants };
    })
    .filter((w) => w.skeleton.length > 0);
}

/** The words of a name as written, Arabic script split on its own punctuation, Latin as `tokens` reads it. */
export function nameSkeletons(text: string): SkeletonWord[] {
  return nameWords(
    isArabicScript(text)
      ? text
          .replace(ARABIC_MARKS_RE, "")
          .split(/[\s\u060c,.;:()\-_/]+/u)
          .filter(Boolean)
      : tokens(text),
  );
}

/** Words recur across the lists' names (Mohammed, Ali, Trading): each word's skeletons are made once per isolate. */
const SKELETONS = new Map<string, readonly string[]>();
const LATIN_ONLY_RE = /^[\p{Script=Latin}\P{L}]*$/u;

/** Past this many words the memo starts again: queries' words would otherwise add to it for the isolate's life. */
const MAX_SKELETONS = 200_000;

/**
 * Arabic letters romanizations write more than one way, beyond the classes `consonants` folds: ث is th in Arabic
 * names and s in Persian, Pashto and Urdu ones (Tharwat, Saqib); ق is q, gh in Persian (Ghasem) and g in the
 * Maghreb (Belgacem, Gasmi).
 */
const LETTER_VARIANTS: Record<string, readonly string[]> = { ث: ["th", "s"], ق: ["q", "gh", "g"] };
/** At most this many skeletons per word: a word with many such letters keeps its first readings. */
const MAX_VARIANTS = 6;

function wordSkeletons(word: string): readonly string[] {
  let s = SKELETONS.get(word);
  if (s !== undefined) return s;
  if (SKELETONS.size >= MAX_SKELETONS) SKELETONS.clear();
  if (isArabicScript(word)) {
    // عبدالرحمن is عبد + الرحمن; a word of four letters or more opening with ال carries the article.
    const bare = word
      .replace(ARABIC_MARKS_RE, "")
      .replace(/^عبدال(?=.)/u, "عبد")
      .replace(/^ال(?=..)/u, "");
    let readings = [""];
    if (bare !== "ال")
      for (const letter of bare) {
        const options = LETTER_VARIANTS[letter] ?? [anyAscii(letter)];
        readings = readings.flatMap((r) => options.map((o) => `${r}${o}`)).slice(0, MAX_VARIANTS);
      }
    s = [...new Set(readings.map((r) => consonants(r.toLowerCase())))].filter((v) => v.length > 0);
  } else if (LATIN_ONLY_RE.test(word)) {
    const one = consonantSkeleton(word.replace(/^abd(?:ou|[aeiou])l/, "abd").replace(/[aeiou][ld]?d+ine?$/, "din"));
    s = one ? [one] : [];
  } else s = [];
  SKELETONS.set(word, s);
  return s;
}

/** Two words' skeletons written as one word: the letter they meet on is written once ("Akhund Zada", "Akhunzada"). */
export function joinSkeletons(a: string, b: string): string {
  return a.endsWith(b.charAt(0)) ? `${a}${b.slice(1)}` : `${a}${b}`;
}

/** Every way two words, each in any of its readings, are written as one. */
export function joinedReadings(a: readonly string[], b: readonly string[]): Set<string> {
  return new Set(a.flatMap((x) => b.map((y) => joinSkeletons(x, y))));
}

/**
 * Titles and honorifics a query may carry before a name that the list does not (Haji, Mullah, Mawlawi, Sheikh,
 * Qari, Hafiz, Mufti), as skeletons: left over in the query, they do not count against the match.
 */
const HONORIFICS = new Set(["hj", "ml", "shkh", "kr", "hfz", "mft"]);

export interface AbjadMatch {
  score: number;
  /** Query word(s) ↔ listed word(s), as skeleton indexes. */
  pairs: { query: number[]; listed: number[] }[];
  unmatchedQuery: number[];
  unmatchedListed: number[];
}

/** Full alignment score and the score with one word left over (README, "What the scores mean"). */
export const ABJAD_FULL = 0.8;
export const ABJAD_PARTIAL = 0.72;
/** Consonants a query must carry in all to be compared so: fewer fit too many listed names. */
const MIN_LETTERS = 5;

/**
 * The query's skeletons aligned with a listed name's: two adjacent words of one side against one word of the other
 * first (a name written joined or apart), then equal words. Null when the names do not agree enough.
 */
export function abjadMatch(variants: readonly (readonly string[])[], listed: readonly string[]): AbjadMatch | null {
  if (variants.length < 2 || listed.length === 0) return null;
  const query = variants.map((v) => v[0] ?? "");
  const usedQ = new Set<number>();
  const usedL = new Set<number>();
  const pairs: AbjadMatch["pairs"] = [];
  // Joins first: "عبد الله" is the listed "Abdallah", though a later "Ubaidi" is "bd" too. Two query words
  // against one listed word, in any of their readings.
  for (let i = 0; i + 1 < variants.length; i++) {
    if (usedQ.has(i) || usedQ.has(i + 1)) continue;
    const joined = joinedReadings(variants[i] ?? [], variants[i + 1] ?? []);
    const j = listed.findIndex((w, k) => !usedL.has(k) && joined.has(w));
    if (j < 0) continue;
    usedQ.add(i).add(i + 1);
    usedL.add(j);
    pairs.push({ query: [i, i + 1], listed: [j] });
  }
  // Two listed words against one query word.
  for (let i = 0; i + 1 < listed.length; i++) {
    if (usedL.has(i) || usedL.has(i + 1)) continue;
    const joined = joinSkeletons(listed[i] ?? "", listed[i + 1] ?? "");
    const j = variants.findIndex((v, k) => !usedQ.has(k) && v.includes(joined));
    if (j < 0) continue;
    usedL.add(i).add(i + 1);
    usedQ.add(j);
    pairs.push({ query: [j], listed: [i, i + 1] });
  }
  variants.forEach((v, i) => {
    if (usedQ.has(i)) return;
    const j = listed.findIndex((l, k) => !usedL.has(k) && v.includes(l));
    if (j < 0) return;
    usedQ.add(i);
    usedL.add(j);
    pairs.push({ query: [i], listed: [j] });
  });
  pairs.sort((a, b) => (a.query[0] ?? 0) - (b.query[0] ?? 0));
  // A title the list does not carry is no word of the name: it neither counts against the match nor for it.
  const title = (i: number) => !usedQ.has(i) && HONORIFICS.has(query[i] ?? "");
  const name = query.filter((_, i) => !title(i));
  const unmatchedQuery = query.map((_, i) => i).filter((i) => !usedQ.has(i) && !title(i));
  const unmatchedListed = listed.map((_, i) => i).filter((i) => !usedL.has(i));
  // Every word of the query accounted for; of the listed name's, all but one (a middle name the query leaves
  // out) when the query gives three words or more.
  if (unmatchedQuery.length > 0 || unmatchedListed.length > (name.length >= 3 ? 1 : 0)) return null;
  // Two words of two consonants or more, five consonants in all: "Ali Hasan" alone says little.
  const strong = name.filter((q) => q.length >= 2).length;
  const letters = name.reduce((n, q) => n + q.length, 0);
  if (strong < 2 || letters < MIN_LETTERS) return null;
  const titles = query.map((_, i) => i).filter(title);
  return {
    score: unmatchedListed.length === 0 ? ABJAD_FULL : ABJAD_PARTIAL,
    pairs,
    unmatchedQuery: titles,
    unmatchedListed,
  };
}

/** What an officer reads of an abjad match: the words aligned, those left over, the feature (transliteration). */
export function abjadExplanation(
  query: readonly SkeletonWord[],
  listed: readonly SkeletonWord[],
  match: AbjadMatch,
): Explanation {
  const words = (from: readonly SkeletonWord[], at: number[]) => at.map((i) => from[i]?.word ?? "").join(" ");
  return {
    matched: match.pairs.map((p) => ({
      query: words(query, p.query),
      listed: words(listed, p.listed),
      sim: match.score,
      feature: "transliteration" as const,
    })),
    unmatched_query: match.unmatchedQuery.map((i) => query[i]?.word ?? ""),
    unmatched_listed: match.unmatchedListed.map((i) => listed[i]?.word ?? ""),
    features: ["transliteration"],
  };
}
