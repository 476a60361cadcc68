/**
 * Identifiers. Request ids are UUIDv7 (time-sortable, as the spec's archive expects); resource ids are
 * `<prefix>_<32 hex>` built from a UUIDv7 so they sort by creation time too.
 * Everything that mints ids takes an IdSource so tests can pin them.
 */
import { uuidv7 } from "uuidv7";

type IdPrefix =
  | "org"
  | "ws"
  | "apc"
  | "con"
  | "par"
  | "ord"
  | "itm"
  | "cev"
  | "asm"
  | "hld"
  | "pty"
  | "sca"
  | "man"
  | "doc"
  | "pal"
  | "we"
  | "whd"
  | "evt"
  /** A compliance check, and the run of one engine inside it. */
  | "cck"
  | "run";

export interface IdSource {
  requestId(): string;
  prefixed(prefix: IdPrefix): string;
}

export const systemIds: IdSource = {
  requestId: () => uuidv7(),
  prefixed: (prefix) => `${prefix}_${uuidv7().replaceAll("-", "")}`,
};
