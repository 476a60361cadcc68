/**
 * An incremental RFC 4180 CSV reader: text goes in as it arrives (a stream's chunks), complete records come
 * out, so a file of any size is read in memory proportional to one record. Quoted fields, doubled quotes,
 * embedded newlines, CRLF or LF. Written here rather than taken from a library because the official list
 * files need exactly this much and a streaming CSV library would bring Node stream shims into the Worker.
 */
export class CsvReader {
  /** The field separator: `,` (RFC 4180), or `|` for the pipe-delimited text exports some publishers give. */
  constructor(private readonly separator = ",") {}
  private row: string[] = [];
  private field = "";
  private quoted = false;
  /** A quote seen at the end of a chunk inside a quoted field: a doubled quote or the closing one. */
  private pendingQuote = false;
  private pendingCr = false;

  /** The records completed by this chunk. */
  push(chunk: string): string[][] {
    const out: string[][] = [];
    let i = 0;
    if (this.pendingQuote) {
      this.pendingQuote = false;
      if (chunk[0] === '"') {
        this.field += '"';
        i = 1;
      } else this.quoted = false;
    }
    if (this.pendingCr) {
      this.pendingCr = false;
      if (chunk[0] === "\n" && i === 0) i = 1;
    }
    for (; i < chunk.length; i++) {
      const ch = chunk[i];
      if (this.quoted) {
        if (ch === '"') {
          if (i + 1 === chunk.length) this.pendingQuote = true;
          else if (chunk[i + 1] === '"') {
            this.field += '"';
            i++;
          } else this.quoted = false;
        } else this.field += ch;
      } else if (ch === '"') this.quoted = true;
      else if (ch === this.separator) {
        this.row.push(this.field);
        this.field = "";
      } else if (ch === "\n" || ch === "\r") {
        if (ch === "\r") {
          if (i + 1 === chunk.length) this.pendingCr = true;
          else if (chunk[i + 1] === "\n") i++;
        }
        this.row.push(this.field);
        out.push(this.row);
        this.row = [];
        this.field = "";
      } else this.field += ch;
    }
    return out;
  }

  /** The last record when the text does not end with a newline. */
  end(): string[][] {
    if (this.pendingQuote) this.quoted = false;
    if (this.field === "" && this.row.length === 0) return [];
    this.row.push(this.field);
    const last = this.row;
    this.row = [];
    this.field = "";
    return [last];
  }
}

/** Every record of a whole text (small files and tests). */
export function parseCsvText(text: string): string[][] {
  const r = new CsvReader();
  return [...r.push(text), ...r.end()];
}

/** The records of a text stream, as they complete. */
export async function* csvRecords(chunks: AsyncIterable<string>, separator = ","): AsyncGenerator<string[]> {
  const reader = new CsvReader(separator);
  for await (const chunk of chunks) yield* reader.push(chunk);
  yield* reader.end();
}
