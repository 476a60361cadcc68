/**
 * The consignment as an amendable document, and the merge an amend applies to it (pure: no storage).
 *
 * The document is the create body the stored rows stand for (`documentOf`), with the ids of parcels, orders
 * and items on their elements. A patch merges into it as JSON Merge Patch (RFC 7396: objects merge key by
 * key, `null` removes a key, other values replace), except for the identified lists `parcels`, `orders` and
 * `items`: such a list in a patch is the complete new list, and an element that names an existing `id` is
 * itself a merge patch of that parcel, order or item (which keeps its id; it may come from anywhere in the
 * consignment, so an item can move to another parcel). Elements without an `id` are new; existing ones left
 * out are removed. The merged document is then validated exactly as a create body is.
 */
import type { ItemRow, OrderRow, Tree } from "../consignment-records/tree";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The lists whose elements carry ids (`par_…`, `ord_…`, `itm_…`) and merge by them. */
const IDENTIFIED = { parcels: "parcel", orders: "order", items: "item" } as const;
type ListKey = keyof typeof IDENTIFIED;

/**
 * Where those lists sit in a consignment: `parcels`, `orders`, `parcels[i].items`, `parcels[i].orders` and
 * `parcels[i].orders[j].items`. A list of the same name elsewhere (inside an item's free-form `compliance`)
 * is an ordinary value.
 */
const LIST_PATH = /^(?:parcels|orders|parcels\[\d+\]\.(?:items|orders)|parcels\[\d+\]\.orders\[\d+\]\.items)$/;
const listKeyAt = (path: string): ListKey | null =>
  LIST_PATH.test(path) ? ((path.split(".").at(-1) ?? "") as ListKey) : null;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** A copy without null and undefined values: absent and null mean the same in a merge patch. */
function compact(o: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v as Json;
  return out;
}

const parse = (text: string | null): JsonObject => (text ? (JSON.parse(text) as JsonObject) : {});
const num = (text: string | null) => (text === null ? null : Number(text));

/** A stored party back in the create's shape: registrations out of `tax_duty`, empty contact fields dropped. */
function partyIn(text: string | null): JsonObject | null {
  if (!text) return null;
  const { contact, tax_duty, ...rest } = parse(text);
  const c = compact(isObject(contact) ? contact : {});
  return compact({ ...rest, ...(isObject(tax_duty) ? tax_duty : {}), contact: Object.keys(c).length ? c : null });
}

function orderIn(o: OrderRow): JsonObject {
  return compact({
    id: o.id,
    order_ref: o.orderRef,
    amount: o.amount,
    currency_code: o.currencyCode,
    order_date: o.orderDate,
    invoice_number: o.invoiceNumber,
    ...parse(o.charges),
  });
}

function itemIn(i: ItemRow, orderRef: string | null): JsonObject {
  return compact({
    id: i.id,
    quantity: i.quantity,
    unit_value: i.unitValue,
    currency_code: i.currencyCode,
    order_ref: orderRef,
    sku: i.sku,
    title: i.title,
    description: i.description,
    hs_code: i.hsCode,
    hs_code_source: i.hsCodeSource,
    country_of_origin: i.countryOfOrigin,
    weight: num(i.weight),
    ...parse(i.extra),
  });
}

/**
 * The create body the rows stand for, ids on the elements. Amounts come back as the exact decimal strings
 * stored (the create accepts them), weights and dimensions as the numbers sent; HS codes and origins the
 * catalogue filled in read as declared, with their `hs_code_source` kept.
 */
export function documentOf(t: Tree): JsonObject {
  const c = t.consignment;
  const top = t.orders.filter((o) => o.parcelId === null);
  const topRef = new Map(top.map((o) => [o.id, o.orderRef]));
  const parcels = t.parcels.map((p) => {
    const nested = t.orders.filter((o) => o.parcelId === p.id);
    const dims = Object.entries(parse(p.dimensions)).filter(([k]) => !k.endsWith("_cm"));
    return compact({
      id: p.id,
      weight_value: num(p.weightValue),
      sender_ref: p.senderRef,
      barcode: p.barcode,
      packaging_type: p.packagingType,
      ...Object.fromEntries(dims.map(([k, v]) => [k, Number(v)])),
      declared_value: p.declaredValue,
      currency_code: p.currencyCode,
      items: t.items
        .filter((i) => i.parcelId === p.id && (i.orderId === null || topRef.has(i.orderId)))
        .map((i) => itemIn(i, i.orderId === null ? null : (topRef.get(i.orderId) ?? null))),
      orders: nested.map((o) => ({
        ...orderIn(o),
        items: t.items.filter((i) => i.orderId === o.id).map((i) => itemIn(i, null)),
      })),
    });
  });
  return compact({
    ...parse(c.extra),
    shipment_ref: c.shipmentRef,
    customer_id: c.customerId,
    type: c.type,
    external_code: c.externalCode,
    incoterm: c.incoterm,
    entry_date: c.entryDate,
    transport_mode: c.transportMode,
    weight_unit: c.weightUnit,
    measurement_unit: c.measurementUnit,
    movement_indicator: c.movementIndicator,
    sender: partyIn(c.sender),
    receiver: partyIn(c.receiver),
    orders: top.length ? top.map(orderIn) : null,
    parcels,
  });
}

// ---- merge -----------------------------------------------------------------------------------------------------

type Pools = Record<ListKey, Map<string, JsonObject>>;

