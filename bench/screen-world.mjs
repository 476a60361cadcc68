/**
 * Offline screening evaluation by variant type (issue 21), engine in this Node process (no server).
 *
 *   node_modules/.bin/node bench/screen-world.mjs            # dev and test figures
 *   node_modules/.bin/node bench/screen-world.mjs --write    # also rewrites bench/screen-world.json
 *
 * Every item is derived from the stored lists (data/sanctions/*.jsonl.gz, provenance in data/sanctions/SOURCE.md)
 * and records the entry it came from (`expect`), the listed text it was derived from (`from`) and the rule
 * (`kind`). Kinds:
 *   alias            an alias the list itself gives (a.k.a./f.k.a.), as written there
 *   original_script  an alias in a non-Latin script as the list gives it (Arabic, Cyrillic, CJK, Hangul)
 *   initials         "J. R. DOE" for a listed "DOE, John Robert" (first and middle names cut to initials)
 *   missing_middle   first + last name of a listed person with three or more names
 *   legal_form       a company's legal form swapped for an equivalent in another language (LLC ↔ ООО ↔ GmbH …)
 *   vessel_imo       a listed vessel name followed by its IMO number from the list's remarks
 *   imo_only         the IMO number alone
 *   translit_variant a listed person's first given name in another romanization that the lists themselves give
 *                    for that name on two or more other entries (Ihor for Igor, Sergej for Sergey, Usama for
 *                    Omar's..., mined as in scripts/build/name-variants.mjs but word by word as written, one edit
 *                    or two), in natural order: "Ihor Ivanovich SECHIN" for "SECHIN, Igor Ivanovich"
 *   cross_script     a person the SDN list writes only in Latin letters (Russia-related programmes), written in
 *                    Cyrillic as a Russian writer would: the list's BGN/PCGN-style romanization mapped back
 *                    letter group by letter group (shch→щ, kh→х, ts→ц, yu→ю, iy→ий…; y after a vowel →й,
 *                    y before a vowel after a consonant → ь), in natural order
 *   icao_romanization, german_romanization, french_romanization
 *                    a person of the Russia-related programmes, the list's romanization mapped back to Cyrillic
 *                    as for cross_script and written out again in another romanization: ICAO 9303, as Russian
 *                    passports write names ("Iurii Viktorovich IVANOV"), the German Duden transcription ("Juri
 *                    Wiktorowitsch Iwanow"), one of the two per person by a hash of the entry id; and for other
 *                    persons (another hash) the French transcription ("Iouri Viktorovitch Ivanov")
 * Split: a seeded hash of the entry id puts each entry in dev (70%) or test (30%); both are reported, tuning
 * looks only at dev. Innocent-name sets per culture are not part of this file: no public name-frequency list
 * was sourced in time (see bench/results/screen.md).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { screenEngine } from "./lib/screen-engine.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SEED = 20261124;
const OUT = join(ROOT, "bench", "screen-world.json");

/** FNV-1a over seed + text: a stable split and stable sampling without Math.random. */
const hash = (s) => {
  let h = 0x811c9dc5 ^ SEED;
  for (const c of s) h = Math.imul(h ^ c.codePointAt(0), 0x01000193) >>> 0;
  return h;
};

// Equivalent legal forms across languages (one row = one legal form family).
const FORMS = [
  ["LLC", "LIMITED LIABILITY COMPANY", "OOO", "ООО", "GMBH", "SARL", "SRL"],
  ["JSC", "JOINT STOCK COMPANY", "AO", "АО", "OAO", "ОАО", "PJSC", "ПАО"],
  ["LTD", "LIMITED", "CO LTD", "CO., LTD."],
  ["SA", "S.A.", "AG", "PLC"],
];

function legalFormSwap(name) {
  const up = name.toUpperCase();
  for (const fam of FORMS) {
    for (const f of [...fam].sort((a, b) => b.length - a.length)) {
      const re = new RegExp(`(^|[\\s,])${f.replace(/[.]/g, "\\.")}(?=$|[\\s,.])`, "u");
      if (!re.test(up)) continue;
      const others = fam.filter((x) => x !== f);
      const alt = others[hash(name) % others.length];
      return up.replace(re, `$1${alt}`).replace(/\s+/g, " ").trim();
    }
  }
  return null;
}

