/**
 * Name normalization for screening. Two levels:
 *
 * - `normalizeName` / `tokens`: what "exact" means. Case, diacritics (with the German transliteration
 *   Müller = Muller = Mueller, so ä/ö/ü/ae/oe/ue all fold to a/o/u and ß to ss), punctuation (apostrophes and
 *   the dots of initialisms join, everything else separates) and whitespace.
 * - `tokenKey`: a light transliteration key used when comparing tokens that are not equal: doubled letters
 *   collapse and a few spellings that romanizations swap freely are unified (y/i, ou/u, ph/f, q/k, ck/k,
 *   kh/h, dj/j). Two tokens with the same key are "the same name spelled another way".
 *
 * Both are pure and deterministic; the list side and the query side go through the same functions.
 */

import anyAscii from "any-ascii";
import { HANJA_FIRST, HANJA_READINGS } from "./hanja";

/** A letter of a script other than Latin (Cyrillic, Arabic, Greek, Hebrew, CJK, Hangul…). */
const NON_LATIN_RE = /(?![\p{Script=Latin}])\p{L}/u;
const ABJAD_RE = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

/**
 * The Latin spelling of a name written in another script, or null when it is Latin already. Transliteration
 * is any-ascii's (per-character tables for every script, kept up to date with Unicode, small enough for the
 * Worker: chosen over hand-written tables and over ICU, which workerd does not carry). CJK and Hangul come
 * out one capitalized syllable after another ("XiJinPing"); they are split into syllables so that the
 * joined/split comparison can align them with "XI Jinping".
 */
export function latinize(raw: string): string | null {
  if (!NON_LATIN_RE.test(raw)) return null;
  // Arabic and Hebrew write no short vowels: their letter-by-letter Latin ("mhmd hsn") resembles no listed
  // spelling, so it is not produced (the lists carry Latin spellings of those names beside the original).
  if (ABJAD_RE.test(raw)) return null;
  return anyAscii(raw)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim();
}

/**
 * Hangul syllables by their jamo (Unicode's arithmetic: 19 initials × 21 medials × 28 finals from U+AC00),
 * in the romanization the sanctions lists write North Korean names in: the DPRK's own system (1992), which is
 * McCune-Reischauer without breves and apostrophes and with j for ㅈ ("KIM, Jong Un", "CHOE, Ryong Hae",
 * "RI, Pyong Chol"), one syllable per word. any-ascii's Revised-Romanization-like output ("Gim Jeong Eun")
 * matched almost none of those spellings.
 */
const INITIALS = [
  "k",
  "kk",
  "n",
  "t",
  "tt",
  "r",
  "m",
  "p",
  "pp",
  "s",
  "ss",
  "",
  "j",
  "jj",
  "ch",
  "kh",
  "th",
  "ph",
  "h",
];
const MEDIALS = [
  "a",
  "ae",
  "ya",
  "yae",
  "o",
  "e",
  "yo",
  "ye",
  "o",
  "wa",
  "wae",
  "oe",
  "yo",
  "u",
  "wo",
  "we",
  "wi",
  "yu",
  "u",
  "ui",
  "i",
];
const FINALS = [
  "",
  "k",
  "k",
  "k",
  "n",
  "n",
  "n",
  "t",
  "l",
  "k",
  "m",
  "l",
  "l",
  "l",
  "p",
  "l",
  "m",
  "p",
  "p",
  "t",
  "t",
  "ng",
  "t",
  "t",
  "k",
  "t",
  "p",
  "t",
];
/** The McCune-Reischauer initials where they differ from the DPRK's (ㅈ ch, the aspirates without their h). */
const MR_INITIALS: Record<string, string> = { j: "ch", jj: "tch", kh: "k", th: "t", ph: "p" };
/** Plain stops voice inside a given name after a vowel or a sonorant: 만건 is "Man Gon", 기남 stays "Ki Nam". */
const VOICED: Record<string, string> = { k: "g", t: "d", p: "b" };
const SONORANT_FINALS = new Set(["", "n", "l", "m", "ng"]);
const HANGUL_RUN_RE = /[\uac00-\ud7a3]+/g;

