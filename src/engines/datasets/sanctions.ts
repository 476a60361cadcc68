/**
 * Parsers for the sanctions lists as their publishers publish them, shared by the dataset registry (uploads
 * and the scheduled fetch, in the Worker) and the build script that derives data/sanctions (in Node):
 *
 * - OFAC SDN legacy CSV: `sdn.csv` (primary rows), `alt.csv` (aliases), `add.csv` (addresses); no header,
 *   `-0-` for empty. https://ofac.treasury.gov/specially-designated-nationals-list-data-formats-data-schemas
 * - UN Security Council consolidated list XML (`consolidated.xml`, schema sc-sanctions.xsd), read as a stream
 *   with saxes, so a file of any size needs memory for one entry at a time.
 *
 * What is derived how (types, programs, strong and weak aliases, remarks) is documented in
 * data/sanctions/SOURCE.md; both parsers emit the same entry shape, one entry per listed party.
 */
import { SaxesParser } from "saxes";
import { lowQualitySegment } from "../../lib/low-quality-aliases";
import { csvRecords } from "./csv";
import { saxStream } from "./sax";

type SanctionEntryType = "individual" | "entity" | "vessel" | "aircraft" | "unknown";

export interface SanctionAddress {
  address?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  note?: string;
}

export interface SanctionEntry {
  ref: string;
  name: string;
  alt_names: string[];
  type: SanctionEntryType;
  programs: string[];
  addresses: SanctionAddress[];
  remarks: string | null;
}

/** A problem with one record: the parser skips it and the validation report lists it. */
export interface ParseIssue {
  record: number;
  message: string;
}

const unique = <T>(a: T[]) => [...new Set(a)];

function compact<T extends Record<string, string | null | undefined>>(o: T): SanctionAddress {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && v !== "") out[k] = v;
  return out as SanctionAddress;
}

// ------------------------------------------------------------------------------------------------ OFAC

const nul = (v: string | undefined): string | null => {
  const s = (v ?? "").trim();
  return s === "" || s === "-0-" ? null : s;
};

function programsOf(raw: string | undefined): string[] {
  const s = nul(raw);
  if (!s) return [];
  return unique(
    s
      .split(/\]\s*\[/)
      .map((p) => p.replace(/[[\]]/g, "").trim())
      .filter(Boolean),
  );
}

interface Alias {
  num: number;
  type: string;
  name: string;
}

/**
 * The OFAC trio. `alt` and `add` are read whole first (they are keyed by `ent_num` and much smaller than the
 * primary file); `sdn` streams. Records of one field are skipped: the legacy files end with a DOS end-of-file
 * byte (0x1A) on a line of its own.
 */
