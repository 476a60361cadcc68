/**
 * The compliance check summary a compliance officer files: an A4 PDF with the outcome, the holds placed and
 * why, the warnings, and per engine what ran, on which dataset version, under which internal run id, and what
 * it found. Pure: data in, bytes out (pdf-lib, as for the manifest; Helvetica encodes WinAnsi only, so other
 * characters are replaced and the names as sent stay in the JSON record).
 */
import { PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";

interface SummarySection {
  title: string;
  /** `completed`, or `not_run` with the reason. */
  status: string;
  runId: string;
  dataVersion: string | null;
  lines: string[];
}

export interface ComplianceSummary {
  checkId: string;
  consignmentId: string;
  shipmentRef: string;
  workspace: string;
  createdAt: string;
  outcome: "release" | "hold";
  policy: string;
  holds: { code: string; reason: string }[];
  warnings: string[];
  sections: SummarySection[];
}

const winAnsi = (s: string) => s.normalize("NFC").replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");

/** Splits text into lines that fit `width` points at `size`, breaking at spaces (a long word is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of winAnsi(text).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) out.push(line);
      let w = word;
      while (font.widthOfTextAtSize(w, size) > width && w.length > 1) {
        let cut = w.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(w.slice(0, cut), size) > width) cut--;
        out.push(w.slice(0, cut));
        w = w.slice(cut);
      }
      line = w;
    }
  }
  if (line) out.push(line);
  return out;
}

export async function complianceSummaryPdf(s: ComplianceSummary): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Compliance check ${s.checkId}`);
  pdf.setSubject(`Consignment ${s.consignmentId} (${s.shipmentRef}): ${s.outcome}`);
  pdf.setKeywords([s.outcome, ...s.holds.map((h) => h.code)]);
  pdf.setCreationDate(new Date(s.createdAt));
  pdf.setModificationDate(new Date(s.createdAt));
  pdf.setProducer("trade-compliance-api");
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const [W, H, M] = [595.28, 841.89, 40];
  let page = pdf.addPage([W, H]);
  let y = H - 50;
  const para = (t: string, size = 9, f = font, indent = 0) => {
    for (const l of wrap(t, f, size, W - 2 * M - indent)) {
      if (y < 50) {
        page = pdf.addPage([W, H]);
        y = H - 50;
      }
      page.drawText(l, { x: M + indent, y, size, font: f });
      y -= size + 4;
    }
  };
  const gap = (n = 8) => {
    y -= n;
  };
  para(`Compliance check ${s.checkId}`, 16, bold);
  gap(4);
  para(`Consignment ${s.consignmentId}   Shipment ref ${s.shipmentRef}   Workspace ${s.workspace}`, 10);
  para(`Checked ${s.createdAt}   Policy: ${s.policy}`, 10);
  gap();
  para(`Outcome: ${s.outcome === "hold" ? "HOLD" : "RELEASE"}`, 13, bold);
  gap(4);
  para(s.holds.length ? "Holds placed" : "No holds placed", 11, bold);
  for (const h of s.holds) para(`[${h.code}] ${h.reason}`, 9, font, 10);
  gap(4);
  para(s.warnings.length ? `Warnings (${s.warnings.length})` : "No warnings", 11, bold);
  for (const w of s.warnings) para(`- ${w}`, 9, font, 10);
  for (const sec of s.sections) {
    gap();
    para(sec.title, 11, bold);
    para(`Status ${sec.status}   Run ${sec.runId}   Data version ${sec.dataVersion ?? "-"}`, 8, font, 10);
    for (const l of sec.lines) para(l, 9, font, 10);
  }
  return pdf.save({ useObjectStreams: false });
}
