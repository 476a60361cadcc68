/**
 * Statistical suffix: which 10-digit line under a chosen 8-digit tariff line fits the product text.
 *
 * The statistical lines under one 8-digit line split on a few attributes: the wearer (men's, boys', women's,
 * girls', babies'), knitted or woven, the fibre, a measure range (weight, volume, power, ...), or plain words
 * ("T-shirts" vs "Tank tops"). Each candidate's description (the labels below the 8-digit line, joined with ": ",
 * as data/hs/lines-us10.json has them) is read for those attributes and compared with the text's. A line whose
 * attribute contradicts the text is set aside; among the rest, the one with the most agreement wins, and when the
 * text says nothing that tells the lines apart, the residual line ("Other") is taken.
 *
 * Pure: no I/O, no bindings.
 */
import { stripExclusions, tokens } from "./text";

export interface StatisticalCandidate {
  code: string;
  description: string;
}

export interface StatisticalPick {
  code: string;
  description: string;
  /** What decided it, in plain words (goes into the answer's reasoning). */
  attributes: string[];
}

type Gender = "men" | "boys" | "women" | "girls" | "infants";
type Fibre = "cotton" | "wool" | "fine animal hair" | "silk" | "synthetic" | "artificial" | "flax";
type Dimension = "weight" | "volume" | "length" | "power" | "voltage" | "alcohol";

interface Bound {
  dim: Dimension;
  op: "<" | "<=" | ">" | ">=";
  value: number;
}

interface TextFacts {
  genders: Set<Gender>;
  genderWords: string[];
  unisex: boolean;
  fibre: Fibre | null;
  /** How the text named the chief fibre ("polyester" for synthetic). */
  fibreWord: string;
  fibreShares: Map<Fibre, number>;
  knit: "knitted" | "woven" | null;
  measures: Map<Dimension, { value: number; shown: string }>;
  words: Set<string>;
}

const GENDER_WORDS: Record<string, Gender[]> = {
  men: ["men"],
  man: ["men"],
  mens: ["men"],
  male: ["men"],
  males: ["men"],
  gent: ["men"],
  gents: ["men"],
  gentlemen: ["men"],
  menswear: ["men"],
  boy: ["boys"],
  boys: ["boys"],
  youth: ["boys"],
  youths: ["boys"],
  women: ["women"],
  woman: ["women"],
  womens: ["women"],
  lady: ["women"],
  ladies: ["women"],
  female: ["women"],
  females: ["women"],
  womenswear: ["women"],
  girl: ["girls"],
  girls: ["girls"],
  baby: ["infants"],
  babies: ["infants"],
  infant: ["infants"],
  infants: ["infants"],
  toddler: ["infants"],
  toddlers: ["infants"],
  newborn: ["infants"],
  kid: ["boys", "girls"],
  kids: ["boys", "girls"],
  child: ["boys", "girls"],
  children: ["boys", "girls"],
};

/** Fibre words, longest first, each with the fibres it names. */
const FIBRE_WORDS: [RegExp, Fibre[]][] = [
  [/\bman[\s-]?made\b/, ["synthetic", "artificial"]],
  [/\bwool or fine animal hair\b/, ["wool", "fine animal hair"]],
  [
    /\bfine animal hair\b|\bcashmere\b|\balpaca\b|\bangora\b|\bmohair\b|\bcamel hair\b|\bvicuna\b|\byak\b/,
    ["fine animal hair"],
  ],
  [/\bwool(?:en|len|s)?\b|\bmerino\b|\blambswool\b/, ["wool"]],
  [/\bcotton\b/, ["cotton"]],
  [/\bsilk\b/, ["silk"]],
  [
    /\bsynthetic\b|\bpolyester\b|\bnylon\b|\bpolyamide\b|\bacrylic\b|\belastane\b|\bspandex\b|\blycra\b|\bpolypropylene\b|\baramid\b|\bmicrofib(?:er|re)\b/,
    ["synthetic"],
  ],
  [
    /\bartificial\b|\brayon\b|\bviscose\b|\bmodal\b|\blyocell\b|\btencel\b|\bacetate\b|\bcupro\b|\bbamboo\b/,
    ["artificial"],
  ],
  [/\bflax\b|\blinen\b/, ["flax"]],
];

