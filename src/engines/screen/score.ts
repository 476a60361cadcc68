/**
 * The screening score of a query against one listed name, in [0, 1]. Deterministic: it depends only on the
 * two strings (never on the rest of the list), so the same pair always scores the same. Documented in the
 * README (Screen: scoring); the numbers here are that documentation's constants.
 */
import { COMMON_NAME_WORDS } from "./common-names";
import { NAME_VARIANT_PAIRS } from "./name-variants";
import { CLASS_WEIGHT, type TokenClass, tokenClass, tokenKey, tokens } from "./normalize";

export interface Tok {
  norm: string;
  key: string;
  cls: TokenClass;
  weight: number;
  /** A given name or surname shared by very many people (./common-names), by its transliteration key. */
  common: boolean;
  /** Query side: the hyphenated word the token is part of ("Yoo-jin"), or -1 (normalize.ts `hyphenGroups`). */
  group?: number;
  /** Query side: some listed word is spelled this way (same key), so the word is a name, not a misspelling. */
  known?: boolean;
}

/** Through the same normalization as the names (Rodríguez → rodriguz, the German digraph folded), then keyed. */
const COMMON_KEYS = new Set([...COMMON_NAME_WORDS].flatMap((w) => tokens(w).map(tokenKey)));

export function toks(normTokens: readonly string[]): Tok[] {
  return normTokens.map((norm) => {
    const cls = tokenClass(norm);
    const key = tokenKey(norm);
    return { norm, key, cls, weight: CLASS_WEIGHT[cls], common: cls === "distinctive" && COMMON_KEYS.has(key) };
  });
}

/** A token pair whose keys are equal but spellings differ (Yusuf / Yousuf). */
export const KEY_EQUAL_SIM = 0.95;
/** Two words that differ only in their vowels (see tokenSim): Hezbollah / Hizballah, Mohamed / Muhamad. */
const VOWEL_VARIANT_SIM = 0.85;
export const skeleton = (key: string) => key.replace(/[aeiou]/g, "");
const cvPattern = (key: string) => key.replace(/[aeiou]/g, "V").replace(/[^V]/g, "C");

/** An initial against a name it could stand for (see tokenSim). */
export const INITIAL_SIM = 0.75;
/** Cap for a joined/split pair ("Gazprom Bank" / "GAZPROMBANK"). */
const JOINED_SIM = 0.97;
/** Factor when the matched tokens appear in another order ("Hassan Ali" / "ALI HASSAN"). */
const REORDER_FACTOR = 0.98;
/**
 * Factor for a person matched in part (a word of either side left over) by names in another order: "Mohammad
 * Khalil" against "MOHAMMAD, Khalil Ibrahim", "Li Cheng" against "LI, Cheng Yu" (natural order Cheng Yu Li). A whole
 * name reversed ("Kang Min" for "KANG, Min", as East Asian names are written) is only REORDER_FACTOR; a reversed
 * part of a longer name is two common names that happen to be shared, the commonest false alarm on Arabic, South
 * Asian and Chinese names (0.78 → 0.65). Chosen on bench/screen-innocents.mjs's development names with no loss on
 * bench/screen-world.mjs's variants (initials and missing middle names keep their order).
 */
const REORDERED_PARTIAL_FACTOR = 0.85;
/** Highest score of anything that is not an exact match. */
const MAX_FUZZY = 0.99;
/**
 * Factor for a partial match (a word of either side left unmatched) whose matched distinctive words are all common
 * names: "Antonio Rodríguez Hernández" against "RODRIGUEZ, Antonio" (0.8 → 0.68) rests on two of the most
 * frequent words of Spanish names and is no evidence of identity; an exact name is never discounted.
 */
const COMMON_ONLY_FACTOR = 0.85;
/**
 * Factor for a partial match that also leans on a word matched only approximately (edit distance or the vowel
 * skeleton, below a transliteration): "Aleksandr Kuzmin" against "KUZIN, Aleksandr Yuryevich" (0.73 → 0.66) is
 * one shared given name and a near surname, the shape of most false alarms on common names. A whole name matched
 * word for word with one misspelling is not partial and is not discounted; initials are their own feature.
 */
const FUZZY_PARTIAL_FACTOR = 0.9;
/**
 * Floor for a query that is a listed person's first and last names with the middle ones left out ("Harry SHERMAN"
 * for "SHERMAN, Harry Varney Gboto-Nambi"): every query word matched as written (or transliterated), the listed
 * name's first and last words among them and only words between them unmatched. Coverage alone would score a
 * five-word name found by two words at 0.57; a person is commonly named by first name and surname. The common-names
 * discount still applies after the floor unless the one word left out is a middle name of its own (`fullMiddle`):
 * "Aleksandr SOKOLOV" for "SOKOLOV, Aleksandr Aleksandrovich" stays below 0.7 (two of the commonest Russian names
 * around one of the commonest patronymics say nothing about identity), for "SOKOLOV, Aleksandr Valentinovich" 0.8.
 */
const MISSING_MIDDLE_FLOOR = 0.8;
/**
 * Factor when the list marks the listed person's surname ("CHAUDHRY, Aamir Ali") and the query matched none of
 * its words: "Amit Ali" met only given names, which many people share, and named no family (0.70 → 0.56). A query
 * that names the surname, even misspelled or reordered, is not discounted.
 */
const NO_SURNAME_FACTOR = 0.8;
/** A distinctive token must match at least this well for a name to be a hit. */
export const EVIDENCE_SIM = 0.8;

/** Edits allowed between two token keys, by the longer key's length. */
export function allowedEdits(len: number): number {
  if (len <= 3) return 0;
  if (len <= 7) return 1;
  if (len <= 10) return 2;
  return 3;
}

/** Below this a token pair is not a match at all (one edit in four letters is 0.75). */
const MIN_TOKEN_SIM = 0.7;

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), or `max + 1` as soon as it
 * must exceed `max`.
 */
export function osaDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.max(la, lb);
  if (lb + 1 > ROW) return osaSlow(a, b, max);
  // Three reused rows: this runs thousands of times per search, so no allocation here.
  let [prev2, prev, cur] = ROWS;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      // Typed-array reads inside the rows' bounds: `?? 0` only satisfies the checker.
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] ?? max + 1;
}