const jamo = (ch: string) => {
  const n = (ch.codePointAt(0) ?? 0) - 0xac00;
  return {
    initial: INITIALS[Math.floor(n / 588)] ?? "",
    medial: MEDIALS[Math.floor((n % 588) / 28)] ?? "",
    final: FINALS[n % 28] ?? "",
  };
};

/**
 * One run of Hangul syllables, one Latin word per syllable. The first syllable of a name is the surname and
 * the next starts the given name (both in their word-initial form); later syllables of the given name voice
 * their plain stops after a vowel or a sonorant (DPRK system). `mr`: McCune-Reischauer initials, unvoiced.
 */
function romanizeRun(run: string, mr: boolean, afterSurname: boolean): string {
  const syllables = [...run];
  const words = syllables.map((ch, k) => {
    const { initial, medial, final } = jamo(ch);
    const prev = k > 0 ? jamo(syllables[k - 1] ?? "") : null;
    const inGivenName = k >= 2 || (k === 1 && afterSurname);
    const voiced = !mr && inGivenName && prev && SONORANT_FINALS.has(prev.final) ? VOICED[initial] : undefined;
    const head = voiced ?? (mr ? (MR_INITIALS[initial] ?? initial) : initial);
    const word = `${head}${medial}${final}`;
    return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
  });
  return asPersonName(words, afterSurname);
}

/**
 * A run's romanized syllables as a person's name: the given name (the syllables after the surname) is one name,
 * hyphenated as South Koreans write it (Dong-Hyon), so scoring matches it whole (`hyphenGroups`) and Kim Dong
 * Hyon is not taken for KIM, Hyon U by one shared syllable. Runs of five syllables or more are not a person's
 * name and stay apart.
 */
function asPersonName(words: string[], afterSurname: boolean): string {
  const surname = afterSurname ? [] : words.slice(0, 1);
  const given = words.slice(surname.length);
  if (words.length > 4 || given.length < 2) return words.join(" ");
  return [...surname, given.join("-")].join(" ");
}

/** A name of two to four Chinese characters, the length of a Korean person's name (surname and given name). */
const HAN_NAME_RE = /^[\u4e00-\u9fff]{2,4}$/;

/** A name of two to four Chinese characters, spaces and middle dots aside (see HAN_NAME_RE), or null. */
export const hanName = (raw: string): string | null => {
  const han = raw.normalize("NFKC").replace(/[\s·・]/g, "");
  return HAN_NAME_RE.test(han) ? han : null;
};

/**
 * A Chinese person's name in characters, in Mandarin (any-ascii's pinyin) written as the name is: the surname, then
 * the given name's syllables as one name, hyphenated so scoring matches it whole (`hyphenGroups`), as a Hangul
 * name's given name (`asPersonName`): 邱建彰 is Qiu Jian-Zhang, found by QIU, Jianzhang or Jian Zhang QIU but not
 * taken for ZHANG, Jian (its syllables reordered), as syllable by syllable it was. Four characters are a two-character
 * surname and a given name (欧阳士琳: Ouyang Shi-Lin). Null for any other text.
 */
function hanPersonName(raw: string): string | null {
  const han = hanName(raw);
  if (han === null) return null;
  const syllables = [...han].map((ch) => anyAscii(ch).trim());
  if (syllables.some((s) => !/^[A-Za-z]+$/.test(s))) return null;
  const surnameLength = syllables.length === 4 ? 2 : 1;
  const surname = syllables.slice(0, surnameLength).join("");
  const given = syllables.slice(surnameLength);
  return given.length > 1 ? `${surname} ${given.join("-")}` : `${surname} ${given.join("")}`;
}

/**
 * A name written in Chinese characters read as Korean (Hangul): Chinese-language records write a Korean person's
 * name in the characters of its Sino-Korean reading (金正恩 for KIM Jong Un, 崔龙海 for CHOE Ryong Hae), which read
 * as Mandarin (Jin Zheng-En) is another name. Only a name of two to four characters (spaces and middle dots aside; a
 * company's name is longer, and its words are translated, not read), after NFKC, which maps the compatibility
 * ideographs Korean input methods produce (U+F900 block) to the unified ones. Each character's reading is the
 * `hanja` package's (./hanja, generated by scripts/build/hanja.mjs), as the DPRK and the lists write it (리, 류, 룡:
 * RI, RYU, RYONG); the surname 金 is read 김 (Kim), its reading as a surname, where the character's is 금 (gold).
 * Where the South's initial-sound rule changes the surname (류 → 유, 리 → 이, 라 → 나), that reading too: 劉進 is
 * RYU Jin to the DPRK and YU Jin to the South. Empty for any other text.
 */