export async function* ofacEntries(files: {
  sdn: AsyncIterable<string>;
  alt?: AsyncIterable<string> | undefined;
  add?: AsyncIterable<string> | undefined;
  issues?: ParseIssue[];
  /** Said in the remarks of entries known only from their alias rows (the primary file's date). */
  sdnDate?: string | undefined;
  /** The alias file's date, said in the same remarks. */
  altDate?: string | undefined;
}): AsyncGenerator<SanctionEntry> {
  const issues = files.issues ?? [];
  const aliases = new Map<string, Alias[]>();
  if (files.alt) {
    let n = 0;
    for await (const r of csvRecords(files.alt)) {
      n++;
      if (r.length <= 1) continue;
      if (r.length < 4) {
        issues.push({ record: n, message: `alt.csv: ${r.length} fields, expected 5` });
        continue;
      }
      const [ent, num, type, name] = r as [string, string, string, string];
      const nm = nul(name);
      if (!nm) continue;
      const list = aliases.get(ent) ?? [];
      list.push({ num: Number(num), type: nul(type) ?? "aka", name: nm });
      aliases.set(ent, list);
    }
  }
  const addresses = new Map<string, { num: number; a: SanctionAddress }[]>();
  if (files.add) {
    let n = 0;
    for await (const r of csvRecords(files.add)) {
      n++;
      if (r.length <= 1) continue;
      if (r.length < 5) {
        issues.push({ record: n, message: `add.csv: ${r.length} fields, expected 6` });
        continue;
      }
      const [ent, num, street, city, country, remarks] = r as [string, string, string, string, string, string];
      const a = compact({ address: nul(street), city: nul(city), country: nul(country), note: nul(remarks) });
      if (Object.keys(a).length === 0) continue;
      const list = addresses.get(ent) ?? [];
      list.push({ num: Number(num), a });
      addresses.set(ent, list);
    }
  }
  const addressesOf = (ent: string) => (addresses.get(ent) ?? []).sort((x, y) => x.num - y.num).map((x) => x.a);
  const aliasNames = (list: Alias[], exclude: string) =>
    unique(list.sort((x, y) => x.num - y.num).map((x) => x.name)).filter((n) => n !== exclude);

  const seen = new Set<string>();
  let n = 0;
  for await (const r of csvRecords(files.sdn)) {
    n++;
    if (r.length <= 1) continue;
    const [ent, rawName, type, program, title, callSign, vessType, tonnage, grt, flag, owner, remarks] = r;
    const name = (rawName ?? "").trim();
    if (r.length < 12 || !ent || !/^\d+$/.test(ent.trim()) || !name) {
      issues.push({ record: n, message: `sdn.csv: not an SDN record (${r.length} fields, ent_num ${ent ?? "-"})` });
      continue;
    }
    seen.add(ent);
    const extra: string[] = [];
    if (nul(title)) extra.push(`Title: ${nul(title)}`);
    const vessel = [
      nul(vessType) && `type ${nul(vessType)}`,
      nul(flag) && `flag ${nul(flag)}`,
      nul(callSign) && `call sign ${nul(callSign)}`,
      nul(tonnage) && `tonnage ${nul(tonnage)}`,
      nul(grt) && `GRT ${nul(grt)}`,
      nul(owner) && `owner ${nul(owner)}`,
    ].filter(Boolean);
    if (vessel.length) extra.push(`Vessel: ${vessel.join(", ")}`);
    const t = nul(type)?.toLowerCase();
    yield {
      ref: ent,
      name,
      alt_names: aliasNames(aliases.get(ent) ?? [], name),
      type: t === "individual" || t === "vessel" || t === "aircraft" ? t : "entity",
      programs: programsOf(program),
      addresses: addressesOf(ent),
      remarks: [nul(remarks), ...extra].filter(Boolean).join("; ") || null,
    };
  }

  // Aliases whose primary row is missing (alt.csv newer than sdn.csv): real designations, kept under their
  // current alias ("nka" first, then "aka", then "fka", lowest alt_num within each); type and programs unknown.
  const rank: Record<string, number> = { nka: 0, aka: 1, fka: 2 };
  for (const [ent, list] of [...aliases].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    if (seen.has(ent)) continue;
    const ordered = [...list].sort((x, y) => (rank[x.type] ?? 3) - (rank[y.type] ?? 3) || x.num - y.num);
    const name = (ordered[0] as Alias).name;
    yield {
      ref: ent,
      name,
      alt_names: aliasNames(list, name),
      type: "unknown",
      programs: [],
      addresses: addressesOf(ent),
      remarks:
        `Primary record not in the SDN file${files.sdnDate ? ` of ${files.sdnDate}` : ""} (designated or changed ` +
        `later); name taken from its alias rows${files.altDate ? ` of ${files.altDate}` : ""}; type and programs unknown.`,
    };
  }
}

// -------------------------------------------------------------------------------------------------- UN

interface XmlNode {
  name: string;
  children: XmlNode[];
  text: string;
}

function descendants(node: XmlNode, tag: string, out: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    if (c.name === tag) out.push(c);
    descendants(c, tag, out);
  }
  return out;
}

/** All text under a node, in document order (an element's own text and its children's). */
function textOf(node: XmlNode): string {
  return node.children.length === 0 ? node.text : node.text + node.children.map(textOf).join("");
}

const clean = (s: string): string | null => {
  const t = s.replace(/\s+/g, " ").trim();
  return t === "" ? null : t;
};
const all = (node: XmlNode, tag: string) => descendants(node, tag);
const one = (node: XmlNode, tag: string): string | null => {
  const n = descendants(node, tag)[0];
  return n ? clean(textOf(n)) : null;
};

