/**
 * Bounded reads of responses from outside: the body of a third party's answer is read up to a byte limit
 * and the rest is never downloaded, so a receiver cannot make the Worker buffer megabytes.
 */

/** Reads at most `max` bytes of a body as UTF-8 text (invalid sequences become U+FFFD: it is only shown). */
export async function readLimited(res: Response, max: number): Promise<string> {
  return new TextDecoder().decode((await readBytesLimited(res, max)).bytes);
}

/** Reads at most `max` bytes of a body; `truncated` says the body had more (the rest is never downloaded). */
export async function readBytesLimited(res: Response, max: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > max) {
      truncated = true;
      break;
    }
  }
  await reader.cancel().catch(() => {});
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, all.byteLength - at));
    all.set(part, at);
    at += part.byteLength;
  }
  return { bytes: all, truncated };
}