export function koreanReadings(raw: string): string[] {
  const han = hanName(raw);
  if (han === null) return [];
  let out = "";
  for (const ch of han) {
    const r = HANJA_READINGS[(ch.codePointAt(0) ?? 0) - HANJA_FIRST];
    if (r === undefined || r === " ") return [];
    out += out === "" && ch === "金" ? "김" : r;
  }
  const south = initialSoundRule(out.charAt(0)) + out.slice(1);
  return south === out ? [out] : [out, south];
}

/** Jamo indices of a Hangul syllable's initial (Unicode: syllable = U+AC00 + (initial × 21 + medial) × 28 + final). */
const RIEUL = 5;
const NIEUN = 2;
const IEUNG = 11;
/** Medials that start with i or y (ㅑ ㅒ ㅕ ㅖ ㅛ ㅠ ㅣ). */
const Y_MEDIALS = new Set([2, 3, 6, 7, 12, 17, 20]);

/**
 * The South Korean initial-sound rule (두음 법칙, Korean orthography articles 10-12) on a word's first syllable: ㄹ
 * before i or y becomes silent (리 → 이, 류 → 유) and elsewhere ㄴ (라 → 나, 로 → 노); ㄴ before i or y becomes
 * silent (녀 → 여).
 */
function initialSoundRule(syllable: string): string {
  const code = syllable.charCodeAt(0) - 0xac00;
  if (code < 0 || code > 11171) return syllable;
  const initial = Math.floor(code / 588);
  const medial = Math.floor((code % 588) / 28);
  const final = code % 28;
  const to =
    initial === RIEUL
      ? Y_MEDIALS.has(medial)
        ? IEUNG
        : NIEUN
      : initial === NIEUN && Y_MEDIALS.has(medial)
        ? IEUNG
        : initial;
  return to === initial ? syllable : String.fromCharCode(0xac00 + (to * 21 + medial) * 28 + final);
}

/**
 * The Latin spellings of a Hangul name's surname (its first syllable) a listed spelling may use: the DPRK and
 * McCune-Reischauer forms and the Revised-Romanization-like one (김: kim, gim; 리: ri, i; 최: choe, choi).
 * Null for a name that does not start with Hangul.
 */
export function hangulSurnameForms(raw: string): string[] | null {
  const first = /^\s*([\uac00-\ud7a3])/.exec(raw)?.[1];
  if (!first) return null;
  const forms = new Set<string>();
  for (const mr of [false, true]) forms.add(romanizeRun(first, mr, false).toLowerCase());
  forms.add(anyAscii(first).toLowerCase());
  // ㄹ-initial surnames are written without it in the South (리/이: Ri, I, Yi, Li).
  for (const f of [...forms])
    if (f.startsWith("r"))
      forms
        .add(f.slice(1))
        .add(`l${f.slice(1)}`)
        .add(`y${f.slice(1)}`);
  return [...forms];
}

/**
 * Every Latin spelling a screen compares a name in another script by: latinize's, and for Hangul also the
 * DPRK romanization, syllable by syllable. Empty for a Latin name.
 */
export function latinizations(raw: string): string[] {
  const out: string[] = [];
  if (!/[\uac00-\ud7a3]/.test(raw)) {
    const general = hanPersonName(raw) ?? latinize(raw);
    return general ? [general] : out;
  }
  // any-ascii's syllables (Revised-Romanization-like), and the DPRK form. Not a McCune-Reischauer variant (ㅈ as
  // ch): it found nothing more on the evaluation set and flagged four times as many innocent names
  // (bench/results/screen-names.md).
  for (const run of [
    (word: string, after: boolean) =>
      asPersonName(
        [...word].map((ch) => anyAscii(ch)),
        after,
      ),
    (word: string, after: boolean) => romanizeRun(word, false, after),
  ]) {
    let runs = 0;
    const romanized = raw.replace(HANGUL_RUN_RE, (word) => ` ${run(word, runs++ > 0)} `);
    const text = anyAscii(romanized).replace(/\s+/g, " ").trim();
    if (!out.includes(text)) out.push(text);
  }
  return out;
}

