/**
 * The feeding loop the streamed XML parsers share (sanctions lists, ECB and HMRC rates): chunks go to the SAX
 * parser, and what its handlers have queued in `ready` is yielded as soon as it is complete, so a large file is
 * never held whole. A parse error the handlers kept (`failure`) stops the stream, and so does a document without
 * its root element (`rooted`, checked once the last chunk is in), named by `what` ("not an ECB reference rate XML").
 */
import type { SaxesParser } from "saxes";

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
