/**
 * Text normalization shared by the index (nomenclature and tariff-line descriptions) and the queries
 * (product titles), so that both sides meet on the same tokens: lower case, no diacritics, British and
 * American spellings folded, plurals stemmed, numbers and sizes dropped.
 */
import countryList from "../../../data/iso/countries.json";

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
  // A garment kept apart from the adjective its singular is ("air tight containers" are no tights).
  tights: "tights",
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
/**
 * Words that say nothing of what goods are. Customs authorities refuse them as a description on their own: a
 * US invoice must give "a detailed description of the merchandise" (19 CFR 141.86(a)(3),
 * https://www.ecfr.gov/current/title-19/chapter-I/part-141/subpart-F/section-141.86), and the UPU's CN 23 asks for
 * a detailed description of each article, general terms such as "samples", "spare parts" or "gift" not being
 * sufficient. A text made only of these (and stopwords) is unclassifiable, not a guess.
 */
export const VAGUE_WORDS = [
  "gift",
  "gifts",
  "present",
  "presents",
  "sample",
  "samples",
  "stuff",
  "item",
  "items",
  "goods",
  "merchandise",
  "misc",
  "miscellaneous",
  "various",
  "assorted",
  "general",
  "product",
  "products",
  "thing",
  "things",
  "personal",
  "effects",
  "belongings",
  "parcel",
  "package",
  "packet",
  "order",
  "test",
  "souvenir",
  "souvenirs",
  "commercial",
  "other",
];

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

/** Words that end a head phrase when they stand alone (HEAD_BOUNDARIES), here as parts of hyphenated adjectives. */
const HYPHEN_BOUNDARY = new Set(["in", "on", "up", "off", "out", "made", "built", "down", "over", "to", "by", "with"]);

/** Lower case, diacritics stripped, possessives and hyphens turned into plain word boundaries. */
export function normalize(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/['\u2019]s\b/g, "")
      .replace(/&/g, " and ")
      // "custom-made", "hand-made": an adjective, not the participle that ends a head phrase ("made of")
      .replace(/\b(custom|hand|ready|tailor|home|factory)[- ]made\b/g, "$1made")
      // "in-line skate", "slip-on shoe", "made-up net", "built-in oven": a hyphenated adjective one of whose parts is a
      // preposition or participle is one word, not the boundary that ends a head phrase at "in", "on" or "made"
      .replace(/\b(?:[a-z]+-)+[a-z]+\b/g, (w) =>
        w.split("-").some((p) => HYPHEN_BOUNDARY.has(p)) ? w.replace(/-/g, "") : w,
      )
      .replace(/[^a-z0-9]+/g, " ")
      .trim()
  );
}

/** Every word in order, stemmed, stopwords kept (phrase matching needs them); numbers and sizes dropped. */
export function words(text: string): string[] {
  return wordsAndGaps(text).words;
}

/**
 * `words`, with, for each word, whether a number or size was dropped right before it ("Laptop 15.6 inch 16GB RAM":
 * "inch" and "ram" follow numbers, so "laptop ram" is no compound).
 */
export function wordsAndGaps(text: string): { words: string[]; gaps: boolean[] } {
  const out: string[] = [];
  const gaps: boolean[] = [];
  let gap = false;
  for (const raw of normalize(text).split(" ")) {
    if (!raw) continue;
    if (/\d/.test(raw)) {
      gap = true;
      continue;
    }
    out.push(stem(CANON[raw] ?? raw));
    gaps.push(gap);
    gap = false;
  }
  return { words: out, gaps };
}

/**
 * The frame of a ruling letter or a formal goods description around the product: "The merchandise under
 * consideration is referred to as ...", "You state that ...", "This analysis has been completed.", and the
 * references that name a specific article rather than describe it (part, item, model and style numbers, CAS
 * numbers). Their words ("analysis", "consideration", "state", "model") would otherwise be read as product
 * terms, and the frame would stand where the product's head noun is.
 */