/** Letters NFKD does not decompose. */
const SPECIAL: Record<string, string> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  ø: "o",
  Ø: "o",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  ł: "l",
  Ł: "l",
  ı: "i",
  þ: "th",
  Þ: "th",
  ħ: "h",
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL).join("")}]`, "g");
const MARKS_RE = /\p{M}+/gu;
const APOSTROPHES_RE = /['’‘`´ʻʼ]/g;
const INITIALISM_RE = /(?<![\p{L}\p{N}])(?:\p{L}\.)+\p{L}?(?![\p{L}\p{N}])/gu;
const SEPARATORS_RE = /[^\p{L}\p{N}]+/gu;
const GERMAN_DIGRAPH_RE = /([aou])e/g;

/** The tokens of a name, normalized (see the module comment). Never throws; may return []. */
export function tokens(raw: string): string[] {
  let s = raw.normalize("NFKC").replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c);
  s = s.normalize("NFKD").replace(MARKS_RE, "").toLowerCase();
  s = s.replace(APOSTROPHES_RE, "");
  // Initialisms join: "S.A." → "SA", "L.L.C." → "LLC", "J.P. Morgan" → "JP Morgan".
  s = s.replace(INITIALISM_RE, (m) => m.replaceAll(".", ""));
  const out: string[] = [];
  for (const t of s.split(SEPARATORS_RE)) {
    if (t) out.push(t.replace(GERMAN_DIGRAPH_RE, "$1"));
  }
  return out;
}

/**
 * Per token of `tokens(raw)`, the hyphenated word it came from (an index, the same for its parts), or -1: "Yoo-jin
 * Shin" → [0, 0, -1]. A hyphenated given name is one name ("Min-jun", "Mohammad-Reza"); scoring keeps its parts
 * together. All -1 when the words do not tokenize on their own as the whole does.
 */
export function hyphenGroups(raw: string): number[] {
  const out: number[] = [];
  let group = 0;
  for (const word of raw.split(/\s+/)) {
    const parts = tokens(word);
    const hyphenated = parts.length > 1 && /\p{L}[-\u2010\u2011]\p{L}/u.test(word);
    for (const _ of parts) out.push(hyphenated ? group : -1);
    if (hyphenated) group++;
  }
  return out.length === tokens(raw).length ? out : out.map(() => -1);
}

/** Normalized form of a whole name: tokens joined by one space. Equal forms are an exact match. */
export const normalizeName = (raw: string): string => tokens(raw).join(" ");

const VOWELS = "aeiouy";
/** Words this long or longer fold the Russian glides (below); shorter ones are mostly romanized syllables. */
const GLIDE_FOLD_MIN = 6;

/**
 * Transliteration key of a normalized token: ph→f, ck→k, kh→h, dj→j, q→k, y→i, ou→u, then doubled letters
 * collapse. In words of six letters or more, the spellings romanizations of Russian disagree on most also fold:
 * the y that BGN/PCGN (the lists' system) writes before е and after ь, which passports and plain transliteration
 * leave out (Yevgenyevich / Evgenevich, Sergeyevich / Sergeevich, Yelena / Elena), the yo of ё after a consonant,
 * which they write e (Artyom / Artem, Fyodor / Fedor, Seleznyov / Seleznev), and ks, which English spellings
 * write x after a vowel (Aleksandr / Alexander, Maksim / Maxim). Shorter words keep theirs: Hye, Myong and Kyong
 * are Korean syllables, not a Russian e. One pass over the characters (this runs for every joined pair that is
 * scored).
 */
