/**
 * Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`,
 * keyed by the base64 part of a `whsec_` secret. During a rotation both secrets sign, space separated.
 */
const encoder = new TextEncoder();

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toBase64(bytes: ArrayBuffer): string {
  let bin = "";
  for (const b of new Uint8Array(bytes)) bin += String.fromCharCode(b);
  return btoa(bin);
}

function secretKeyBytes(secret: string): Uint8Array {
  if (!secret.startsWith("whsec_")) throw new Error("webhook secrets start with whsec_");
  return fromBase64(secret.slice("whsec_".length));
}

/** A new secret: whsec_ + base64 of 32 random bytes. */
export function newWebhookSecret(
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  return `whsec_${toBase64(random(32).buffer as ArrayBuffer)}`;
}

async function signature(secret: string, id: string, timestampS: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secretKeyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestampS}.${body}`));
  return `v1,${toBase64(mac)}`;
}

/** The three Standard Webhooks headers for one post; every given secret signs. */
export async function signedHeaders(
  secrets: string[],
  id: string,
  timestampS: number,
  body: string,
): Promise<Record<string, string>> {
  const sigs = await Promise.all(secrets.map((s) => signature(s, id, timestampS, body)));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampS),
    "webhook-signature": sigs.join(" "),
  };
}
