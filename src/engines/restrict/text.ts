/**
 * Text normalization for keyword rules: case, diacritics and punctuation are folded, and simple English
 * plurals are reduced to the singular, on both sides (rule keywords and item text), so "Batteries",
 * "battery" and "BATTERY" meet while "gun" never matches inside "gunmetal": matching works on whole tokens.
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
  if (token.endsWith("s") && !/(?:ss|us|is|os)$/.test(token)) return token.slice(0, -1);
  return token;
}

/** Lower-case ASCII words of `text`, diacritics removed, each reduced to its singular. */
export function tokens(text: string): string[] {
  // Plain ASCII (the common case) skips Unicode normalization.
  const folded = /[\u0080-\uffff]/.test(text)
    ? text
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/ß/g, "ss")
        .replace(/[æ]/g, "ae")
        .replace(/[œ]/g, "oe")
    : text.toLowerCase();
  const out: string[] = [];
  for (const word of folded.split(/[^a-z0-9]+/)) if (word) out.push(singular(word));
  return out;
}
