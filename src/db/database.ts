// Opens the configured database: SQLite through better-sqlite3 by default, PostgreSQL through pg.
// Both generated clients come from one model and expose the same API; the SQLite client's types
// describe both.

import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { clearLogs } from '@prisma/debug';
import BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { PrismaClient as PostgresPrismaClient } from '../generated/prisma-postgres/client.ts';
import { PrismaClient, type Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import { type Checkpointer, type CheckpointResult, checkpointer } from './checkpointer.ts';
import { durableCommits, logSync } from './durable-commits.ts';
import { storedDate } from './entry-rows.ts';
import { retryingRead } from './errors.ts';
import { KEPT_DOCUMENTS, KeptDocuments } from './kept-documents.ts';
import { keptStatements } from './kept-statements.ts';
import { KeptStats } from './kept-stats.ts';
import { lockWaits, waitingForLocks } from './lock-waits.ts';
import { applyMigrations } from './migrate.ts';
import { oneWriter } from './one-writer.ts';

export type Prisma = PrismaClient;
/** The client a `$transaction` callback receives. */
export type Transaction = Parameters<Parameters<Prisma['$transaction']>[0]>[0];
/** The client as created: it also emits `query` events, which count and log SQL. */
type LoggingPrisma = PrismaClient<'query'>;

export interface Database {
  readonly provider: DatabaseConfig['provider'];
  readonly prisma: Prisma;
  /**
   * The rows of one raw statement on the hot read path (a stream page, a token's viewer): values
   * always travel as parameters. On a SQLite file it runs on a read-only connection of its own, its
   * prepared statements kept, without a trip through Prisma's query interpreter; elsewhere through
   * Prisma's `$queryRaw`. Either way it sees every committed write and is counted as a statement.
   * A read cut off by a lost connection is tried again.
   */
  read<T>(query: Sql.Sql): Promise<T[]>;
  /** Entry documents kept for the stream pages of this database (db/kept-documents.ts). */
  readonly documents: KeptDocuments;
  /** People's stats, records and streaks kept per revision of what they count (db/kept-stats.ts). */
  readonly stats: KeptStats;
  /** SQL statements run so far by this client (tests and the benchmark read it). */
  queryCount(): number;
  /** Calls `listener` after every SQL statement with its time and text (metrics, LOG_QUERIES); returns the unsubscribe. */
  onQuery(listener: (durationMs: number, sql: string) => void): () => void;
  /** After rows were inserted with explicit ids: moves PostgreSQL's id sequences past them (no-op on SQLite). */
  syncSequences(): Promise<void>;
  /**
   * After a bulk load: vacuums this schema's tables and refreshes PostgreSQL's planner statistics
   * (no-op on SQLite). Autovacuum may be off, and until then a fresh table's plans are poor and the
   * row versions left by the load's revision triggers (three an entry) stay in the way of its reads.
   */
  analyze(): Promise<void>;
  /**
   * On a SQLite file, checkpoints the write-ahead log now on the checkpoint thread, which otherwise does
   * it every second while commits come (db/checkpointer.ts); null elsewhere, or once the server's
   * connection checkpoints again itself.
   */
  checkpoint(): Promise<CheckpointResult | null>;
  close(): Promise<void>;
}

/**
 * Lets go of the statements Prisma's driver adapters remember. They keep the arguments of their last
 * 100 statements, for a crash report, whatever the log settings: after a track's write that is its
 * points as base64 text and as bytes (three 100,000-point uploads left 14 MB), held until a hundred
 * more statements went through Prisma, which on SQLite, whose reads bypass it, can be a long while.
 */
export function forgetStatementArguments(): void {
  clearLogs();
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
  /** Hears of each migration applied, with how long it took (the server logs them). */
  onMigrated?: (name: string, milliseconds: number) => void;
  /** Freeze the entry documents kept between pages (default true; the server leaves it out in production). */
  freezeKeptDocuments?: boolean;
  /** How a SQLite file's write-ahead log is synced before a write is reported done (tests; default fdatasync). */
  syncLog?: (path: string) => Promise<void>;
}

const QUERY_LOG = [{ emit: 'event', level: 'query' }] as const;

/** How a SQLite file's commits are made durable, and who hears of them (null: not a file). */
interface Commits {
  syncLog?: (path: string) => Promise<void>;
  written(): void;
}

/** PostgreSQL: the longest wait for a connection, and for a statement (the hot reads take milliseconds). */
const CONNECT_TIMEOUT_MS = 3_000;
const READ_STATEMENT_TIMEOUT_MS = 5_000;
/** Writes include a 200,000-point track's (see TRACK_TRANSACTION). */
const WRITE_STATEMENT_TIMEOUT_MS = 30_000;

function createClient(database: DatabaseConfig, commits: Commits | null): LoggingPrisma {
  if (database.provider === 'sqlite') {
    if (database.file !== ':memory:') mkdirSync(path.dirname(database.file), { recursive: true });
    // no busy wait inside SQLite, which would hold the event loop: a statement refused for another
    // process's lock is tried again on a timer, for a bounded time (db/lock-waits.ts); no statement
    // runs inside another caller's open transaction (db/one-writer.ts); a statement is prepared once,
    // not at every run (db/kept-statements.ts)
    const connection = oneWriter(lockWaits(keptStatements(new PrismaBetterSqlite3({ url: database.file, timeout: 0 }))));
    // a file's commits are synced off the event loop, and reported done once synced (db/durable-commits.ts)
    const adapter = commits ? durableCommits(connection, logSync(database.file, commits.syncLog), commits.written) : connection;
    return new PrismaClient({ adapter, log: [...QUERY_LOG] });
  }
  const adapter = new PrismaPg(
    // named in pg_stat_activity, so that an operator (or a fault test) can tell this service's connections apart
    {
      connectionString: database.connectionString,
      options: `-c search_path=${database.schema} -c statement_timeout=${WRITE_STATEMENT_TIMEOUT_MS}`,
      application_name: `milepost/${database.schema}`.slice(0, 63),
      // bounded waits: a database away or a network blackhole answers 503 in seconds, never holds a request for minutes
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: WRITE_STATEMENT_TIMEOUT_MS + 1_000,
      keepAlive: true,
    },
    { schema: database.schema, statementNameGenerator: statementName },
  );
  // same model, same generated API: only the query compiler's SQL dialect differs
  return new PostgresPrismaClient({ adapter, log: [...QUERY_LOG] }) as unknown as LoggingPrisma;
}

/**
 * Statements PostgreSQL keeps prepared on each connection, by the digest of their text: the server
 * parses and plans a stream page's statement once a connection, not on every request, and only its
 * parameters travel. Every text comes from the code (values always travel as parameters), so the
 * statements of a connection are bounded by the shapes the code can build.
 */
function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (name === undefined) {
    // the texts are bounded by the code's shapes; the guard only keeps a surprise from growing it
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(query.sql, (name = `m${createHash('sha1').update(query.sql).digest('base64url')}`));
  }
  return name;
}
/** Names by statement text: a page's text is hashed once, not on every request. */
const statementNames = new Map<string, string>();

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
  if (options.migrate ?? true) await applyMigrations(database, undefined, options.onMigrated);
  const file = database.provider === 'sqlite' && database.file !== ':memory:' ? database.file : null;
  const checkpoints = file ? checkpointsOffThread(file, () => prisma) : null;
  const prisma = createClient(database, checkpoints && { syncLog: options.syncLog, written: () => checkpoints.written() });
  let count = 0;
  const listeners = new Set<(durationMs: number, sql: string) => void>();
  prisma.$on('query', (event) => {
    count += 1;
    for (const listener of listeners) listener(event.duration, event.query);
  });
  await prisma.$connect();
  let reader: Reader | null = null;
  if (file) {
    // WAL (set by the migrator, kept in the file). A write acknowledged survives a power cut: each
    // commit's log is synced before Prisma reports it done, in libuv's thread pool rather than by
    // SQLite on the event loop, hence NORMAL (db/durable-commits.ts). One connection: one writer, no
    // SQLITE_BUSY races.
    await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
    reader = createSqliteReader(file);
    await checkpoints?.take();
  } else if (database.provider === 'postgresql') {
    reader = createPostgresReader(database);
  }
  const counted = (started: number, sql: string) => {
    count += 1;
    const duration = performance.now() - started;
    for (const listener of listeners) listener(duration, sql);
  };
  return {
    provider: database.provider,
    prisma: withReadRetry(prisma) as unknown as Prisma,
    read: async <T>(query: Sql.Sql): Promise<T[]> => {
      if (!reader) return retryingRead(() => prisma.$queryRaw<T[]>(query));
      const started = performance.now();
      const rows = (await reader.all(query)) as T[];
      counted(started, query.sql);
      return rows;
    },
    documents: new KeptDocuments(KEPT_DOCUMENTS, options.freezeKeptDocuments ?? true),
    stats: new KeptStats(),
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
      for (const { name } of tables) await prisma.$executeRawUnsafe(`VACUUM (ANALYZE) "${name.replaceAll('"', '""')}"`);
    },
    checkpoint: async () => (checkpoints ? checkpoints.checkpoint() : null),
    close: async () => {
      await checkpoints?.close();
      await reader?.close();
      await prisma.$disconnect();
    },
  };
}