const ROW = 128;
const ROWS: [Int32Array, Int32Array, Int32Array] = [new Int32Array(ROW), new Int32Array(ROW), new Int32Array(ROW)];

/** The full matrix, for tokens longer than the reused rows (rare: names of 128+ letters without a space). */
function osaSlow(a: string, b: string, max: number): number {
  const w = b.length + 1;
  const d = new Int32Array((a.length + 1) * w);
  const at = (i: number, j: number) => d[i * w + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * w] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * w + j] = v;
    }
  }
  return Math.min(at(a.length, b.length), max + 1);
}

/** Words of this many letters or fewer: romanized syllables and short names, where a letter makes another name. */
const SHORT_WORD = 5;
/** A patronymic (Petrovich, Petrovna, Ilyinichna) by its ending. */
const PATRONYMIC = /(vich|vna|ichna)$/;
/** The Russian surname forms a patronymic resembles (Petrov, Petrova, Grigoryev, Ilyina). */
const SURNAME_FORM = /(ov|ova|ev|eva|in|ina)$/;
/** A nisba or family-name ending added to a given name: Ahmad → Ahmadi, Jafar → Jafari. */
const NISBA = /[iy]$/;

/**
 * Pairs that resemble each other by spelling but are two names by how names are built: a Russian patronymic
 * and a surname or given name (Petrovna / Petrova, Grigoryevich / Grigoryev), and a given name and the family
 * name made from it with a nisba ending (Ahmad / Ahmadi, Muhammad / Mohammadi). Only an exact spelling links them.
 */
function derivedNames(aNorm: string, aKey: string, bNorm: string, bKey: string): boolean {
  const [pa, pb] = [PATRONYMIC.test(aNorm), PATRONYMIC.test(bNorm)];
  if (pa !== pb && SURNAME_FORM.test(pa ? bNorm : aNorm)) return true;
  if (NISBA.test(aNorm) === NISBA.test(bNorm)) return false;
  const [plain, suffixed, plainKey, suffixedKey] = NISBA.test(aNorm)
    ? [bNorm, aNorm, bKey, aKey]
    : [aNorm, bNorm, aKey, bKey];
  if (plain.length < 4 || suffixed.length - plain.length !== 1) return false;
  const stem = suffixedKey.replace(NISBA, "");
  return stem === plainKey || osaDistance(stem, plainKey, 1) <= 1 || suffixed.startsWith(plain);
}

const KEY_VOWELS = "aeiou";
/** Consonants romanizations put for one another (Kassem / Qassem, Vladimir / Wladimir, Jamal / Gamal, Aziz / Asis). */
const CONSONANT_CLASSES = ["ckqg", "sz", "vw", "fv", "bp", "td", "jg"];
const sameClass = (x: string, y: string) => CONSONANT_CLASSES.some((c) => c.includes(x) && c.includes(y));

/**
 * Whether the one edit between two keys of up to seven letters (longer ones: always) is one romanizations make: a vowel changed, added
 * or dropped, an h added or dropped (Kadhafi / Kadafi), a consonant swapped for one of its class, or two letters
 * swapped. Any other consonant change makes another name in a word this short (Kuzmin / Kuzin, Jafari / Safari,
 * Ming / Mint, Amir / Amit).
 */