const LETTER_FRAMES: RegExp[] = [
  // "The merchandise under consideration is referred to as", "The instant item is described as a",
  // "The products under consideration are", "The article under consideration consists of"
  // "The sample article consists of", "Your submitted sample, style 8808A, is a", "The three products in this case
  // are", "The product involved in these protests is", "The merchandise under consideration involves a"
  /\b(?:the|this|these|each|your|an?)\s+(?:(?:first|second|third|two|three|four|five|six|several)\s+)?(?:(?:subject|instant|imported|submitted|prospective|sample)\s+){0,2}(?:merchandise|items?|products?|articles?|goods|samples?|imports?|materials?|illustrations?|photographs?|subject\s+matter)(?:\s+(?:under\s+(?:consideration|review|protest)|in\s+(?:question|issue)|in\s+this\s+case|concerned|involved(?:\s+in\s+(?:this|these)\s+[a-z]+)?|at\s+(?:issue|hand)|to\s+be\s+imported|requiring\s+classification|(?:which\s+is\s+)?the\s+subject\s+of\s+(?:this|the)\s+(?:protest|request|ruling)|which\s+accompanied\s+your\s+(?:letter|request|inquiry)|(?:you\s+)?(?:submitted|provided|enclosed)(?:\s+(?:with\s+your\s+(?:request|inquiry|letter)|for\s+our\s+(?:inspection|review|examination)|to\s+headquarters))?))?(?:\s*,(?!\s*(?:described|identified|referred))(?<appos>[^,.;]{1,60}),["\u201d]?)?(?:\s*,?\s+(?:(?:is|are)\s+(?:comprised|composed)\s+of|(?:is|are)\s+said\s+to\s+be|is|are|consists?\s+of|comprises?|involves?|has\s+been|have\s+been)\s+(?:(?:described|identified|referred\s+to|marketed|designated|known)\s+as\s+)?|\s*,\s*(?:described|identified|referred\s+to)\s+as\s+|\s*,(?=\s*(?!(?:which|that|who)\b)[a-z]))/gi,
  // "Your query concerns the classification of", "The ruling was requested on", "Your letter describes the subject
  // merchandise as", "You will be importing what you term as a"
  /\byour\s+(?:query|inquiry|request|letter)\s+(?:concerns|involves|relates\s+to)\s+the\s+(?:tariff\s+)?classification\s+of\s+/gi,
  /\bthe\s+ruling\s+(?:was|is)\s+requested\s+(?:on|for)\s+/gi,
  /\byour\s+letter\s+describes\s+/gi,
  /\byou\s+will\s+be\s+importing\s+(?:what\s+you\s+term\s+as\s+)?/gi,
  // "You describe the instant merchandise as", "There are four products under consideration, and they are all
  // described as"
  /\b(?:the\s+)?(?:instant|subject)\s+(?:merchandise|items?|products?|articles?)\s+as\s+/gi,
  /\bthere\s+(?:is|are)\s+[a-z]+\s+(?:products?|items?|articles?)\s+under\s+consideration,?\s*(?:and\s+they\s+are\s+(?:all\s+)?(?:described|identified)\s+as\s+)?/gi,
  // "Samples of incense sticks were submitted with your inquiry."
  /^\s*(?:an?\s+)?samples?\s+of\s+(?:the\s+)?/gi,
  // "Samples were included with your request.", "Samples and descriptive information were submitted with your
  // request.", "A sample was submitted and will be retained for reference."
  /\b(?:an?\s+)?samples?(?:\s+and\s+(?:descriptive\s+)?(?:information|literature))?\s+(?:was|were)\s+(?:submitted|included|provided|enclosed)(?:\s+with\s+your\s+(?:request|inquiry|letter))?(?:,?\s*(?:and|which)\s+will\s+be\s+retained\s+for\s+reference)?(?:\s*\.|(?=\s*,))/gi,
  // "You are requesting the tariff classification on roller skates", "It is stated that"
  /\byou\s+(?:are\s+requesting|requested|request)\s+(?:the\s+|a\s+)?(?:tariff\s+)?classification\s+(?:ruling\s+)?(?:of|on|for|regarding|concerning)\s+(?:your\s+)?/gi,
  /\bit\s+is\s+stated\s+that\s+/gi,
  /\b(?:you\s+)?(?:intend|wish|plan|propose)\s+to\s+import\s+/gi,
  /\s+(?:was|were)\s+submitted(?:\s+with\s+your\s+(?:inquiry|request|letter))?(?=[.,;\s])/gi,
  // Older letters: "You have submitted five samples of", "The submitted comforter cover is made of".
  // "You submitted a sample and descriptive literature with your request.", "With your inquiry you submitted a
  // drawing of", "In your letter, you indicated that", "You have described your samples as"
  /\byou\s+(?:have\s+)?submitted\s+(?:an?\s+)?samples?\s+and\s+(?:descriptive\s+)?(?:literature|information)(?:\s+with\s+your\s+(?:request|inquiry|letter))?\s*\./gi,
  /\b(?:with|in)\s+your\s+(?:letter|request|inquiry),?\s*(?=you\b)/gi,
  /\byou\s+(?:indicate|state)\s+in\s+your\s+(?:letter|request|inquiry)\s+(?:that\s+)?/gi,
  /\byou\s+have\s+described\s+your\s+samples?(?:,[^,.;]{1,60},)?\s+as\s+/gi,
  // "You submitted a white pillowcase", "You have submitted five samples.", "You submitted sample sheets of"
  /\byou\s+(?:have\s+)?(?:submitted|enclosed|provided|sent)\s+(?:(?:(?:an?|one|two|three|four|five|six|several)\s+)?(?:samples?|photographs?|pictures?|illustrations?|drawings?)(?:\s+(?:sheets?|rolls?|swatch(?:es)?|pieces?|cones?))?(?:\s+of\s+|\s*(?=\.)))?/gi,
  /\b(?<=(?:the|a|an)\s+)submitted\s+(?!samples?\b)/gi,
  /\b(?:the\s+)?samples?\s+(?:submitted\s+)?(?:was|were|will\s+be)\s+(?:examined\s+and\s+disposed\s+of|retained\s+for\s+reference|returned(?:\s+under\s+separate\s+cover)?)\.?/gi,
  /\b(?:you|your)\s+(?:have\s+)?(?:state|stated|states|indicate|indicated|describe|described|explain|explained|advise|advised)\s+(?:that\s+)?/gi,
  /\bthis\s+analysis\s+has\s+been\s+completed\.?/gi,

  /\bfrom\s+the\s+information\s+(?:you\s+)?provided,?\s*/gi,
  /\b(?:it|they)\s+(?:has|have)\s+the\s+product\s+name\s+of\b/gi,
  /\bCAS\s*(?:No\.?|number|#)?\s*[\d-]+/gi,
  // "part number 558436", "item # DS0048005", "Style 89E03328", "model XNB20037": a reference with a digit
  /\b(?:part|item|model|style|sku|catalog|catalogue|article|product|reference|ref)s?\s*(?:numbers?|nos?\.?|#|\/sku)?\s*[:#]?\s*(?=[a-z0-9-]*\d)[a-z0-9][a-z0-9./-]*/gi,
];

/**
 * A ruling's subject line: "The tariff classification, country of origin marking and status under the USMCA of two
 * gate latches from China." Its frame, and the country of origin at its end ("china" is also porcelain), are not the
 * article; nor is a note on an earlier ruling after it.
 */
const SUBJECT_FRAME =
  /^\s*(?:the\s+)?tariff\s+classification(?:\s*,?\s*(?:and\s+)?(?:country[\s-]+of[\s-]+origin(?:\s+marking)?|marking|status\s+under\s+[^,]*?(?:agreement|act|\([A-Z]+\))))*\s*,?\s*(?:and\s+)?of\s+(?:an?\s+|the\s+)?(?=\S)/i;
const SUBJECT_TAIL = /\s+from\s+(?:the\s+)?[A-Z][A-Za-z]+(?:\s+(?:of\s+)?[A-Z][A-Za-z]+)*\s*(?:\.|$)(?:.*)$/s;

/**
 * "from China", "imported from the United Kingdom": the country the goods come from says nothing of what they
 * are, and some names are goods words ("china" is porcelain, "turkey" a bird). Country names as ISO 3166 gives
 * them (data/iso/countries.json) and their common short forms, capitalized as names are.
 */
const COUNTRY_NAMES = [
  ...(countryList as { name: string }[]).map((c) => c.name),
  ..."Korea|Republic of Korea|Czech Republic|Viet Nam|USA|U.S.A.|United States|United States of America|United Kingdom|UK|Great Britain|England|Scotland|Wales|Holland|Turkey|Turkiye|Türkiye|the People's Republic of China|PRC".split(
    "|",
  ),
]
  .filter((n) => /^[A-Z]/.test(n))
  .sort((a, b) => b.length - a.length)
  .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
const FROM_COUNTRY = new RegExp(
  `\\s*,?\\s+(?:(?:imported|shipped|manufactured|made|produced|sourced)\\s+)?(?:in\\s+|from\\s+)(?:the\\s+)?(?:${COUNTRY_NAMES.join("|")})(?![\\p{L}])`,
  "gu",
);

/**
 * What a letter's frame leaves before the article once its references are gone: a list label ("a)", "Items 1 & 2)"),
 * a bare copula ("Style V40115 is a pair of trousers" -> "is a pair of trousers"), "described in your letter as",
 * "As indicated by the submitted sample,", "an item that is called", "the items as". Each is taken off the start of
 * the text, so that its first clause names the article (the head noun phrase is read from it).
 */
const LEAD_INS: RegExp[] = [
  /^(?:items?\s+)?(?:[a-z]|[ivx]{1,4}|\d{1,2})?(?:\s*(?:&|and|,|-)\s*\d{1,2})*\)\s*/i,
  /^(?:(?:is|are)\s+)?(?:all\s+)?(?:described|identified|designated|referred\s+to|known|called)\s+(?:(?:in|by|on)\s+(?:your|the)\s+[a-z]+(?:\s+(?:and\s+)?[a-z]+){0,3}\s+)?as(?:\s+follows)?\s*[,:]?\s*/i,
  /^identified\s+by\s+[^,.;]{0,60},\s*(?=(?:is|are)\s)/i,
  /^(?:,\s*)*(?:is|are)\s+(?=\S)/i,
  /^(?:as\s+(?:indicated|described|stated|shown|noted|depicted)|according|based\s+on)\b[^,.;]{0,100},\s*/i,
  /^(?:an?|the)\s+(?:items?|products?|articles?)\s+(?:that|which)\s+(?:is|are)\s+(?:(?:called|described|identified|designated|known|referred\s+to)\s+(?:as\s+)?)?/i,
  /^(?:an?|the)\s+(?:items?|products?|articles?|samples?)\s+(?:identified|described|designated|known|referred\s+to)\s+as\s+/i,
  /^(?:descriptive\s+)?(?:literature|information)(?:\s+and\s+[^.]{0,60}?)?\s+with\s+your\s+(?:request|inquiry|letter)\s*\.\s*/i,
  /^(?:the|your)\s+(?:(?:submitted|subject|instant)\s+)?(?:items?|products?(?:\s+at\s+issue)?|merchandise|articles?|samples?|goods)\s+as\s+/i,
  // "In your letter dated June 7, 1995, on behalf of ..., [you requested a ruling on]": the frame before it went first.
  /^in\s+your\s+(?:letter|request|inquiry|submission)(?:,?\s+(?:dated|of)\s+[a-z]+\.?\s+\d{1,2},?\s+\d{4})?(?:,?\s+on\s+behalf\s+of\s+[^,.;]{1,60})?\s*,?\s*(?=[^,.;]{3})/i,
];

function withoutLeadIn(text: string): string {
  let out = text.trim();
  for (let round = 0; round < 3; round++) {
    const before = out;
    for (const re of LEAD_INS) out = out.replace(re, "").trim();
    if (out === before) break;
  }
  return out;
}

/** An apposition that refers to the article rather than names it: a number, or a style, item or model word. */
const REFERENCE =
  /\d|\b(?:style|item|model|part|sku|number|no|art|article|catalog(?:ue)?|reference|ref|product\s+(?:code|number)|sample)\b|#/i;

/** The text without its letter frame and article references (LETTER_FRAMES); unchanged when it has none. */
export function withoutLetterFrame(text: string): string {
  let out = SUBJECT_FRAME.test(text) ? text.replace(SUBJECT_FRAME, "").replace(SUBJECT_TAIL, "") : text;
  // Before the frames too: "As indicated by the submitted samples, the connectors" loses its comma to them.
  out = withoutLeadIn(out);
  // "The article (a backpack) is designed to ...": the bracket names the article.
  out = out.replace(
    /\b(?:the|this)\s+(?:merchandise|items?|products?|articles?)\s+\(((?:an?|the)\s+[^()]{1,40})\)/gi,
    "$1",
  );
  // A frame that opened a sentence leaves the article in lower case ("... pellets. The first product is described
  // as a resin" -> "... pellets. a resin"): marked, its first letter is raised again so the sentence still starts.
  for (const re of LETTER_FRAMES)
    out = out.replace(re, (_match: string, ...rest: unknown[]) => {
      const at = rest.find((r): r is number => typeof r === "number") ?? 0;
      const start = at > 0 && /[.!?]["\u201d']?\s*$/.test(out.slice(Math.max(0, at - 3), at)) ? " \uE000" : " ";
      // "The subject product, Dexamethasone, is ...": an apposition that is a name, not a reference ("style 8808A",
      // "item #3"), is the article and stays.
      const groups = rest.at(-1);
      const appos = typeof groups === "object" && groups !== null ? (groups as { appos?: string }).appos : undefined;
      return appos !== undefined && !REFERENCE.test(appos) ? `${start}${appos.trim()}, ` : start;
    });
  out = withoutLeadIn(
    out.replace(/\s*,(?:\s*,)+/g, ",").replace(/,?\s*\b(?:identified|designated)\s+(?:as|by)\s*(?=,)/gi, ""),
  );
  out = out.replace(/\uE000\s*([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/\uE000/g, "");
  out = out.replace(FROM_COUNTRY, "");
  // An abbreviation in brackets after the name it abbreviates ("polyethylene vinyl acetate (PEVA) tablecloth") is
  // no clause: the noun after it is still the article.
  out = out.replace(/\s*\([A-Z][A-Z0-9&/-]{1,9}\)(?=\s+[A-Za-z])/g, "");
  // Nor is a count in figures after the count in words ("four (4) models of").
  out = out.replace(/\s*\(\d+\)(?=\s+[A-Za-z])/g, "");
  return out.replace(/\s{2,}/g, " ").trim();
}

/** Words that say a garment is for men or boys, and for women or girls ("unisex": Chapter 61 note 9). */
const MEN_WORDS = new Set(["man", "men", "boy", "male", "gentleman", "gentlemen"]);
const WOMEN_WORDS = new Set(["woman", "women", "girl", "lady", "female", "unisex"]);

/**
 * Whom the text says the goods are for: "men" (men's or boys'), "women" (women's or girls', and garments for either,
 * which Chapter 61 note 9 and Chapter 62 note 8 put with women's), or undefined when it names neither or both.
 * "man-made" fibres name no one.
 */
export function statedGender(ws: readonly string[]): "men" | "women" | undefined {
  let men = false;
  let women = false;
  ws.forEach((w, i) => {
    if (MEN_WORDS.has(w) && !(w === "man" && ws[i + 1] === "made")) men = true;
    if (WOMEN_WORDS.has(w)) women = true;
  });
  return men === women ? undefined : men ? "men" : "women";
}

/** Sentences of a text (a full stop, question or exclamation mark, then a capital or a quote). */
export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=["\u201c(]?[A-Z])/).filter((s) => s.trim());
}

/** Content tokens for ranking. */
export function tokens(text: string): string[] {
  return words(text).filter((w) => !STOPWORDS.has(w) && w.length > 1);
}

/** Where a phrase of a nomenclature description stops naming the article and starts qualifying it. */
const QUALIFIER =
  /\b(?:of|for|with|without|in|on|from|to|by|whether|not|other than|including|excluding|containing|weighing|having|exceeding|put up|used|suitable|designed|intended|such as|than|at|under|over|but|valued|measuring|thereof|therefor)\b/i;

/**
 * The words a nomenclature description names goods by: English noun phrases end in their head ("account books",
 * "decoy calls"), so each phrase between commas and semicolons, cut where a qualifier begins ("of plastics", "for
 * babies"), gives its last word. "Registers, account books, order books" gives registers and books, not account or
 * order; "dog or cat food" gives food (words joined by "and" or "or" share the head that follows them).
 */
export function headNouns(description: string): string[] {
  const out: string[] = [];
  for (const phrase of description.split(/[,;:()[\]]/)) {
    const cut = QUALIFIER.exec(phrase);
    const named = tokens(cut ? phrase.slice(0, cut.index) : phrase);
    const head = named[named.length - 1];
    if (head && /^[a-z][a-z-]{2,}$/.test(head)) out.push(head);
  }
  return out;
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

/**
 * Words that end the head noun phrase of a description: prepositions and the participles that start a clause
 * on what the article is made of, used for or fitted to ("lever FOR the closing ring", "liner GUIDING wire",
 * "lifter INSTALLED on a hot tub"). The product is named before them.
 */
export const HEAD_BOUNDARIES = new Set([
  ...QUALIFIERS,
  "of",
  "on",
  "in",
  "to",
  "from",
  "by",
  "without",
  "into",
  "through",
  "containing",
  "consisting",
  "consist",
  "comprising",
  "comprised",
  "constructed",
  "manufactured",
  "fabricated",
  "produced",
  "composed",
  "made",
  "used",
  "installed",
  "mounted",
  "attached",
  "designed",
  "intended",
  "filled",
  "guiding",
  "having",
  "fitted",
  "equipped",
  "packed",
  "packaged",
  "imported",
  "identified",
  "described",
  "referred",
  "called",
  "marketed",
  "sold",
  "which",
  "that",
  "where",
  "when",
  // "eyeglasses suitable for use while driving", "an injector specifically designed to": the words after the noun
  // say what it is for, not what it is.
  "suitable",
  "specifically",
  "capable",
]);

/** Dosage forms: a word that names what a medicament is put up as, not a product of its own. */
export const DOSAGE_FORMS = new Set([
  "tablet",
  "caplet",
  "capsule",
  "softgel",
  "suppository",
  "suppositorie",
  "injection",
  "injectable",
  "ampoule",
  "ampule",
  "vial",
  "syrup",
  "ointment",
  "lozenge",
  "pessary",
  "infusion",
  "inhaler",
  "dosage",
  "dose",
]);

/** Words that put a dosage form in a medical context (treatment, strength, prescription). */
export const PHARMA_CONTEXT = new Set([
  "mg",
  "mcg",
  "microgram",
  "milligram",
  "iu",
  "dosage",
  "dose",
  "treat",
  "treating",
  "treatment",
  "therapy",
  "therapeutic",
  "pharmaceutical",
  "drug",
  "medicament",
  "medicine",
  "medicinal",
  "prescription",
  "rx",
  "api",
  "patient",
  "clinical",
  "oral",
  "orally",
  "chronic",
  "disease",
  "infection",
  "inflammatory",
  "antibiotic",
  "analgesic",
  "antiviral",
  "antifungal",
  "antihistamine",
  "antidepressant",
  "hypertension",
  "diabetes",
  "arthritis",
  "pain",
  "relief",
  "symptom",
  "generic",
  "active",
  "ingredient",
]);

/**
 * The endings of chemical and drug names (international non-proprietary names and systematic names):
 * "prucalopride", "metformin", "atorvastatin", "ibuprofen", "sodium chlorate", "tetradecane".
 */
const CHEMICAL_ENDINGS =
  /(?:ide|ate|ite|ine|ane|ene|yne|ol|one|ium|azole|pril|sartan|statin|mycin|micin|cillin|cycline|olol|afil|tidine|prazole|vir|mab|oxacin|parin|semide|thiazide|lukast|triptan|setron|tinib|zepam|barbital|caine|profen|acin|formin|oxetine|tadine|amide|idine|ester|ether|oside|ase)$/;

/** A word shaped like a chemical or drug name (checked only on words the nomenclature does not know). */
export const chemicalName = (w: string): boolean => w.length >= 7 && CHEMICAL_ENDINGS.test(w);

/**
 * Materials and the residual "other articles of <material>" subheading the tariff gives an article of that
 * material when no heading names the article itself.
 */
export const MATERIAL_RESIDUALS: Record<string, string> = {
  plastic: "392690",
  polypropylene: "392690",
  polyethylene: "392690",
  polystyrene: "392690",
  polycarbonate: "392690",
  pvc: "392690",
  abs: "392690",
  vinyl: "392690",
  acrylic: "392690",
  polyresin: "392690",
  resin: "392690",
  polyvinyl: "392690",
  polyurethane: "392690",
  melamine: "392690",
  eva: "392690",
  peva: "392690",
  thermoplastic: "392690",
  plexiglass: "392690",
  styrofoam: "392690",
  // Silicones are plastics (Chapter 39 note 1, heading 3910).
  silicone: "392690",
  steel: "732690",
  iron: "732690",
  stainless: "732690",
  galvanized: "732690",
  aluminum: "761699",
  copper: "741980",
  brass: "741980",
  bronze: "741980",
  zinc: "790700",
  nickel: "750890",
  tin: "800700",
  wood: "442199",
  wooden: "442199",
  bamboo: "442199",
  // Chapter 44 note 3: headings 4414-4421 take articles of fibreboard, particle board, plywood as of wood.
  fiberboard: "442199",
  fibreboard: "442199",
  mdf: "442199",
  plywood: "442199",
  particleboard: "442199",
  hardboard: "442199",
  cork: "450490",
  rubber: "401699",
  glass: "702000",
  ceramic: "691490",
  porcelain: "691410",
  stoneware: "691490",
  paper: "482390",
  paperboard: "482390",
  cardboard: "482390",
  leather: "420500",
  concrete: "681099",
  cement: "681099",
};

/**
 * Words that make an article one for the household ("laundry bin", "kitchen utensil holder"): the tariff gives
 * household articles a heading of their own for each material, before the residual "other articles" one.
 */
export const HOUSEHOLD = new Set([
  "household",
  "home",
  "kitchen",
  "kitchenware",
  "tableware",
  "cookware",
  "bakeware",
  "dishware",
  "bathroom",
  "laundry",
  "pantry",
  "countertop",
  "toilet",
  "cooking",
  "dining",
]);

/** The "tableware, kitchenware and other household articles of <material>" heading, where the tariff has one. */
export const HOUSEHOLD_ARTICLES: Record<string, string> = {
  plastic: "3924",
  polypropylene: "3924",
  polyethylene: "3924",
  polystyrene: "3924",
  polycarbonate: "3924",
  pvc: "3924",
  abs: "3924",
  acrylic: "3924",
  melamine: "3924",
  silicone: "3924",
  steel: "7323",
  iron: "7323",
  stainless: "7323",
  aluminum: "7615",
  copper: "7418",
  brass: "7418",
  bronze: "7418",
  wood: "4419",
  wooden: "4419",
  bamboo: "4419",
  fiberboard: "4419",
  fibreboard: "4419",
  mdf: "4419",
  plywood: "4419",
  glass: "7013",
  ceramic: "6912",
  stoneware: "6912",
  porcelain: "6911",
};

/** Words that make an article an ornament ("decorative ceramic lantern"), which the tariff puts apart by material. */
export const ORNAMENTAL = new Set([
  "decorative",
  "ornamental",
  "ornament",
  "figurine",
  "statuette",
  "statue",
  "decoration",
  "vase",
]);

/** The "statuettes and other ornaments of <material>" subheading, where the tariff has one. */
export const ORNAMENT_RESIDUALS: Record<string, string> = {
  plastic: "392640",
  polypropylene: "392640",
  polyethylene: "392640",
  polystyrene: "392640",
  pvc: "392640",
  vinyl: "392640",
  acrylic: "392640",
  polyresin: "392640",
  resin: "392640",
  silicone: "392640",
  steel: "830629",
  iron: "830629",
  stainless: "830629",
  aluminum: "830629",
  copper: "830629",
  brass: "830629",
  bronze: "830629",
  zinc: "830629",
  tin: "830629",
  wood: "442019",
  wooden: "442019",
  bamboo: "442019",
  fiberboard: "442019",
  fibreboard: "442019",
  mdf: "442019",
  plywood: "442019",
  glass: "701399",
  ceramic: "691390",
  stoneware: "691390",
  porcelain: "691310",
};

/**
 * Knitted and woven goods the tariff keeps apart: knitted or crocheted fabrics (60.01-60.06) and garments
 * (chapter 61) against woven fabrics (by fibre, 50.07-55.16, 58.01-58.09) and the garments of chapter 62 (not
 * knitted or crocheted). A text that states one construction makes the other set unlikely.
 */
const KNIT_ONLY = ["6001", "6002", "6003", "6004", "6005", "6006", "61"];
const WOVEN_ONLY = [
  ...["5007", "5111", "5112", "5113", "5208", "5209", "5210", "5211", "5212", "5309", "5310", "5311"],
  ...["5407", "5408", "5512", "5513", "5514", "5515", "5516", "5801", "5802", "5806", "5809"],
  ...["6201", "6202", "6203", "6204", "6205", "6206", "6207", "6208", "6209", "6210", "6211"],
  ...["6213", "6214", "6215", "6216", "6217"],
];

/** The codes a stated construction rules out: "knit" rules out woven goods, "woven" knitted ones; both, neither. */
export function constructionExcludes(ws: string[]): string[] {
  const knit = ws.some((w) => w === "knit" || w === "crochet" || w === "jersey");
  const woven = ws.some((w) => w === "woven" || w === "weave" || w === "twill" || w === "poplin");
  const babies = ws.some((w) => BABY_WORDS.has(w)) ? OTHER_GARMENTS : [];
  if (knit === woven) return babies;
  return [...(knit ? WOVEN_ONLY : KNIT_ONLY), ...babies];
}

/**
 * Headings a text's article is excluded from by the notes, whatever its words: toys for pets are not the toys of
 * 9503, which are for the amusement of persons (its Explanatory Note excludes them: classified by material); a
 * part of a handbag, a backpack or a suitcase is not 4202, which names the whole articles and no parts (a strap
 * goes by its material: 6307, 3926, 4205).
 */
export function notesExclude(ws: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] ?? "";
    if (w === "toy" && namedBefore(ws, i, PETS)) out.push("9503");
    // Coats, sweaters and the like for animals are heading 4201's "dog coats and the like", not apparel.
    if (petApparel(ws, i)) out.push(...APPAREL_CHAPTERS);
    if (BAG_PARTS.has(w) && namedBefore(ws, i, BAGS) && !BAGS.has(ws[i + 1] ?? "")) out.push("4202");
  }
  return [...new Set(out)];
}
const PETS = new Set(
  "pet dog cat puppy kitten parrot bird hamster rabbit ferret chew".split(" ").flatMap((w) => words(w)),
);
/** Whether word `i` is a garment for an animal: "dog raincoat", "pet knit sweater", "sweater for dogs". */
function petApparel(ws: string[], i: number): boolean {
  if (!PET_APPAREL.has(ws[i] ?? "")) return false;
  return (
    namedBefore(ws, i, PETS) || ws.slice(i + 1, i + 4).some((w, k) => w === "for" && PETS.has(ws[i + 2 + k] ?? ""))
  );
}

/**
 * Whether a word of `set` comes right before word `i`, or the one before that with no function word between
 * ("dog chew toy", not "purse with charms").
 */
function namedBefore(ws: string[], i: number, set: ReadonlySet<string>): boolean {
  return set.has(ws[i - 1] ?? "") || (set.has(ws[i - 2] ?? "") && !STOPWORDS.has(ws[i - 1] ?? ""));
}

/** Headings the notes put an article in (heading 4201: "dog coats and the like", of any material). */
export function notesInclude(ws: string[]): string[] {
  return ws.some((_, i) => petApparel(ws, i)) ? ["4201"] : [];
}
const PET_APPAREL = new Set(
  "coat sweater jacket hoodie vest raincoat shirt dress jumper pullover sweatshirt".split(" ").flatMap((w) => words(w)),
);
const APPAREL_CHAPTERS = ["61", "62"];
const BAGS = new Set(
  "handbag purse bag backpack suitcase luggage wallet tote briefcase".split(" ").flatMap((w) => words(w)),
);
const BAG_PARTS = new Set("strap handle charm lining insert organizer".split(" ").flatMap((w) => words(w)));

/** Words naming garments for young children (Chapter 61 note 6(a): up to 86 cm). */
const BABY_WORDS = new Set(["baby", "babies", "infant", "newborn"]);
/**
 * Garments prima facie classifiable both in 6111 / 6209 (babies' garments and clothing accessories) and in another
 * heading of the chapter go to 6111 / 6209 (Chapter 61 note 6(a), Chapter 62 note 4(a)); garments of coated or
 * laminated fabrics (6113, 6210) keep their precedence (notes 6(b) and 4(b)).
 */
const OTHER_GARMENTS = [
  ...Array.from({ length: 17 }, (_, i) => `61${String(i + 1).padStart(2, "0")}`),
  ...Array.from({ length: 17 }, (_, i) => `62${String(i + 1).padStart(2, "0")}`),
].filter((h) => !["6111", "6113", "6209", "6210"].includes(h));

/**
 * Parts of vehicles and machines (Section XVI note 2, Section XVII note 3): the tariff gathers the parts of some
 * machines in a heading of their own, whose text names the headings it serves ("parts and accessories of the
 * motor vehicles of headings 8701 to 8705"). A word naming such a machine, in a text about a part of it, points
 * to that parts heading; the machine's own headings (`serves`) are not the article. Goods a heading names
 * specifically (bearings, screws, lamps, seats) still win on their own words: the boost is moderate.
 */
export const PARTS_HEADINGS: Record<string, { serves: [string, string]; words: string[] }> = {
  "8708": {
    serves: ["8701", "8705"],
    words: ["automotive", "automobile", "car", "vehicle", "truck", "pickup", "sedan", "suv", "minivan", "lorry"],
  },
  "8714": { serves: ["8711", "8713"], words: ["motorcycle", "motorbike", "bicycle", "bike", "ebike"] },
  "8807": { serves: ["8801", "8806"], words: ["aircraft", "airplane", "aeroplane", "helicopter", "drone"] },
  "8607": { serves: ["8601", "8606"], words: ["railway", "railroad", "locomotive", "railcar"] },
  "8431": {
    serves: ["8425", "8430"],
    words: ["excavator", "crane", "bulldozer", "forklift", "backhoe", "loader", "hoist", "winch"],
  },
  "8473": { serves: ["8470", "8472"], words: ["computer", "laptop", "server"] },
  "8409": { serves: ["8407", "8408"], words: ["engine"] },
  "8466": { serves: ["8456", "8465"], words: ["lathe"] },
  "8448": { serves: ["8444", "8447"], words: ["loom"] },
  // Section XVI note 2(b): parts of generators, of television receivers and projectors, of switchgear, of
  // record players go to the parts headings of their machines.
  "8503": { serves: ["8501", "8502"], words: ["generator"] },
  "8529": { serves: ["8524", "8528"], words: ["television", "tv"] },
  "8538": { serves: ["8535", "8537"], words: ["switchgear", "switchboard", "panelboard", "breaker"] },
  "8522": { serves: ["8519", "8521"], words: ["turntable", "phonograph"] },
  // Chapter 91: parts of watches and clocks not of their own heading (cases 9111-9112, straps 9113, movements 9108-9110).
  "9114": { serves: ["9101", "9105"], words: ["watch", "wristwatch", "clock"] },
};

/**
 * Goods the section notes keep in their own headings even when made for a vehicle or machine (Section XV note 2,
 * Section XVI note 1, Section XVII note 2): parts of general use (screws, springs, chains, locks, hinges), gaskets,
 * tools, bearings and valves, electrical machinery and apparatus, instruments, clocks, lamps, brushes, and goods a
 * heading names by what they are (seats, tyres, batteries, glass, mirrors, mats, covers).
 */
export const KEPT_BY_NOTES = new Set([
  "screw",
  "bolt",
  "nut",
  "washer",
  "rivet",
  "spring",
  "chain",
  "lock",
  "hinge",
  "gasket",
  "seal",
  "tool",
  "bearing",
  "valve",
  "pump",
  "motor",
  "fan",
  "filter",
  "battery",
  "cable",
  "wire",
  "harness",
  "switch",
  "relay",
  "fuse",
  "sensor",
  "light",
  "lamp",
  "bulb",
  "speaker",
  "radio",
  "camera",
  "clock",
  "gauge",
  "brush",
  "seat",
  "tyre",
  "tire",
  "tube",
  "glass",
  "mirror",
  "mat",
  "cover",
]);

/** The parts heading each machine word points to ("truck" → 8708). */
export const PARTS_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(PARTS_HEADINGS).flatMap(([code, { words: ws }]) => ws.map((w) => [w, code] as const)),
);

/** Words saying the article is a part of something ("component", "assembly", "attachment"), stemmed. */
export const PART_WORDS = new Set([
  "part",
  "component",
  "assembly",
  "subassembly",
  "accessory",
  "attachment",
  "spare",
  "replacement",
]);

/**
 * Textile fibres by the class the tariff names them by: a yarn, fabric or garment of mixed fibres is classified
 * as if wholly of the fibre that predominates by weight (Section XI note 2(A) and subheading note 2(A)), under
 * wording such as "of cotton", "of synthetic fibers", "of man-made fibers", "of wool or fine animal hair"; the
 * fibre names of a composition ("64 percent acrylic, 30 percent polyester") appear there only as their class.
 */
const FIBRE_CLASSES: Record<string, string[]> = {
  cotton: ["cotton"],
  wool: ["wool", "merino", "lambswool"],
  // The HS names Kashmir goats apart from other fine animal hair (5102.11, 6110.12).
  cashmere: ["cashmere"],
  fine: ["alpaca", "mohair", "camel", "angora", "vicuna", "yak", "llama"],
  silk: ["silk"],
  flax: ["linen", "flax"],
  vegetable: ["ramie", "hemp", "jute", "sisal", "coir"],
  synthetic: [
    "polyester",
    "nylon",
    "polyamide",
    "acrylic",
    "modacrylic",
    "polypropylene",
    "elastane",
    "spandex",
    "lycra",
    "aramid",
    "olefin",
    "elastomeric",
  ],
  artificial: ["rayon", "viscose", "modal", "lyocell", "tencel", "acetate", "triacetate", "cupro", "cuprammonium"],
};

/** The words the tariff's own texts use for each class. */
export const FIBRE_CLASS_TERMS: Record<string, string> = {
  cotton: "cotton",
  wool: "wool",
  cashmere: "cashmere kashmir",
  fine: "wool fine animal hair",
  silk: "silk",
  flax: "flax",
  vegetable: "vegetable textile fibers",
  synthetic: "synthetic man-made manmade",
  artificial: "artificial man-made manmade",
};

const FIBRE_OF = new Map(Object.entries(FIBRE_CLASSES).flatMap(([c, ws]) => ws.map((w) => [w, c] as const)));
/** Every fibre name (a material, never the article). */
export const FIBRE_WORDS: ReadonlySet<string> = new Set(FIBRE_OF.keys());

/** Words that put a fibre named alone in a textile ("knitted", "yarn", "fabric", "sweater", "gloves"...). */
const TEXTILE_CONTEXT =
  /\b(?:knit\w*|crochet\w*|woven|weave|yarns?|fabrics?|textiles?|fib(?:re|er)s?|garments?|sweaters?|gloves?|socks?|scar(?:f|ves)|hats?|beanies?|blankets?|throws?|rugs?|carpets?|dress\w*|shirts?|jackets?|coats?|trousers|pants|sportswear|apparel|clothing)\b/;

/** "64 percent acrylic", "95.8% polyester", "100 % cotton": a share and the fibre named right after it. */
const SHARE = /(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per cent\b|pct\b)\s*(?:of\s+)?([a-z-]+)(?:\s+([a-z-]+))?/g;

/**
 * The class of fibre a text's stated composition is predominantly of, and the fibre words of the other
 * classes; undefined when the text states no composition (shares, or a single class of fibre named). Shares
 * are summed per class; man-made (synthetic and artificial together) wins a tie with any other class, as the
 * later chapter does (note 2(A): the heading last in numerical order).
 */
export function predominantFibre(text: string): { fibre: string; minority: string[]; share?: number } | undefined {
  const lower = text.toLowerCase();
  const shares = new Map<string, number>();
  const named = new Map<string, string>();
  for (const m of lower.matchAll(SHARE)) {
    const word = [m[2], m[3]].find((w) => w !== undefined && FIBRE_OF.has(w));
    if (word === undefined) continue;
    const c = FIBRE_OF.get(word) as string;
    shares.set(c, (shares.get(c) ?? 0) + Number((m[1] ?? "0").replace(",", ".")));
  }
  for (const w of lower.split(/[^a-z-]+/)) {
    const c = FIBRE_OF.get(w);
    if (c !== undefined) named.set(w, c);
  }
  const stated = shares.size > 0;
  if (!stated) {
    const classes = new Set(named.values());
    // A plastic named alone ("acrylic vase", "polypropylene box") is the article's material, not a fibre, unless
    // the text is about textiles ("knitted acrylic gloves").
    const plastic = [...named.keys()].every((w) => MATERIAL_RESIDUALS[w] !== undefined);
    if (classes.size !== 1 || (plastic && !TEXTILE_CONTEXT.test(lower))) return undefined;
    shares.set([...classes][0] as string, 100);
  }
  const manMade = (shares.get("synthetic") ?? 0) + (shares.get("artificial") ?? 0);
  let best = "";
  let top = -1;
  for (const [c, v] of shares)
    if (c !== "synthetic" && c !== "artificial" && v > top) {
      best = c;
      top = v;
    }
  const fibre =
    manMade > 0 && manMade >= top
      ? (shares.get("synthetic") ?? 0) >= (shares.get("artificial") ?? 0)
        ? "synthetic"
        : "artificial"
      : best;
  const minority = [...named].filter(([, c]) => c !== fibre).map(([w]) => w);
  // The predominant class's stated share ("95.8 % polyester"), when the text gives shares.
  const share = stated ? shares.get(fibre) : undefined;
  return share === undefined ? { fibre, minority } : { fibre, minority, share };
}

/**
 * Words that name a precious metal, a precious, semi-precious or synthetic stone or a pearl (Chapter 71 note 1;
 * headings 7101-7104).
 */
/** Precious metals (Chapter 71 note 4) and the words that name one ("sterling", "14 karat"). */
const PRECIOUS_METALS = new Set(
  "gold silver platinum palladium rhodium iridium osmium ruthenium precious sterling karat kt vermeil".split(" "),
);
/** Precious, semi-precious and synthetic stones and pearls (headings 7101-7104). */
const PRECIOUS_STONES = new Set([
  ..."diamond ruby sapphire emerald pearl gemstone gem opal topaz garnet amethyst aquamarine jade tanzanite carat ct".split(
    " ",
  ),
  // Semi-precious stones (7103) and the synthetic ones of 7104.
  ..."agate quartz onyx turquoise moonstone chalcedony rhodonite lapis jasper tourmaline peridot citrine".split(" "),
  ..."spinel beryl alexandrite zircon zirconia moissanite".split(" "),
]);
/** After a precious metal's name, words that make it a colour or a plating of base metal ("gold-plated brass"). */
const NOT_PRECIOUS_AFTER = new Set([
  "plated",
  "plate",
  "plating",
  "tone",
  "toned",
  "color",
  "colored",
  "colour",
  "coloured",
  "finish",
  "finished",
  "effect",
  "look",
  "flash",
]);
/**
 * The headings of precious metal: the metals themselves, unwrought, semi-manufactured or in powder, metals clad
 * with them and their waste (7106-7112), and the articles of 7113-7115. Then those of pearls and stones: the pearls
 * and stones themselves and their dust (7101-7105), and the articles of 7116.
 */
const PRECIOUS_METAL_ONLY = ["7106", "7107", "7108", "7109", "7110", "7111", "7112", "7113", "7114", "7115"];
const PRECIOUS_ONLY = [...PRECIOUS_METAL_ONLY, "7101", "7102", "7103", "7104", "7105", "7116"];

/**
 * The headings a text rules out by what it names of Chapter 71's materials: jewellery and goldsmiths' wares of
 * 7113-7115 must be of (or clad with) precious metal, articles of 7116 of pearls or precious or semi-precious
 * stones, and so must the metals (7106-7112: "in powder form" is platinum's powder, not a drug's) and the stones
 * (7101-7105) themselves; a text naming stones but no precious metal rules out the metal headings (an agate
 * bracelet on a steel chain is 7116), one naming neither rules out all of them (imitation jewellery, 7117, or an
 * article of its own material). A precious metal named as a colour or a plating ("gold-tone", "silver plated",
 * "nickel plated with silver") does not count.
 */
export function preciousExcludes(ws: string[]): string[] {
  const named = (set: Set<string>) =>
    ws.some(
      (w, i) =>
        set.has(w) &&
        !NOT_PRECIOUS_AFTER.has(ws[i + 1] ?? "") &&
        // "base metal plated with 22 karat gold": a plating, which is not cladding (Chapter 71 note 7).
        !ws.slice(Math.max(0, i - 4), i).some((p) => PLATED_WITH.has(p)) &&
        // "imitation pearl", "faux diamond": imitation jewellery's own material (7117, 7018), not a stone.
        !ws.slice(Math.max(0, i - 2), i).some((p) => IMITATION_OF.has(p)) &&
        // Mother of pearl and pearl shell are shell (0508, 9601), not pearls.
        !(ws[i - 2] === "mother" || ws[i + 1] === "shell"),
    );
  if (named(PRECIOUS_METALS)) return [];
  return named(PRECIOUS_STONES) ? PRECIOUS_METAL_ONLY : PRECIOUS_ONLY;
}
/** Before a stone's or a metal's name, words that say it is an imitation (synthetic stones are real: 7104). */
const IMITATION_OF = new Set(["imitation", "faux", "simulated", "fake", "artificial"]);
/** Before a precious metal's name, words that make it a plating or coating of another metal ("plated in gold"). */
const PLATED_WITH = new Set(["plated", "plating", "electroplated", "coated", "dipped", "flashed", "washed"]);

/**
 * Words that say a text is about footwear (Chapter 64); not "heel", "pump", "flat", "slide" or "trainer", which
 * name other goods as often ("flat bottom", "fountain pump").
 */
const FOOTWEAR = new Set("shoe boot sandal slipper sneaker loafer brogue moccasin clog footwear espadrille".split(" "));
/** Upper materials, by the heading Chapter 64 gives footwear with such uppers. */
const UPPER_HEADINGS: [string, string[]][] = [
  // Rubber or plastics uppers, including imitation leather (composition of plastics): 6402 (6401 when waterproof).
  [
    "6402",
    ["pu", "pvc", "eva", "rubber", "plastic", "plastics", "polyurethane", "synthetic", "faux", "vegan", "jelly"],
  ],
  [
    "6404",
    ["textile", "canvas", "mesh", "knit", "fabric", "velvet", "satin", "cloth", "denim", "felt", "woven", "linen"],
  ],
  ["6403", ["leather", "suede", "nubuck", "cowhide", "calfskin", "sheepskin"]],
];
const UPPER_OF = new Map(UPPER_HEADINGS.flatMap(([h, ws]) => ws.map((w) => [w, h] as const)));
/**
 * Fibres and fabrics, textile when named as the upper ("polyester tulle upper"); not read elsewhere in the text,
 * where they are as often a lining or a lace ("leather boots with cotton lining").
 */
const TEXTILE_UPPER = new Set("polyester nylon cotton wool tulle lace jersey spandex microfiber microfibre".split(" "));
/** "PU leather", "faux suede": a leather word after one of these is a plastic, not leather. */
const IMITATION = new Set(["pu", "pvc", "faux", "synthetic", "vegan", "artificial", "imitation"]);

/**
 * The footwear heading a text's upper material points to (Chapter 64 classifies footwear by the material of the
 * upper and of the outer sole: leather uppers 6403, textile 6404, rubber or plastics 6402), or undefined when the
 * text is not about footwear or names no single upper material. Where the text says "upper", the material next
 * to that word decides ("rubber sole with a textile upper"); otherwise any material named ("genuine leather
 * boots"). Imitation leather ("PU leather") is plastics.
 */
export function footwearUpper(ws: string[], modifies: (i: number) => boolean = () => false): string | undefined {
  // A footwear word right before the head noun modifies it ("plastic shoe tree", "boot band"): no footwear.
  if (!ws.some((w, i) => FOOTWEAR.has(w) && (FOOTWEAR.has(ws[i + 1] ?? "") || !modifies(i)))) return undefined;
  const heading = (i: number): string | undefined => {
    const w = ws[i] ?? "";
    const h = UPPER_OF.get(w);
    if (h === "6403" && IMITATION.has(ws[i - 1] ?? "")) return "6402";
    return h;
  };
  // Waterproof footwear with rubber or plastics uppers has a heading of its own (6401).
  const waterproof = (h: string) => (h === "6402" && ws.includes("waterproof") ? "6401" : h);
  const found = new Set<string>();
  const upper = ws.indexOf("upper");
  if (upper >= 0) {
    // "leather upper", "upper of textile material", "upper made of mesh": the nearest material word.
    for (const i of [upper - 1, upper - 2, upper + 2, upper + 3, upper + 1]) {
      const h = heading(i) ?? (i < upper && TEXTILE_UPPER.has(ws[i] ?? "") ? "6404" : undefined);
      if (h) return waterproof(h);
    }
    return undefined;
  }
  for (let i = 0; i < ws.length; i++) {
    const h = heading(i);
    if (h) found.add(h);
  }
  return found.size === 1 ? waterproof([...found][0] as string) : undefined;
}

/** The chapter of each material word of MATERIAL_RESIDUALS: where articles of that material have their headings. */
const MATERIAL_CHAPTER: Record<string, string> = Object.fromEntries(
  Object.entries(MATERIAL_RESIDUALS).map(([w, code]) => [w, code.slice(0, 2)]),
);
/** Chapters that hold goods by their material alone (plastics, rubber, wood, paper, stone, ceramics, glass, metals). */
const MATERIAL_CHAPTERS = [
  "39",
  "40",
  "44",
  "48",
  "68",
  "69",
  "70",
  "72",
  "73",
  "74",
  "75",
  "76",
  "78",
  "79",
  "80",
  "81",
];

/**
 * The material chapters a text rules out by naming one material for its article: an acrylic vase is not
 * glassware (7013), a plastic cup not porcelain. Only when the words read for materials (the head noun phrase,
 * "of <material>") name materials of one chapter; chapters that are not about a material (machines, furniture,
 * toys, bags) are never ruled out.
 */
export function otherMaterialChapters(materialWords: string[], text = ""): string[] {
  const chapters = new Set(materialWords.map((w) => MATERIAL_CHAPTER[w]).filter((c): c is string => c !== undefined));
  if (chapters.size !== 1) return [];
  const [only] = chapters;
  // Iron and steel (72) and articles of iron or steel (73) are one material. Tools (82: Chapter 82 note 1, a
  // blade or working edge of base metal) and the miscellaneous articles of 83 are of base metal: an article of
  // plastics, wood or glass alone ("plastic garden rake", "resin photo frame") is none of them.
  const others = MATERIAL_CHAPTERS.filter((c) => c !== only && !(only === "73" && c === "72"));
  if (!BASE_METALS.has(only as string) && !NAMES_METAL.test(text)) others.push("82", "83");
  // Section XI holds goods of textile materials: an article of one named non-textile material ("plastic beaded
  // door curtain", "polyethylene film sheets") in a text that says nothing of fibres, fabrics or garments is
  // not a textile article, whatever its noun names in Chapter 63.
  return aboutTextiles(text) ? others : [...others, ...TEXTILE_CHAPTERS];
}

/** A text that names a metal anywhere ("crown corks, of base metal", "with a steel blade"). */
const NAMES_METAL =
  /\b(?:metal|metallic|steel|iron|alumin(?:i?um)|copper|brass|bronze|zinc|nickel|tin|titanium|chrome)\b/i;

/** The base metals' chapters (Section XV, 72-81). */
const BASE_METALS = new Set(MATERIAL_CHAPTERS.filter((c) => c >= "72"));

/** Section XI, textiles and textile articles. */
const TEXTILE_CHAPTERS = Array.from({ length: 14 }, (_, i) => String(50 + i));

/** Whether a text speaks of textiles: a fibre's name, or a word of fabrics, yarns or garments. */
function aboutTextiles(text: string): boolean {
  const lower = text.toLowerCase();
  // A fibre that is also a plastic ("acrylic", "polypropylene") names a textile only beside such a word.
  return (
    TEXTILE_CONTEXT.test(lower) ||
    lower.split(/[^a-z-]+/).some((w) => FIBRE_OF.has(w) && MATERIAL_RESIDUALS[w] === undefined)
  );
}

/**
 * Words that say food was prepared beyond what Chapters 2, 3, 7 and 8 allow (fresh, chilled, frozen, dried,
 * salted, smoked; steamed or boiled): breaded, fried, marinated, in a sauce, pickled, puréed, roasted, candied.
 * Such goods are Chapter 16 (meat, fish, crustaceans: Chapter 2 note 1(a), Chapter 3 note 1(a)... and heading
 * texts 1601-1605) or Chapter 20 (vegetables, fruit, nuts: Chapter 20 note 1 and headings 2001-2008).
 */
const PREPARED = new Set([
  "breaded",
  "battered",
  "fried",
  "marinated",
  "seasoned",
  "stuffed",
  "sauce",
  "pickled",
  "vinegar",
  "puree",
  "pureed",
  "paste",
  "roasted",
  "candied",
  "canned",
  "tinned",
  "syrup",
  "jam",
]);
/** Cooking: beyond Chapter 2 and 3 (save crustaceans steamed or boiled in shell); Chapters 7 and 8 allow it. */
const COOKED = new Set(["cooked", "grilled", "baked", "braised", "stewed"]);
/**
 * The chapters of raw or simply preserved food a text rules out by saying the food was prepared: 02 and 03 for
 * a cooked or prepared meat or fish, 07 and 08 as well for a prepared (not merely cooked) vegetable, fruit or nut.
 */
export function preparedFoodChapters(ws: string[]): string[] {
  const prepared = ws.some((w) => PREPARED.has(w));
  // Crustaceans cooked in their shell stay in Chapter 3 (heading 0306's text).
  const cooked = ws.some((w) => COOKED.has(w)) && !ws.includes("shell");
  if (prepared) return ["02", "03", "07", "08"];
  return cooked ? ["02", "03"] : [];
}

/** A quantity's bounds a nomenclature text sets ("weighing more than 170 g/m2": {min: 170}). */
export interface Bounds {
  min?: number;
  max?: number;
}

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
/** A text's weight per square metre: "333 g/m2", "164 gsm", "120 grams per square metre". */
const GSM = new RegExp(
  String.raw`${NUMBER}\s*(?:g\s*\/\s*m\s*(?:2|²)|gsm\b|g\/sq\.?\s*m\b|grams?\s+per\s+square\s+met(?:er|re))`,
  "i",
);

/** The weight per square metre a description states, in g/m2. */
export function statedWeight(text: string): number | undefined {
  const m = GSM.exec(text);
  return m ? Number((m[1] ?? "").replace(",", ".")) : undefined;
}

const AT_MOST = /(?:not more than|not exceeding|not over|or less|less than|under|up to)/;
const AT_LEAST = /(?:more than|exceeding|over|or more|and over|not less than|at least)/;

/**
 * The weight per square metre a nomenclature text allows ("weighing not more than 200 g/m2", "of a weight
 * exceeding 170 g/m2", "weight more than 150g/m2 but less than 225g/m2", "weighing 40g/m2 to 150g/m2"), or
 * undefined when it sets none.
 */
export function weightBounds(description: string): Bounds | undefined {
  for (const part of description.toLowerCase().split(/[;,()]/)) {
    // The unit's own "2" is no figure.
    const clause = part.replace(/g\s*\/\s*m\s*(?:2|²)/g, " gsm ");
    if (!clause.includes(" gsm ")) continue;
    const numbers = [...clause.matchAll(/\d+(?:[.,]\d+)?/g)].map((n) => Number(n[0].replace(",", ".")));
    const bounds = clauseBounds(clause, numbers);
    if (bounds) return bounds;
  }
  return undefined;
}

/**
 * The bounds one clause of a nomenclature text sets with its figures: two figures are a range ("more than 150
 * but less than 225", "40 to 150"); one is an upper bound after "not more than", "not over", "less than"... and
 * a lower bound after "more than", "exceeding", "over"... ("not more than" is tested first: the negated phrase is
 * the upper bound).
 */
function clauseBounds(clause: string, figures: number[]): Bounds | undefined {
  const [a, b] = figures;
  if (a === undefined) return undefined;
  if (b !== undefined) return { min: a, max: b };
  if (AT_MOST.test(clause)) return { max: a };
  if (AT_LEAST.test(clause)) return { min: a };
  return undefined;
}

/**
 * The share by weight of its own fibre a textile heading or subheading requires ("containing 85% or more by
 * weight of cotton": {min: 85}; "containing less than 85% by weight of such fibres": {max: 85}).
 */
export function fibreShareBounds(description: string): Bounds | undefined {
  const lower = description.toLowerCase();
  const m =
    /containing (less than )?(\d+)\s*% (or more )?by weight/.exec(lower) ??
    /by weight,? (less than )?(\d+)\s*% (or more)?/.exec(lower);
  if (!m) return undefined;
  const n = Number(m[2]);
  if (m[1]) return { max: n };
  return m[3] ? { min: n } : undefined;
}

/** Whether a value lies outside bounds (a stated figure the text rules out). */
export function outside(value: number, bounds: Bounds): boolean {
  return (bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max);
}

/**
 * Figures other than weight per area that split machines and vehicles: power (watts; kW and horsepower
 * converted), cylinder capacity (cm3, "cc") and voltage. Mass is left out: "10 kg" in the tariff is as often a
 * capacity (a washing machine's linen) as a weight.
 */
export type Quantity = "power" | "capacity" | "voltage" | "width";
const QUANTITY_UNITS: { quantity: Quantity; re: RegExp; factor: number }[] = [
  { quantity: "power", re: /^(?:kw|kilowatts?)$/, factor: 1000 },
  { quantity: "power", re: /^(?:w|watts?)$/, factor: 1 },
  { quantity: "power", re: /^(?:hp|horsepower)$/, factor: 745.7 },
  { quantity: "capacity", re: /^(?:cc|cm3|cm³|cubic centimet(?:er|re)s?)$/, factor: 1 },
  { quantity: "voltage", re: /^(?:kv|kilovolts?)$/, factor: 1000 },
  { quantity: "voltage", re: /^(?:v|volts?)$/, factor: 1 },
];
const FIGURE =
  /(\d+(?:[.,]\d{3})*(?:\.\d+)?)\s*(kw|kilowatts?|w|watts?|hp|horsepower|cc|cm3|cm³|cubic centimet(?:er|re)s?|kv|kilovolts?|v|volts?)(?![a-z0-9])/gi;

function figuresIn(text: string): { quantity: Quantity; value: number }[] {
  const out: { quantity: Quantity; value: number }[] = [];
  for (const m of text.matchAll(FIGURE)) {
    const unit = (m[2] ?? "").toLowerCase();
    const u = QUANTITY_UNITS.find((q) => q.re.test(unit));
    if (u) out.push({ quantity: u.quantity, value: Number((m[1] ?? "").replaceAll(",", "")) * u.factor });
  }
  return out;
}

/** The power, cylinder capacity, voltage and width a description states (the first figure of each). */
export function statedQuantities(text: string): Partial<Record<Quantity, number>> {
  const out: Partial<Record<Quantity, number>> = {};
  for (const f of figuresIn(text)) out[f.quantity] ??= f.value;
  const width = statedWidth(text);
  if (width !== undefined) out.width = width;
  return out;
}

/**
 * Width splits flat-rolled steel (600 mm), film and tape in rolls (20 cm, 105 mm, 610 mm), paper in rolls (36 cm)
 * and narrow fabrics (30 cm). In millimetres.
 */
const LENGTH_UNITS: [RegExp, number][] = [
  [/^(?:mm|millimet(?:er|re)s?)$/, 1],
  [/^(?:cm|centimet(?:er|re)s?)$/, 10],
  [/^(?:m|met(?:er|re)s?)$/, 1000],
  [/^(?:in|inch|inches|")$/, 25.4],
];
const LENGTH = String.raw`(\d+(?:\.\d+)?)\s*(mm|millimet(?:er|re)s?|cm|centimet(?:er|re)s?|m|met(?:er|re)s?|inch(?:es)?|in\b|")`;
const LENGTHS = new RegExp(LENGTH, "gi");
const WIDTH_AFTER = new RegExp(String.raw`${LENGTH}\s*(?:in\s+)?(?:wide|widths?)\b`, "i");
const WIDTH_BEFORE = new RegExp(String.raw`\bwidths?\s*(?:of|is|:)?\s*(?:about|approximately)?\s*${LENGTH}`, "i");

function millimetres(value: string | undefined, unit: string | undefined): number | undefined {
  const u = LENGTH_UNITS.find(([re]) => re.test((unit ?? "").toLowerCase()));
  return u && value ? Number(value) * u[1] : undefined;
}

/** The width a description states ("324 mm in width", "300 mm wide", "a width of 12 inches"), in mm. */
function statedWidth(text: string): number | undefined {
  const m = WIDTH_AFTER.exec(text) ?? WIDTH_BEFORE.exec(text);
  return m ? millimetres(m[1], m[2]) : undefined;
}

/**
 * The bounds a nomenclature text sets on width ("width 600mm or more", "of a width not exceeding 20cm"); a clause
 * that excludes goods ("other than in rolls of a width exceeding 610mm") sets none, and a length after it ("and of
 * a length exceeding 200m") is not read.
 */
function widthBounds(clause: string): Bounds | undefined {
  const at = clause.indexOf("width");
  if (at < 0 || /other than|excluding|excl\b|except/.test(clause)) return undefined;
  const end = clause.indexOf("length", at);
  const part = end > 0 ? clause.slice(0, end) : clause;
  const figures = [...part.matchAll(LENGTHS)]
    .map((m) => millimetres(m[1], m[2]))
    .filter((v): v is number => v !== undefined);
  return clauseBounds(part, figures);
}

/**
 * The bounds a nomenclature text sets on power, cylinder capacity or voltage ("of an output exceeding 750 W but
 * not exceeding 75 kW", "cylinder capacity over 2500cc", "for a voltage not exceeding 1,000 V").
 */
export function quantityBounds(description: string): Partial<Record<Quantity, Bounds>> {
  const out: Partial<Record<Quantity, Bounds>> = {};
  for (const clause of description.toLowerCase().split(/[;,()]/)) {
    const width = out.width ? undefined : widthBounds(clause);
    if (width) out.width = width;
    const figures = figuresIn(clause);
    const first = figures[0];
    if (!first || out[first.quantity]) continue;
    const same = figures.filter((f) => f.quantity === first.quantity).map((f) => f.value);
    const bounds = clauseBounds(clause, same);
    if (bounds) out[first.quantity] = bounds;
  }
  return out;
}
