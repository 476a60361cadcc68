/**
 * Drawing helpers shared by the form-like documents (customs declarations, the commercial invoice PDF): text
 * clipped to a width, wrapped paragraphs, ruled boxes with a caption, tick boxes. Standard Helvetica needs no
 * embedding and runs inside workerd, but it encodes WinAnsi only, so other characters become "?".
 */
import { type PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";

/** WinAnsi (the standard fonts' encoding) cannot show every character: anything else becomes "?". */
const winAnsi = (s: string) => s.normalize("NFC").replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");

export interface Canvas {
  page: PDFPage;
  font: PDFFont;
  bold: PDFFont;
  /** Text with its baseline at y, cut (with an ellipsis) to fit `width` when given. */
  text(t: string, x: number, y: number, opts?: { size?: number; bold?: boolean; width?: number }): void;
  /** A paragraph wrapped to `width`; returns the y below its last line. */
  paragraph(t: string, x: number, y: number, width: number, size?: number): number;
  /** A ruled rectangle, top-left at (x, top), with an optional small caption inside its top edge. */
  box(x: number, top: number, w: number, h: number, caption?: string): void;
  /** A tick box, crossed when `ticked`, with its label to the right. */
  tick(label: string, x: number, y: number, ticked: boolean, size?: number): void;
}

export async function standardFonts(pdf: PDFDocument) {
  return {
    font: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
}

/** Cuts `t` to fit `width` at `size`, ending in "..." when anything was cut. */
function clip(t: string, f: PDFFont, size: number, width: number): string {
  if (f.widthOfTextAtSize(t, size) <= width) return t;
  let out = t;
  while (out.length && f.widthOfTextAtSize(`${out}...`, size) > width) out = out.slice(0, -1);
  return `${out}...`;
}

/** Splits `t` into lines no wider than `width` (a word longer than the width is cut). */
function wrapLines(t: string, f: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of winAnsi(t).split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (f.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = clip(word, f, size, width);
    }
  }
  if (line) lines.push(line);
  return lines;
}

export function canvas(page: PDFPage, font: PDFFont, bold: PDFFont): Canvas {
  const black = rgb(0, 0, 0);
  const c: Canvas = {
    page,
    font,
    bold,
    text(t, x, y, opts = {}) {
      const f = opts.bold ? bold : font;
      const size = opts.size ?? 8;
      const safe = winAnsi(t);
      page.drawText(opts.width ? clip(safe, f, size, opts.width) : safe, { x, y, size, font: f, color: black });
    },
    paragraph(t, x, y, width, size = 7) {
      let at = y;
      for (const l of wrapLines(t, font, size, width)) {
        page.drawText(l, { x, y: at, size, font, color: black });
        at -= size + 2;
      }
      return at;
    },
    box(x, top, w, h, caption) {
      page.drawRectangle({ x, y: top - h, width: w, height: h, borderColor: black, borderWidth: 0.6 });
      // A caption takes at most two lines; a longer one is cut.
      const lines = caption ? wrapLines(caption, font, 5.5, w - 4) : [];
      lines.slice(0, 2).forEach((l, i) => {
        c.text(i === 1 && lines.length > 2 ? `${l}...` : l, x + 2, top - 7 - i * 6.5, { size: 5.5, width: w - 4 });
      });
    },
    tick(label, x, y, ticked, size = 7) {
      page.drawRectangle({ x, y: y - 1, width: size, height: size, borderColor: black, borderWidth: 0.6 });
      if (ticked) c.text("X", x + 1.2, y, { size: size - 0.5, bold: true });
      c.text(label, x + size + 3, y, { size });
    },
  };
  return c;
}