export function tokenKey(t: string): string {
  let out = "";
  let last = "";
  const glides = t.length >= GLIDE_FOLD_MIN;
  for (let i = 0; i < t.length; i++) {
    let c = t.charAt(i);
    const next = t[i + 1];
    if (glides && c === "y" && next === "e") continue;
    if (glides && c === "y" && next === "o" && i > 0 && !VOWELS.includes(t.charAt(i - 1))) {
      out += last === "e" ? "" : "e";
      last = "e";
      i++;
      continue;
    }
    if (c === "x" && i > 0 && VOWELS.includes(t.charAt(i - 1))) {
      out += last === "k" ? "s" : "ks";
      last = "s";
      continue;
    }
    if (c === "p" && next === "h") {
      c = "f";
      i++;
    } else if (
      (c === "c" && next === "k") ||
      (c === "k" && next === "h") ||
      (c === "o" && next === "u") ||
      (c === "d" && next === "j")
    ) {
      c = c === "c" ? "k" : c === "k" ? "h" : c === "o" ? "u" : "j";
      i++;
    } else if (c === "q") c = "k";
    else if (c === "y") c = "i";
    if (c !== last) out += c;
    last = c;
  }
  return out;
}

/** Words that name a legal form: weighted down, never evidence on their own. */
const LEGAL_FORMS_RAW = `llc llp lp ltd limited co company companies corp corporation inc incorporated plc jsc ojsc cjsc pjsc
  zao oao ooo pao ao tov pp gmbh mbh ag kg ohg ug se sa sas sarl srl spa sl bv nv oy oyj ab asa aps pte pty pvt
  bhd sdn tbk kk fze fzco fzc fzllc fz dmcc est establishment sti anonim sirketi sirket limitada ltda cia sae wll
  spc saog saoc psc pjs sac eirl obshchestvo ogranichennoi ogranichennoy otvetstvennostyu otvetstvennostiu
  aktsionernoe aktsionernoye publichnoe publichnoye zakrytoe zakrytoye otkrytoe otkrytoye joint stock private
  public closed open partnership unlimited liability responsibility responsabilite sociedad anonima responsabilidad limitee societe cv`;

/** Words too common in names to identify anyone: full weight, but a hit needs a distinctive word too. */
const GENERIC_RAW = `trading trade traders trader ticaret tic import imports export exports impex international intl global
  worldwide group holding holdings industries industry industrial sanayi enterprise enterprises services service
  general investment investments invest development technology technologies tech solutions logistics shipping
  shipment transport transportation marine maritime energy oil gas petroleum petrochemical petrochemicals bank
  banking commercial finance financial capital partners partner management consulting consultancy engineering
  construction manufacturing products product supply supplies systems system center centre foundation
  association organization organisation committee office agency ministry department national united new first
  star royal golden gold economic commerce mining resources electronics electronic electric electrical machinery
  equipment chemical chemicals pharma pharmaceutical pharmaceuticals medical foods food agro agricultural
  textile textiles auto motors motor airlines airline air aviation line lines navigation tanker tankers cargo
  freight express exchange money credit insurance security defense defence research institute university
  factory plant works store shop market tourism travel hotel project projects real estate property properties
  fund trust ventures venture business commodities commodity metals metal steel sea ocean port east west north
  south middle central asia europe european africa african america american pacific gulf euro trans inter
  overseas world universal premier prime best smart green blue red black white alpha delta omega network media
  design tools parts components materials material distribution distributors wholesale retail sales
  marketing`;

/** Connecting words and name particles: weighted down, never evidence on their own. */
const PARTICLES_RAW = `al el ul ad ar as an at az bin ibn bint ben bou abu umm de del della da das do dos du la le les los
  las van von der den ter ten the of and y e et und fur for i`;

const setOf = (raw: string) => new Set(raw.split(/\s+/).flatMap((w) => tokens(w)));

const LEGAL_FORMS = setOf(LEGAL_FORMS_RAW);
const GENERIC_WORDS = setOf(GENERIC_RAW);
const PARTICLES = setOf(PARTICLES_RAW);

export type TokenClass = "distinctive" | "generic" | "legal" | "particle";

export function tokenClass(t: string): TokenClass {
  if (LEGAL_FORMS.has(t)) return "legal";
  if (PARTICLES.has(t)) return "particle";
  if (GENERIC_WORDS.has(t)) return "generic";
  // Bare numbers and single letters identify nothing on their own.
  if (t.length < 2 || /^\d+$/.test(t)) return "particle";
  return "distinctive";
}

/** Weight of a token in a name's coverage (see README, Screen: scoring). */
export const CLASS_WEIGHT: Record<TokenClass, number> = {
  distinctive: 1,
  generic: 0.6,
  particle: 0.3,
  legal: 0.05,
};
