/**
 * Secrets at rest (webhook signing secrets): AES-256-GCM under a key from a Worker secret, so a copy of the
 * database alone does not let anyone sign webhooks as us.
 *
 * The keyring comes from `WEBHOOK_SECRET_KEYS`: comma-separated `id:base64key` pairs (32-byte keys), the
 * first one current. A sealed value reads `sealed:v1:<key id>:<iv>:<ciphertext>` (base64url), with the
 * owner's id (the endpoint id) as additional data, so a sealed value copied onto another row does not open.
 * Rotation: put a new key first and keep the old ones after it; values sealed under an old key still open,
 * and the cron re-seals them under the current key in small batches. Drop an old key only once no value
 * names it (see README, Webhooks).
 */
import { ApiError } from "./errors";

const PREFIX = "sealed:v1:";

export interface Keyring {
  currentId: string;
  keys: Map<string, CryptoKey>;
}

const b64 = {
  encode(bytes: Uint8Array): string {
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  },
  decode(text: string): Uint8Array {
    const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  },
};

const rings = new Map<string, Promise<Keyring>>();

/** The keyring of a `WEBHOOK_SECRET_KEYS` value (imported once per isolate); 503 when it is missing or bad. */
export function keyringFrom(raw: string | undefined): Promise<Keyring> {
  if (!raw?.trim()) {
    return Promise.reject(new ApiError("unavailable", "Webhook secret encryption keys are not configured"));
  }
  let ring = rings.get(raw);
  if (!ring) {
    ring = importRing(raw);
    rings.set(raw, ring);
    ring.catch(() => rings.delete(raw));
  }
  return ring;
}

async function importRing(raw: string): Promise<Keyring> {
  const keys = new Map<string, CryptoKey>();
  let currentId: string | undefined;
  for (const entry of raw.split(",")) {
    const [id, material] = entry.trim().split(":");
    const bytes = id && material ? b64.decode(material) : undefined;
    if (!id || !bytes || bytes.byteLength !== 32 || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
      throw new ApiError("unavailable", "WEBHOOK_SECRET_KEYS must be comma-separated id:base64(32-byte key) pairs");
    }
    keys.set(id, await crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]));
    currentId ??= id;
  }
  if (!currentId) throw new ApiError("unavailable", "WEBHOOK_SECRET_KEYS names no key");
  return { currentId, keys };
}

export async function seal(plain: string, ring: Keyring, owner: string): Promise<string> {
  const key = ring.keys.get(ring.currentId);
  if (!key) throw new Error("current key missing from its own keyring");
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(plain);
  const additionalData = new TextEncoder().encode(owner);
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData }, key, data));
  return `${PREFIX}${ring.currentId}:${b64.encode(iv)}:${b64.encode(ct)}`;
}

/** The plaintext of a stored value. Values stored before encryption are plaintext and come back as they are. */
export async function open(stored: string, ring: Keyring, owner: string): Promise<string> {
  if (!stored.startsWith(PREFIX)) return stored;
  const [id, iv, ct] = stored.slice(PREFIX.length).split(":");
  const key = id ? ring.keys.get(id) : undefined;
  if (!key || !iv || !ct) throw new Error(`sealed secret names key '${id}', which is not in WEBHOOK_SECRET_KEYS`);
  const additionalData = new TextEncoder().encode(owner);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: b64.decode(iv), additionalData },
    key,
    b64.decode(ct),
  );
  return new TextDecoder().decode(plain);
}