/** Every identified element of the document by id, wherever it sits. */
function poolsOf(doc: JsonObject): Pools {
  const pools: Pools = { parcels: new Map(), orders: new Map(), items: new Map() };
  const walk = (o: JsonObject, path: string) => {
    for (const [k, v] of Object.entries(o)) {
      const at = path ? `${path}.${k}` : k;
      const key = listKeyAt(at);
      if (!key || !Array.isArray(v)) continue;
      v.forEach((el, i) => {
        if (!isObject(el)) return;
        if (typeof el.id === "string") pools[key].set(el.id, el);
        walk(el, `${at}[${i}]`);
      });
    }
  };
  walk(doc, "");
  return pools;
}

const CODE_KEYS = ["hs_code", "harmonised_code"] as const;

/**
 * An item given a new HS code without a source says the code is now declared: the source it had (the
 * catalogue's, a classifier's) and the other spelling of the code no longer apply.
 */
function itemBase(existing: JsonObject, patch: JsonObject): JsonObject {
  if (!CODE_KEYS.some((k) => k in patch)) return existing;
  const base = { ...existing };
  for (const k of [...CODE_KEYS, "hs_code_source"]) if (!(k in patch)) delete base[k];
  return base;
}

/** Merges `patch` into `base` (see the module comment); `problems` collects ids that name nothing. */
export function mergeDocument(base: JsonObject, patch: JsonObject): { merged: JsonObject; problems: string[] } {
  const pools = poolsOf(base);
  const problems: string[] = [];
  const listed = new Set<string>();

  const mergeList = (key: ListKey, list: Json[], path: string): Json[] =>
    list.map((el, i) => {
      const at = `${path}[${i}]`;
      if (!isObject(el)) return el;
      const { id, ...fields } = el;
      if (id === undefined) return mergeObject({}, fields, at);
      const existing = typeof id === "string" ? pools[key].get(id) : undefined;
      if (!existing) {
        problems.push(`${at}.id: no ${IDENTIFIED[key]} '${String(id)}' in this consignment`);
        return el;
      }
      if (listed.has(id as string)) problems.push(`${at}.id: '${String(id)}' is listed more than once`);
      listed.add(id as string);
      const { id: _id, ...current } = key === "items" ? itemBase(existing, fields) : existing;
      return { id, ...mergeObject(current, fields, at) };
    });

  const mergeObject = (target: JsonObject, p: JsonObject, path: string): JsonObject => {
    const out: JsonObject = { ...target };
    for (const [k, v] of Object.entries(p)) {
      const at = path ? `${path}.${k}` : k;
      const key = listKeyAt(at);
      if (v === null) delete out[k];
      else if (key && Array.isArray(v)) out[k] = mergeList(key, v, at);
      else if (isObject(v)) out[k] = mergeObject(isObject(out[k]) ? out[k] : {}, v, at);
      else out[k] = v;
    }
    return out;
  };

  return { merged: mergeObject(base, patch, ""), problems };
}

/**
 * The document without its ids, as the create schema takes it, and the ids by the path of their element
 * (`parcels[1]`, `parcels[1].items[0]`, `orders[0]`), the paths the create's tree builder names them by.
 */
export function splitIds(doc: JsonObject): { body: JsonObject; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  const strip = (v: Json, path: string): Json => {
    if (Array.isArray(v)) return v.map((x, i) => strip(x, `${path}[${i}]`));
    if (!isObject(v)) return v;
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "id" && typeof x === "string" && listKeyAt(path.replace(/\[\d+\]$/, ""))) ids.set(path, x);
      else out[k] = strip(x, path ? `${path}.${k}` : k);
    }
    return out;
  };
  return { body: strip(doc, "") as JsonObject, ids };
}

// ---- what changed ----------------------------------------------------------------------------------------------

export interface Changes {
  /** Paths in the amended document: `receiver.city`, `parcels[0].items[1].hs_code`, `parcels[2]` (new). */
  changed: string[];
  added: string[];
  removed: string[];
}

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);
const idsOf = (list: Json[]) => list.map((el) => (isObject(el) ? String(el.id) : ""));

/**
 * What differs between two documents of the same consignment. An identified list whose membership or order
 * changed is named itself (`parcels[0].items`), each new element by its new index, each kept element by the
 * fields that changed in it; the ids of new and removed elements are listed apart.
 */
export function changesBetween(before: JsonObject, after: JsonObject): Changes {
  const out: Changes = { changed: [], added: [], removed: [] };
  const walk = (b: Json | undefined, a: Json | undefined, path: string) => {
    if (listKeyAt(path) && (Array.isArray(b) || Array.isArray(a))) {
      const [was, now] = [idsOf(Array.isArray(b) ? b : []), idsOf(Array.isArray(a) ? a : [])];
      if (!same(was, now)) out.changed.push(path);
      out.removed.push(...was.filter((id) => !now.includes(id)));
      (Array.isArray(a) ? a : []).forEach((el, i) => {
        const old = Array.isArray(b) ? b[was.indexOf(now[i] ?? "")] : undefined;
        if (old === undefined) {
          out.changed.push(`${path}[${i}]`);
          out.added.push(now[i] ?? "");
        } else walk(old, el, `${path}[${i}]`);
      });
    } else if (isObject(b) && isObject(a)) {
      for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) walk(b[k], a[k], path ? `${path}.${k}` : k);
    } else if (!same(b, a)) out.changed.push(path);
  };
  walk(before, after, "");
  // An element moved to another list (an item to another parcel) is neither new nor gone.
  const moved = new Set(out.added.filter((id) => out.removed.includes(id)));
  return {
    changed: out.changed,
    added: out.added.filter((id) => !moved.has(id)),
    removed: out.removed.filter((id) => !moved.has(id)),
  };
}
