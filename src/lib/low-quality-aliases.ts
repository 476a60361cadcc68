/**
 * Low-quality aliases: the UN's `QUALITY="Low"` aliases and OFAC's `LowQuality` ones ("Abu Mohammed", "Hajji").
 * The lists give them because officers meet them, but they are too generic to match loosely: screening matches
 * them only as written, whole, below the likely-match band. They travel in an entry's remarks, each in brackets,
 * so the remark can be read back whatever follows it:
 *
 *   Low-quality a.k.a. (exact match only): [Rumuli] [India Queen]; INTERPOL-UN Security Council Special Notice ...
 */
const LABEL = "Low-quality a.k.a. (exact match only):";
const SEGMENT = /Low-quality a\.k\.a\. \(exact match only\):((?:\s*\[[^\][]*\])+)/g;

/** The remark segment for an entry's low-quality aliases, or null when it has none. */
export function lowQualitySegment(names: readonly string[]): string | null {
  const clean = [...new Set(names.map((n) => n.replace(/[[\]]/g, " ").replace(/\s+/g, " ").trim()))].filter(Boolean);
  return clean.length ? `${LABEL} ${clean.map((n) => `[${n}]`).join(" ")}` : null;
}

/** The low-quality aliases an entry's remarks carry (see `lowQualitySegment`). */
export function lowQualityAliases(remarks: string | null | undefined): string[] {
  const out: string[] = [];
  for (const m of (remarks ?? "").matchAll(SEGMENT))
    for (const b of (m[1] ?? "").matchAll(/\[([^\][]*)\]/g)) if (b[1]?.trim()) out.push(b[1].trim());
  return out;
}
