/**
 * OFAC's advanced sanctions data (`SDN_ADVANCED.XML`, and `CONS_ADVANCED.XML` for the non-SDN lists), in the
 * Sanctions Data Standard layout OFAC publishes with the legacy CSVs
 * (https://ofac.treasury.gov/specially-designated-nationals-list-data-formats-data-schemas), read as a stream
 * into the same entry shape as the legacy files (sanctions.ts), so a list may be loaded from either.
 *
 * The file is a set of cross-referenced tables: `ReferenceValueSets` (id → label: party types, alias and name
 * part types, scripts, feature types, countries, document types, sanctions types), `Locations`,
 * `IDRegDocuments` (passports, registration numbers... by identity), `DistinctParties` (one per listed party,
 * `FixedRef` = the legacy `ent_num`), and `SanctionsEntries` (the programmes per profile), which comes last. The
 * parties are therefore kept (as small entries) until the programmes are read, then yielded; nothing else of
 * the file is held.
 *
 * Per party: the primary alias's Latin-script name is `name` (an individual's written "LAST, First Middle" as
 * in the legacy `sdn.csv`); the same alias in other scripts and every other strong alias (a.k.a., f.k.a.,
 * n.k.a.) in every script are `alt_names`; low-quality aliases go to the remarks (matched only as written, as in
 * the UN and EU parsers; lib/low-quality-aliases.ts); `Location` features are the addresses; the other features (birth date, place of birth,
 * nationality, vessel particulars...) and the identity documents are written in the remarks as the legacy
 * files write them ("DOB 1948-12-10; Passport 1084010 (Egypt)"), so identifiers are indexed the same way.
 */
import { lowQualitySegment } from "../../lib/low-quality-aliases";
import type { ParseIssue, SanctionAddress, SanctionEntry } from "./sanctions";
import { type XmlNode, xmlRecords } from "./sax";

type Node = XmlNode;

const kids = (n: Node | undefined, name: string) => (n ? n.children.filter((c) => c.name === name) : []);
const kid = (n: Node | undefined, name: string) => n?.children.find((c) => c.name === name);
const text = (n: Node | undefined) => (n?.text ?? "").replace(/\s+/g, " ").trim();

/** Elements read whole (each small): the date, reference values, locations, documents, parties, entries. */
const CAPTURED = new Set([
  "DateOfIssue",
  "ReferenceValueSets",
  "Location",
  "IDRegDocument",
  "DistinctParty",
  "SanctionsEntry",
]);

interface Reference {
  /** `<XValues><X ID="1">label</X>…`: per set name (`PartyType`, `AliasType`…), id → label. */
  labels: Map<string, Map<string, string>>;
  /** Script id → ISO 15924 code (`Latn`, `Cyrl`, `Arab`…). */
  scriptCodes: Map<string, string>;
  /** Party subtype id → party type id. */
  partyTypeOf: Map<string, string>;
}

const label = (ref: Reference, set: string, id: string | undefined) => (id ? ref.labels.get(set)?.get(id) : undefined);

function readReference(node: Node): Reference {
  const ref: Reference = { labels: new Map(), scriptCodes: new Map(), partyTypeOf: new Map() };
  for (const set of node.children) {
    for (const item of set.children) {
      const id = item.attrs.ID;
      if (!id) continue;
      const labels = ref.labels.get(item.name) ?? new Map<string, string>();
      labels.set(id, text(item));
      ref.labels.set(item.name, labels);
      if (item.name === "Script" && item.attrs.ScriptCode) ref.scriptCodes.set(id, item.attrs.ScriptCode);
      if (item.name === "PartySubType" && item.attrs.PartyTypeID) ref.partyTypeOf.set(id, item.attrs.PartyTypeID);
    }
  }
  return ref;
}

/** A location as an address: its parts by type (address lines, city, state, postal code) and its country. */
function readLocation(node: Node, ref: Reference): SanctionAddress {
  const parts = new Map<string, string[]>();
  for (const p of kids(node, "LocationPart")) {
    const type = (label(ref, "LocPartType", p.attrs.LocPartTypeID) ?? "").toUpperCase();
    const value = text(kid(kid(p, "LocationPartValue"), "Value"));
    if (value) parts.set(type, [...(parts.get(type) ?? []), value]);
  }
  const of = (...types: string[]) => types.flatMap((t) => parts.get(t) ?? []).join(", ") || undefined;
  const country = label(ref, "Country", kid(node, "LocationCountry")?.attrs.CountryID);
  const out: SanctionAddress = {};
  const address = of("ADDRESS1", "ADDRESS2", "ADDRESS3");
  const city = of("CITY");
  const state = of("STATE/PROVINCE");
  const postal = of("POSTAL CODE");
  const region = of("REGION");
  if (address) out.address = address;
  if (city) out.city = city;
  if (state) out.state = state;
  if (postal) out.postal_code = postal;
  if (country) out.country = country;
  if (region) out.note = region;
  return out;
}

