/**
 * Text normalization for keyword rules, applied alike to rule keywords and item text so the two meet:
 *  - case and diacritics are folded ("Café" → "cafe", "ß" → "ss", Turkish dotless "ı" → "i"), and simple English and Romance plurals
 *    are reduced to the singular ("Batteries", "cuchillos"), so "BATTERY" meets "batteries";
 *  - words of any alphabet are kept (Cyrillic, Greek, Arabic, Hebrew), Arabic with its vowel marks and the
 *    article al- removed and alef forms unified, since merchants write titles in their own language;
 *  - scripts written without spaces (Chinese, Japanese kana, Korean hangul) become one token per character,
 *    so a keyword such as 电子烟 is a phrase of three tokens found wherever it occurs in a longer run;
 *  - matching works on whole tokens, so "gun" never matches inside "gunmetal".
 */

/** Irregular plurals that the suffix rules below would get wrong. */
const IRREGULAR: Record<string, string> = {
  knives: "knife",
  lives: "life",
  leaves: "leaf",
  wolves: "wolf",
  calves: "calf",
  halves: "half",
  shelves: "shelf",
  teeth: "tooth",
  geese: "goose",
  mice: "mouse",
  men: "man",
  women: "woman",
};

/** Singular of a lower-case ASCII token; short tokens and words that merely end in -s stay as they are. */
export function singular(token: string): string {
  const irregular = IRREGULAR[token];
  if (irregular) return irregular;
  if (token.length <= 3) return token;
  if (token.endsWith("ies") && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith("sses")) return token.slice(0, -2);
  if (/(?:x|z|ch|sh)es$/.test(token)) return token.slice(0, -2);
  // -os is stripped too ("cigarrillos", "cuchillos", "photos"); -us and -is are singular words ("cactus").
  if (token.endsWith("s") && !/(?:ss|us|is)$/.test(token)) return token.slice(0, -1);
  return token;
}

/** Han ideographs, kana, hangul (syllables and jamo) and CJK compatibility forms: one token per character. */
const CJK = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Arabic: vowel marks and tatweel dropped, the article al- (and a joined wa-al-) removed, then alef forms
 * unified; the article goes first so a word that begins with hamza-alef + lam (إلكتروني) keeps its letters.
 */
function arabic(word: string): string {
  let w = word.replace(/[\u064b-\u065f\u0670\u0640]/g, "");
  if (w.length > 4 && w.startsWith("\u0648\u0627\u0644")) w = w.slice(3);
  else if (w.length > 3 && w.startsWith("\u0627\u0644")) w = w.slice(2);
  return w.replace(/[\u0622\u0623\u0625]/g, "\u0627").replace(/\u0629$/, "\u0647");
}

function pushWord(out: string[], word: string) {
  if (/^[a-z0-9]+$/.test(word)) {
    out.push(singular(word));
    return;
  }
  if (!CJK.test(word)) {
    out.push(/[\u0600-\u06ff]/.test(word) ? arabic(word) : word);
    return;
  }
  // A run mixing CJK with other letters ("iqos电子烟"): CJK one character at a time, the rest as words.
  let buf = "";
  for (const ch of word) {
    if (CJK.test(ch)) {
      if (buf) out.push(singular(buf));
      buf = "";
      out.push(ch);
    } else buf += ch;
  }
  if (buf) out.push(/^[a-z0-9]+$/.test(buf) ? singular(buf) : buf);
}

/** Normalized tokens of `text` (see the module comment). */
export function tokens(text: string): string[] {
  const out: string[] = [];
  // Plain ASCII (the common case) skips Unicode normalization and the Unicode-aware split.
  if (!/[\u0080-\uffff]/.test(text)) {
    for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) if (word) out.push(singular(word));
    return out;
  }
  const folded = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/ı/g, "i")
    .replace(/ß/g, "ss")
    .replace(/æ/g, "ae")
    .replace(/œ/g, "oe")
    .replace(/ø/g, "o")
    .replace(/ł/g, "l");
  for (const word of folded.match(WORD) ?? []) pushWord(out, word);
  return out;
}
