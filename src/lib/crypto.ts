/** Small crypto helpers over WebCrypto; no secret ever leaves these functions in a log or an error. */

const encoder = new TextEncoder();

function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (const b of view) out += b.toString(16).padStart(2, "0");
  return out;
}

function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A random token of `bytes` bytes, URL-safe, with an optional prefix that says what it is. */
export function randomToken(bytes: number, prefix = ""): string {
  return prefix + base64url(randomBytes(bytes));
}

export async function sha256Hex(value: string | Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", typeof value === "string" ? encoder.encode(value) : value));
}

/**
 * Constant-time comparison of two strings. Workers provide crypto.subtle.timingSafeEqual; lengths are
 * compared first (the hashes compared here are fixed-length, so that leaks nothing).
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const ab = encoder.encode(a);
  const bb = encoder.encode(b);
  if (ab.byteLength !== bb.byteLength) return false;
  return crypto.subtle.timingSafeEqual(ab, bb);
}
