/**
 * Tariff lines (US HTS-8, UK Global Tariff 2021, EU CET 2020 proxy, Australia Schedule 3 2026, Canada T2026, Japan 2026-07-09, Switzerland Tares 2026), US Chapter 99 measures and exclusions, and
 * the origins each programme covers. From data/tariffs and data/customs/us-programs.json (see their SOURCE.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "tariffs";
export const version = "2026-11-28.6";
export const source =
  "USITC tariff database 2025 (2025-06-06); HTSUS Chapter 99 (Rev 6 2026: Section 301, Section 232 metals incl. Russian aluminum, metal-origin rules and the U.S. note 16 lists from 2026-04-06, autos and parts, medium- and heavy-duty vehicles, wood, Section 122 surcharge 2026-02-24 to 2026-07-23, IEEPA duties 2025-02-04 to 2026-02-23 as refundable) via Budget Lab at Yale tariff-rate-tracker; UK Global Tariff 2021 (DIT, OGL v3) with the EU CET as published beside it; Australia: ABF Working Tariff Schedules 3 and 4A-16 (2026); Canada: CBSA Customs Tariff schedule T2026 (revision 3, amendments to 2026-09-01) with its preferential tariff treatments and the General Tariff; Japan: Japan Customs tariff schedule 2026-07-09 with its EPA columns; Switzerland: Tares general rates 2026 (BAZG, revision 901); Singapore and Hong Kong: free ports, duty on a few dutiable classes only (Singapore Customs; Hong Kong Customs and Excise Department)";
export const tables = ["calc_tariff_lines", "calc_measures", "calc_exclusions", "calc_origin_programs"];

const read = (rel) => JSON.parse(readFileSync(join(dataDir, rel), "utf8"));
const json = (v) => (v === null || v === undefined ? null : JSON.stringify(v));
/** Chapters the fixture keeps: enough for the tests that do not load the full schedule. */
const FIXTURE_CHAPTERS = ["04", "22", "61", "62", "72", "73", "76", "84", "85", "87", "94"];

/**
 * The date the Australian lines are taken to hold from: the snapshot is the ABF's current tariff of 2026, whose
 * general rates stand as they were after the removal of the "nuisance" tariffs on 2024-07-01.
 */
const AU_FROM = "2024-07-01";
/** Japan's schedule of 2026-07-09 (fiscal year 2026, whose temporary rates and EPA stages run from 1 April). */
const JP_FROM = "2026-04-01";

/**
 * Australia's lines: the general rate, and per preference the rate the origin pays. An agreement's goods are Free
 * unless its schedule lists them (then the listed rate); a line whose agreement rate is staged in the scraped
 * schedule, or unreadable, has no rate under it, so the general rate stands. NZ, FI and LDC goods are Free unless
 * Schedule 3's third column gives their code a rate; Canada pays its CA rate where the column has one.
 */
function* australia(au, programs, keep) {
  const agreements = Object.entries(au.agreements);
  for (const [code, description, generalText, general, cellText, column3] of au.rows) {
    if (!keep(code)) continue;
    const special = {};
    for (const [name, f] of agreements) {
      const hit = f.listed[code];
      if (hit) {
        if (hit[1]) special[name] = hit[1];
      } else if (!f.staged.includes(code)) special[name] = [];
    }
    const third = (c) => column3[c] ?? null;
    for (const [program, codes] of [
      ["NZ", ["NZ"]],
      ["FI", ["FI", "PG"]],
      ["LDC", ["LDC"]],
    ]) {
      const given = codes.map(third).find(Boolean);
      if (!given) special[program] = [];
      else if (given[1]) special[program] = given[1];
    }
    if (third("CA")?.[1]) special.CA = third("CA")[1];
    for (const p of Object.keys(special))
      if (!(p in programs.programs)) throw new Error(`AU programme ${p} not in au-programs.json`);
    yield [
      "AU",
      code,
      AU_FROM,
      null,
      description,
      null,
      null,
      "AUD",
      generalText,
      json(general),
      null,
      null,
      cellText,
      json(special),
    ];
  }
}

/**
 * The date Canada's lines are taken to hold from: the 2026 edition of the schedule (T2026), whose revision 3 is the
 * copy read (amendments to 2026-09-01 included).
 */
const CA_FROM = "2026-01-01";

/**
 * Canada's tariff items: the MFN rate, the General Tariff (column 2: goods of the countries denied the MFN Tariff),
 * and per preferential treatment the rate its originating goods pay; a treatment with no rate on the item is absent
 * (the MFN stands).
 */
function* canada(ca, programs, keep) {
  for (const [code, description, mfnText, mfn, general, prefs] of ca.rows) {
    if (!keep(code)) continue;
    const special = {};
    for (const [name, [, comps]] of Object.entries(prefs)) {
      if (!(name in programs.programs)) throw new Error(`CA treatment ${name} not in ca-programs.json`);
      if (comps) special[name] = comps;
    }
    const specialText = Object.entries(prefs)
      .map(([name, [text]]) => `${name}: ${text}`)
      .join("; ");
    yield [
      "CA",
      code,
      CA_FROM,
      null,
      description,
      null,
      null,
      "CAD",
      mfnText,
      json(mfn),
      general?.[0] ?? null,
      json(general?.[1] ?? null),
      specialText || null,
      json(special),
    ];
  }
}

