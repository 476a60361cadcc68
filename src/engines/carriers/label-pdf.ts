/**
 * Shipping labels: a 4 × 6 in PDF page per parcel (288 × 432 pt), with the tracking number as a Code 128
 * barcode (vector bars from bwip-js, drawn by pdf-lib) and in text, the sender and receiver addresses, the
 * parcel's weight and a customs summary (contents, value, HS codes, origins). Pure: data in, bytes out.
 */
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { code128Bars } from "./code128";

interface LabelAddress {
  name: string;
  lines: string[];
  countryCode: string | null;
}

interface LabelParcel {
  trackingNumber: string;
  position: number;
  weightKg: string;
  contents: {
    description: string;
    quantity: number;
    hsCode: string | null;
    origin: string | null;
    value: string;
    currency: string | null;
  }[];
}

export interface LabelInput {
  carrierName: string;
  service: string;
  createdAt: string;
  shipmentRef: string;
  sender: LabelAddress;
  receiver: LabelAddress;
  parcels: LabelParcel[];
}

const winAnsi = (s: string) => s.normalize("NFC").replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");
const W = 288;
const H = 432;

export async function labelPdf(input: LabelInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Labels ${input.shipmentRef}`);
  pdf.setCreationDate(new Date(input.createdAt));
  pdf.setModificationDate(new Date(input.createdAt));
  pdf.setProducer("trade-compliance-api");
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const parcel of input.parcels) {
    const page = pdf.addPage([W, H]);
    let y = H - 24;
    const text = (t: string, x: number, size: number, f = font) => page.drawText(winAnsi(t), { x, y, size, font: f });
    text(`${input.carrierName} - ${input.service}`, 14, 10, bold);
    text(`Parcel ${parcel.position} of ${input.parcels.length}`, 200, 9);
    y -= 20;
    text("FROM", 14, 7, bold);
    y -= 10;
    for (const l of [input.sender.name, ...input.sender.lines].slice(0, 4)) {
      text(l.slice(0, 55), 14, 8);
      y -= 10;
    }
    y -= 8;
    text("TO", 14, 8, bold);
    y -= 14;
    for (const [i, l] of [input.receiver.name, ...input.receiver.lines].slice(0, 5).entries()) {
      text(l.slice(0, 40), 14, i === 0 ? 13 : 11, i === 0 ? bold : font);
      y -= i === 0 ? 16 : 14;
    }
    text(input.receiver.countryCode ?? "", 230, 20, bold);
    y -= 14;
    // The barcode: 72 pt tall, as wide as the label allows.
    const bars = code128Bars(parcel.trackingNumber);
    const scale = Math.min(2.2, (W - 40) / bars.width);
    const left = (W - bars.width * scale) / 2;
    const top = y;
    for (const b of bars.bars)
      page.drawRectangle({
        x: left + b.x * scale,
        y: top - ((b.y + b.h) / bars.height) * 72,
        width: b.w * scale,
        height: (b.h / bars.height) * 72,
        color: rgb(0, 0, 0),
      });
    y = top - 86;
    text(parcel.trackingNumber, (W - bold.widthOfTextAtSize(parcel.trackingNumber, 14)) / 2, 14, bold);
    y -= 22;
    text(`Ref ${input.shipmentRef}   Weight ${parcel.weightKg} kg`, 14, 9);
    y -= 16;
    text("CUSTOMS", 14, 7, bold);
    y -= 10;
    for (const c of parcel.contents.slice(0, 5)) {
      text(
        `${c.quantity} x ${c.description.slice(0, 28)}  HS ${c.hsCode ?? "-"}  ${c.origin ?? "-"}  ${c.value} ${c.currency ?? ""}`,
        14,
        7,
      );
      y -= 9;
    }
    if (parcel.contents.length > 5) text(`... and ${parcel.contents.length - 5} more lines`, 14, 7);
  }
  return pdf.save({ useObjectStreams: false });
}
