/**
 * Chapter 29 by the structure a chemical name states. The chapter's headings follow the functional groups of
 * organic chemistry (hydrocarbons 2901-2902, halogenated 2903, alcohols 2905, phenols 2907, ethers 2909,
 * aldehydes 2912, ketones 2914, carboxylic acids 2915-2918, amines 2921-2922, amides 2924, nitriles 2926, azo
 * compounds 2927, organo-sulphur 2930, heterocycles 2932-2934...), and Chapter 29 note 3 puts a compound that
 * two or more of them could hold in the one that occurs last in numerical order. A name like
 * "2-t-butyl-4-methoxyphenol" names a phenol and an ether: 2909. The nomenclature's own words rarely appear in
 * such a name, which is why it is read here rather than matched.
 *
 * Word parts, not a chemistry parser: a name's groups are the fragments it contains. The table is written from
 * the heading texts and the chapter's notes (HS 2022); the fragments are the IUPAC prefixes and suffixes of each
 * group and the trivial names the subheadings themselves use.
 */

/** A heading and the fragments of a chemical name that put a compound in it. */
const GROUPS: [string, RegExp][] = [
  ["2901", /(?:meth|eth|prop|but|pent|hex|hept|oct|non|dec)(?:ane|ene|yne|adiene)\b|isoprene|butadiene/],
  [
    "2902",
    /benzene|toluene|xylene|styrene|naphthalene|anthracene|fluorene|cumene|cyclo(?:hex|pent|oct)(?:ane|ene)\b|biphenyl\b|terpene|pinene|limonene/,
  ],
  ["2903", /fluoro|chloro|bromo|iodo|hydrofluorocarbon/],
  ["2904", /\bnitro(?!gen)|sulfonic|sulphonic/],
  // Alcohols, and the metal alkoxides heading 2905 names ("aluminum isopropoxide").
  [
    "2905",
    /(?:meth|eth|prop|but)oxide\b|\w(?:an|yl)ol\b|glycol|glycerol|glycerin|sorbitol|mannitol|xylitol|erythritol|\w+diol\b|\w+triol\b/,
  ],
  ["2906", /cyclohexanol|menthol|terpineol|benzyl alcohol|phenylethanol|cholesterol|inositol/],
  ["2907", /phenol(?!ic resin)|cresol|naphthol|resorcinol|hydroquinone|catechol|thymol/],
  ["2909", /(?:meth|eth|prop|but|phen|benz)oxy(?!gen)|\bethers?\b|peroxide|oxybis/],
  ["2910", /epoxide|oxirane|epoxy(?!\s+resin)/],
  ["2912", /aldehyde|vanillin|\w+anal\b|citral/],
  ["2914", /ketone|acetone|\w+anone\b|\w+enone\b|quinone|acetophenone|benzophenone|camphor/],
  [
    "2915",
    /acetic|acetate|formic|formate|propionic|propionate|butyric|butyrate|stearic|stearate|palmitic|palmitate|lauric|laurate|\w+anoic\b|\w+anoate\b|valeric|caprylic/,
  ],
  ["2916", /acrylic acid|acrylate|methacryl|benzoic|benzoate|oleic|oleate|linoleic|cinnamic|cinnamate|sorbic|sorbate/],
  [
    "2917",
    /oxalic|oxalate|adipic|adipate|phthalic|phthalate|maleic|maleate|succinic|succinate|fumaric|fumarate|malonic|sebacic|\w+dioic\b|dicarboxylic|anhydride/,
  ],
  [
    "2918",
    /lactic|lactate|citric|citrate|tartaric|tartrate|gluconic|gluconate|salicylic|salicylate|malic acid|malate|glycolic|mandelic|gallic|hydroxy\w*(?:acetic|benzoic|anoic)|oxo\w*anoic/,
  ],
  ["2919", /\w+yl phosphate|phosphoric ester|glycerophosph/],
  ["2921", /\w*amines?\b|aniline|toluidine|\bamino/],
  [
    "2922",
    /amino acids?|glycine|lysine|glutam|aspartic|alanine|valine|leucine|serine|threonine|tyrosine|ethanolamine|\w+olamine/,
  ],
  ["2923", /(?:methyl|ethyl|butyl|propyl|benzyl|alkyl|cetyl|dodecyl)\w*ammonium|choline|lecithin|betaine/],
  ["2924", /\w+amides?\b|\burea\b|ureido|carbamate|\w+anilide|paracetamol|acetaminophen|aspartame/],
  ["2925", /\w+imides?\b|\w+imines?\b|saccharin|guanidine|amidine/],
  ["2926", /nitrile|\bcyano|cyanoacryl|(?:benzyl|methyl|ethyl|phenyl|vinyl|allyl|acetyl)\s*cyanide/],
  ["2927", /(?:^|[^a-z])(?:bis|tris)?azo(?:[^a-z]|$)|azobenzene|azoxy|diazo(?!l|e|p)/],
  // Hydrazine and hydroxylamine themselves are inorganic (2825.10): only their organic derivatives.
  ["2928", /[a-z]hydrazin|hydrazide|hydrazone|[a-z]hydroxylamin|\boxime/],
  ["2929", /isocyanate/],
  ["2930", /thio|sulfide|sulphide|sulfone|sulphone|sulfoxide|mercapto|methionine|cysteine|cystine|xanthate/],
  ["2931", /silane|siloxane|trimethylsilyl|phosphonic|phosphonate|glyphosate|organotin|ferrocene|boronic/],
];