/** Japan's 9-digit lines: the rate applied to WTO members, and each partnership agreement's rate on the line. */
function* japan(jp, keep) {
  for (const [code, description, mfnText, mfn, specialText, special] of jp.rows) {
    if (!keep(code)) continue;
    yield [
      "JP",
      code,
      JP_FROM,
      null,
      description,
      null,
      null,
      "JPY",
      mfnText,
      json(mfn),
      null,
      null,
      specialText,
      json(special),
    ];
  }
}

/**
 * The date Switzerland's lines are taken to hold from: the 2026 tariff (Tares general rates, the BAZG's revision
 * 901 copy read), in which the industrial tariffs abolished on 2024-01-01 are Free.
 */
const CH_FROM = "2026-01-01";

/**
 * Switzerland's 8-digit tariff numbers: the general rate, specific (per 100 kg gross or per piece). Preferential
 * rates (the free trade agreements, the GSP) are not in the copy read: the engine says so on a dutiable line.
 */
function* switzerland(ch, keep) {
  for (const [code, description, generalText, general] of ch.rows) {
    if (!keep(code)) continue;
    yield [
      "CH",
      code,
      CH_FROM,
      null,
      description,
      null,
      null,
      "CHF",
      generalText,
      json(general),
      null,
      null,
      null,
      null,
    ];
  }
}

/**
 * A free port's lines at 6 digits, one per HS2022 subheading: Free, as every good but a few dutiable classes
 * enters (data/customs/free-ports.json: Singapore's liquor and tobacco, Hong Kong's four dutiable commodities);
 * those carry the duty's words and are not computed.
 */
function* freePort(schedule, hs, port, keep) {
  for (const [code, , , description] of hs) {
    if (code.length !== 6 || !keep(code)) continue;
    const dutiable = port.dutiable.find((d) => code.startsWith(d.hs_prefix));
    const [text, comps] = dutiable ? [dutiable.text, null] : ["Free", []];
    yield [
      schedule,
      code,
      port.valid_from,
      null,
      description,
      null,
      null,
      port.currency,
      text,
      json(comps),
      null,
      null,
      null,
      null,
    ];
  }
}