function lightEdit(a: string, b: string): boolean {
  if (Math.max(a.length, b.length) > 7) return true;
  if (a.length === b.length) {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    const [x, y] = [a.charAt(i), b.charAt(i)];
    // A transposition: the rest matches once the pair is swapped.
    if (a[i + 1] === y && b[i + 1] === x) return true;
    return (KEY_VOWELS.includes(x) && KEY_VOWELS.includes(y)) || sameClass(x, y);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  const extra = long.charAt(i);
  return KEY_VOWELS.includes(extra) || extra === "h";
}

/**
 * Spellings of one name that the lists give for the same person on two entries or more (./name-variants,
 * generated from the lists): Ihor / Igor, Sergej / Sergey, Gamal / Jamal, Usama / Osama. Key → its variants.
 */
const LISTED_VARIANTS = new Map<string, string[]>();
for (const pair of NAME_VARIANT_PAIRS) {
  const [a = "", b = ""] = pair.split("|");
  LISTED_VARIANTS.set(a, [...(LISTED_VARIANTS.get(a) ?? []), b]);
  LISTED_VARIANTS.set(b, [...(LISTED_VARIANTS.get(b) ?? []), a]);
}
/** The keys the lists attest as other spellings of `key` (see LISTED_VARIANTS). */
export const listedVariants = (key: string): readonly string[] => LISTED_VARIANTS.get(key) ?? [];

/**
 * A spelling the lists give for the same name (LISTED_VARIANTS) that the rules below link less well than a vowel
 * variant, or not at all: Ihor is the Ukrainian Igor and Gamal the Egyptian Jamal, whatever their letters. About as
 * strong as a vowel variant, and a pair the rules already link at least that well keeps its similarity, so two common
 * names ("Mohamed Ahmed" / AHMAD, Muhammad) weigh no more than before; its own value marks the feature
 * (`transliteration`).
 */
const LISTED_VARIANT_SIM = 0.86;

/**
 * A word in the German transcription of Russian (de.wikipedia.org/wiki/Deutsche_Transkription), respelt as the
 * English-style romanization the lists use: schtsch → shch, tsch → ch, sch → sh, ch → kh, w → v, z → ts, an s
 * between vowels → z, j before a vowel → y. Null for a word without the transcription's marks (a w in a word of
 * five letters or more, sch, or the patronymic's -itsch): Chinese Wang and Wu and English Chen keep their letters.
 * `whole`: the word is part of a name read as German as a whole (transcribedNames), respelt marks or not.
 */
export function germanAsEnglish(w: string, whole = false): string | null {
  if (!whole && !germanMarks(w)) return null;
  return w
    .replace(/schtsch/g, "1")
    .replace(/tsch/g, "2")
    .replace(/sch/g, "3")
    .replace(/ch/g, "kh")
    .replace(/w/g, "v")
    .replace(/z/g, "ts")
    .replace(/(?<=[aeiouy])s(?=[aeiouy])/g, "z")
    .replace(/j(?=[aeiou])/g, "y")
    .replace(/1/g, "shch")
    .replace(/2/g, "ch")
    .replace(/3/g, "sh");
}

/**
 * A word in the French transcription of Russian (fr.wikipedia.org/wiki/Transcription_du_russe_en_français),
 * respelt as the lists' romanization: chtch → shch, tch → ch, ch → sh, j → zh, gu → g before e, i or y and ge
 * before a consonant (the normalized word has lost gue's e: Koujouguetovitch is koujougutovitch), ie after a vowel
 * → ye, io after a consonant → yo, and -ine at the end → -in (Sergueï Choïgou, Prigojine, Andreievitch, Artiom for
 * Sergey Shoygu, Prigozhin, Andreyevich, Artyom; ou for u is already the key's). Null for a word without the
 * transcription's marks (ou, tch, gu, ie after a vowel, io after a consonant, a final -ine), for a word of fewer than
 * five letters, or seven when it starts with ch (Chinese syllables: Chou, Guan, Guo stay as written), and the Greek
 * -ios (Georgios) is not a ё. `whole`: the word is part of a name read as French as a whole (transcribedNames),
 * respelt marks or not, and its dj is the transcription's dzh.
 */
export function frenchAsEnglish(w: string, whole = false): string | null {
  if (!whole && !frenchMarks(w)) return null;
  return w
    .replace(/chtch/g, "1")
    .replace(/tch/g, "2")
    .replace(/ch/g, "sh")
    .replace(whole ? /d?j/g : /(?<!d)j/g, (m) => (m === "dj" ? "dzh" : "zh"))
    .replace(/gu(?=[eiy])/g, "g")
    .replace(/gu(?=[^aeiouy])/g, "ge")
    .replace(/(?<=[aeiou])ie/g, "ye")
    .replace(/(?<=[^aeiou])io(?!s$)/g, "yo")
    .replace(/([^aeiou])ine$/, "$1in")
    .replace(/1/g, "shch")
    .replace(/2/g, "ch");
}

/** The German transcription's marks in a word (see germanAsEnglish). */
const germanMarks = (w: string) => w.includes("sch") || (w.length >= 5 && w.includes("w")) || /[iy]tsch$/.test(w);
/** The French transcription's marks in a word but an io after a consonant (see frenchAsEnglish). */
const FRENCH_MARKS = /ou|tch|gu|[aeiou]ie|[^aeiou]ine$/;
/** A word long enough to be read as French: Chinese syllables (Chou, Guan, Guo) are shorter. */
const frenchLength = (w: string) => w.length >= (w.startsWith("ch") ? 7 : 5);
/** The French transcription's marks in a word (see frenchAsEnglish). */
const frenchMarks = (w: string) => frenchLength(w) && (FRENCH_MARKS.test(w) || /[^aeiou]io(?!s$)/.test(w));

/**
 * The French marks that make a whole name French (see transcribedNames): not an io alone, the ending of Spanish and
 * Italian words (Nacional, Internacional, Antonio), which would have every such name searched twice for nothing.
 */
const frenchNameMarks = (w: string) => frenchLength(w) && FRENCH_MARKS.test(w);

/**
 * A name one of whose words bears the German or French transcription's marks, with every word respelt as that
 * transcription's (normalized words joined by spaces; none, one or both). A transcription is the whole name's, not
 * one word's: in Roman Wiktorowitsch Ptizyn and Guennadi Jidko only one word shows it, and the others (Ptizyn for
 * Ptitsyn, Jidko for Zhidko) are respelt only once the name is read as German or French. Whole, the French dj is
 * the dzh of the lists (Gadjiev / Gadzhiev), not the dj of an Arabic name written the French way (Djamal), which a
 * single word without the name's context keeps.
 */
export function transcribedNames(raw: string): string[] {
  const words = tokens(raw);
  if (words.length < 2) return [];
  const out: string[] = [];
  for (const [marks, respell] of [
    [germanMarks, germanAsEnglish],
    [frenchNameMarks, frenchAsEnglish],
  ] as const) {
    if (!words.some(marks)) continue;
    const name = words.map((w) => respell(w, true) ?? w).join(" ");
    if (name !== words.join(" ") && !out.includes(name)) out.push(name);
  }
  return out;
}

/** A j not after d (the dj of Djamal is the j of Jamal), as the y it may stand for. */
const J_FOR_Y = /(?<!d)j/g;
/**
 * Whether a word's j may be the y of another romanization: a final j (the й of Sergej, Jurij), or a word of four
 * letters or more not ending in n. Korean and Chinese syllables keep their j, which is another sound than their
 * y (Jong / Yong, Joon / Yoon, Jeong / Yeong), as does a Spanish j (Juan / Yuan).
 */
const jForY = (w: string) => /(?<!d)j/.test(w) && (w.endsWith("j") || (w.length >= 4 && !/ng?$/.test(w)));
/** A ch not in sch or tsch: the kh of German, Greek, Czech and Polish spellings (Michail, Chalid, Chodorkowski). */
const CH_FOR_KH = /(?<![st])ch/g;

/** A word's spellings in the lists' English-style romanization (see `respelt`). */
interface Respelt {
  /** The keys the word may also have: each respelling's. */
  keys: readonly string[];
  /** The key of the word in the German transcription respelt (germanAsEnglish), or null. */
  german: string | null;
}
const NOT_RESPELT: Respelt = { keys: [], german: null };
/**
 * Respellings by word: a query word is compared with many listed words, and recurs across requests (cleared when
 * full).
 */
const RESPELT = new Map<string, Respelt>();
const RESPELT_CACHE_SIZE = 50_000;

/**
 * The keys a word may also have in the lists' English-style romanization: the German and French transcriptions
 * respelt (germanAsEnglish, frenchAsEnglish), a j read y (Jurij / Yuriy, Juri / Yuri, Julia / Yulia, Natalja /
 * Natalia, Jelena / Yelena: German, Polish, Czech and South Slavic spellings, see jForY), and a ch read kh in a word
 * of six letters or more, seven when it starts the word (Michail / Mikhail, Charitonow / Kharitonov): shorter words
 * are Chinese and Korean syllables (Chan / Han, Chung / Hung, Cheung / Heung) or Spanish names (Chavez). A word
 * with none of j, w, ch, ou, gu, ie, io or a final -ine is not respelt.
 */
export function respelt(w: string): Respelt {
  const j = w.includes("j");
  const ch = w.includes("ch");
  if (!j && !ch && !w.includes("w") && !/ou|gu|ie|io|ine$/.test(w)) return NOT_RESPELT;
  const known = RESPELT.get(w);
  if (known) return known;
  const respelling = germanAsEnglish(w);
  const german = respelling === null ? null : tokenKey(respelling);
  const keys: string[] = german === null ? [] : [german];
  if (j && jForY(w)) keys.push(tokenKey(w.replace(J_FOR_Y, "y")));
  const french = frenchAsEnglish(w);
  if (french !== null) keys.push(tokenKey(french));
  if (ch && w.length >= (w.startsWith("ch") ? 7 : 6)) keys.push(tokenKey(w.replace(CH_FOR_KH, "kh")));
  const out = keys.length ? { keys, german } : NOT_RESPELT;
  if (RESPELT.size >= RESPELT_CACHE_SIZE) RESPELT.clear();
  RESPELT.set(w, out);
  return out;
}

/** A c before a, o, u, l, r or t, where it sounds k, written k. */
const hardC = (key: string) => key.replace(/c(?=[aoulrt])/g, "k");

/** Similarity of two tokens (or joined tokens) given their normalized forms and keys. */
export function tokenSim(aNorm: string, aKey: string, bNorm: string, bKey: string): number {
  const s = spellingSim(aNorm, aKey, bNorm, bKey);
  return s < VOWEL_VARIANT_SIM && LISTED_VARIANTS.get(aKey)?.includes(bKey) ? LISTED_VARIANT_SIM : s;
}

function spellingSim(aNorm: string, aKey: string, bNorm: string, bKey: string): number {
  if (aNorm === bNorm) return 1;
  // An initial stands for a name that starts with it ("J. R. DOE" / "DOE, John Robert"); below EVIDENCE_SIM,
  // so the rest of the name must still carry the match.
  if ((aNorm.length === 1) !== (bNorm.length === 1)) {
    const [i, w] = aNorm.length === 1 ? [aNorm, bNorm] : [bNorm, aNorm];
    return /^[a-z]$/.test(i) && w.startsWith(i) ? INITIAL_SIM : 0;
  }
  // Same key: another spelling of the same word, unless the spellings are far apart in length ("aaaa" / "aa").
  if (aKey === bKey) return Math.abs(aNorm.length - bNorm.length) <= 2 ? KEY_EQUAL_SIM : 0;
  // A query word spelt in another romanization (respelt: German Iwanow, Juri, Michail for Ivanov, Yuri, Mikhail)
  // has the listed word's key once respelt as the lists' romanization writes it. The query's side only (every
  // caller passes the query's word first): the lists write their own romanization, and a listed word respelt on
  // every comparison cost a third of a query's time.
  const ra = respelt(aNorm);
  if (ra.keys.includes(bKey)) return Math.abs(aNorm.length - bNorm.length) <= 4 ? KEY_EQUAL_SIM : 0;
  // A Russian name in the German transcription (Juri Wiktorowitsch Iwanow) against the English-style one the lists
  // use (Yuri Viktorovich Ivanov) is compared as respelt, so the rules below read Scherebzow / Zherebtsov as one
  // letter apart. Not the French one: its marks (ou, io, gu) are common in other names (Georgios, Guoying), which
  // compared as respelt lost their typo variants.
  if (ra.german !== null && !/w|sch/.test(bNorm)) aKey = ra.german;
  // A hard c is the k of other romanizations (Victor / Viktor, Nicolai / Nikolai, Marco / Marko): where one word
  // has a c and the other a k at the same length (the fold changes no length), they are compared with the hard c
  // folded. Not in the key itself: a c folded from the Turkish ç (Koçak / Kochak) or the South Slavic ć (Petrović /
  // Petrovich) is no k, and the spellings the lists pair by key (LISTED_VARIANTS) keep their link.
  if (
    aKey.length === bKey.length &&
    ((aKey.includes("c") && bKey.includes("k")) || (aKey.includes("k") && bKey.includes("c")))
  ) {
    [aKey, bKey] = [hardC(aKey), hardC(bKey)];
    if (aKey === bKey) return Math.abs(aNorm.length - bNorm.length) <= 2 ? KEY_EQUAL_SIM : 0;
  }
  if (derivedNames(aNorm, aKey, bNorm, bKey)) return 0;
  const len = Math.max(aKey.length, bKey.length);
  const max = allowedEdits(Math.min(aKey.length, bKey.length) <= 3 ? 0 : len);
  if (max === 0 || Math.abs(aKey.length - bKey.length) > max) return 0;
  // Vowels are what romanizations disagree on most (Hezbollah / Hizballah, Mohamed / Muhamad): words with the
  // same first letter and the same consonants in the same order count as one word spelled two ways, when
  // they have five or more consonants, or three or more and the same consonant/vowel pattern (so Mahmud,
  // CVCCVC, stays apart from Mohamed, CVCVCVC).
  if (aKey.charCodeAt(0) === bKey.charCodeAt(0)) {
    const sa = skeleton(aKey);
    if (sa.length >= 3 && sa === skeleton(bKey) && (sa.length >= 5 || cvPattern(aKey) === cvPattern(bKey)))
      return VOWEL_VARIANT_SIM;
  }
  // A different first letter is rarely a typo and often another name (Sadeghi / Vaseghi): one edit at most, and
  // in a short word none but the glide romanizations put before a vowel (Elena / Yelena, Evgeny / Yevgeny; y is
  // i in a key):
  // changing the first letter of a syllable makes another name (Long / Song, Qian / Tian, Adam / Saddam).
  const sameStart = aKey.charCodeAt(0) === bKey.charCodeAt(0);
  if (!sameStart && Math.min(aKey.length, bKey.length) <= SHORT_WORD) {
    const [short, long] = aKey.length < bKey.length ? [aKey, bKey] : [bKey, aKey];
    if (long.slice(1) !== short || !/^[ij][aeiou]/.test(long)) return 0;
  }
  const limit = sameStart ? max : 1;
  const d = osaDistance(aKey, bKey, limit);
  if (d > limit) return 0;
  const s = Math.min(KEY_EQUAL_SIM, 1 - d / len);
  return s >= MIN_TOKEN_SIM ? s : 0;
}

/**
 * The evidence rule, per side: a name with distinctive words needs one of them matched (similarity ≥ 0.8);
 * a name made only of generic words, particles and legal forms needs at least two generic words, all of them
 * matched (particles and legal forms never count). So "ACME TRADING" never hits "GLOBAL TRADING", and "TRADING CORP" hits nothing
 * but an exact "TRADING CORP", while "GLOBAL TRADING CORPORATION" still finds a listed "GLOBAL TRADING CORP".
 */
function hasEvidence(t: readonly Tok[], strong: Uint8Array): boolean {
  let distinctive = false;
  let plain = 0;
  let allPlainStrong = true;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]?.cls;
    if (c === "distinctive") {
      distinctive = true;
      if (strong[i]) return true;
    } else if (c === "generic") {
      plain++;
      if (!strong[i]) allPlainStrong = false;
    }
  }
  return !distinctive && plain >= 2 && allPlainStrong;
}

