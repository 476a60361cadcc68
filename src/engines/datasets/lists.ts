/**
 * Parsers for the other official sanctions list formats, emitting the same entry shape as the OFAC and UN
 * parsers (sanctions.ts), each read as a stream:
 *
 * - **EU** consolidated financial sanctions list, XML 1.1 (`xmlFullSanctionsList_1_1`, namespace
 *   `http://eu.europa.ec/fpi/fsd/export`): one `<sanctionEntity>` per party, names in `<nameAlias>` attributes
 *   (`wholeName`, `strong`), `<subjectType code="person|enterprise">`, programmes on `<regulation>`, addresses,
 *   identifications (passports, SWIFT BIC, IMO…) and birth dates as attributes of their own elements.
 *   https://data.europa.eu/data/datasets/consolidated-list-of-persons-groups-and-entities-subject-to-eu-financial-sanctions
 * - **UK** Sanctions List (FCDO), XML: `<Designations>` of `<Designation>` with `<UniqueID>`, `<Names>` of
 *   `<Name>` (`Name1`…`Name6`, `NameType` "Primary Name", "Primary Name Variation" or "Alias"),
 *   `<NonLatinNames>`, `<RegimeName>`, `<IndividualEntityShip>`, `<Addresses>`.
 *   https://www.gov.uk/government/publications/the-uk-sanctions-list
 * - **US Consolidated Screening List** (trade.gov), CSV with a header row (`source`, `type`, `name`,
 *   `alt_names` and `addresses` separated by `;`, `programs`, `ids`…): the eleven export screening lists of
 *   Commerce, State and Treasury in one file. https://www.trade.gov/consolidated-screening-list
 *
 * OFAC's consolidated non-SDN list is published in the same legacy CSV layout as the SDN list and is read by
 * `ofacEntries`.
 */
import { lowQualitySegment } from "../../lib/low-quality-aliases";
import { csvRecords } from "./csv";
import type { ParseIssue, SanctionAddress, SanctionEntry } from "./sanctions";
import { type XmlNode, xmlRecords } from "./sax";

type Node = XmlNode;

const clean = (s: string | undefined | null): string | null => {
  const t = (s ?? "").replace(/\s+/g, " ").trim();
  return t === "" ? null : t;
};
const unique = <T>(a: T[]) => [...new Set(a)];

function kids(node: Node, tag: string): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    for (const c of n.children) {
      if (c.name === tag) out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}
const textOf = (n: Node): string => n.text + n.children.map(textOf).join("");
const first = (n: Node, tag: string) => {
  const k = kids(n, tag)[0];
  return k ? clean(textOf(k)) : null;
};

function compactAddress(o: Record<string, string | null>): SanctionAddress {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (v) out[k] = v;
  return out as SanctionAddress;
}

/** The records of one tag of a sanctions list XML (the shared reader of sax.ts). */
const listRecords = (
  chunks: AsyncIterable<string>,
  rootTag: string,
  recordTag: string,
  info: { generated: string | null },
) => xmlRecords(chunks, rootTag, new Set([recordTag]), info, "not a sanctions list XML");

// ------------------------------------------------------------------------------------------------- EU

