/**
 * Runs a workspace API request in one D1 session (see src/db/session.ts) and hands its bookmark back in
 * `X-D1-Bookmark`. A client that sends the bookmark of its last answer reads at least what that answer saw,
 * its own writes included, wherever its next request lands; one that sends none reads from any replica.
 */
import { createMiddleware } from "hono/factory";
import { isBookmark, withD1Session } from "../db/session";
import type { AppEnv } from "../env";
import { badRequest } from "../lib/errors";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header("x-d1-bookmark");
  if (sent !== undefined && !isBookmark(sent))
    throw badRequest("X-D1-Bookmark must be a bookmark this API returned in an X-D1-Bookmark header");
  const { session } = await withD1Session(c.env.DB, { bookmark: sent ?? null, write: !READS.has(c.req.method) }, () =>
    next(),
  );
  const bookmark = session.getBookmark();
  if (bookmark) c.res.headers.set("X-D1-Bookmark", bookmark);
});
