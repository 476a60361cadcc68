#!/usr/bin/env node
/**
 * Builds bench/screen-eval.json, the screening quality set: true variants of listed names (each with the
 * entry it must find) and innocent names (ordinary people and companies that are not listed). Deterministic:
 * a seeded generator over data/sanctions, so the same lists give the same set.
 *
 *   node scripts/build/screen-eval.mjs
 *
 * Variant kinds: reordered tokens, one typo, diacritics added / German transliteration, legal form changed
 * or dropped, joined or split words, an alias instead of the primary name, case and punctuation, and
 * reordered + typo. Innocents: hand-written first names and surnames from many naming traditions, paired
 * deterministically, plus hand-written company names. An innocent that is in fact listed (its normalized
 * form equals a listed name or alias) is dropped, so "innocent" means not on the lists.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../data/lib.mjs";
import { readList } from "../data/sanctions.mjs";

const PER_KIND = 50;
const SEED = 20261122;

function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const pick = (a) => a[Math.floor(rand() * a.length)];
const norm = (s) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const entries = [];
for (const code of ["SDN", "UN"]) for (const e of readList(code)) entries.push({ id: `${code}:${e.ref}`, ...e });
const latin = (s) => /^[\p{Script=Latin}\d\s\p{P}\p{S}]+$/u.test(s);
const usable = entries.filter((e) => latin(e.name) && norm(e.name).replace(/ /g, "").length >= 6);
const listed = new Set(entries.flatMap((e) => [e.name, ...e.alt_names]).map(norm));

/** "LAST, First Middle" → "First Middle Last" (how people type a person's name). */
const natural = (name) => {
  const m = /^([^,]+),\s*(.+)$/.exec(name);
  return m ? `${m[2]} ${m[1]}` : name;
};
const words = (s) => s.split(/\s+/).filter(Boolean);

function typo(s) {
  const ws = words(s);
  const candidates = ws.map((w, i) => [w, i]).filter(([w]) => /^\p{L}{5,}$/u.test(w));
  if (!candidates.length) return null;
  const [w, i] = pick(candidates);
  const p = 1 + Math.floor(rand() * (w.length - 2));
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const kind = Math.floor(rand() * 4);
  let out;
  if (kind === 0)
    out = w.slice(0, p) + pick([...letters]) + w.slice(p + 1); // substitution
  else if (kind === 1)
    out = w.slice(0, p) + w.slice(p + 1); // deletion
  else if (kind === 2)
    out = w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2); // transposition
  else out = w.slice(0, p) + pick([...letters]) + w.slice(p); // insertion
  if (norm(out) === norm(w)) return null;
  ws[i] = w === w.toUpperCase() ? out.toUpperCase() : out;
  return ws.join(" ");
}

const ACCENT = { a: "á", e: "é", i: "í", o: "ó", u: "ú", A: "Á", E: "É", I: "Í", O: "Ó", U: "Ú", n: "ñ", c: "ç" };
function diacritics(s) {
  // German transliteration back to umlauts where the name has it, otherwise accents on a few letters.
  if (/(AE|OE|UE|ae|oe|ue)/.test(s))
    return s
      .replace(/AE/g, "Ä")
      .replace(/OE/g, "Ö")
      .replace(/UE/g, "Ü")
      .replace(/ae/g, "ä")
      .replace(/oe/g, "ö")
      .replace(/ue/g, "ü");
  let n = 0;
  const out = [...s].map((ch) => (ACCENT[ch] && n < 3 && rand() < 0.35 ? (n++, ACCENT[ch]) : ch)).join("");
  return n ? out : null;
}

const LEGAL = [
  "LLC",
  "LTD",
  "LIMITED",
  "CO., LTD.",
  "JSC",
  "OOO",
  "GMBH",
  "S.A.",
  "INC.",
  "CORP.",
  "COMPANY",
  "PLC",
  "FZE",
  "PJSC",
  "LIMITED LIABILITY COMPANY",
];
const LEGAL_RE =
  /\b(LIMITED LIABILITY COMPANY|JOINT STOCK COMPANY|CO\.,? LTD\.?|LLC|L\.L\.C\.|LTD\.?|LIMITED|JSC|OJSC|PJSC|CJSC|OOO|GMBH|S\.A\.?|S\.A\.R\.L\.|INC\.?|CORP\.?|CORPORATION|COMPANY|PLC|FZE|FZCO|FZ-LLC)\b\.?/i;
