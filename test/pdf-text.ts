/**
 * The text drawn on each page of a PDF made with pdf-lib's standard fonts: the page's content streams are
 * inflated and the shown strings (hex-encoded WinAnsi, `<...> Tj`) decoded. Enough to check that a value was
 * really drawn, not only set as metadata; not a general PDF text extractor.
 */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join("");
const hexText = (hex: string) =>
  (hex.match(/../g) ?? []).map((h) => String.fromCharCode(Number.parseInt(h, 16))).join("");

export async function pdfPages(bytes: Uint8Array): Promise<{ doc: PDFDocument; text: string[] }> {
  const doc = await PDFDocument.load(bytes);
  const text = doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const parts = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const ops = parts.map((s) => (s instanceof PDFRawStream ? latin1(decodePDFRawStream(s).decode()) : "")).join("\n");
    return [...ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) => hexText(m[1] ?? "")).join("\n");
  });
  return { doc, text };
}