interface Unit {
  q0: number;
  q1: number; // inclusive
  n0: number;
  n1: number;
  sim: number;
}

/** Every query token against every name token (similarity > 0). */
function singleUnits(q: readonly Tok[], n: readonly Tok[], memo: Map<Tok, number>[] | undefined): Unit[] {
  const units: Unit[] = [];
  q.forEach((qi, i) => {
    const m = memo?.[i];
    n.forEach((nj, j) => {
      let s = m?.get(nj);
      if (s === undefined) {
        s = tokenSim(qi.norm, qi.key, nj.norm, nj.key);
        m?.set(nj, s);
      }
      // Two common names that start differently are two names, not one misspelt (Ahmed / Hamed): only a
      // transliteration (same key) or a close spelling links them. Same-initial pairs stay fuzzy, since
      // romanizations of one name differ that way (Yusuf / Youssef).
      if (s > 0 && s < VOWEL_VARIANT_SIM && qi.common && nj.common && qi.key[0] !== nj.key[0]) s = 0;
      // A query word the lists know as a name of its own is that name, not a misspelling of a near one: only
      // an edit romanizations make links it to another (Kuzmin is not Kuzin, Jafari not Safari); an unknown
      // word keeps every edit, since it may be a typing slip (Mohaved / Mohamed).
      if (
        qi.known &&
        s > 0 &&
        s < KEY_EQUAL_SIM &&
        s !== VOWEL_VARIANT_SIM &&
        s !== LISTED_VARIANT_SIM &&
        qi.norm.length > 1 &&
        nj.norm.length > 1
      ) {
        if (!lightEdit(qi.key, nj.key)) s = 0;
      }
      if (s > 0) units.push({ q0: i, q1: i, n0: j, n1: j, sim: s });
    });
  });
  return units;
}