/** "DatePeriod": the start's `From` as YYYY[-MM[-DD]], a range when start and end differ. */
function readDate(period: Node | undefined): string | null {
  if (!period) return null;
  const one = (n: Node | undefined) => {
    const y = text(kid(n, "Year"));
    if (!y) return null;
    const m = text(kid(n, "Month"));
    const d = text(kid(n, "Day"));
    const pad = (v: string) => v.padStart(2, "0");
    return `${y}${m ? `-${pad(m)}${d ? `-${pad(d)}` : ""}` : ""}`;
  };
  const from = one(kid(kid(period, "Start"), "From"));
  const to = one(kid(kid(period, "End"), "To"));
  if (!from) return to;
  return to && to !== from ? `${from} to ${to}` : from;
}

interface Parsed {
  entry: SanctionEntry;
  profileId: string;
}

const INDIVIDUAL_ORDER = ["Last Name", "First Name", "Middle Name", "Patronymic", "Matronymic"];

/** A documented name's parts in the legacy layout: "LAST, First Middle" for an individual, else in order. */
function formatName(parts: { type: string; value: string }[], individual: boolean): string {
  if (!individual) return parts.map((p) => p.value).join(" ");
  const of = (t: string) => parts.filter((p) => p.type === t).map((p) => p.value);
  const last = of("Last Name");
  const given = INDIVIDUAL_ORDER.slice(1).flatMap(of);
  const rest = parts.filter((p) => !INDIVIDUAL_ORDER.includes(p.type)).map((p) => p.value);
  const head = last.length && given.length ? `${last.join(" ")}, ${given.join(" ")}` : [...last, ...given].join(" ");
  return [head, ...rest].filter(Boolean).join(" ");
}

const FEATURE_LABELS: Record<string, string> = {
  Birthdate: "DOB",
  "Place of Birth": "POB",
  "Nationality Country": "nationality",
  "Citizenship Country": "citizen",
};

function readParty(
  node: Node,
  ref: Reference,
  locations: Map<string, SanctionAddress>,
  documents: Map<string, string[]>,
): Parsed | null {
  const profile = kid(node, "Profile");
  const fixedRef = node.attrs.FixedRef;
  if (!profile || !fixedRef) return null;
  const partyType = (
    label(ref, "PartyType", ref.partyTypeOf.get(profile.attrs.PartySubTypeID ?? "")) ?? ""
  ).toLowerCase();
  const type: SanctionEntry["type"] =
    partyType === "individual" || partyType === "vessel" || partyType === "aircraft"
      ? partyType
      : partyType === "entity"
        ? "entity"
        : "unknown";
  const identities = kids(profile, "Identity").sort(
    (a, b) => Number(b.attrs.Primary === "true") - Number(a.attrs.Primary === "true"),
  );
  let name = "";
  const strong: string[] = [];
  const weak: string[] = [];
  const remarks: string[] = [];
  for (const identity of identities) {
    const groups = new Map<string, string>();
    for (const g of kids(kid(identity, "NamePartGroups"), "MasterNamePartGroup").flatMap((m) =>
      kids(m, "NamePartGroup"),
    ))
      if (g.attrs.ID) groups.set(g.attrs.ID, label(ref, "NamePartType", g.attrs.NamePartTypeID) ?? "");
    const aliases = kids(identity, "Alias").sort(
      (a, b) => Number(b.attrs.Primary === "true") - Number(a.attrs.Primary === "true"),
    );
    for (const alias of aliases) {
      const names = kids(alias, "DocumentedName").map((dn) => {
        const parts = kids(dn, "DocumentedNamePart").flatMap((p) =>
          kids(p, "NamePartValue").map((v) => ({
            type: groups.get(v.attrs.NamePartGroupID ?? "") ?? "",
            script: ref.scriptCodes.get(v.attrs.ScriptID ?? "") ?? "",
            value: text(v),
          })),
        );
        return {
          text: formatName(
            parts.filter((p) => p.value),
            type === "individual",
          ),
          latin: parts.every((p) => p.script === "" || p.script === "Latn"),
        };
      });
      const written = names.filter((n) => n.text);
      if (!written.length) continue;
      if (alias.attrs.LowQuality === "true") {
        weak.push(...written.map((n) => n.text));
        continue;
      }
      if (!name && alias.attrs.Primary === "true" && identity === identities[0]) {
        const primary = written.find((n) => n.latin) ?? written[0];
        name = primary?.text ?? "";
      }
      strong.push(...written.map((n) => n.text));
    }
    remarks.push(...(documents.get(identity.attrs.ID ?? "") ?? []));
  }
  if (!name) name = strong[0] ?? "";
  if (!name) return null;
  const { addresses, features } = readFeatures(profile, ref, locations);
  const notes = kid(node, "Comment");
  const remarkText = [...features, ...remarks, text(notes) || null, lowQualitySegment(weak)].filter(Boolean);
  return {
    profileId: profile.attrs.ID ?? fixedRef,
    entry: {
      ref: fixedRef,
      name,
      alt_names: [...new Set(strong)].filter((n) => n !== name),
      type,
      programs: [],
      addresses,
      remarks: remarkText.length ? remarkText.join("; ") : null,
    },
  };
}