/**
 * The checkpoints of a SQLite file, on a thread of their own (db/checkpointer.ts): Prisma's connection
 * stops checkpointing when the database opens, and takes it back for good if the thread fails.
 */
function checkpointsOffThread(file: string, connection: () => LoggingPrisma): Checkpointer & { take(): Promise<unknown> } {
  // in order on the one connection: a thread that fails at once still gets its checkpoints handed
  // back after they were taken from the connection
  let handover: Promise<unknown> = Promise.resolve();
  const checkpoints = checkpointer(file, {
    onStopped(reason) {
      console.error(`milepost: ${reason}; SQLite checkpoints run on the server's connection again`);
      handover = handover
        .then(() => connection().$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`))
        .catch(() => undefined);
    },
  });
  return Object.assign(checkpoints, {
    /** Takes the checkpoints from Prisma's connection (once it is open). */
    take: () => (handover = connection().$queryRawUnsafe('PRAGMA wal_autocheckpoint = 0')),
  });
}

/** SQLite's own default: a commit that takes the log past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** Where the hot reads run: a connection of their own, beside Prisma's. */
interface Reader {
  all(query: Sql.Sql): unknown[] | Promise<unknown[]>;
  close(): void | Promise<void>;
}

/** Connections the PostgreSQL reader keeps: PostgreSQL shares the machine's cores with this process. */
const POSTGRES_READER_CONNECTIONS = 8;

/**
 * The hot reads of PostgreSQL on a pool of their own, through pg directly: Prisma's `$queryRaw`
 * spent about 0.5 ms of this process's CPU on each statement (its query interpreter, the parameters'
 * and the rows' conversions), more than pg's own work. Every statement stays prepared on each
 * connection (named by the digest of its text), so a page's statement is parsed and planned once a
 * connection. Values come back as Prisma's would, where the readers rely on it: a `timestamp(3)` is
 * UTC, as Prisma writes it, whatever the process's time zone.
 */
function createPostgresReader(database: Extract<DatabaseConfig, { provider: 'postgresql' }>): Reader {
  const pool = new pg.Pool({
    connectionString: database.connectionString,
    options: `-c search_path=${database.schema} -c statement_timeout=${READ_STATEMENT_TIMEOUT_MS}`,
    application_name: `milepost/${database.schema}`.slice(0, 63),
    max: POSTGRES_READER_CONNECTIONS,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: READ_STATEMENT_TIMEOUT_MS + 500,
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === TIMESTAMP_OID ? storedDate : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // a connection lost while idle (PostgreSQL restarted) is dropped and the next read opens another: never a crash
  pool.on('error', () => undefined);
  return {
    all: (query) =>
      retryingRead(async () => {
        const values = query.values.map((value) => (value instanceof Date ? value.toISOString() : value));
        const result = await pool.query({ name: statementName({ sql: query.text }), text: query.text, values });
        return result.rows;
      }),
    close: () => pool.end(),
  };
}

/** PostgreSQL's `timestamp without time zone`: read as the UTC moment Prisma wrote, as a page's are. */
const TIMESTAMP_OID = 1114;

/** Prepared statements a reader keeps: the hot reads have a few dozen shapes. */
const READER_STATEMENTS = 200;

/**
 * A read-only connection to a SQLite file for the hot reads. In WAL mode it reads beside the writer
 * without waiting for it, and each statement sees every transaction committed before it began, as
 * the writer's own connection would. Its prepared statements are kept, by text, least recently used
 * last out: SQLite compiles a stream page's statement once, not on every request.
 */
function createSqliteReader(file: string): Reader {
  // as the writer's: never a busy wait on the event loop (db/lock-waits.ts)
  const connection = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 0 });
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: READER_STATEMENTS });
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    all: (query: Sql.Sql) => waitingForLocks(() => prepared(query.sql).all(query.values.map(sqliteValue))),
    close: () => void connection.close(),
  };
}

/** A parameter as Prisma's SQLite adapter writes it, so that comparisons with stored values hold. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
