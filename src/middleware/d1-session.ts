/**
 * Runs a workspace API request in one D1 session (see src/db/session.ts) and hands its bookmark back in
 * `X-D1-Bookmark`. A client that sends the bookmark of its last answer reads at least what that answer saw,
 * its own writes included, wherever its next request lands. A client that sends none still reads its own
 * writes when its next request reaches the same isolate (the usual case for a burst from one caller): the
 * isolate remembers the last bookmark it handed to each bearer token and starts from the later of the two.
 */
import { createMiddleware } from "hono/factory";
import { isBookmark, laterBookmark, withD1Session } from "../db/session";
import type { AppEnv } from "../env";
import { badRequest } from "../lib/errors";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Last bookmark per bearer token in this isolate; the oldest is dropped past the bound (insertion order). */
const lastByCaller = new Map<string, string>();
const MAX_CALLERS = 5_000;

function remember(caller: string, bookmark: string) {
  lastByCaller.delete(caller);
  lastByCaller.set(caller, bookmark);
  if (lastByCaller.size > MAX_CALLERS) {
    const oldest = lastByCaller.keys().next().value;
    if (oldest !== undefined) lastByCaller.delete(oldest);
  }
}

export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header("x-d1-bookmark");
  if (sent !== undefined && !isBookmark(sent))
    throw badRequest("X-D1-Bookmark must be a bookmark this API returned in an X-D1-Bookmark header");
  const caller = c.req.header("authorization");
  const start = laterBookmark(sent ?? null, caller ? (lastByCaller.get(caller) ?? null) : null);
  const { session } = await withD1Session(c.env.DB, { bookmark: start, write: !READS.has(c.req.method) }, () => next());
  const bookmark = session.getBookmark();
  if (!bookmark) return;
  c.res.headers.set("X-D1-Bookmark", bookmark);
  if (caller) remember(caller, bookmark);
});