function euEntry(e: Node): SanctionEntry | null {
  const ref = clean(e.attrs.euReferenceNumber) ?? clean(e.attrs.logicalId);
  const aliases = kids(e, "nameAlias");
  const strong = aliases.filter((a) => a.attrs.strong !== "false");
  const weak = aliases.filter((a) => a.attrs.strong === "false");
  const names = unique(strong.map((a) => clean(a.attrs.wholeName)).filter((n): n is string => Boolean(n)));
  const [name, ...alt] = names;
  if (!ref || !name) return null;
  const code = kids(e, "subjectType")[0]?.attrs.code;
  const ids = kids(e, "identification")
    .map((i) => {
      const number = clean(i.attrs.number);
      const what = clean(i.attrs.identificationTypeDescription) ?? clean(i.attrs.identificationTypeCode);
      return number ? `${what ?? "Identification"} ${number}` : null;
    })
    .filter(Boolean);
  const births = kids(e, "birthdate")
    .map((b) => clean(b.attrs.birthdate) ?? clean(b.attrs.year))
    .filter(Boolean);
  const citizenships = kids(e, "citizenship")
    .map((c) => clean(c.attrs.countryDescription))
    .filter(Boolean);
  const remarks = [
    ...kids(e, "remark").map((r) => clean(textOf(r))),
    births.length ? `DOB ${births.join(", ")}` : null,
    citizenships.length ? `Citizenship ${unique(citizenships).join(", ")}` : null,
    ids.length ? ids.join("; ") : null,
    lowQualitySegment(weak.map((a) => clean(a.attrs.wholeName)).filter((n): n is string => Boolean(n))),
  ].filter(Boolean);
  return {
    ref,
    name,
    alt_names: alt,
    type: code === "person" ? "individual" : code === "enterprise" ? "entity" : "unknown",
    programs: unique(
      kids(e, "regulation")
        .map((r) => clean(r.attrs.programme))
        .filter((p): p is string => Boolean(p)),
    ),
    addresses: kids(e, "address")
      .map((a) =>
        compactAddress({
          address: clean(a.attrs.street),
          city: clean(a.attrs.city),
          postal_code: clean(a.attrs.zipCode),
          country: clean(a.attrs.countryDescription),
          note: clean(a.attrs.place),
        }),
      )
      .filter((a) => Object.keys(a).length > 0),
    remarks: remarks.join("; ") || null,
  };
}

/** The EU consolidated list; `info.generated` gets the file's `generationDate`. */
export async function* euEntries(
  chunks: AsyncIterable<string>,
  info: { generated: string | null } = { generated: null },
  issues: ParseIssue[] = [],
): AsyncGenerator<SanctionEntry> {
  let n = 0;
  for await (const node of listRecords(chunks, "export", "sanctionEntity", info)) {
    n++;
    const entry = euEntry(node);
    if (entry) yield entry;
    else issues.push({ record: n, message: "sanctionEntity without a reference or a strong name" });
  }
}

// ------------------------------------------------------------------------------------------------- UK

function ukName(n: Node): string | null {
  const parts = ["Name1", "Name2", "Name3", "Name4", "Name5"].map((t) => first(n, t)).filter(Boolean);
  const last = first(n, "Name6");
  return clean([...parts, last].filter(Boolean).join(" "));
}

function ukEntry(d: Node): SanctionEntry | null {
  const ref = first(d, "UniqueID");
  const names = kids(d, "Name").map((n) => ({ name: ukName(n), type: (first(n, "NameType") ?? "").toLowerCase() }));
  const primary = names.find((n) => n.type === "primary name")?.name ?? names[0]?.name ?? null;
  if (!ref || !primary) return null;
  const nonLatin = kids(d, "NameNonLatinScript").map((n) => clean(textOf(n)));
  const kind = (first(d, "IndividualEntityShip") ?? "").toLowerCase();
  const imo = kids(d, "IMONumber")
    .map((n) => clean(textOf(n)))
    .filter(Boolean);
  const remarks = [
    first(d, "DateDesignated") && `Designated ${first(d, "DateDesignated")}`,
    first(d, "UNReferenceNumber") && `UN reference ${first(d, "UNReferenceNumber")}`,
    kids(d, "DOB").length
      ? `DOB ${kids(d, "DOB")
          .map((x) => clean(textOf(x)))
          .filter(Boolean)
          .join(", ")}`
      : null,
    kids(d, "Nationality").length
      ? `Nationality ${kids(d, "Nationality")
          .map((x) => clean(textOf(x)))
          .filter(Boolean)
          .join(", ")}`
      : null,
    imo.length ? imo.map((i) => `IMO ${i}`).join("; ") : null,
    first(d, "SanctionsImposed") && `Sanctions imposed: ${first(d, "SanctionsImposed")}`,
    first(d, "OtherInformation"),
  ].filter(Boolean);
  return {
    ref,
    name: primary,
    alt_names: unique([...names.map((n) => n.name), ...nonLatin].filter((n): n is string => Boolean(n))).filter(
      (n) => n !== primary,
    ),
    type: kind === "individual" ? "individual" : kind === "ship" ? "vessel" : kind === "entity" ? "entity" : "unknown",
    programs: [first(d, "RegimeName")].filter((p): p is string => Boolean(p)),
    addresses: kids(d, "Address")
      .map((a) =>
        compactAddress({
          address: clean(
            ["AddressLine1", "AddressLine2", "AddressLine3", "AddressLine4"]
              .map((t) => first(a, t))
              .filter(Boolean)
              .join(", "),
          ),
          city: first(a, "AddressLine5") ?? first(a, "AddressLine6"),
          postal_code: first(a, "AddressPostalCode"),
          country: first(a, "AddressCountry"),
        }),
      )
      .filter((a) => Object.keys(a).length > 0),
    remarks: remarks.join("; ") || null,
  };
}

