/**
 * Bounded reads of responses from outside: the body of a third party's answer is read up to a byte limit
 * and the rest is never downloaded, so a receiver cannot make the Worker buffer megabytes.
 */

/** Reads at most `max` bytes of a body as UTF-8 text (invalid sequences become U+FFFD: it is only shown). */
export async function readLimited(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, all.byteLength - at));
    all.set(part, at);
    at += part.byteLength;
  }
  return new TextDecoder().decode(all);
}