/** Letters a joined pair needs before a near miss (not only the same spelling) counts. */
const JOINED_FUZZY_MIN = 8;
const joinedNorm = (a: string, b: string) => tokens(a + b).join("") || a + b;

/**
 * Two adjacent tokens of `joined` run together against each token of `other`: "gazprom bank" against
 * "gazprombank", and reordered ("bank gazprom") at a discount. `side` says which side was joined, so the unit
 * records its positions the right way round.
 */
function joinedUnits(joined: readonly Tok[], other: readonly Tok[], side: "query" | "name"): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i + 1 < joined.length; i++) {
    const a = joined[i];
    const b = joined[i + 1];
    if (!a || !b) continue;
    // A legal form run together with a name must be spelt as the other side spells it ("TRADINGFZE" / TRADING
    // FZE), never a near miss ("transportation limited" is no "corporation").
    const legal = a.cls === "legal" || b.cls === "legal";
    // The parts of one hyphenated name are joined only in their order: Jia-Pei is not Peijia.
    const oneName = a.group !== undefined && a.group >= 0 && a.group === b.group;
    // Run together, the words are normalized again as one (Cifu + entes → cifuentes → cifuntes, as the name
    // itself normalizes).
    for (const [norm, cap] of [
      [joinedNorm(a.norm, b.norm), JOINED_SIM],
      ...(oneName ? [] : [[joinedNorm(b.norm, a.norm), JOINED_SIM * REORDER_FACTOR] as const]),
    ] as const) {
      const key = tokenKey(norm);
      other.forEach((o, j) => {
        // An initial stands for one word, never for two run together.
        if (o.norm.length === 1) return;
        const sim = side === "query" ? tokenSim(norm, key, o.norm, o.key) : tokenSim(o.norm, o.key, norm, key);
        // Words run together must be a spelling of the other side's word, not a near miss of it, when they are
        // short or joined in reverse: names joined that way resemble some listed word by chance far too often
        // (An + Ngo / TANGO, Villa + Anna / VIANA). Longer joins in order keep their fuzziness (al + Maghrabi /
        // ELMAGHRABY).
        if (sim < KEY_EQUAL_SIM && (legal || norm.length < JOINED_FUZZY_MIN || cap < JOINED_SIM)) return;
        const s = Math.min(cap, sim);
        units.push(
          side === "query" ? { q0: i, q1: i + 1, n0: j, n1: j, sim: s } : { q0: j, q1: j, n0: i, n1: i + 1, sim: s },
        );
      });
    }
  }
  return units;
}