export async function rows({ fixture }) {
  // '' is a measure or exclusion on every product (the Section 122 surcharge): always kept.
  const keep = (code) => !fixture || code === "" || FIXTURE_CHAPTERS.includes(code.slice(0, 2));
  const us = read("tariffs/us-hts8.json");
  const ukEu = read("tariffs/uk-eu.json");
  const ch99 = read("tariffs/us-ch99.json");
  const programs = read("customs/us-programs.json");

  const lines = [];
  for (const [code, from, to, description, q1, q2, mfnText, mfn, col2Text, col2, specialText, special] of us.rows) {
    if (!keep(code)) continue;
    lines.push([
      "US",
      code,
      from,
      to,
      description,
      q1,
      q2,
      "USD",
      mfnText,
      json(mfn),
      col2Text,
      json(col2),
      specialText,
      json(special),
    ]);
  }
  for (const [code, description, ukText, uk, cetText, cet] of ukEu.rows) {
    if (!keep(code)) continue;
    lines.push([
      "GB",
      code,
      "2021-01-01",
      null,
      description,
      null,
      null,
      "GBP",
      ukText,
      json(uk),
      null,
      null,
      null,
      null,
    ]);
    lines.push([
      "EU",
      code,
      "2020-01-01",
      null,
      description,
      null,
      null,
      "EUR",
      cetText,
      json(cet),
      null,
      null,
      null,
      null,
    ]);
  }
  const measures = [];
  for (const m of ch99.measures)
    for (const prefix of m.prefixes)
      if (keep(prefix))
        measures.push([
          m.program,
          m.code,
          m.name,
          prefix,
          json(m.origins),
          json(m.origins_excluded),
          m.rate,
          m.basis,
          m.metal,
          m.valid_from,
          m.valid_to,
          json(m.metal_origin ?? null),
          m.sector ?? null,
          m.use_condition ?? null,
        ]);
  for (const row of australia(read("tariffs/au.json"), read("customs/au-programs.json"), keep)) lines.push(row);
  for (const row of japan(read("tariffs/jp.json"), keep)) lines.push(row);
  for (const row of switzerland(read("tariffs/ch.json"), keep)) lines.push(row);
  const caPrograms = read("customs/ca-programs.json");
  for (const row of canada(read("tariffs/ca.json"), caPrograms, keep)) lines.push(row);
  const hs = read("hs/hs2022.json");
  for (const [schedule, port] of Object.entries(read("customs/free-ports.json")))
    if (schedule !== "_note") for (const row of freePort(schedule, hs, port, keep)) lines.push(row);
  const exclusions = ch99.exclusions.rows.filter((r) => keep(r[3]));
  const origin = [];
  for (const [program, p] of Object.entries(programs.programs))
    for (const [country, from] of Object.entries(p.countries))
      origin.push(["US", program, p.name, country, from, null]);
  for (const [country, [from, to]] of Object.entries(programs.column2.countries))
    origin.push(["US", "column2", "Column 2 (HTSUS General Note 3(b))", country, from, to]);
  const au = read("tariffs/au.json");
  const auPrograms = read("customs/au-programs.json").programs;
  const listed = { FI: au.forum_island, LDC: au.least_developed };
  for (const [program, p] of Object.entries(auPrograms)) {
    const countries = listed[program] ? Object.fromEntries(listed[program].map((c) => [c, AU_FROM])) : p.countries;
    for (const [country, from] of Object.entries(countries)) origin.push(["AU", program, p.name, country, from, null]);
  }
  for (const [program, p] of Object.entries(caPrograms.programs))
    for (const [country, from] of Object.entries(p.countries))
      origin.push(["CA", program, p.name, country, from, caPrograms.valid_to[program]?.[country] ?? null]);
  for (const [country, [from, to]] of Object.entries(caPrograms.general_tariff.countries))
    origin.push(["CA", "column2", caPrograms.general_tariff.name, country, from, to]);
  for (const [program, p] of Object.entries(read("customs/jp-programs.json").programs))
    for (const [country, from] of Object.entries(p.countries))
      origin.push(["JP", program, p.name, country, from, null]);

  return {
    calc_tariff_lines: {
      columns: [
        "schedule",
        "code",
        "valid_from",
        "valid_to",
        "description",
        "q1",
        "q2",
        "currency",
        "mfn_text",
        "mfn",
        "col2_text",
        "col2",
        "special_text",
        "special",
      ],
      rows: lines,
    },
    calc_measures: {
      columns: [
        "program",
        "code",
        "name",
        "hs_prefix",
        "origins",
        "origins_excluded",
        "rate",
        "basis",
        "metal",
        "valid_from",
        "valid_to",
        "metal_origin",
        "sector",
        "use_condition",
      ],
      rows: measures,
    },
    calc_exclusions: { columns: ch99.exclusions.columns, rows: exclusions },
    calc_origin_programs: {
      columns: ["schedule", "program", "name", "country", "valid_from", "valid_to"],
      rows: origin,
    },
  };
}

/**
 * The registry's rows: the bundle as a whole, each schedule in it, and the US Chapter 99 measures with their
 * exclusions, so every schedule shows its own version. `tariffs-us` is also the dataset an uploaded USITC
 * edition replaces; a reload restores the bundle's.
 */
export function registryVersions(data, { fixture }) {
  const v = fixture ? `${version}+fixture` : version;
  const total = Object.values(data).reduce((n, t) => n + t.rows.length, 0);
  const lines = (schedule) => data.calc_tariff_lines.rows.filter((r) => r[0] === schedule).length;
  const part = (what) =>
    source
      .split(";")
      .find((s) => s.includes(what))
      ?.trim() ?? source;
  return [
    { dataset, version: v, source, rows: total },
    { dataset: "tariffs-us", version: v, source: `US lines of ${dataset} ${v}: ${part("USITC")}`, rows: lines("US") },
    {
      dataset: "tariffs-gb",
      version: v,
      source: `UK lines of ${dataset} ${v}: ${part("UK Global")}`,
      rows: lines("GB"),
    },
    { dataset: "tariffs-eu", version: v, source: `EU lines of ${dataset} ${v}: ${part("EU CET")}`, rows: lines("EU") },
    {
      dataset: "tariffs-au",
      version: v,
      source: `Australian lines of ${dataset} ${v}: ${part("Australia")}`,
      rows: lines("AU"),
    },
    {
      dataset: "tariffs-ca",
      version: v,
      source: `Canadian lines of ${dataset} ${v}: ${part("Canada")}`,
      rows: lines("CA"),
    },
    {
      dataset: "tariffs-jp",
      version: v,
      source: `Japanese lines of ${dataset} ${v}: ${part("Japan")}`,
      rows: lines("JP"),
    },
    {
      dataset: "tariffs-sg",
      version: v,
      source: `Singapore lines of ${dataset} ${v}: ${part("Singapore")}`,
      rows: lines("SG"),
    },
    {
      dataset: "tariffs-hk",
      version: v,
      source: `Hong Kong lines of ${dataset} ${v}: ${part("Singapore")}`,
      rows: lines("HK"),
    },
    {
      dataset: "measures-us",
      version: v,
      source: `US Chapter 99 measures and exclusions of ${dataset} ${v}: ${part("Chapter 99")}`,
      rows: data.calc_measures.rows.length + data.calc_exclusions.rows.length,
    },
  ];
}
