// Tells whether anything was committed to the database since a given moment, whoever committed it:
// this process, another worker, the CLI. The response cache keys its entries on the clock's reading,
// so a write is visible in the very next read.
//
// - SQLite: `PRAGMA data_version` on a connection of its own, which changes whenever any other
//   connection (the server's included) commits. Synchronous and a few microseconds.
// - PostgreSQL: the text of `pg_current_snapshot()`, which changes when any transaction that wrote
//   ends (its xid leaves the running list or moves xmax). One round trip, shared by every request that
//   arrived before it was sent.
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';

export interface ChangeClock {
  /** A reading that differs from any earlier one whenever a commit happened in between; null when unknown. */
  read(): Promise<string | null>;
  close(): Promise<void>;
}

export function createChangeClock(database: DatabaseConfig): ChangeClock | null {
  if (database.provider === 'sqlite') {
    // a private in-memory database shares nothing with a second connection
    if (database.file === ':memory:') return null;
    const connection = new BetterSqlite3(database.file, { readonly: true, fileMustExist: true });
    const version = connection.prepare('PRAGMA data_version').pluck();
    return {
      read: async () => String(version.get()),
      close: async () => void connection.close(),
    };
  }
  return postgresClock(database.connectionString);
}

function postgresClock(connectionString: string): ChangeClock {
  const client = new pg.Client({ connectionString, application_name: 'milepost change clock' });
  let connected: Promise<boolean> | null = null;
  let pending: Promise<string | null> | null = null;
  // one query at a time on the one connection: a new one is sent once the previous has answered
  let previous: Promise<unknown> = Promise.resolve();
  const connect = () =>
    (connected ??= client.connect().then(
      () => true,
      () => false,
    ));
  client.on('error', () => {
    // a lost connection makes every reading unknown (the cache is bypassed), never a crash
    connected = Promise.resolve(false);
  });
  const query = async (): Promise<string | null> => {
    if (!(await connect())) return null;
    try {
      const { rows } = await client.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
      return rows[0]!.snapshot;
    } catch {
      return null;
    }
  };
  return {
    read() {
      // every request that arrives before the query is sent shares it: the query still starts after
      // each of them arrived, so it sees every commit they could have been told about
      pending ??= new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => previous)
        .then(() => {
          pending = null;
          const reading = query();
          previous = reading;
          return reading;
        });
      return pending;
    },
    async close() {
      if (connected && (await connected)) await client.end().catch(() => undefined);
    },
  };
}