/** The UK Sanctions List; `info.generated` gets the file's `<DateGenerated>`. */
export async function* ukEntries(
  chunks: AsyncIterable<string>,
  info: { generated: string | null } = { generated: null },
  issues: ParseIssue[] = [],
): AsyncGenerator<SanctionEntry> {
  let n = 0;
  for await (const node of listRecords(chunks, "Designations", "Designation", info)) {
    n++;
    const entry = ukEntry(node);
    if (entry) yield entry;
    else issues.push({ record: n, message: "Designation without a UniqueID or a name" });
  }
}

// ------------------------------------------------------------------------------------------------ CSL

const split = (v: string | undefined) =>
  (v ?? "")
    .split(";")
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * The US Consolidated Screening List CSV. Its entries come from several lists, so `programs` carries the
 * source list (e.g. "Entity List (EL) - Bureau of Industry and Security") before the programmes.
 */
export async function* cslEntries(
  chunks: AsyncIterable<string>,
  issues: ParseIssue[] = [],
): AsyncGenerator<SanctionEntry> {
  let header: string[] | null = null;
  let n = 0;
  for await (const r of csvRecords(chunks)) {
    n++;
    if (r.every((c) => c.trim() === "")) continue;
    if (!header) {
      header = r.map((c) => c.trim().replace(/^\uFEFF/, ""));
      for (const need of ["source", "type", "name"])
        if (!header.includes(need)) throw new Error(`not a Consolidated Screening List CSV: no "${need}" column`);
      continue;
    }
    const row: Record<string, string> = {};
    header.forEach((h, i) => {
      row[h] = r[i] ?? "";
    });
    const name = clean(row.name);
    const ref = clean(row._id) ?? clean(row.id) ?? clean(row.entity_number);
    if (!name || !ref) {
      issues.push({ record: n, message: "row without a name or an id" });
      continue;
    }
    const type = (row.type ?? "").toLowerCase();
    const ids = split(row.ids);
    yield {
      ref,
      name,
      alt_names: unique(split(row.alt_names)).filter((a) => a !== name),
      type:
        type === "individual"
          ? "individual"
          : type === "vessel"
            ? "vessel"
            : type === "aircraft"
              ? "aircraft"
              : type === "entity"
                ? "entity"
                : "unknown",
      programs: unique([clean(row.source), ...split(row.programs)].filter((p): p is string => Boolean(p))),
      addresses: split(row.addresses).map((a) => ({ address: a })),
      remarks:
        [clean(row.remarks), clean(row.federal_register_notice), ids.length ? ids.join("; ") : null, clean(row.title)]
          .filter(Boolean)
          .join("; ") || null,
    };
  }
  if (!header) throw new Error("not a Consolidated Screening List CSV: the file is empty");
}
