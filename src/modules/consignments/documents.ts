/**
 * Trade documents made on demand for a consignment (no Hono): the commercial invoice (PDF or HTML) and the UPU
 * CN 22 / CN 23 customs declaration, the same documents the flow actions make (consignment-records/trade-documents).
 */
import { exists, sql } from "drizzle-orm";
import type { Call } from "../../core/context";
import { consignmentDocuments } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { unprocessable } from "../../lib/errors";
import { eventInsert, insertWhen } from "../consignment-records/rows";
import { buildTradeDocument, storeTradeDocument, type TradeDocumentSpec } from "../consignment-records/trade-documents";
import type { DocumentRow } from "../consignment-records/tree";
import { consignmentHeadQuery, consignmentNotFound } from "./access";
import { loadConsignment } from "./service";

/** "customs declaration: item 2: weight is required" → {field: "item 2", message: "weight is required"}. */
const fieldErrors = (errors: string[]) =>
  errors.map((e) => {
    const [, field = "", message = e] = /^[^:]+: ([^:]+): (.*)$/.exec(e) ?? [];
    return { field, message };
  });

const documentStored = (id: string) =>
  sql`EXISTS (SELECT 1 FROM ${consignmentDocuments} WHERE ${consignmentDocuments.id} = ${id})`;

/**
 * Makes the document from the consignment as stored, puts its bytes in R2, then lists it: the row and its
 * `document.generated` event go in one batch, only while the consignment is still visible. 404 when it is not
 * (or was deleted meanwhile: the object is removed again); 422 with every reason when the data cannot make the
 * document (a party, a description, a weight, an unknown `nature_type`...).
 */
export async function generateDocument({
  ctx,
  input,
}: Call<{ id: string; spec: TradeDocumentSpec }>): Promise<DocumentRow> {
  const tree = await loadConsignment({ ctx, input: { id: input.id } });
  const nowMs = ctx.deps.clock.now();
  const made = await buildTradeDocument(tree, input.spec, nowMs);
  if (!made.ok) {
    const what = input.spec.type === "commercial_invoice" ? "commercial invoice" : "customs declaration";
    throw unprocessable(`The ${what} cannot be made: ${made.errors.join("; ")}`, { errors: fieldErrors(made.errors) });
  }
  const c = tree.consignment;
  const createdAt = isoAt(nowMs);
  const row = await storeTradeDocument(
    ctx.env.ARCHIVE,
    { id: ctx.deps.ids.prefixed("doc"), workspaceId: ctx.workspace.id, consignmentId: c.id, flowId: null, createdAt },
    made.document,
  );
  const summary = made.document.meta.form
    ? { form: made.document.meta.form, form_rule: made.document.meta.form_rule }
    : { invoice_number: made.document.meta.invoice_number };
  const [inserted] = await ctx.db.batch([
    insertWhen(ctx.db, consignmentDocuments, row, exists(consignmentHeadQuery(ctx, c.id))).returning({
      id: consignmentDocuments.id,
    }),
    eventInsert(ctx.db, ctx.deps.ids, {
      consignmentId: c.id,
      workspaceId: ctx.workspace.id,
      type: "document.generated",
      data: { document_id: row.id, type: row.type, ...summary },
      requestId: ctx.requestId,
      createdAt,
      when: documentStored(row.id),
    }),
  ]);
  if (!inserted.length) {
    await ctx.env.ARCHIVE.delete(row.storageKey);
    throw consignmentNotFound(c.id);
  }
  return row;
}