/**
 * Score of query tokens `q` against name tokens `n` (both already normalized; exact equality of the whole
 * names is the caller's business and scores 1.0). `memo` (one map per query token, keyed by the name-side
 * token object) only saves work; it never changes the result.
 *
 * 1. Units: every query token against every name token, plus two adjacent tokens of one side joined against
 *    one token of the other (joined/split words). Unit similarity: `tokenSim` (joined units capped at 0.97).
 * 2. Greedy alignment: units by similarity (ties by position), each token used at most once.
 * 3. Coverage of each side: Σ weight × similarity of its matched tokens / Σ weight of all its tokens.
 *    Weights: distinctive 1, generic 0.6, particle 0.3, legal form 0.15.
 * 4. Score: harmonic mean of the two coverages, × 0.98 if the matched tokens are in another order, capped at
 *    0.99. Zero unless both sides pass the evidence rule (`hasEvidence`), so generic words, particles and legal
 *    forms alone never produce a hit.
 */
function align(q: readonly Tok[], n: readonly Tok[], memo?: Map<Tok, number>[]) {
  const units = [...singleUnits(q, n, memo), ...joinedUnits(q, n, "query"), ...joinedUnits(n, q, "name")];
  // Highest similarity first; a joined unit beats single units of equal similarity (it explains more);
  // then by position, so the alignment is deterministic.
  units.sort(
    (a, b) => b.sim - a.sim || b.q1 - b.q0 + b.n1 - b.n0 - (a.q1 - a.q0 + a.n1 - a.n0) || a.q0 - b.q0 || a.n0 - b.n0,
  );

  const usedQ = new Uint8Array(q.length);
  const usedN = new Uint8Array(n.length);
  const strongQ = new Uint8Array(q.length);
  const strongN = new Uint8Array(n.length);
  const taken: Unit[] = [];
  let matchedQ = 0;
  let matchedN = 0;
  for (const u of units) {
    let free = true;
    for (let i = u.q0; i <= u.q1; i++) if (usedQ[i]) free = false;
    for (let j = u.n0; j <= u.n1; j++) if (usedN[j]) free = false;
    if (!free) continue;
    taken.push(u);
    const strong = u.sim >= EVIDENCE_SIM ? 1 : 0;
    for (let i = u.q0; i <= u.q1; i++) {
      usedQ[i] = 1;
      strongQ[i] = strong;
      matchedQ += (q[i]?.weight ?? 0) * u.sim;
    }
    for (let j = u.n0; j <= u.n1; j++) {
      usedN[j] = 1;
      strongN[j] = strong;
      matchedN += (n[j]?.weight ?? 0) * u.sim;
    }
  }
  return { taken, usedQ, usedN, strongQ, strongN, matchedQ, matchedN };
}

/**
 * The query names the listed person by the first and last words of the name (natural order) and leaves out only
 * words between them: every query word matched one listed word at transliteration strength or better, at least two
 * of them distinctive, and the listed name of three words or more made only of distinctive words and particles
 * (a person's name, not a company's).
 */
function missingMiddle(
  q: readonly Tok[],
  n: readonly Tok[],
  taken: readonly Unit[],
  usedQ: Uint8Array,
  usedN: Uint8Array,
  surnameStart: number,
): boolean {
  if (n.length < 3 || usedQ.includes(0) || !usedN[0] || !usedN[n.length - 1]) return false;
  if (n.some((t) => t.cls !== "distinctive" && t.cls !== "particle")) return false;
  // Where the list marks the surname ("BRIONES RUIZ, Claudia Aide"), its first word is the one a person goes by:
  // a query naming only the second (Claudia RUIZ) leaves out a surname, not a middle name.
  if (surnameStart > 0) {
    let j = surnameStart;
    while (j < n.length - 1 && n[j]?.cls === "particle") j++;
    if (!usedN[j]) return false;
  }
  let distinctive = 0;
  for (const u of taken) {
    if (u.sim < KEY_EQUAL_SIM || u.q1 !== u.q0 || u.n1 !== u.n0) return false;
    if (q[u.q0]?.cls === "distinctive") distinctive++;
  }
  return distinctive >= 2;
}

/**
 * A hyphenated name of the query ("Yoo-jin", "Jean-Pierre") is one name: its parts may match one listed word
 * (joined) or listed words side by side in the same order ("Min Jun", "Husam al Din"), never words apart or
 * reversed, which is how "Yoo-jin SHIN" would otherwise match "YOO, Jin" (a surname and a given name), and never
 * by one part alone.
 */
function splitCompound(
  q: readonly Tok[],
  n: readonly Tok[],
  taken: readonly Unit[],
  usedQ: Uint8Array,
  surnameStart: number,
): boolean {
  const at = new Map<number, [number, number][]>();
  // Half of a compound matched and its other half left over is another name: Seong-jin is not Jin, nor
  // Mohammad-Reza Mohammad.
  // A particle left over inside a compound is not its other half (the al- of al-Rawi), unless it ends it: a
  // Korean syllable can be spelled like one (Su-Bin, Hyon-U).
  const half = new Set<number>();
  q.forEach((t, i) => {
    const g = t.group ?? -1;
    if (g < 0 || usedQ[i]) return;
    if (t.cls !== "particle" || q[i + 1]?.group !== g) half.add(g);
  });
  for (const u of taken) for (let i = u.q0; i <= u.q1; i++) if (half.has(q[i]?.group ?? -1)) return true;
  for (const u of taken) {
    const t = q[u.q0];
    const g = t?.group ?? -1;
    // A particle of the compound (the al- of al-Rawi) may match any al of the listed name; its name words count.
    if (g < 0 || t?.cls === "particle" || u.q0 !== u.q1 || u.n0 !== u.n1) continue;
    const list = at.get(g) ?? [];
    list.push([u.q0, u.n0]);
    at.set(g, list);
  }
  // In order, with nothing but particles between (Husam-al-Din / "Husam al Din").
  const apart = (from: number, to: number) => to <= from || n.slice(from + 1, to).some((t) => t.cls !== "particle");
  // Nor across the surname the list marks: a given name and a surname side by side are two names (Qiu Jian-Zhang
  // is not ZHANG, Jian, natural order Jian Zhang).
  const across = (from: number, to: number) => surnameStart > 0 && from < surnameStart && to >= surnameStart;
  for (const pairs of at.values()) {
    pairs.sort((a, b) => a[0] - b[0]);
    for (let k = 1; k < pairs.length; k++) {
      const [from, to] = [pairs[k - 1]?.[1] ?? 0, pairs[k]?.[1] ?? 0];
      if (apart(from, to) || across(from, to)) return true;
    }
  }
  return false;
}

