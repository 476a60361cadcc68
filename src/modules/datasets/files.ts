/** Reading a version's stored files (R2) for the dataset kinds. */
import { ApiError, unprocessable } from "../../lib/errors";
import type { SourceFile } from "./kinds";

/** The text of an R2 object, chunk by chunk, decoded as UTF-8. */
export async function* objectText(bucket: R2Bucket, key: string): AsyncGenerator<string> {
  const obj = await bucket.get(key);
  if (!obj) throw new ApiError("internal_error", `Stored dataset file ${key} is missing`);
  const reader = obj.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value) yield value;
  }
}

export const part = (files: SourceFile[], name: string) => files.find((f) => f.part === name);

export async function readJson(bucket: R2Bucket, file: SourceFile, what: string): Promise<unknown> {
  let text = "";
  for await (const chunk of objectText(bucket, file.key)) text += chunk;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw unprocessable(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}