// Latin → Cyrillic, the reverse of the BGN/PCGN-style romanization the SDN list uses for Russian names; longest
// letter groups first. Only for generating queries: the engine never sees this table.
const TO_CYRILLIC = [
  ["shch", "щ"],
  ["zh", "ж"],
  ["kh", "х"],
  ["ts", "ц"],
  ["ch", "ч"],
  ["sh", "ш"],
  ["yu", "ю"],
  ["ya", "я"],
  ["ye", "е"],
  ["yo", "ё"],
  ["iy", "ий"],
  ["yy", "ый"],
  ["a", "а"],
  ["b", "б"],
  ["v", "в"],
  ["g", "г"],
  ["d", "д"],
  ["e", "е"],
  ["z", "з"],
  ["i", "и"],
  ["y", "ы"],
  ["k", "к"],
  ["l", "л"],
  ["m", "м"],
  ["n", "н"],
  ["o", "о"],
  ["p", "п"],
  ["r", "р"],
  ["s", "с"],
  ["t", "т"],
  ["u", "у"],
  ["f", "ф"],
  ["'", "ь"],
];
const LATIN_VOWEL = /[aeiouy]/;
function toCyrillic(word) {
  let out = "";
  const w = word.toLowerCase();
  for (let i = 0; i < w.length; ) {
    const hit = TO_CYRILLIC.find(([lat]) => w.startsWith(lat, i));
    if (!hit) return null;
    const prev = i > 0 ? w.charAt(i - 1) : "";
    const after = w.charAt(i + hit[0].length);
    // The romanization's y is й after a vowel (Nikolay, Sergey) and ь before a vowel after a consonant
    // (Yevgenyevich, Prokofyev, Ilyushin): a Russian writer writes Николай, Евгеньевич, Прокофьев.
    if (hit[0] === "y" && LATIN_VOWEL.test(prev) && !LATIN_VOWEL.test(after)) out += "й";
    else if (/^y[aeou]$/.test(hit[0]) && prev && !LATIN_VOWEL.test(prev) && prev !== "'") out += `ь${hit[1]}`;
    else out += hit[1];
    i += hit[0].length;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** The Russian alphabet in order; each romanization below gives its letters' Latin in the same order ("-": none). */
const RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя";
const letters = (latin) => {
  const out = latin.split(" ");
  return Object.fromEntries([...RUSSIAN].map((c, i) => [c, out[i] === "-" ? "" : out[i]]));
};

// Cyrillic → Latin in romanizations other than the list's, for generating queries only (the engine never
// sees these tables). ICAO Doc 9303 Part 3 (8th ed., 2021), section 6, the transliteration Russian passports
// have used since 2013 (Юрий → Iurii, Наталья → Natalia); and the German Duden transcription
// (de.wikipedia.org/wiki/Deutsche_Transkription, "Tabelle": в → w, ж/ш → sch, ц → z, ч → tsch, х → ch, кс → x,
// е/ё → je/jo at a word's start and after a vowel or soft sign, ий/ый at a word's end → i/y).
const ICAO = letters("a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch ie y - e iu ia");
const DUDEN = letters("a b w g d e jo sch s i i k l m n o p r s t u f ch z tsch sch schtsch - y - e ju ja");
const CYR_VOWEL = /[аеёиоуыэюяьъ]/;
// The French transcription (fr.wikipedia.org/wiki/Transcription_du_russe_en_français: ш ch, ж j, ч tch, щ chtch,
// х kh, у ou, ю iou, я ia, ё io, е ie after a vowel (e at a word's start, as usage writes Evgueni, Elena), й ï
// after a vowel, г gu before e and i, с ss between vowels, -ин -ine at a name's end, ий at a word's end i), as
// French-language records and press write Russian names ("Sergueï Choïgou", "Evgueni Prigojine").
const FRENCH = letters("a b v g d e io j z i ï k l m n o p r s t ou f kh ts tch ch chtch - y - e iou ia");

function romanize(cyr, system) {
  const w = cyr.toLowerCase();
  let out = "";
  for (let i = 0; i < w.length; i++) {
    const c = w.charAt(i);
    const prev = i > 0 ? w.charAt(i - 1) : "";
    const next = w.charAt(i + 1);
    if (system === "icao") out += ICAO[c] ?? c;
    else if (system === "french") {
      if (c === "е" && prev && CYR_VOWEL.test(prev)) out += "ie";
      else if (c === "г" && /[еиёюя]/.test(next)) out += "gu";
      else if (c === "с" && CYR_VOWEL.test(prev) && CYR_VOWEL.test(next)) out += "ss";
      else if (c === "и" && next === "й" && i + 2 === w.length) {
        out += "i";
        i++;
      } else if (c === "й" && !CYR_VOWEL.test(prev)) out += "i";
      else out += FRENCH[c] ?? c;
      if (i + 1 === w.length && c === "н" && /[иы]/.test(prev)) out += "e";
    } else if (c === "к" && next === "с") {
      out += "x";
      i++;
    } else if ((c === "и" || c === "ы") && next === "й" && i + 2 === w.length) {
      out += c === "и" ? "i" : "y";
      i++;
    } else if (c === "е" && (!prev || CYR_VOWEL.test(prev))) out += "je";
    else if (c === "ё" && /[жчшщ]/.test(prev)) out += "o";
    else out += DUDEN[c] ?? c;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

const personParts = (name) => {
  const [last, first] = name.split(",").map((s) => s.trim());
  if (!first || !last) return null;
  const given = first.split(/\s+/).filter(Boolean);
  return { last, given };
};

/** Uppercase Latin words of a name, as written (punctuation aside). */
const nameWords = (s) =>
  s
    .replace(/,/g, " ")
    .toUpperCase()
    .split(/\s+/)
    .filter((w) => /^[A-Z'-]+$/.test(w));

/** Levenshtein distance (small words only). */
function levenshtein(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Spellings of one word the lists give for the same person: word → variant → the entries that give the pair (two
 * Latin names of one individual entry, same number of words, exactly one word different, one or two edits apart).
 */
function listedSpellings(lists) {
  const pairs = new Map();
  for (const { id, e } of lists) {
    if (e.type !== "individual") continue;
    const names = [e.name, ...e.alt_names].filter((n) => /^[\p{Script=Latin}\s,.'-]+$/u.test(n)).map(nameWords);
    for (const a of names)
      for (const b of names) {
        if (a === b || a.length !== b.length) continue;
        const x = a.filter((w) => !b.includes(w));
        const y = b.filter((w) => !a.includes(w));
        if (x.length !== 1 || y.length !== 1 || x[0].length < 4 || y[0].length < 4) continue;
        if (levenshtein(x[0], y[0]) > 2) continue;
        if (!pairs.has(x[0])) pairs.set(x[0], new Map());
        const m = pairs.get(x[0]);
        if (!m.has(y[0])) m.set(y[0], new Set());
        m.get(y[0]).add(id);
      }
  }
  return pairs;
}

export function buildSet() {
  const items = [];
  const lists = [];
  for (const code of ["SDN", "UN"])
    for (const line of gunzip(readFileSync(join(ROOT, "data", "sanctions", `${code.toLowerCase()}.jsonl.gz`))).split(
      "\n",
    ))
      if (line) {
        const e = JSON.parse(line);
        lists.push({ id: `${code}:${e.ref}`, e });
      }
  const spellings = listedSpellings(lists);
  for (const { id, e } of lists) {
    const code = id.slice(0, id.indexOf(":"));
    const split = hash(id) % 10 < 7 ? "dev" : "test";
    const add = (kind, query, from) => items.push({ kind, query, expect: id, from, split });
    for (const a of e.alt_names) {
      if (/[\p{Script=Arabic}\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hangul}]/u.test(a))
        add("original_script", a, a);
      else if (hash(`alias:${a}`) % 8 === 0) add("alias", a, a);
    }
    if (e.type === "individual" && code === "SDN") {
      const p = personParts(e.name);
      if (p && p.given.length >= 2 && hash(`ini:${id}`) % 4 === 0)
        // An initial is the name's first letter: "'Abdallah" is written "A.", not "'.".
        add("initials", `${p.given.map((g) => `${g.match(/\p{L}/u)?.[0] ?? g[0]}.`).join(" ")} ${p.last}`, e.name);
      if (p && p.given.length >= 2 && hash(`mid:${id}`) % 4 === 0)
        add("missing_middle", `${p.given[0]} ${p.last}`, e.name);
      if (p && hash(`tv:${id}`) % 2 === 0) {
        // Spellings of the first given name other entries attest (two or more), not among this entry's own words.
        const first = p.given[0].toUpperCase();
        const own = new Set([e.name, ...e.alt_names].flatMap(nameWords));
        const variants = [...(spellings.get(first) ?? new Map())]
          .filter(([v, ids]) => !own.has(v) && [...ids].filter((x) => x !== id).length >= 2)
          .map(([v]) => v)
          .sort();
        if (variants.length) {
          const v = variants[hash(`tvv:${id}`) % variants.length];
          const spelled = v.charAt(0) + v.slice(1).toLowerCase();
          add("translit_variant", [spelled, ...p.given.slice(1), p.last].join(" "), e.name);
        }
      }
      const russian = e.programs.some((g) => /RUSSIA|UKRAINE-EO1366/.test(g));
      const hasCyrillic = e.alt_names.some((a) => /\p{Script=Cyrillic}/u.test(a));
      // The person in Cyrillic, the list's romanization mapped back (null when a word does not map).
      const words = p && russian ? [...p.given, ...p.last.split(/[\s-]+/)].map(toCyrillic) : [];
      const cyrillic = words.length && words.every(Boolean) ? words : null;
      if (cyrillic && !hasCyrillic && hash(`cyr:${id}`) % 3 === 0) add("cross_script", cyrillic.join(" "), e.name);
      const rom = hash(`rom:${id}`) % 3;
      if (cyrillic && rom < 2) {
        const system = rom === 1 ? "french" : hash(`romsys:${id}`) % 2 === 0 ? "icao" : "german";
        add(`${system}_romanization`, cyrillic.map((w) => romanize(w, system)).join(" "), e.name);
      }
    }
    if (e.type === "entity") {
      const sw = legalFormSwap(e.name);
      if (sw && hash(`lf:${id}`) % 3 === 0) add("legal_form", sw, e.name);
    }
    const imo = e.remarks?.match(/IMO (\d{7})/);
    if (e.type === "vessel" && imo) {
      if (hash(`v:${id}`) % 2 === 0) add("vessel_imo", `${e.name} IMO ${imo[1]}`, `${e.name}; IMO ${imo[1]}`);
      else add("imo_only", `IMO ${imo[1]}`, `IMO ${imo[1]}`);
    }
    if (items.length > 100000) break;
  }
  return { seed: SEED, description: "See the header of bench/screen-world.mjs.", items };
}

function gunzip(buf) {
  return zlib.gunzipSync(buf).toString("utf8");
}

import zlib from "node:zlib";

async function main() {
  const set = buildSet();
  if (process.argv.includes("--write")) writeFileSync(OUT, `${JSON.stringify(set, null, 1)}\n`);
  const { E, index } = await screenEngine(process.env.ENGINE_ROOT);
  const stats = {};
  const times = [];
  const misses = [];
  for (const it of set.items) {
    const t0 = performance.now();
    const hits = E.screen(index, { name: it.query });
    times.push(performance.now() - t0);
    const ok = hits.some((h) => index.entries[h.entry]?.id === it.expect && h.score >= 0.7);
    const k = `${it.split}|${it.kind}`;
    stats[k] ??= { n: 0, found: 0 };
    stats[k].n++;
    if (ok) stats[k].found++;
    else if ((process.env.SPLIT ?? "dev") === it.split && misses.length < 400) misses.push(it);
  }
  // False positives on the innocent names of the existing quality set (bench/screen-eval.json), by its kinds.
  const old = JSON.parse(readFileSync(join(ROOT, "bench", "screen-eval.json"), "utf8"));
  const fp = {};
  for (const v of old.innocents) {
    const t0 = performance.now();
    const hits = E.screen(index, { name: v.query });
    times.push(performance.now() - t0);
    fp[v.kind] ??= { n: 0, flagged: 0 };
    fp[v.kind].n++;
    if (hits.length) fp[v.kind].flagged++;
  }
  times.sort((a, b) => a - b);
  const kinds = [...new Set(set.items.map((i) => i.kind))];
  console.log("| kind | dev n | dev recall@0.7 | test n | test recall@0.7 |\n|---|---:|---:|---:|---:|");
  for (const k of kinds) {
    const d = stats[`dev|${k}`] ?? { n: 0, found: 0 };
    const t = stats[`test|${k}`] ?? { n: 0, found: 0 };
    const pct = (s) => (s.n ? `${((100 * s.found) / s.n).toFixed(1)}%` : "–");
    console.log(`| ${k} | ${d.n} | ${pct(d)} | ${t.n} | ${pct(t)} |`);
  }
  console.log("\n| innocent kind (bench/screen-eval.json) | n | false positives |\n|---|---:|---:|");
  for (const [k, s] of Object.entries(fp)) console.log(`| ${k} | ${s.n} | ${((100 * s.flagged) / s.n).toFixed(1)}% |`);
  console.log(
    `\nengine p50 ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms over ${times.length} queries`,
  );
  if (process.argv.includes("--misses"))
    for (const m of misses) console.log("MISS", m.kind, JSON.stringify(m.query), m.expect);
}

await main();