/** Whether a word of the listed surname (from `surnameStart`, particles aside) was matched. */
/**
 * A listed double surname ("RUELAS AVILA, Jose Maria": the father's, then the mother's, as Spanish and Portuguese
 * names give them) whose first word the query did not match while a surname of its own was left over ("María José
 * Ávila Castillo"): a namesake sharing the given names and one family name, at another place in the name. A
 * query that leaves out the father's surname without naming another ("Jose Maria AVILA") is not discounted.
 */
function firstSurnameOther(n: readonly Tok[], usedN: Uint8Array, usedQ: Uint8Array, surnameStart: number): boolean {
  if (surnameStart <= 0 || n.length - surnameStart < 2) return false;
  const first = n[surnameStart];
  return first?.cls !== "particle" && !usedN[surnameStart] && usedQ.includes(0);
}

/**
 * A person the list writes without marking the surname ("AAMIR ALI CHAUDHRY"), three words or more, whose last
 * word (the family name in the order the list writes such names) the query left out while matching the first:
 * "Amit Ali" met given names only, as NO_SURNAME_FACTOR says for the marked case.
 */
function lastNameLeft(n: readonly Tok[], usedN: Uint8Array): boolean {
  const last = n.length - 1;
  return n.length >= 3 && !usedN[last] && n[last]?.cls === "distinctive" && usedN[0] === 1;
}

/** The first given name (before a marked surname) left unmatched while a later given name matched. */
function firstGivenLeft(n: readonly Tok[], usedN: Uint8Array, surnameStart: number): boolean {
  if (usedN[0] || n[0]?.cls !== "distinctive") return false;
  for (let j = 1; j < surnameStart; j++) if (usedN[j]) return true;
  return false;
}

/** One distinctive word matched, and a listed word that is not a legal form or particle left unmatched. */
function oneWordOfMore(q: readonly Tok[], n: readonly Tok[], taken: readonly Unit[], usedN: Uint8Array): boolean {
  if (distinctiveMatched(q, taken).length !== 1) return false;
  return n.some((t, j) => !usedN[j] && (t.cls === "distinctive" || t.cls === "generic"));
}

/** The distinctive query words the alignment matched, each with the unit that matched it. */
function distinctiveMatched(q: readonly Tok[], taken: readonly Unit[]): { i: number; u: Unit }[] {
  const out: { i: number; u: Unit }[] = [];
  for (const u of taken) for (let i = u.q0; i <= u.q1; i++) if (q[i]?.cls === "distinctive") out.push({ i, u });
  return out;
}

/**
 * Whether the alignment matched exactly one distinctive query word, and only by two edits or more (a vowel
 * variant, "Hezbollah" / HIZBALLAH, is a spelling of the same word, not a near miss).
 */
function singleFuzzyWord(q: readonly Tok[], n: readonly Tok[], taken: readonly Unit[]): boolean {
  const matched = distinctiveMatched(q, taken);
  const only = matched.length === 1 ? matched[0] : undefined;
  if (!only) return false;
  const { i, u } = only;
  if (u.sim >= KEY_EQUAL_SIM || u.sim === INITIAL_SIM || u.sim === VOWEL_VARIANT_SIM || u.sim === LISTED_VARIANT_SIM)
    return false;
  return osaDistance(q[i]?.norm ?? "", n[u.n0]?.norm ?? "", 2) >= 2;
}

function namesSurname(n: readonly Tok[], usedN: Uint8Array, surnameStart: number): boolean {
  for (let j = surnameStart; j < n.length; j++) if (usedN[j] && n[j]?.cls !== "particle") return true;
  return false;
}

/**
 * Whether the one listed word a missing-middle query left out is a middle name of its own, which people commonly
 * leave out ("Sergey PETROV" for "PETROV, Sergey Vitalyevich"), so two common names matched around it still
 * identify the person as well as a name written without middle names can. Not when more than one word is left out
 * (the four-name case, "Ali HASSAN" for "HASSAN, Ali Mohammed Abdul"), not when the word left out is itself a
 * common name (an Arabic father's name, a frequent patronymic: many namesakes share it), and not in a name of
 * short syllables ("Li Cheng He"), whose middle word is half of a two-syllable given name.
 */
function fullMiddle(n: readonly Tok[], usedN: Uint8Array): boolean {
  let left = -1;
  for (let j = 0; j < n.length; j++)
    if (!usedN[j]) {
      if (left >= 0) return false;
      left = j;
    }
  const t = n[left];
  return t !== undefined && !t.common && n.some((w) => w.norm.length > 5);
}

/** Whether every distinctive query word the alignment matched is a common name. */
function onlyCommonNames(q: readonly Tok[], taken: readonly Unit[]): boolean {
  let any = false;
  for (const u of taken)
    for (let i = u.q0; i <= u.q1; i++) {
      const t = q[i];
      if (t?.cls !== "distinctive") continue;
      if (!t.common) return false;
      any = true;
    }
  return any;
}

/**
 * Factor when the list marks the surname and two or more given names ("SULEIMAN, Mohamed Ibrahim") and the query
 * matched a later given name but not the first, the name the person goes by: "Ibrahim Suleiman" is Ibrahim, not
 * Mohamed (in an Arabic name the second given name is often the father's), 0.80 → 0.68.
 */
const FIRST_GIVEN_FACTOR = 0.85;
/**
 * Factor for a vessel matched by a query that carries a company's legal form ("Blackstone Inc." against the vessel
 * BLACKSTONE) or words the vessel's name does not have ("Devon Energy" against DEVON): a ship has no legal form,
 * and a company named by more words than the ship is another party (0.976 → 0.68, 0.769 → 0.62).
 */
const VESSEL_PARTIAL_FACTOR = 0.7;
/**
 * Factor when the match rests on one distinctive word two letters or more off the listed one (edit distance):
 * "GoDaddy" against GODANI, "Allegion" against LEGION, "Lowe's" against LOWELL. One letter off is how a name is
 * mistyped ("ETEP" for ENTEP, "ALWEFQ" for ALWEFAQ) and is not discounted. One short word two
 * letters off is how well-known names meet listed ones by chance (0.80 → 0.64).
 */