/**
 * A profile's features: `Location` ones are its addresses; the others (birth date, place of birth, nationality,
 * vessel particulars...) are written for the remarks as "DOB 1951-06-19", "POB Giza, Egypt".
 */
function readFeatures(
  profile: Node,
  ref: Reference,
  locations: Map<string, SanctionAddress>,
): { addresses: SanctionAddress[]; features: string[] } {
  const addresses: SanctionAddress[] = [];
  const features: string[] = [];
  for (const f of kids(profile, "Feature")) {
    const fType = label(ref, "FeatureType", f.attrs.FeatureTypeID) ?? "";
    for (const v of kids(f, "FeatureVersion")) {
      const located = kids(v, "VersionLocation")
        .map((l) => locations.get(l.attrs.LocationID ?? ""))
        .filter((l): l is SanctionAddress => !!l && Object.keys(l).length > 0);
      if (fType === "Location") {
        addresses.push(...located);
        continue;
      }
      const value =
        kids(v, "VersionDetail")
          .map((d) => text(d) || label(ref, "DetailReference", d.attrs.DetailReferenceID) || "")
          .filter(Boolean)
          .join(", ") ||
        located.map((l) => [l.city, l.state, l.country].filter(Boolean).join(", ")).join("; ") ||
        readDate(kid(v, "DatePeriod"));
      if (value) features.push(`${FEATURE_LABELS[fType] ?? fType} ${value}`);
    }
  }
  return { addresses, features };
}

/** The programmes of one sanctions entry: its measures of the "Program" sanctions type. */
function readPrograms(node: Node, ref: Reference): string[] {
  return kids(node, "SanctionsMeasure")
    .filter((m) => (label(ref, "SanctionsType", m.attrs.SanctionsTypeID) ?? "").toLowerCase() === "program")
    .map((m) => text(kid(m, "Comment")))
    .filter(Boolean);
}

/**
 * The entries of an advanced XML file as a stream of text chunks (yielded once its last table is read). A
 * party without a name is skipped and reported; a document that is not OFAC's advanced XML is refused.
 */
export async function* ofacAdvancedEntries(
  chunks: AsyncIterable<string>,
  issues: ParseIssue[] = [],
  info: { dateOfIssue: string | null } = { dateOfIssue: null },
): AsyncGenerator<SanctionEntry> {
  let ref: Reference = { labels: new Map(), scriptCodes: new Map(), partyTypeOf: new Map() };
  const locations = new Map<string, SanctionAddress>();
  const documents = new Map<string, string[]>();
  const parsed: Parsed[] = [];
  const programs = new Map<string, string[]>();
  let record = 0;
  const records = xmlRecords(chunks, "Sanctions", CAPTURED, { generated: null }, "not an OFAC advanced XML file");
  // The parties wait for the programmes at the end of the file: nothing is yielded before it is read.
  for await (const node of records) {
    try {
      if (node.name === "DateOfIssue") {
        const [y, m, d] = ["Year", "Month", "Day"].map((t) => text(kid(node, t)));
        if (y) info.dateOfIssue = `${y}-${(m || "1").padStart(2, "0")}-${(d || "1").padStart(2, "0")}`;
      } else if (node.name === "ReferenceValueSets") ref = readReference(node);
      else if (node.name === "Location" && node.attrs.ID) locations.set(node.attrs.ID, readLocation(node, ref));
      else if (node.name === "IDRegDocument") {
        const identity = node.attrs.IdentityID ?? "";
        const type = label(ref, "IDRegDocType", node.attrs.IDRegDocTypeID) ?? "Identification";
        const number = text(kid(node, "IDRegistrationNo"));
        const country = label(ref, "Country", node.attrs["IssuedBy-CountryID"]);
        if (number)
          documents.set(identity, [
            ...(documents.get(identity) ?? []),
            `${type} ${number}${country ? ` (${country})` : ""}`,
          ]);
      } else if (node.name === "DistinctParty") {
        record++;
        const p = readParty(node, ref, locations, documents);
        if (p) parsed.push(p);
        else issues.push({ record, message: `DistinctParty ${node.attrs.FixedRef ?? "?"}: no name` });
      } else if (node.name === "SanctionsEntry" && node.attrs.ProfileID)
        programs.set(node.attrs.ProfileID, [...(programs.get(node.attrs.ProfileID) ?? []), ...readPrograms(node, ref)]);
    } catch (err) {
      issues.push({ record, message: (err as Error).message });
    }
  }
  for (const p of parsed) yield { ...p.entry, programs: [...new Set(programs.get(p.profileId) ?? [])] };
}
