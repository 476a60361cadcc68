/**
 * Text normalization shared by the index (nomenclature and tariff-line descriptions) and the queries
 * (product titles), so that both sides meet on the same tokens: lower case, no diacritics, British and
 * American spellings folded, plurals stemmed, numbers and sizes dropped.
 */

/** Spelling variants folded to one form (after lower-casing, before stemming). */
const CANON: Record<string, string> = {
  aluminium: "aluminum",
  colour: "color",
  colours: "color",
  tyre: "tire",
  tyres: "tire",
  jewellery: "jewelry",
  fibre: "fiber",
  fibres: "fiber",
  grey: "gray",
  pyjamas: "pajamas",
  moisturiser: "moisturizer",
  moisturising: "moisturizing",
  centre: "center",
  catalogue: "catalog",
  men: "man",
  women: "woman",
  children: "child",
  knives: "knife",
  leaves: "leaf",
  shelves: "shelf",
  feet: "foot",
  teeth: "tooth",
  mice: "mouse",
  wellies: "wellington",
  nappies: "diaper",
  nappy: "diaper",
  napkins: "napkin",
  trainers: "trainer",
  organiser: "organizer",
  crocheted: "crochet",
  knitted: "knit",
  knitting: "knit",
};

/** Words with no power to tell headings apart: grammar, nomenclature filler, retail noise. */
export const STOPWORDS = new Set(
  (
    "a an the and or of for with without in on at by to from as is are be been this that these those its it " +
    "not no nor than other others excluding including whether n e c nec etc heading headings item subheading chapter " +
    "kind used use type put up presented similar like thereof therefor therefore such any all each " +
    "new best premium quality pack pcs pc piece pieces count ct set sets size sizes style inch inches cm mm ft " +
    "x kg g ml l oz lb lbs litre liter pair pairs mah gb tb w v " +
    "black white red blue green yellow pink purple orange brown gray silver-tone beige navy multicolor " +
    "unisex adult adults sale free shipping genuine original brand branded official authentic"
  ).split(" "),
);

/** Words that start a clause qualifying the product rather than naming it ("case for iPhone"). */
export const QUALIFIERS = new Set(["for", "with", "compatible", "fits", "fit", "including", "includes", "featuring"]);

function stem(w: string): string {
  const c = CANON[w];
  if (c) return c;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ss|us|is|ous|as)$/.test(w)) return w;
  if (/(sses|shes|ches|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

/** Lower case, diacritics stripped, possessives and hyphens turned into plain word boundaries. */
export function normalize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['\u2019]s\b/g, "")
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Every word in order, stemmed, stopwords kept (phrase matching needs them); numbers and sizes dropped. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of normalize(text).split(" ")) {
    if (!raw || /\d/.test(raw)) continue;
    out.push(stem(CANON[raw] ?? raw));
  }
  return out;
}

/** Content tokens for ranking. */
export function tokens(text: string): string[] {
  return words(text).filter((w) => !STOPWORDS.has(w) && w.length > 1);
}

/**
 * Removes the parts of a nomenclature description that say what a code is NOT ("(other than cotton)",
 * "(not knitted or crocheted)", "excluding ...", "n.e.c. in item no. 8471.30"), so that those words do not
 * pull matching products towards it.
 */
export function stripExclusions(description: string): string {
  return description
    .replace(/\((?:not|other than|excluding|excl\.?|except|but not)\b[^()]*\)/gi, " ")
    .replace(/\b(?:excluding|excl|other than|except|but not)\b\.?[^;,()]*/gi, " ")
    .replace(/\bn\.e\.c\.[^;,()]*/gi, " ")
    .replace(/\bnesoi\b/gi, " ");
}