function legal(s) {
  if (LEGAL_RE.test(s)) {
    const r = rand();
    if (r < 0.35)
      return (
        s
          .replace(LEGAL_RE, "")
          .replace(/[\s,]+$/, "")
          .replace(/\s+/g, " ")
          .trim() || null
      );
    return s.replace(LEGAL_RE, pick(LEGAL));
  }
  return `${s.replace(/[.,]+$/, "")} ${pick(LEGAL)}`;
}

function joinSplit(s) {
  const ws = words(s.replace(/,/g, ""));
  const long = ws.map((w, i) => [w, i]).filter(([w]) => w.length >= 8 && /^\p{L}+$/u.test(w));
  if (long.length && rand() < 0.5) {
    const [w, i] = pick(long);
    const p = 3 + Math.floor(rand() * (w.length - 6));
    ws.splice(i, 1, w.slice(0, p), w.slice(p));
    return ws.join(" ");
  }
  const pairs = [];
  for (let i = 0; i + 1 < ws.length; i++)
    if (/^\p{L}{3,}$/u.test(ws[i]) && /^\p{L}{3,}$/u.test(ws[i + 1])) pairs.push(i);
  if (!pairs.length) return null;
  const i = pick(pairs);
  ws.splice(i, 2, ws[i] + ws[i + 1]);
  return ws.join(" ");
}

function reorder(s) {
  const n = natural(s);
  if (n !== s) return n;
  const ws = words(s.replace(/,/g, ""));
  if (ws.length < 2) return null;
  return [...ws.slice(1), ws[0]].join(" ");
}

function casePunct(s) {
  const out = s.toLowerCase().replace(/,/g, " ").replace(/-/g, " ").replace(/\./g, "").replace(/\s+/g, " ").trim();
  return out === s ? null : out.replace(/\b\p{L}/gu, (c) => (rand() < 0.5 ? c.toUpperCase() : c));
}

const KINDS = {
  reordered: (e) => reorder(e.name),
  typo: (e) => typo(natural(e.name)),
  diacritics: (e) => diacritics(natural(e.name)),
  legal_form: (e) => (e.type === "entity" || e.type === "unknown" ? legal(e.name) : null),
  joined_split: (e) => joinSplit(natural(e.name)),
  alias: (e) => {
    const alts = e.alt_names.filter((a) => latin(a) && norm(a).replace(/ /g, "").length >= 6);
    return alts.length ? natural(pick(alts)) : null;
  },
  case_punctuation: (e) => casePunct(e.name),
  reordered_typo: (e) => {
    const r = reorder(e.name);
    return r && typo(r);
  },
};

const variants = [];
const used = new Set();
for (const [kind, make] of Object.entries(KINDS)) {
  let made = 0;
  for (let tries = 0; made < PER_KIND && tries < PER_KIND * 200; tries++) {
    const e = pick(usable);
    if (used.has(`${kind}:${e.id}`)) continue;
    const q = make(e);
    if (!q || !/\p{L}/u.test(q)) continue;
    used.add(`${kind}:${e.id}`);
    variants.push({ kind, query: q, expect: e.id, listed_name: e.name });
    made++;
  }
}

// ---------------------------------------------------------------------------------------------- innocents

