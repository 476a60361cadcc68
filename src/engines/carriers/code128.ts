/**
 * Code 128 bars for a label, from bwip-js (Barcode Writer in Pure PostScript in JavaScript). Its generic
 * build renders through a drawing interface instead of a canvas or Node: the drawing here only records the
 * bars' rectangles, which the label then draws with pdf-lib, so the barcode is vector in the PDF.
 */
import { code128, type DrawingContext } from "bwip-js/generic";

export interface Bars {
  /** Symbol size in bwip-js units (one unit = one module at scale 1). */
  width: number;
  height: number;
  /** Each bar as x, y, width, height in the same units (origin top left). */
  bars: { x: number; y: number; w: number; h: number }[];
}

export function code128Bars(text: string): Bars {
  let width = 0;
  let height = 0;
  const bars: Bars["bars"] = [];
  const drawing: DrawingContext<Bars> = {
    scale: () => null,
    measure: () => ({ width: 0, ascent: 0, descent: 0 }),
    init(w, h) {
      width = w;
      height = h;
    },
    // Linear symbols come as lines: a bar is a vertical line of width `lw` centred on x.
    line(x0, y0, x1, y1, lw) {
      if (x0 === x1) bars.push({ x: x0 - lw / 2, y: Math.min(y0, y1), w: lw, h: Math.abs(y1 - y0) });
      else bars.push({ x: Math.min(x0, x1), y: y0 - lw / 2, w: Math.abs(x1 - x0), h: lw });
    },
    polygon(pts) {
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      bars.push({ x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y });
    },
    hexagon() {},
    ellipse() {},
    fill() {},
    text() {},
    end: () => ({ width, height, bars }),
  };
  const out = code128({ bcid: "code128", text, scale: 1, height: 12, includetext: false }, drawing);
  if (!out.bars.length) throw new Error(`Code 128 could not encode ${JSON.stringify(text)}`);
  return out;
}
