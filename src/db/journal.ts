/**
 * Statements that must commit together with a request's first write: its audit row (and, when the client sent
 * an Idempotency-Key, the key's record). The request opens a journal around its handler; the D1 binding every
 * service uses is wrapped once per isolate, and the first statement that writes (a single insert, update or
 * delete, or a batch holding one) runs in one D1 batch with the journal's statements. So a write that commits
 * always commits its evidence, whatever happens to the process afterwards, and a write that fails leaves no
 * evidence claiming it happened. Outside a journal (queues, cron, reads) the wrapper passes everything through.
 *
 * The request is found through AsyncLocalStorage rather than a per-request database handle, because a drizzle
 * instance is costly to build (it walks the whole schema) and is shared by every request of the isolate.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { timed } from "../core/meter";
import { type D1Target, targetFor } from "./session";

export interface WriteJournal {
  /** The statements to commit with the first write, prepared on what runs it (the request's D1 session). */
  companions(d1: D1Target): Promise<D1PreparedStatement[]>;
  /** Set once the companions committed with a write: the caller then only corrects the row afterwards. */
  committed: boolean;
  /** Set when the response is decided: a background write after that point must not take the companions. */
  closed: boolean;
  /** The batch carrying the companions while it runs: the response waits for it to settle. */
  inflight?: Promise<unknown> | undefined;
  /** More statements for the same batch, added by later steps of the request (the idempotency key's record). */
  also: ((d1: D1Target) => D1PreparedStatement)[];
}

const store = new AsyncLocalStorage<WriteJournal>();

export function withJournal<T>(journal: WriteJournal, fn: () => Promise<T>): Promise<T> {
  return store.run(journal, fn);
}

/** The current request's journal, if it has one. */
export const currentJournal = (): WriteJournal | undefined => store.getStore();

/** A journal that still waits for its write, if the current request has one. */
function openJournal(): WriteJournal | undefined {
  const j = store.getStore();
  return j && !j.committed && !j.closed ? j : undefined;
}

/** INSERT, UPDATE, DELETE or REPLACE, directly or after a WITH clause (what SQLite runs as a write). */
const WRITE = /^\s*(?:insert|update|delete|replace)\b|^\s*with\b[\s\S]*\b(?:insert|update|delete|replace)\b/i;

const isWriteSql = (sqlText: string): boolean => WRITE.test(sqlText);

/** D1's `raw()` rows from a batch result's objects, the mapping drizzle itself uses for batches. */
function rawRows(results: Record<string, unknown>[], columnNames: boolean): unknown[][] {
  const rows = results.map((r) => Object.values(r));
  if (columnNames) rows.unshift(Object.keys(results[0] ?? {}));
  return rows;
}

class JournaledStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    /** What prepared `inner`: the request's D1 session, or the binding outside a request. */
    private readonly real: D1Target,
    readonly sqlText: string,
  ) {}

  bind(...values: unknown[]): JournaledStatement {
    return new JournaledStatement(this.inner.bind(...values), this.real, this.sqlText);
  }

  /** Runs with the journal's statements when this is the request's first write; undefined otherwise. */
  private async withCompanions(): Promise<D1Result | undefined> {
    const journal = isWriteSql(this.sqlText) ? openJournal() : undefined;
    if (!journal) return undefined;
    journal.committed = true;
    const run = (async () => {
      const statements = [this.inner, ...(await journal.companions(this.real))];
      const [result] = await timed("d1", () => this.real.batch(statements));
      return result;
    })();
    journal.inflight = run;
    try {
      return await run;
    } catch (err) {
      journal.committed = false; // nothing committed: the next write (or the response) carries the row
      throw err;
    }
  }

  async run(): Promise<D1Result> {
    return (await this.withCompanions()) ?? timed("d1", () => this.inner.run());
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return ((await this.withCompanions()) as D1Result<T> | undefined) ?? timed("d1", () => this.inner.all<T>());
  }

  async first<T = Record<string, unknown>>(column?: string): Promise<T | null> {
    const result = await this.withCompanions();
    if (!result) return timed("d1", () => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)));
    const row = (result.results[0] ?? null) as Record<string, unknown> | null;
    if (!row) return null;
    return (column === undefined ? row : (row[column] ?? null)) as T | null;
  }

  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    const result = await this.withCompanions();
    if (!result) {
      return timed("d1", () =>
        options?.columnNames ? (this.inner.raw<T>({ columnNames: true }) as Promise<T[]>) : this.inner.raw<T>(),
      );
    }
    return rawRows(result.results as Record<string, unknown>[], Boolean(options?.columnNames)) as T[];
  }
}

const unwrap = (s: D1PreparedStatement): D1PreparedStatement => (s instanceof JournaledStatement ? s.inner : s);

function journaledBinding(binding: D1Database): D1Database {
  const wrapper = {
    prepare: (query: string) => {
      const target = targetFor(binding);
      return new JournaledStatement(target.prepare(query), target, query);
    },
    async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
      const real = targetFor(binding);
      const inner = statements.map(unwrap);
      const writes = statements.some((s) => s instanceof JournaledStatement && isWriteSql(s.sqlText));
      const journal = writes ? openJournal() : undefined;
      if (!journal) return timed("d1", () => real.batch<T>(inner));
      journal.committed = true;
      const run = (async () => {
        const all = [...inner, ...(await journal.companions(real))];
        return timed("d1", () => real.batch<T>(all));
      })();
      journal.inflight = run;
      try {
        return (await run).slice(0, inner.length);
      } catch (err) {
        journal.committed = false;
        throw err;
      }
    },
    exec: (query: string) => timed("d1", () => binding.exec(query)),
    dump: () => binding.dump(),
    withSession: (constraint?: string) => binding.withSession(constraint),
  };
  return wrapper as unknown as D1Database;
}

const wrappers = new WeakMap<D1Database, D1Database>();

/** The journaled view of a D1 binding, one per binding per isolate. */
export function journaled(real: D1Database): D1Database {
  let w = wrappers.get(real);
  if (!w) {
    w = journaledBinding(real);
    wrappers.set(real, w);
  }
  return w;
}
