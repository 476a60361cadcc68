/**
 * The manifest document: an A4 PDF listing the consignments handed to a carrier (shipment reference, receiver,
 * destination, parcels, gross weight), with totals, the manifest id and the time it was closed. Pure: data in,
 * bytes out. pdf-lib (pure JavaScript, no native or Node dependency) runs unchanged inside workerd; the
 * standard Helvetica font needs no embedding but encodes WinAnsi only, so other characters are replaced.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";

interface ManifestLine {
  consignmentId: string;
  shipmentRef: string;
  receiver: string;
  destination: string | null;
  parcels: number;
  weightKg: string;
}

export interface ManifestDoc {
  id: string;
  carrier: string | null;
  reference: string | null;
  closedAt: string;
  workspace: string;
  lines: ManifestLine[];
}

/** WinAnsi (the standard fonts' encoding) cannot show every character: anything else becomes "?". */
const winAnsi = (s: string) => s.normalize("NFC").replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");

export async function manifestPdf(doc: ManifestDoc): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Manifest ${doc.id}`);
  pdf.setCreationDate(new Date(doc.closedAt));
  pdf.setModificationDate(new Date(doc.closedAt));
  pdf.setProducer("trade-compliance-api");
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const [W, H] = [595.28, 841.89];
  const cols = [40, 190, 330, 440, 480, 520];
  let page = pdf.addPage([W, H]);
  let y = H - 50;
  const text = (t: string, x: number, size = 9, f = font) => page.drawText(winAnsi(t), { x, y, size, font: f });
  const header = () => {
    text("Shipment ref", cols[0] as number, 9, bold);
    text("Receiver", cols[1] as number, 9, bold);
    text("Consignment", cols[2] as number, 9, bold);
    text("Dest.", cols[3] as number, 9, bold);
    text("Parcels", cols[4] as number, 9, bold);
    text("Kg", cols[5] as number, 9, bold);
    y -= 16;
  };
  text(`Manifest ${doc.id}`, 40, 16, bold);
  y -= 22;
  text(`Workspace ${doc.workspace}   Carrier ${doc.carrier ?? "-"}   Reference ${doc.reference ?? "-"}`, 40, 10);
  y -= 14;
  text(`Closed ${doc.closedAt}   Consignments ${doc.lines.length}`, 40, 10);
  y -= 24;
  header();
  let parcels = 0;
  let grams = 0;
  for (const l of doc.lines) {
    if (y < 60) {
      page = pdf.addPage([W, H]);
      y = H - 50;
      header();
    }
    text(l.shipmentRef.slice(0, 28), cols[0] as number);
    text(l.receiver.slice(0, 28), cols[1] as number);
    text(l.consignmentId.slice(0, 22), cols[2] as number, 7);
    text(l.destination ?? "-", cols[3] as number);
    text(String(l.parcels), cols[4] as number);
    text(l.weightKg, cols[5] as number);
    parcels += l.parcels;
    grams += Math.round(Number(l.weightKg) * 1000);
    y -= 13;
  }
  y -= 8;
  text(`Total: ${doc.lines.length} consignments, ${parcels} parcels, ${(grams / 1000).toFixed(3)} kg`, 40, 10, bold);
  return pdf.save({ useObjectStreams: false });
}