const UNITS: Record<string, [Dimension, number]> = {
  mg: ["weight", 0.001],
  g: ["weight", 1],
  gram: ["weight", 1],
  grams: ["weight", 1],
  kg: ["weight", 1000],
  kgs: ["weight", 1000],
  t: ["weight", 1e6],
  tonne: ["weight", 1e6],
  tonnes: ["weight", 1e6],
  lb: ["weight", 453.592],
  lbs: ["weight", 453.592],
  oz: ["weight", 28.3495],
  ml: ["volume", 1],
  cl: ["volume", 10],
  l: ["volume", 1000],
  liter: ["volume", 1000],
  liters: ["volume", 1000],
  litre: ["volume", 1000],
  litres: ["volume", 1000],
  cc: ["volume", 1],
  cm3: ["volume", 1],
  m3: ["volume", 1e6],
  um: ["length", 0.001],
  mm: ["length", 1],
  cm: ["length", 10],
  m: ["length", 1000],
  inch: ["length", 25.4],
  inches: ["length", 25.4],
  w: ["power", 1],
  watt: ["power", 1],
  watts: ["power", 1],
  kw: ["power", 1000],
  hp: ["power", 745.7],
  v: ["voltage", 1],
  volt: ["voltage", 1],
  volts: ["voltage", 1],
  kv: ["voltage", 1000],
  "%vol": ["alcohol", 1],
  "%abv": ["alcohol", 1],
};

