// Applies the committed Prisma migrations at start-up, without Prisma's native schema engine
// (it cannot be downloaded offline). Each migration is recorded in `_prisma_migrations` exactly as
// `prisma migrate deploy` records it, so stock Prisma tooling agrees wherever the binary exists.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export function migrationsDir(provider: DatabaseConfig['provider']): string {
  return path.join(root, provider === 'sqlite' ? 'prisma/migrations' : 'prisma/postgres/migrations');
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** What the runner needs of a database: one connection, a script runner and a lock. */
interface MigrationConnection {
  exec(script: string): Promise<void>;
  appliedMigrations(): Promise<Array<{ migration_name: string; checksum: string; finished_at: unknown }>>;
  record(migration: Migration, startedAt: Date): Promise<void>;
  /** Runs fn while holding a lock that keeps a second process from migrating at the same time. */
  locked<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

const POSTGRES_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** How long a start waits for another process's switch of a fresh file to WAL, at most. */
const WAL_SWITCH_WAIT_MS = 10_000;

/**
 * Puts the file in WAL mode. Two processes opening a fresh file at once both hold its shared lock when
 * they ask to switch, and SQLite answers one of them SQLITE_BUSY at once, without its busy timeout (to
 * wait would deadlock them): that one waits a moment and asks again, by then finding WAL or the lock
 * free. Only at start-up, before anything is served.
 */
function toWal(db: Sqlite.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + WAL_SWITCH_WAIT_MS; ; ) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 25 + Math.random() * 50);
    }
  }
}

function sqliteConnection(file: string): MigrationConnection {
  // the first start of a fresh checkout: ./data/ does not exist yet
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Sqlite(file);
  // the timeout first: switching a fresh file to WAL needs its lock, and a second process starting at
  // the same moment must wait for it, not fail at once with SQLITE_BUSY
  db.pragma('busy_timeout = 10000');
  toWal(db);
  return {
    async exec(script) {
      db.exec(script);
    },
    async appliedMigrations() {
      db.exec(SQLITE_TABLE);
      return db
        .prepare('SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL')
        .all() as Array<{ migration_name: string; checksum: string; finished_at: unknown }>;
    },
    async record(migration, startedAt) {
      // Prisma stores SQLite DATETIME columns as milliseconds since the epoch
      db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES (?, ?, ?, ?, ?, 1)`,
      ).run(randomUUID(), migration.checksum, Date.now(), migration.name, startedAt.getTime());
    },
    async locked(fn) {
      // Prisma's SQLite migrations rebuild tables (create new, copy, DROP old) between
      // `PRAGMA foreign_keys=OFF` and `ON`. Those pragmas do nothing inside a transaction, and with
      // foreign keys on, DROP TABLE would cascade-delete every referencing row. So keys are turned
      // off before the transaction and checked before it commits.
      db.pragma('foreign_keys = OFF');
      // BEGIN IMMEDIATE takes SQLite's write lock: a second process waits (busy_timeout) and then
      // sees the migrations as applied.
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn();
        const violations = db.pragma('foreign_key_check') as unknown[];
        if (violations.length > 0) {
          throw new MigrationError(`migration left ${violations.length} rows that break foreign keys; nothing was applied`);
        }
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        db.pragma('foreign_keys = ON');
      }
    },
    async close() {
      db.close();
    },
  };
}

/**
 * A database named in DATABASE_URL that does not exist is made when the role may (CREATE DATABASE, as
 * `createdb` would); else the start stops with what to do, not a stack trace.
 */
async function connectCreating(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    return client;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(connectionString);
  admin.pathname = '/postgres';
  const maintenance = new pg.Client({ connectionString: admin.toString() });
  try {
    await maintenance.connect();
    await maintenance.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // another process made it meanwhile: fine
    if ((error as { code?: string }).code !== '42P04')
      throw new MigrationError(
        `the PostgreSQL database "${name}" does not exist, and it could not be made (${(error as Error).message}): create it with \`createdb ${name}\` (or \`CREATE DATABASE "${name}"\`), or point DATABASE_URL at one that exists`,
      );
  } finally {
    await maintenance.end().catch(() => undefined);
  }
  const created = new pg.Client({ connectionString });
  await created.connect();
  return created;
}

async function postgresConnection(connectionString: string, schema: string): Promise<MigrationConnection> {
  const client = await connectCreating(connectionString);
  await client.query(`SET search_path TO "${schema}"`);
  return {
    async exec(script) {
      await client.query(script);
    },
    async appliedMigrations() {
      await client.query(POSTGRES_TABLE);
      const { rows } = await client.query(
        'SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL',
      );
      return rows;
    },
    async record(migration, startedAt) {
      await client.query(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, $4, 1)`,
        [randomUUID(), migration.checksum, migration.name, startedAt],
      );
    },
    async locked(fn) {
      // the same advisory lock key Prisma's own migrate uses, scoped by schema so test schemas don't serialize
      const key = createHash('sha256').update(`milepost-migrate:${schema}`).digest().readInt32BE(0);
      await client.query('SELECT pg_advisory_lock($1)', [key]);
      try {
        // under the lock: two processes creating the schema at once would collide in pg_namespace
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await client.query('BEGIN');
        const result = await fn();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    },
    async close() {
      await client.end();
    },
  };
}

export async function openMigrationConnection(database: DatabaseConfig): Promise<MigrationConnection> {
  return database.provider === 'sqlite' ? sqliteConnection(database.file) : postgresConnection(database.connectionString, database.schema);
}

/**
 * Applies every migration not yet recorded, in name order, each inside the migration lock.
 * Returns the names applied; `applied` hears of each as it is done, with how long it took. A recorded
 * migration whose file changed since is an error: the database and the repository disagree and a
 * person must decide.
 */
export async function applyMigrations(
  database: DatabaseConfig,
  migrations: Migration[] = readMigrations(migrationsDir(database.provider)),
  applied: (name: string, milliseconds: number) => void = () => undefined,
): Promise<string[]> {
  const connection = await openMigrationConnection(database);
  try {
    return await connection.locked(async () => {
      const recorded = new Map((await connection.appliedMigrations()).map((row) => [row.migration_name, row]));
      const done: string[] = [];
      for (const migration of migrations) {
        const previous = recorded.get(migration.name);
        if (previous) {
          if (previous.checksum !== migration.checksum) {
            throw new MigrationError(
              `migration ${migration.name} was modified after it was applied (checksum differs); restore the file or repair the database`,
            );
          }
          if (previous.finished_at === null) {
            throw new MigrationError(`migration ${migration.name} failed earlier and was never finished; repair the database`);
          }
          continue;
        }
        const startedAt = new Date();
        await connection.exec(migration.sql);
        await connection.record(migration, startedAt);
        done.push(migration.name);
        applied(migration.name, Date.now() - startedAt.getTime());
      }
      return done;
    });
  } finally {
    await connection.close();
  }
}
