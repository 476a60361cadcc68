/**
 * The feeding loop the streamed XML parsers share (sanctions lists, ECB and HMRC rates): chunks go to the SAX
 * parser, and what its handlers have queued in `ready` is yielded as soon as it is complete, so a large file is
 * never held whole. A parse error the handlers kept (`failure`) stops the stream, and so does a document without
 * its root element (`rooted`, checked once the last chunk is in), named by `what` ("not an ECB reference rate XML").
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";

export async function* saxStream<T>(
  parser: SaxesParser,
  chunks: AsyncIterable<string>,
  ready: T[],
  { failure, rooted, what }: { failure: () => Error | null; rooted: () => boolean; what: string },
): AsyncGenerator<T> {
  for await (const chunk of chunks) {
    parser.write(chunk);
    const error = failure();
    if (error) throw error;
    while (ready.length) yield ready.shift() as T;
  }
  parser.close();
  const error = failure();
  if (error) throw error;
  if (!rooted()) throw new Error(`${what}: the document has no root element`);
  while (ready.length) yield ready.shift() as T;
}

/** An element read whole: its local name, attributes (local names), children and own text. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** An element or attribute name without its namespace prefix. */
const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * The records of an XML stream: each element whose local name is in `recordTags`, at any depth, as a small tree,
 * once it closes, in document order. `rootTag` is checked on the first element so a wrong file fails fast.
 * `info.generated` receives the root's `generationDate` attribute or a `<DateGenerated>` child, whichever the
 * format has. `what` names the format in the error for a document without a root.
 */
export async function* xmlRecords(
  chunks: AsyncIterable<string>,
  rootTag: string,
  recordTags: ReadonlySet<string>,
  info: { generated: string | null },
  what: string,
): AsyncGenerator<XmlNode> {
  const parser = new SaxesParser();
  const ready: XmlNode[] = [];
  const stack: XmlNode[] = [];
  let root: string | null = null;
  let error: Error | null = null;
  let inDateGenerated = false;
  parser.on("error", (e) => {
    error ??= e;
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (root === null) {
      root = name;
      if (name !== rootTag) error ??= new Error(`the root element is <${tag.name}>, not <${rootTag}>`);
      const generated = tag.attributes.generationDate;
      if (typeof generated === "string") info.generated = generated;
      return;
    }
    if (name === "DateGenerated" && stack.length === 0) inDateGenerated = true;
    if (stack.length || recordTags.has(name)) {
      const attrs: Record<string, string> = {};
      for (const [k, v] of Object.entries(tag.attributes)) if (typeof v === "string") attrs[localName(k)] = v;
      const node: XmlNode = { name, attrs, children: [], text: "" };
      (stack[stack.length - 1] as XmlNode | undefined)?.children.push(node);
      stack.push(node);
    }
  });
  parser.on("text", (t) => {
    if (inDateGenerated) info.generated = (info.generated ?? "") + t.trim();
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.on("closetag", () => {
    inDateGenerated = false;
    const node = stack.pop();
    if (node && stack.length === 0) ready.push(node);
  });
  yield* saxStream(parser, chunks, ready, { failure: () => error, rooted: () => root !== null, what });
}