const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)`;
const UNIT = String.raw`(%\s*vol|%\s*abv|kgs|kg|mg|grams|gram|g|tonnes|tonne|t|lbs|lb|oz|ml|cl|liters|litres|liter|litre|l|cc|cm3|m3|um|mm|cm|m|inches|inch|kw|watts|watt|w|hp|kv|volts|volt|v)(?![a-z0-9-])`;

/** Lower case, accents off, "µ" as "u", superscripts as digits; punctuation kept (numbers need it). */
function lower(text: string): string {
  return text
    .replace(/[µμ]/g, "u")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'");
}

function toNumber(raw: string): number {
  return Number(/^\d{1,3}(,\d{3})+/.test(raw) ? raw.replace(/,/g, "") : raw.replace(",", "."));
}

function unitOf(raw: string | undefined): [Dimension, number] | undefined {
  return raw === undefined ? undefined : UNITS[raw.replace(/\s+/g, "")];
}

/** Measures stated in the product text: the first value per dimension. */
function textMeasures(text: string): TextFacts["measures"] {
  const out: TextFacts["measures"] = new Map();
  const s = lower(text).replace(/\babv\s*(\d+(?:[.,]\d+)?)\s*%/g, "$1% abv");
  for (const m of s.matchAll(new RegExp(`${NUMBER}\\s*${UNIT}`, "g"))) {
    const unit = unitOf(m[2]);
    if (!unit || out.has(unit[0])) continue;
    out.set(unit[0], { value: toNumber(m[1] ?? "") * unit[1], shown: m[0].trim() });
  }
  return out;
}

const INVERT: Record<string, Bound["op"]> = { less: ">=", more: "<=", exceeding: "<=", over: "<=", under: ">=" };
const PLAIN: Record<string, Bound["op"]> = { less: "<", more: ">", exceeding: ">", over: ">", under: "<" };

/** Ranges a line's description sets ("exceeding 50 W but not exceeding 150 W", "90 kg or more"). */
function descriptionBounds(description: string): Bound[] {
  const s = lower(description);
  const out: Bound[] = [];
  // "exceeding 50 but not exceeding 250 cc": a bound without its unit takes the next one in the same clause.
  const firstUnitAfter = (at: number) => {
    const clause = (s.slice(at).split(/[:;]/)[0] ?? "").slice(0, 60);
    return unitOf(new RegExp(`${NUMBER}\\s*${UNIT}`).exec(clause)?.[2]);
  };
  const isShare = (m: RegExpMatchArray) =>
    /^\s*(?:percent|%(?!\s*(?:vol|abv)))/.test(s.slice((m.index ?? 0) + m[0].length));
  const before = new RegExp(
    String.raw`\b(not\s+)?(less than|more than|exceeding|over|under|at least)\s+${NUMBER}\s*(?:${UNIT})?`,
    "g",
  );
  for (const m of s.matchAll(before)) {
    if (!m[4] && isShare(m)) continue;
    const unit = unitOf(m[4]) ?? firstUnitAfter(m.index ?? 0);
    if (!unit) continue;
    const word = (m[2] ?? "").split(" ")[0] ?? "";
    const op = m[2] === "at least" ? (m[1] ? "<" : ">=") : m[1] ? INVERT[word] : PLAIN[word];
    if (op) out.push({ dim: unit[0], op, value: toNumber(m[3] ?? "") * unit[1] });
  }
  const after = new RegExp(String.raw`${NUMBER}\s*${UNIT}?\s+(?:or|and)\s+(more|over|greater|less|under)\b`, "g");
  for (const m of s.matchAll(after)) {
    const unit = unitOf(m[2]) ?? firstUnitAfter(m.index ?? 0);
    if (!unit) continue;
    const op = m[3] === "less" || m[3] === "under" ? "<=" : ">=";
    out.push({ dim: unit[0], op, value: toNumber(m[1] ?? "") * unit[1] });
  }
  return out;
}

function fits(value: number, b: Bound): boolean {
  if (b.op === "<") return value < b.value;
  if (b.op === "<=") return value <= b.value;
  if (b.op === ">") return value > b.value;
  return value >= b.value;
}

/** Gender words in a text, "man-made" aside. */
function gendersIn(text: string): { genders: Set<Gender>; words: string[] } {
  const genders = new Set<Gender>();
  const found: string[] = [];
  const s = lower(text)
    .replace(/\bman[\s-]?made\b/g, " ")
    .replace(/'s\b/g, "");
  for (const w of s.split(/[^a-z]+/)) {
    const g = GENDER_WORDS[w];
    if (!g) continue;
    for (const x of g) genders.add(x);
    found.push(w);
  }
  return { genders, words: found };
}

/** Fibres named in a text with the share (percent) the text gives each, in order of appearance. */
function fibresIn(text: string): { order: Fibre[]; words: Map<Fibre, string>; shares: Map<Fibre, number> } {
  const s = lower(text);
  const hits: { at: number; word: string; fibres: Fibre[]; before?: string; after?: string }[] = [];
  let rest = s;
  for (const [re, fibres] of FIBRE_WORDS) {
    for (const m of rest.matchAll(new RegExp(re.source, "g"))) {
      const at = m.index ?? 0;
      const before = /(\d{1,3}(?:\.\d+)?)\s*%\s*$/.exec(s.slice(Math.max(0, at - 8), at))?.[1];
      const after = /^\s*(\d{1,3}(?:\.\d+)?)\s*%/.exec(s.slice(at + m[0].length))?.[1];
      hits.push({ at, word: m[0], fibres, before, after });
    }
    rest = rest.replace(new RegExp(re.source, "g"), (x) => " ".repeat(x.length));
  }
  hits.sort((a, b) => a.at - b.at);
  // "60% cotton 40% polyester" or "cotton 60%, polyester 40%": the first fibre tells which side the shares are on.
  const leading = hits[0]?.before !== undefined;
  const shares = new Map<Fibre, number>();
  for (const h of hits) {
    const pct = leading ? h.before : h.after;
    if (pct !== undefined)
      for (const f of h.fibres) shares.set(f, (shares.get(f) ?? 0) + Number(pct) / h.fibres.length);
  }
  const words = new Map<Fibre, string>();
  for (const h of hits) for (const f of h.fibres) if (!words.has(f)) words.set(f, h.word);
  return { order: [...new Set(hits.flatMap((h) => h.fibres))], words, shares };
}

function knitIn(text: string): "knitted" | "woven" | null {
  const s = lower(text);
  if (/\b(?:not|other than)\s+knit(?:ted)?\b|\bwoven\b|\bweave\b/.test(s)) return "woven";
  if (/\bknit(?:ted|wear)?\b|\bcrochet(?:ed)?\b|\bjersey\b/.test(s)) return "knitted";
  return null;
}

/** A line is knitted or woven only when it says so in the schedule's words ("Knit to shape" is a make, not this). */
function lineKnit(label: string): "knitted" | "woven" | null {
  const s = lower(label);
  if (/\b(?:not|other than)\s+knitted or crocheted\b/.test(s)) return "woven";
  if (/\bknitted or crocheted\b/.test(s)) return "knitted";
  return null;
}

/** Words that the attribute checks already weigh: left out of the plain word comparison. */
const ATTRIBUTE_WORDS = new Set([
  ...Object.keys(GENDER_WORDS).map((w) => tokens(w)[0] ?? w),
  "cotton",
  "wool",
  "silk",
  "synthetic",
  "artificial",
  "fiber",
  "made",
  "knit",
  "crochet",
  "woven",
  "textile",
  "material",
  "percent",
  "weight",
  "containing",
  "flax",
  "fine",
  "animal",
  "hair",
]);

function textFacts(text: string): TextFacts {
  const { genders, words } = gendersIn(text);
  const unisex = /\bunisex\b/i.test(text);
  const fibres = fibresIn(text);
  let fibre: Fibre | null = fibres.order[0] ?? null;
  if (fibres.shares.size) fibre = [...fibres.shares].sort((a, b) => b[1] - a[1])[0]?.[0] ?? fibre;
  const word = fibre ? (fibres.words.get(fibre) ?? fibre) : "";
  return {
    genders,
    genderWords: words,
    unisex,
    fibre,
    fibreWord: word === fibre ? `"${word}"` : `"${word}" (${fibre})`,
    fibreShares: fibres.shares,
    knit: knitIn(text),
    measures: textMeasures(text),
    words: new Set(tokens(text).filter((w) => !ATTRIBUTE_WORDS.has(w))),
  };
}

interface Scored {
  candidate: StatisticalCandidate;
  index: number;
  score: number;
  signal: boolean;
  conflict: boolean;
  /** The line needs something the text does not state ("all white" when the text names no colour). */
  unstated: boolean;
  residual: number;
  reasons: string[];
}

const labelsOf = (description: string) =>
  description
    .split(/:\s+|:$/)
    .map((l) => l.trim())
    .filter(Boolean);

/** Share of a line's labels that are residual ("Other", "Other (338)"), 0 when its own label is not. */
function residualShare(labels: string[]): number {
  const isOther = (l: string) => /^other\b/i.test(l);
  const last = labels[labels.length - 1];
  if (!last || !isOther(last)) return 0;
  return labels.filter(isOther).length / labels.length;
}

/** The most specific (last) label that names an attribute decides it for the line. */
function lastWith<T>(labels: string[], read: (label: string) => T | null): { value: T; label: string } | null {
  for (let i = labels.length - 1; i >= 0; i--) {
    const label = labels[i] ?? "";
    const value = read(stripExclusions(label));
    if (value !== null) return { value, label };
  }
  return null;
}

function genderCheck(s: Scored, labels: string[], facts: TextFacts, gendersWanted: Set<Gender>): void {
  const line = lastWith(labels, (l) => {
    const g = gendersIn(l).genders;
    return g.size ? g : null;
  });
  if (!line || gendersWanted.size === 0) return;
  const hit = [...line.value].some((g) => gendersWanted.has(g));
  if (!hit) {
    s.conflict = true;
    return;
  }
  s.score += 3;
  s.signal = true;
  const said = facts.unisex && facts.genders.size === 0 ? ["unisex"] : facts.genderWords;
  s.reasons.push(`gender: the text says ${said.map((w) => `"${w}"`).join(", ")}; the line is "${line.label}"`);
}

function fibreCheck(s: Scored, labels: string[], facts: TextFacts): void {
  if (!facts.fibre) return;
  const line = lastWith(labels, (l) => {
    if (/\bpercent\b|%/.test(l)) return null;
    const f = fibresIn(l).order;
    return f.length ? new Set(f) : null;
  });
  const pct = percentCheck(labels, facts);
  if (pct === false) {
    s.conflict = true;
    return;
  }
  if (pct) {
    s.score += 3;
    s.signal = true;
    s.reasons.push(pct);
  }
  if (!line) return;
  if (!line.value.has(facts.fibre)) {
    s.conflict = true;
    return;
  }
  s.score += 3;
  s.signal = true;
  s.reasons.push(`fibre: the text says ${facts.fibreWord}; the line is "${line.label}"`);
}

/** "Containing 70 percent or more by weight of silk": checked when the text gives that fibre's share. */
function percentCheck(labels: string[], facts: TextFacts): string | false | null {
  for (const label of labels) {
    const m =
      /(less than\s+)?(\d{1,3}(?:\.\d+)?)\s*(?:percent|%)\s*(or more\s+)?by weight\s+(?:or more\s+)?of\s+([a-z -]+)/i.exec(
        lower(label),
      );
    if (!m) continue;
    const fibres = fibresIn(m[4] ?? "").order;
    if (!fibres.length) continue;
    const share = fibres.reduce((n, f) => n + (facts.fibreShares.get(f) ?? 0), 0);
    const known = facts.fibreShares.size > 0;
    if (!known) {
      if (m[1] || !facts.fibre) continue;
      if (fibres.includes(facts.fibre)) return `fibre: the text says ${facts.fibreWord}; the line is "${label}"`;
      return Number(m[2]) >= 50 ? false : null;
    }
    const ok = m[1] ? share < Number(m[2]) : share >= Number(m[2]);
    if (!ok) return false;
    return `fibre content: ${share}% ${fibres.join(" or ")} fits "${label}"`;
  }
  return null;
}

function knitCheck(s: Scored, labels: string[], facts: TextFacts): void {
  if (!facts.knit) return;
  // Read on the raw labels: "(not knitted or crocheted)" is what makes a line woven.
  const label = [...labels].reverse().find((l) => lineKnit(l) !== null);
  const line = label ? { value: lineKnit(label), label } : null;
  if (!line) return;
  if (line.value !== facts.knit) {
    s.conflict = true;
    return;
  }
  s.score += 2;
  s.signal = true;
  s.reasons.push(`construction: the text says ${facts.knit}; the line is "${line.label}"`);
}

const COLOURS = /\b(white|red|black|blue|green|yellow|pink|purple|orange|brown|gr[ae]y|ros[eé])\b/g;
const coloursIn = (text: string) =>
  new Set([...lower(text).matchAll(COLOURS)].map((m) => (m[1] === "grey" ? "gray" : m[1])));

/** "T-shirts, all white", "Red" wine: a line for a colour fits only a text that names that colour. */
function colourCheck(s: Scored, labels: string[], text: string): void {
  const label = [...labels].reverse().find((l) => coloursIn(stripExclusions(l)).size > 0);
  if (!label) return;
  const wanted = coloursIn(stripExclusions(label));
  const named = coloursIn(text);
  const said = [...named].filter((c) => wanted.has(c));
  if (!said.length) {
    if (named.size) s.conflict = true;
    else s.unstated = true;
    return;
  }
  s.score += 2;
  s.signal = true;
  s.reasons.push(`colour: the text says ${said.join(", ")}; the line is "${label}"`);
}

function measureCheck(s: Scored, description: string, facts: TextFacts): void {
  const byDim = new Map<Dimension, Bound[]>();
  for (const b of descriptionBounds(description)) byDim.set(b.dim, [...(byDim.get(b.dim) ?? []), b]);
  for (const [dim, bounds] of byDim) {
    const stated = facts.measures.get(dim);
    if (!stated) continue;
    if (!bounds.every((b) => fits(stated.value, b))) {
      s.conflict = true;
      return;
    }
    s.score += 3;
    s.signal = true;
    s.reasons.push(`${dim}: ${stated.shown} fits "${description}"`);
  }
}

/** Plain words of the line (beyond the attributes) found in the text; a line led by "Not" wants them absent. */
function wordCheck(s: Scored, labels: string[], facts: TextFacts): void {
  const own: string[] = [];
  for (const label of labels) {
    const words = tokens(stripExclusions(label)).filter((w) => !ATTRIBUTE_WORDS.has(w));
    if (/^not\b/i.test(label)) {
      if (words.some((w) => facts.words.has(w))) s.conflict = true;
      continue;
    }
    own.push(...words);
  }
  const distinct = [...new Set(own)];
  const matched = distinct.filter((w) => facts.words.has(w));
  if (matched.length) {
    s.score += matched.length - 0.02 * (distinct.length - matched.length);
    s.signal = true;
    s.reasons.push(`words in common: ${matched.join(", ")}`);
  } else if (distinct.length && !s.residual) s.score -= 0.3;
}

function score(
  candidate: StatisticalCandidate,
  index: number,
  text: string,
  facts: TextFacts,
  chapter: string,
): Scored {
  const labels = labelsOf(candidate.description);
  const s: Scored = {
    candidate,
    index,
    score: 0,
    signal: false,
    conflict: false,
    unstated: false,
    residual: 0,
    reasons: [],
  };
  s.residual = residualShare(labels);
  // Chapters 61 and 62, note 9: a garment not identifiable as men's or women's is classified as women's.
  const unisexAsWomen = facts.unisex && facts.genders.size === 0 && (chapter === "61" || chapter === "62");
  const wanted = unisexAsWomen ? new Set<Gender>(["women", "girls"]) : facts.genders;
  genderCheck(s, labels, facts, wanted);
  if (unisexAsWomen && s.reasons.length)
    s.reasons.push(
      "unisex: chapters 61 and 62 (note 9) class garments not identifiable by gender as women's or girls'",
    );
  fibreCheck(s, labels, facts);
  knitCheck(s, labels, facts);
  colourCheck(s, labels, text);
  measureCheck(s, candidate.description, facts);
  wordCheck(s, labels, facts);
  if (s.residual) s.score += 0.3 * s.residual;
  return s;
}

const digitsOf = (code: string) => code.replace(/\D/g, "");

function pick(c: StatisticalCandidate, attributes: string[]): StatisticalPick {
  return { code: c.code, description: c.description, attributes };
}

/**
 * The 10-digit line under `line8` that fits `text`, with the reasons; null when no candidate belongs to `line8`.
 * Candidates are the 10-digit lines of the 8-digit line, in the schedule's order.
 */
export function pickStatistical(
  text: string,
  line8: string,
  candidates: StatisticalCandidate[],
): StatisticalPick | null {
  const key = digitsOf(line8).slice(0, 8);
  const own = candidates.filter((c) => digitsOf(c.code).length === 10 && digitsOf(c.code).startsWith(key));
  const only = own[0];
  if (!only || key.length !== 8) return null;
  if (own.length === 1)
    return pick(only, [`the 8-digit line has a single statistical line (suffix ${digitsOf(only.code).slice(8)})`]);

  const facts = textFacts(text);
  const scored = own.map((c, i) => score(c, i, text, facts, key.slice(0, 2)));
  const fitting = scored.filter((s) => !s.conflict && !s.unstated);
  const pool = fitting.length ? fitting : scored;
  const best = [...pool].sort((a, b) => b.score - a.score || a.index - b.index)[0];
  if (!best) return null;
  const notes: string[] = [];
  if (!fitting.length)
    notes.push(
      scored.some((s) => s.conflict)
        ? "no line fits every attribute the text states; the attributes were set aside"
        : "every line needs something the text does not state (such as a colour); that was set aside",
    );

  if (!best.signal) {
    const residual = [...pool]
      .filter((s) => s.residual > 0)
      .sort((a, b) => b.residual - a.residual || b.index - a.index)[0];
    if (residual) {
      const last = labelsOf(residual.candidate.description).pop() ?? "Other";
      const ruledOut = fitting.length ? scored.filter((s) => s.conflict).length : 0;
      const why = ruledOut
        ? `the text rules out ${ruledOut} of the ${scored.length} lines and names nothing that fits the others`
        : "no attribute in the text";
      return pick(residual.candidate, [...notes, `${why}; the residual line '${last}' was chosen`]);
    }
    const first = pool[0] ?? best;
    return pick(first.candidate, [
      ...notes,
      "no attribute in the text and no residual line; the first line was chosen",
    ]);
  }
  const ties = pool.filter((s) => s !== best && Math.abs(s.score - best.score) < 1e-9).map((s) => s.candidate.code);
  if (ties.length) notes.push(`equally fitting: ${ties.join(", ")}; the first in the schedule was taken`);
  return pick(best.candidate, [...best.reasons, ...notes]);
}