const PEOPLE = {
  english: [
    [
      "James",
      "Olivia",
      "Michael",
      "Emily",
      "Robert",
      "Sarah",
      "David",
      "Laura",
      "Thomas",
      "Rachel",
      "Daniel",
      "Hannah",
    ],
    [
      "Thompson",
      "Whitaker",
      "Brennan",
      "Caldwell",
      "Fairbanks",
      "Holloway",
      "Pemberton",
      "Ashworth",
      "Kingsley",
      "Marlowe",
      "Stanhope",
      "Winslow",
    ],
  ],
  hispanic: [
    [
      "Alejandro",
      "Lucia",
      "Santiago",
      "Valentina",
      "Mateo",
      "Camila",
      "Diego",
      "Isabela",
      "Javier",
      "Paula",
      "Andres",
      "Gabriela",
    ],
    [
      "Villanueva",
      "Echeverria",
      "Montoya",
      "Bustamante",
      "Quintanilla",
      "Arellano",
      "Saavedra",
      "Cifuentes",
      "Ledesma",
      "Olmedo",
      "Barrientos",
      "Zamudio",
    ],
  ],
  german: [
    [
      "Jürgen",
      "Katrin",
      "Matthias",
      "Sabine",
      "Florian",
      "Anja",
      "Tobias",
      "Ulrike",
      "Stefan",
      "Birgit",
      "Lukas",
      "Heike",
    ],
    [
      "Schäfer",
      "Lindemann",
      "Brückner",
      "Hoffmeister",
      "Kessler",
      "Vogelsang",
      "Reinholz",
      "Baumgärtner",
      "Eichhorn",
      "Steinbach",
      "Wendland",
      "Großmann",
    ],
  ],
  french_italian: [
    [
      "Étienne",
      "Margaux",
      "Baptiste",
      "Élodie",
      "Giacomo",
      "Chiara",
      "Lorenzo",
      "Francesca",
      "Thibault",
      "Camille",
      "Matteo",
      "Giulia",
    ],
    [
      "Delacroix",
      "Fontaine",
      "Beaumont",
      "Lemaître",
      "Rinaldi",
      "Caruso",
      "Bellini",
      "Moretti",
      "Giordano",
      "Marchetti",
      "Rousseau",
      "Chevalier",
    ],
  ],
  arabic: [
    ["Omar", "Layla", "Karim", "Noura", "Tariq", "Samira", "Faisal", "Rania", "Nabil", "Huda", "Walid", "Dalia"],
    [
      "Haddad",
      "Mansour",
      "Khoury",
      "Nassar",
      "Sabbagh",
      "Tamimi",
      "Barakat",
      "Qasimi",
      "Zoubi",
      "Shalabi",
      "Jaber",
      "Farouqi",
    ],
  ],
  persian_turkish: [
    ["Dariush", "Shirin", "Kaveh", "Parisa", "Emre", "Elif", "Burak", "Zeynep", "Arash", "Leila", "Can", "Ayse"],
    [
      "Farahani",
      "Kiani",
      "Sadeghi",
      "Tehrani",
      "Yilmaz",
      "Demirci",
      "Kocaoglu",
      "Aydemir",
      "Ozturk",
      "Karaca",
      "Nikzad",
      "Rostami",
    ],
  ],
  russian_slavic: [
    [
      "Aleksandr",
      "Natalia",
      "Dmitri",
      "Yekaterina",
      "Sergei",
      "Olga",
      "Pavel",
      "Irina",
      "Mikhail",
      "Svetlana",
      "Andrei",
      "Tatiana",
    ],
    [
      "Kuznetsov",
      "Belova",
      "Sokolov",
      "Lebedeva",
      "Novak",
      "Kowalczyk",
      "Dvorak",
      "Zielinski",
      "Morozov",
      "Orlova",
      "Vasilenko",
      "Grabowski",
    ],
  ],
  chinese_east_asian: [
    ["Wei", "Mei", "Jian", "Xiu", "Hiroshi", "Yuki", "Minho", "Jiyeon", "Hao", "Lin", "Takeshi", "Soojin"],
    [
      "Zhang Liwen",
      "Chen Yuhang",
      "Huang Zhiqiang",
      "Tanaka",
      "Watanabe",
      "Nakamura",
      "Park Jisoo",
      "Choi Minseo",
      "Liu Xiaoming",
      "Zhou Yating",
      "Yamamoto",
      "Kang Dongwon",
    ],
  ],
  south_asian_african: [
    ["Arjun", "Priya", "Rohan", "Ananya", "Vikram", "Deepa", "Chinedu", "Amara", "Kwame", "Ngozi", "Tendai", "Zanele"],
    [
      "Raghunathan",
      "Venkataraman",
      "Mehrotra",
      "Chatterjee",
      "Deshpande",
      "Iyer",
      "Okonkwo",
      "Adeyemi",
      "Mensah",
      "Mutasa",
      "Ndlovu",
      "Achebe",
    ],
  ],
};

