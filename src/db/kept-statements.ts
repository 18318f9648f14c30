// Prepared statements kept on the writer's SQLite connection. Prisma's better-sqlite3 adapter prepares
// every statement it runs afresh (`client.prepare(sql).bind(args)`), so SQLite parsed and planned
// each INSERT and SELECT of a write again: the largest single cost of a comment (a tenth of its CPU,
// measured with --cpu-prof under 16 writers). Here the connection's `prepare` hands out a statement
// kept by its text (least recently used out), and the `bind` the adapter calls binds the arguments to
// that one run only; better-sqlite3 would refuse a second `bind` on the same statement.
//
// Only what the adapter asks of a bound statement is offered (`reader`, `run`, `columns`, `raw().all`);
// anything else on a kept statement is the statement's own. The adapter runs each statement to its
// end synchronously, so one kept statement is never in use twice at once.
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/** Statements kept per connection: the writes and their reads have a few hundred shapes. */
export const KEPT_STATEMENTS = 500;

type Statement = BetterSqlite3.Statement<unknown[]>;

/** A kept statement with its arguments bound for one run, as the adapter uses it. */
function boundOnce(statement: Statement, args: unknown[]) {
  return {
    reader: statement.reader,
    run: () => statement.run(args),
    columns: () => statement.columns(),
    raw: () => ({
      all: () => {
        try {
          return statement.raw(true).all(args);
        } finally {
          statement.raw(false);
        }
      },
    }),
  };
}

/** Makes `connection.prepare` hand out kept statements whose `bind` lasts one run. */
export function keepStatements(connection: BetterSqlite3.Database, size = KEPT_STATEMENTS): void {
  const prepare = connection.prepare.bind(connection) as (sql: string) => Statement;
  const kept = new LRUCache<string, Statement>({ max: size });
  const keptPrepare = (sql: string) => {
    let statement = kept.get(sql);
    if (!statement) {
      statement = prepare(sql);
      kept.set(sql, statement);
    }
    return new Proxy(statement, {
      get: (target, property) => {
        if (property === 'bind') return (args: unknown[]) => boundOnce(target, args);
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  Object.defineProperty(connection, 'prepare', { value: keptPrepare, configurable: true, writable: true });
}

/** The better-sqlite3 connection behind Prisma's adapter (its `client`), if it is one. */
function connectionOf(adapter: SqlDriverAdapter): BetterSqlite3.Database | null {
  const client = (adapter as unknown as { client?: unknown }).client;
  return client && typeof (client as BetterSqlite3.Database).prepare === 'function' && 'inTransaction' in (client as object)
    ? (client as BetterSqlite3.Database)
    : null;
}

/** The adapter factory whose SQLite connections keep their prepared statements (see above). */
export function keptStatements(factory: SqlDriverAdapterFactory, size = KEPT_STATEMENTS): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = await factory.connect();
      const connection = connectionOf(adapter);
      // an adapter of another shape (a newer Prisma) prepares as before: slower, never wrong
      if (connection) keepStatements(connection, size);
      return adapter;
    },
  };
}
