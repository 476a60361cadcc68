/**
 * D1 read replication through the Sessions API. A request to the workspace API runs in one D1 session: its
 * reads may be served by the nearest replica, and every query of the session sees at least what the
 * session's earlier queries saw (sequential consistency), writes included. The session's bookmark goes back
 * to the client in `X-D1-Bookmark`; a client that sends it back on its next request starts that session at
 * least as fresh, so it reads its own writes even from another PoP. Without one, a read (GET, HEAD) may start
 * on any replica (`first-unconstrained`) and a write starts on the primary (`first-primary`).
 *
 * Like the write journal (./journal.ts), the session is found through AsyncLocalStorage: the drizzle instance
 * is shared by every request of the isolate, so the session cannot live in it. Outside a request (queues,
 * cron) queries go to the binding itself.
 */
import { AsyncLocalStorage } from "node:async_hooks";

interface Scope {
  binding: D1Database;
  session: D1DatabaseSession;
}

const store = new AsyncLocalStorage<Scope>();

/** What runs statements: the request's session when it has one, else the binding. */
export type D1Target = Pick<D1Database, "prepare" | "batch">;

export function targetFor(binding: D1Database): D1Target {
  const scope = store.getStore();
  return scope && scope.binding === binding ? scope.session : binding;
}

/** Bookmarks are opaque to clients, but D1 writes them as dash-separated hex groups. */
const BOOKMARK = /^[0-9a-f]{4,64}(?:-[0-9a-f]{4,64}){1,7}$/i;

export const isBookmark = (s: string): boolean => s.length <= 200 && BOOKMARK.test(s);

/**
 * The fresher of two bookmarks. D1's bookmarks of one database order as strings (fixed-width hex groups, the
 * commit sequence first), so the later one is the greater.
 */
export function laterBookmark(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a >= b ? a : b;
}

/**
 * Runs `fn` in a session of `binding` that starts at `bookmark` (the client's), or by the method's default.
 * Returns what `fn` returns and the session, whose bookmark the caller reads once the work is done.
 */
export async function withD1Session<T>(
  binding: D1Database,
  start: { bookmark: string | null; write: boolean },
  fn: () => Promise<T>,
): Promise<{ result: T; session: D1DatabaseSession }> {
  const constraint = start.bookmark ?? (start.write ? "first-primary" : "first-unconstrained");
  const session = binding.withSession(constraint);
  const result = await store.run({ binding, session }, fn);
  return { result, session };
}