const SINGLE_FUZZY_FACTOR = 0.8;
/**
 * Factor for an entity matched on one distinctive word while the listed name has words of its own beyond legal
 * forms: "Target Corporation" against TARGET ELECTRONICS, "Aon plc" against AON DEVELOPMENT LLC. Two companies
 * that share a word are two companies until another word says otherwise (0.755 → 0.68).
 */
const ONE_WORD_ENTITY_FACTOR = 0.9;
/**
 * `surnameStart`: where the listed name's surname begins in its natural-order tokens when the list marks it (the
 * words before the comma of "LAST, First"), else -1.
 */
export function scoreTokens(
  q: readonly Tok[],
  n: readonly Tok[],
  memo?: Map<Tok, number>[],
  surnameStart = -1,
  kind?: string,
): number {
  const person = kind === "individual";
  if (q.length === 0 || n.length === 0) return 0;
  const { taken, usedQ, usedN, strongQ, strongN, matchedQ, matchedN } = align(q, n, memo);
  if (!hasEvidence(q, strongQ) || !hasEvidence(n, strongN)) return 0;
  let totalQ = 0;
  for (const t of q) totalQ += t.weight;
  let totalN = 0;
  for (const t of n) totalN += t.weight;
  const cq = matchedQ / totalQ;
  const cn = matchedN / totalN;
  if (cq <= 0 || cn <= 0) return 0;
  let score = (2 * cq * cn) / (cq + cn);
  if (splitCompound(q, n, taken, usedQ, surnameStart)) return 0;
  const middle = missingMiddle(q, n, taken, usedQ, usedN, surnameStart);
  if (middle) score = Math.max(score, MISSING_MIDDLE_FLOOR);
  const leftOver = usedQ.includes(0) || usedN.includes(0);
  const oneMiddle = middle && fullMiddle(n, usedN);
  if (leftOver && !oneMiddle && onlyCommonNames(q, taken)) score *= COMMON_ONLY_FACTOR;
  if (leftOver && taken.some((u) => u.sim < KEY_EQUAL_SIM && u.sim !== INITIAL_SIM)) score *= FUZZY_PARTIAL_FACTOR;
  if (surnameStart > 0 && !namesSurname(n, usedN, surnameStart)) score *= NO_SURNAME_FACTOR;
  else if (firstSurnameOther(n, usedN, usedQ, surnameStart)) score *= NO_SURNAME_FACTOR;
  else if (person && surnameStart < 0 && lastNameLeft(n, usedN)) score *= NO_SURNAME_FACTOR;
  if (surnameStart >= 2 && firstGivenLeft(n, usedN, surnameStart)) score *= FIRST_GIVEN_FACTOR;
  if (kind === "vessel" && (q.some((t) => t.cls === "legal") || usedQ.includes(0))) score *= VESSEL_PARTIAL_FACTOR;
  if (singleFuzzyWord(q, n, taken)) score *= SINGLE_FUZZY_FACTOR;
  if (kind === "entity" && oneWordOfMore(q, n, taken, usedN)) score *= ONE_WORD_ENTITY_FACTOR;
  taken.sort((a, b) => a.q0 - b.q0);
  for (let k = 1; k < taken.length; k++) {
    if ((taken[k]?.n0 ?? 0) < (taken[k - 1]?.n0 ?? 0)) {
      score *= REORDER_FACTOR;
      break;
    }
  }
  if (person && leftOver && namesReordered(q, taken)) score *= REORDERED_PARTIAL_FACTOR;
  return Math.min(MAX_FUZZY, score);
}

/**
 * Whether the query's names (distinctive words matched in full, not as initials) meet the listed name's in another
 * order: "Mohammad Khalil" (given name, then surname) against "MOHAMMAD, Khalil Ibrahim" meets the listed surname
 * with its given name and the listed given name with its surname.
 */
function namesReordered(q: readonly Tok[], taken: readonly Unit[]): boolean {
  let last = -1;
  for (const u of taken) {
    if (q[u.q0]?.cls !== "distinctive" || u.sim === INITIAL_SIM) continue;
    if (u.n0 < last) return true;
    last = u.n0;
  }
  return false;
}

type Feature =
  | "identifier"
  | "exact"
  | "transliteration"
  | "phonetic"
  | "edit_distance"
  | "initials"
  | "joined_split"
  /** The listed name matched is one of the list's low-quality aliases, matched only as written. */
  | "low_quality_alias";

export interface Explanation {
  /** Query word(s) ↔ listed word(s), their similarity and what made them alike. */
  matched: { query: string; listed: string; sim: number; feature: Feature }[];
  unmatched_query: string[];
  unmatched_listed: string[];
  features: Feature[];
}

/** Which word pairs the score aligned and why (the same alignment `scoreTokens` uses), for the officer. */
export function explainTokens(q: readonly Tok[], n: readonly Tok[]): Explanation {
  const { taken, usedQ, usedN } = align(q, n);
  taken.sort((a, b) => a.q0 - b.q0);
  const words = (t: readonly Tok[], a: number, b: number) =>
    t
      .slice(a, b + 1)
      .map((x) => x.norm)
      .join(" ");
  const matched = taken.map((u) => {
    const query = words(q, u.q0, u.q1);
    const listed = words(n, u.n0, u.n1);
    const feature: Feature =
      u.q1 > u.q0 || u.n1 > u.n0
        ? "joined_split"
        : u.sim === 1
          ? "exact"
          : u.sim === INITIAL_SIM && (query.length === 1 || listed.length === 1)
            ? "initials"
            : u.sim === KEY_EQUAL_SIM || u.sim === LISTED_VARIANT_SIM
              ? "transliteration"
              : u.sim === VOWEL_VARIANT_SIM
                ? "phonetic"
                : "edit_distance";
    return { query, listed, sim: Math.round(u.sim * 1000) / 1000, feature };
  });
  return {
    matched,
    unmatched_query: q.filter((_, i) => !usedQ[i]).map((t) => t.norm),
    unmatched_listed: n.filter((_, j) => !usedN[j]).map((t) => t.norm),
    features: [...new Set(matched.map((m) => m.feature))].sort(),
  };
}
