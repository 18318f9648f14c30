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
  /**
   * Whether the last reading failed because the database could not be reached: nothing can be written
   * there meanwhile, so what was read before still holds (the cache serves it).
   */
  lost(): boolean;
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
      lost: () => false,
      close: async () => void connection.close(),
    };
  }
  return postgresClock(database.connectionString);
}

/** How long a reading may take, and how long after a failure the clock connects again. */
const CLOCK_TIMEOUT_MS = 1_000;
const RECONNECT_AFTER_MS = 1_000;

function postgresClock(connectionString: string): ChangeClock {
  let client: pg.Client | null = null;
  let connected: Promise<boolean> | null = null;
  let pending: Promise<string | null> | null = null;
  let failedAt = 0;
  let lost = false;
  // one query at a time on the one connection: a new one is sent once the previous has answered
  let previous: Promise<unknown> = Promise.resolve();
  const drop = () => {
    const old = client;
    client = null;
    connected = null;
    failedAt = Date.now();
    lost = true;
    void old?.end().catch(() => undefined);
  };
  const connect = (): Promise<boolean> => {
    if (connected) return connected;
    // a connection that failed is opened again, a moment later (PostgreSQL restarted, the network came back)
    if (Date.now() - failedAt < RECONNECT_AFTER_MS) return Promise.resolve(false);
    const fresh = new pg.Client({
      connectionString,
      application_name: 'milepost change clock',
      connectionTimeoutMillis: 2_000,
      query_timeout: CLOCK_TIMEOUT_MS,
      keepAlive: true,
    });
    // a lost connection makes every reading unknown (the cache serves what it has), never a crash
    fresh.on('error', () => client === fresh && drop());
    client = fresh;
    connected = fresh.connect().then(
      () => true,
      () => {
        if (client === fresh) drop();
        return false;
      },
    );
    return connected;
  };
  const query = async (): Promise<string | null> => {
    if (!(await connect()) || !client) return null;
    try {
      const { rows } = await client.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
      lost = false;
      return rows[0]!.snapshot;
    } catch {
      drop();
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
    lost: () => lost,
    async close() {
      failedAt = Number.POSITIVE_INFINITY;
      const open = client;
      client = null;
      if (open && connected && (await connected)) await open.end().catch(() => undefined);
    },
  };
}