const COMPANIES =
  `Blue Harbor Logistics Ltd; Northwind Textiles GmbH; Sunrise Bakery LLC; Alpine Precision Tools AG; Riverbend Dental Clinic;
Lakeside Furniture Co.; Meridian Software Solutions Inc.; Golden Field Organic Farms; Harborview Marine Supplies; Copperleaf Design Studio;
Brightwater Pools & Spas; Silverline Courier Services; Oakridge Veterinary Hospital; Cedar Point Realty; Pinecrest Builders Ltd;
Evergreen Garden Centre; Stonebridge Accounting LLP; Maple Leaf Printing Inc.; Redwood Coffee Roasters; Bluebird Childcare Centre;
Hoffmann Elektrotechnik GmbH; Bäckerei Schulz; Müller Maschinenbau GmbH & Co. KG; Autohaus Weber; Schreinerei Krämer;
Boulangerie Dupont SARL; Fromagerie Lefèvre; Vins Moreau et Fils; Transports Girard SAS; Pâtisserie Bernard;
Ferretti Arredamenti S.r.l.; Pasticceria Rossi; Officine Meccaniche Bianchi S.p.A.; Ceramiche Galli; Trattoria Da Mario;
Construcciones Herrera S.L.; Panadería La Espiga; Transportes Ruiz Hermanos; Farmacia Castillo; Talleres Mendoza S.A. de C.V.;
Nordic Fjord Seafood AS; Svensson Byggnads AB; Virtanen Puutarha Oy; Jensen Cykler ApS; Van der Berg Bloemen B.V.;
Tokyo Sakura Confectionery K.K.; Osaka Precision Bearings; Hanbit Electronics Co., Ltd.; Seoul Green Tea House; Shenzhen Bright Lighting Co., Ltd.;
Hangzhou West Lake Silk; Guangzhou Pearl River Furniture; Taipei Night Market Foods; Saigon Lotus Garments; Bangkok Orchid Travel;
Mumbai Spice Traders Pvt. Ltd.; Chennai Cotton Mills; Bengaluru Code Works; Karachi Leather Goods; Dhaka Jute Exports;
Lagos Fresh Produce Ltd; Nairobi Safari Tours; Accra Cocoa Cooperative; Kigali Coffee Growers; Cape Town Wine Cellars;
Cairo Papyrus Crafts; Amman Olive Press; Beirut Cedar Pastries; Dubai Pearl Jewellers LLC; Muscat Frankincense Trading;
Istanbul Carpet Bazaar; Izmir Fig Orchards A.S.; Ankara Steel Doors Ltd. Sti.; Tehran Saffron Growers; Isfahan Handicrafts;
Almaty Apple Orchards; Tashkent Cotton Weavers; Tbilisi Wine Cellar; Yerevan Brandy House; Baku Pomegranate Juice;
Warsaw Amber Studio Sp. z o.o.; Prague Crystal Glassworks s.r.o.; Budapest Paprika Mill Kft.; Bucharest Dental Lab SRL; Sofia Rose Oil;
Kyiv Honey Farm; Minsk Linen Works; Riga Rye Bakery; Vilnius Bike Shop; Tallinn Sauna Builders OÜ;
Mapleton Orthodontics; Greenway Landscaping; Summit Peak Outfitters; Coastal Breeze Kite School; Prairie Wind Energy Cooperative;
Sao Paulo Cafe Exportadora Ltda.; Rio Verde Agropecuaria; Buenos Aires Tango Academy; Santiago Copper Tools; Lima Alpaca Knitwear;
Bogota Flower Growers S.A.S.; Quito Rose Farm; Caracas Cacao Works; Montevideo Leather Co.; Asuncion Yerba Mate;
Auckland Kiwi Orchards; Sydney Harbour Yachts Pty Ltd; Melbourne Laneway Coffee; Perth Pearl Divers; Brisbane Solar Installers;
Acme Widgets Inc.; Globex Office Supplies; Initech Payroll Services; Umbrella Garden Tools; Stark Bicycle Repair;
Wayne Family Pharmacy; Kent Farm Produce; Prince Florist; Banner Science Kits; Allen Speed Couriers`
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

const innocents = [];
const dropped = [];
for (const [culture, [firsts, lasts]] of Object.entries(PEOPLE)) {
  for (let i = 0; i < firsts.length; i++) {
    for (const j of [i, (i + 5) % lasts.length]) {
      const q = `${firsts[i]} ${lasts[j]}`;
      if (listed.has(norm(q))) dropped.push(q);
      else innocents.push({ kind: `person_${culture}`, query: q });
    }
  }
}
for (const q of COMPANIES) {
  if (listed.has(norm(q))) dropped.push(q);
  else innocents.push({ kind: "company", query: q });
}

const out = {
  description:
    "Screening quality set built by scripts/build/screen-eval.mjs from data/sanctions (seeded, deterministic). " +
    "true_variants: a query and the list entry id it must find with a score ≥ 0.7. innocents: names that are not on the lists; any match ≥ 0.7 is a false positive.",
  seed: SEED,
  true_variants: variants,
  innocents,
  dropped_innocents: dropped,
};
writeFileSync(join(root, "bench", "screen-eval.json"), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${variants.length} true variants, ${innocents.length} innocents (${dropped.length} dropped as listed)`);