/** Rings with oxygen as their only hetero-atom (2932). */
const O_RINGS = /furan|pyran|dioxane|dioxolane|lactone|coumarin|oxetane|oxolane|chroman|xanthene|safrole|benzodioxol/;
/** Rings with nitrogen as their only hetero-atom (2933). */
const N_RINGS =
  /pyridin|piperidin|pyrimidin|piperazin|pyrazol|imidazol|triazin|triazol|tetrazol|quinolin|indol|pyrrol|pyrazin|pteridin|purin|melamine|caprolactam|azepin|carbazol|acridin|quinazolin|quinoxalin|phthalazin|pyridazin|indazol|azetidin|aziridin|hydantoin|barbitur/;
/** Rings with other or several hetero-atoms, and nucleic acids (2934). */
const OTHER_RINGS = /thiazol|thiophen|morpholin|oxazol|oxazin|thiazin|oxadiazol|thiadiazol|nucleic acid|nucleotide/;

/** Headings after the heterocycles: their compounds are named by class or by trivial name. */
const LATE: [string, RegExp][] = [
  ["2935", /sulfonamide|sulphonamide/],
  [
    "2936",
    /vitamin|tocopherol|retinol|ascorbic|riboflavin|thiamine|niacin|nicotinamide|biotin|folic acid|cobalamin|pantothen|calciferol/,
  ],
  [
    "2937",
    /hormone|steroid|cortisone|prednisolone|dexamethasone|testosterone|estradiol|progesterone|insulin|oxytocin|prostaglandin/,
  ],
  ["2938", /glycoside|\brutin\b|digoxin|saponin/],
  [
    "2939",
    /alkaloid|caffeine|nicotine\b|ephedrine|morphine|codeine|quinine|berberine|theobromine|theophylline|atropine|scopolamine|papaverine|colchicine/,
  ],
  ["2941", /antibiotic|\w+mycin\b|\w+cillin\b|\bcef\w+|cephalo|\w+cycline\b/],
];

/** Oxygen functions (alcohols to oxo-acids): with an amino group, an oxygen-function amino-compound (2922). */
const OXYGEN_FUNCTIONS = new Set(["2905", "2906", "2907", "2909", "2912", "2914", "2915", "2916", "2917", "2918"]);

/**
 * The Chapter 29 heading a chemical name's groups give (note 3: the last in numerical order), and the groups
 * found; undefined when the text names no group. The caller decides whether the text is about a compound.
 */
export function organicHeading(text: string): { heading: string; groups: string[] } | undefined {
  const lower = text.toLowerCase();
  const found = new Set<string>();
  for (const [heading, re] of GROUPS) if (re.test(lower)) found.add(heading);
  if (found.has("2921") && [...found].some((h) => OXYGEN_FUNCTIONS.has(h))) found.add("2922");
  // A halogenated or nitrated phenol has its own heading (2908).
  if (found.has("2907") && (found.has("2903") || found.has("2904"))) found.add("2908");
  const o = O_RINGS.test(lower);
  const n = N_RINGS.test(lower);
  if (OTHER_RINGS.test(lower)) found.add("2934");
  else if (n) found.add("2933");
  else if (o) found.add("2932");
  for (const [heading, re] of LATE) if (re.test(lower)) found.add(heading);
  if (found.size === 0) return undefined;
  const groups = [...found].sort();
  // Hydrocarbons only when no function is named: "chloro" makes a halogenated derivative of a hydrocarbon.
  const functional = groups.filter((h) => h > "2902");
  const heading = (functional.length ? functional : groups).at(-1) as string;
  return { heading, groups };
}
