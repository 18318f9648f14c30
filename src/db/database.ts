// Opens the configured database: SQLite through better-sqlite3 by default, PostgreSQL through pg.
// Both generated clients come from one model and expose the same API; the SQLite client's types
// describe both.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { DatabaseConfig } from '../config.ts';
import { PrismaClient } from '../generated/prisma-sqlite/client.ts';
import { PrismaClient as PostgresPrismaClient } from '../generated/prisma-postgres/client.ts';
import { retryingRead } from './errors.ts';
import { applyMigrations } from './migrate.ts';

export type Prisma = PrismaClient;
/** The client as created: it also emits `query` events, which count and log SQL. */
type LoggingPrisma = PrismaClient<'query'>;

export interface Database {
  readonly provider: DatabaseConfig['provider'];
  readonly prisma: Prisma;
  /** SQL statements run so far by this client (tests and the benchmark read it). */
  queryCount(): number;
  /** Calls `listener` after every SQL statement with its time and text (metrics, LOG_QUERIES); returns the unsubscribe. */
  onQuery(listener: (durationMs: number, sql: string) => void): () => void;
  /** After rows were inserted with explicit ids: moves PostgreSQL's id sequences past them (no-op on SQLite). */
  syncSequences(): Promise<void>;
  /**
   * After a bulk load: refreshes PostgreSQL's planner statistics of this schema's tables (no-op on
   * SQLite). Autovacuum may be off, and until then a fresh table's plans are poor.
   */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/** Tables whose `id` is autoincrement: a sequence on PostgreSQL. */
const SEQUENCE_TABLES = [
  'Person',
  'Entry',
  'Comment',
  'Like',
  'Route',
  'Track',
  'OAuthClient',
  'OAuthRedirectUri',
  'OAuthAuthorizationCode',
  'OAuthAccessToken',
];

export interface OpenOptions {
  /** Apply pending migrations first (default true). */
  migrate?: boolean;
}

const QUERY_LOG = [{ emit: 'event', level: 'query' }] as const;

function createClient(database: DatabaseConfig): LoggingPrisma {
  if (database.provider === 'sqlite') {
    if (database.file !== ':memory:') mkdirSync(path.dirname(database.file), { recursive: true });
    // timeout: concurrent writers wait for the lock instead of failing with SQLITE_BUSY
    const adapter = new PrismaBetterSqlite3({ url: database.file, timeout: 10_000 });
    return new PrismaClient({ adapter, log: [...QUERY_LOG] });
  }
  const adapter = new PrismaPg(
    // named in pg_stat_activity, so that an operator (or a fault test) can tell this service's connections apart
    {
      connectionString: database.connectionString,
      options: `-c search_path=${database.schema}`,
      application_name: `milepost/${database.schema}`.slice(0, 63),
    },
    { schema: database.schema },
  );
  // same model, same generated API: only the query compiler's SQL dialect differs
  return new PostgresPrismaClient({ adapter, log: [...QUERY_LOG] }) as unknown as LoggingPrisma;
}

/** Reads: running one again changes nothing, so a read cut off by a lost connection is tried again. */
const READS = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'count', 'aggregate', 'groupBy']);

/** The client, with reads retried after a transient failure (writes never: they may have committed). */
function withReadRetry(prisma: LoggingPrisma) {
  return prisma.$extends({
    query: {
      async $allOperations({ operation, args, query }) {
        return READS.has(operation) ? retryingRead(() => query(args)) : query(args);
      },
    },
  });
}

export async function openDatabase(database: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  if (options.migrate ?? true) await applyMigrations(database);
  const prisma = createClient(database);
  let count = 0;
  const listeners = new Set<(durationMs: number, sql: string) => void>();
  prisma.$on('query', (event) => {
    count += 1;
    for (const listener of listeners) listener(event.duration, event.query);
  });
  await prisma.$connect();
  if (database.provider === 'sqlite' && database.file !== ':memory:') {
    // WAL (set by the migrator, kept in the file) with FULL sync: a write acknowledged survives a
    // power cut, at the price of an fsync per commit. One connection: one writer, no SQLITE_BUSY races.
    await prisma.$queryRawUnsafe('PRAGMA synchronous = FULL');
  }
  return {
    provider: database.provider,
    prisma: withReadRetry(prisma) as unknown as Prisma,
    queryCount: () => count,
    onQuery(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async syncSequences() {
      if (database.provider !== 'postgresql') return;
      for (const table of SEQUENCE_TABLES) {
        // table names are the constants above, never input
        await prisma.$executeRawUnsafe(
          `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM "${table}"`,
        );
      }
    },
    async analyze() {
      if (database.provider !== 'postgresql') return;
      const tables = await prisma.$queryRawUnsafe<Array<{ name: string }>>(
        'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()',
      );
      // names from the catalogue, quoted as identifiers
      for (const { name } of tables) await prisma.$executeRawUnsafe(`ANALYZE "${name.replaceAll('"', '""')}"`);
    },
    close: () => prisma.$disconnect(),
  };
}