function unEntry(b: XmlNode, kind: "INDIVIDUAL" | "ENTITY"): SanctionEntry | null {
  const type = kind === "INDIVIDUAL" ? "individual" : "entity";
  const name = ["FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME"]
    .map((t) => one(b, t))
    .filter(Boolean)
    .join(" ");
  const ref = one(b, "REFERENCE_NUMBER");
  if (!ref || !name) return null;
  const strong: string[] = [];
  const weak: string[] = [];
  for (const a of all(b, `${kind}_ALIAS`)) {
    const n = one(a, "ALIAS_NAME");
    if (!n) continue;
    if ((one(a, "QUALITY") ?? "").toLowerCase() === "low") weak.push(n);
    else strong.push(n);
  }
  const original = one(b, "NAME_ORIGINAL_SCRIPT");
  if (original) strong.push(original);
  const addresses = all(b, `${kind}_ADDRESS`)
    .map((a) =>
      compact({
        address: one(a, "STREET"),
        city: one(a, "CITY"),
        state: one(a, "STATE_PROVINCE"),
        postal_code: one(a, "ZIP_CODE"),
        country: one(a, "COUNTRY"),
        note: one(a, "NOTE"),
      }),
    )
    .filter((a) => Object.keys(a).length > 0);
  const listValues = (tag: string) =>
    all(b, tag)
      .flatMap((v) => all(v, "VALUE").map((x) => clean(textOf(x))))
      .filter((v): v is string => Boolean(v));
  const dobs = all(b, "INDIVIDUAL_DATE_OF_BIRTH")
    .map(
      (d) =>
        one(d, "DATE") ??
        one(d, "YEAR") ??
        (one(d, "FROM_YEAR") ? `${one(d, "FROM_YEAR")}-${one(d, "TO_YEAR")}` : null),
    )
    .filter(Boolean);
  const remarks = [
    one(b, "LISTED_ON") && `Listed on ${one(b, "LISTED_ON")}`,
    dobs.length && `DOB ${dobs.join(", ")}`,
    listValues("NATIONALITY").length && `Nationality ${listValues("NATIONALITY").join(", ")}`,
    listValues("TITLE").length && `Title ${listValues("TITLE").join(", ")}`,
    listValues("DESIGNATION").length && `Designation ${listValues("DESIGNATION").join(", ")}`,
    lowQualitySegment(weak),
    // Identity documents, as OFAC writes them ("Passport 1084010 (Egypt)"), so screening indexes them too.
    ...all(b, "INDIVIDUAL_DOCUMENT").flatMap((d) => {
      const number = one(d, "NUMBER");
      if (!number) return [];
      const country = one(d, "ISSUING_COUNTRY") ?? one(d, "COUNTRY_OF_ISSUE");
      return [`${one(d, "TYPE_OF_DOCUMENT") ?? "Document"} ${number}${country ? ` (${country})` : ""}`];
    }),
    one(b, "COMMENTS1"),
  ].filter(Boolean);
  return {
    ref,
    name,
    alt_names: unique(strong).filter((n) => n !== name),
    type,
    programs: [one(b, "UN_LIST_TYPE")].filter((p): p is string => Boolean(p)),
    addresses,
    remarks: remarks.join("; ") || null,
  };
}

/** What a UN file says of itself besides its entries. */
export interface UnListInfo {
  /** The root's `dateGenerated` (ISO timestamp), or null when the file does not carry one. */
  dateGenerated: string | null;
}

/**
 * The entries of a UN consolidated list, in document order, as each `<INDIVIDUAL>` or `<ENTITY>` closes. A
 * document whose root is not `CONSOLIDATED_LIST` is refused at its first element; malformed XML throws.
 */
export async function* unEntries(
  chunks: AsyncIterable<string>,
  info: UnListInfo = { dateGenerated: null },
  issues: ParseIssue[] = [],
): AsyncGenerator<SanctionEntry> {
  const parser = new SaxesParser();
  const ready: SanctionEntry[] = [];
  const stack: XmlNode[] = [];
  let depth = 0;
  let records = 0;
  let rootSeen = false;
  let error: Error | null = null;
  parser.on("error", (e) => {
    error ??= e;
  });
  parser.on("opentag", (tag) => {
    depth++;
    if (depth === 1) {
      rootSeen = true;
      if (tag.name !== "CONSOLIDATED_LIST")
        error ??= new Error(`not a UN consolidated list: the root element is <${tag.name}>`);
      const generated = tag.attributes.dateGenerated;
      info.dateGenerated = typeof generated === "string" ? generated : null;
      return;
    }
    const inEntry = stack.length > 0;
    if (inEntry || ((tag.name === "INDIVIDUAL" || tag.name === "ENTITY") && depth === 3)) {
      const node: XmlNode = { name: tag.name, children: [], text: "" };
      if (inEntry) (stack[stack.length - 1] as XmlNode).children.push(node);
      stack.push(node);
    }
  });
  parser.on("text", (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.on("closetag", () => {
    depth--;
    if (stack.length === 0) return;
    const node = stack.pop() as XmlNode;
    if (stack.length > 0) return;
    records++;
    const entry = unEntry(node, node.name as "INDIVIDUAL" | "ENTITY");
    if (entry) ready.push(entry);
    else issues.push({ record: records, message: `${node.name} without a REFERENCE_NUMBER or a name` });
  });
  const finish = { failure: () => error, rooted: () => rootSeen, what: "not a UN consolidated list" };
  yield* saxStream(parser, chunks, ready, finish);
}

// ------------------------------------------------------------------------------------------------ hash

/**
 * A 53-bit hash of what an entry says (cyrb53), so a new list version is diffed against the active one by
 * comparing (id, hash) pairs instead of reading every row. Not for security: a collision only hides a change
 * from the diff's count.
 */
export function entryHash(e: SanctionEntry): string {
  return hash53(JSON.stringify([e.name, e.alt_names, e.type, e.programs, e.addresses, e.remarks]));
}

/** cyrb53: a fast 53-bit string hash, in base 36. */
export function hash53(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
