// `milepost backup <file>` and `milepost restore <file>`: online, consistent backups. SQLite through
// its backup API; PostgreSQL through pg_dump and pg_restore (custom format, the service's schema only).
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { type DatabaseConfig, loadDatabaseConfig } from '../config.ts';
import { parseOptions, UsageError } from './args.ts';

const HELP = `Usage: milepost backup <file>     copy the database while the server runs
       milepost restore <file>    replace the database with a backup (stop the server first)

A backup is a consistent snapshot: every write acknowledged before it started is in it, and no write
is in it half. SQLite is copied through its backup API; PostgreSQL through pg_dump (custom format,
Milepost's schema only) and pg_restore, which must be installed (Debian: postgresql-client).`;

/** Runs a PostgreSQL client tool, its output passed through; a missing tool is a usage error. */
function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[]): number {
  const result = spawnSync(tool, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new UsageError(`${tool} is not installed: install PostgreSQL's client tools (Debian: apt-get install postgresql-client)`);
  }
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** The refusal of a restore while a server holds the database: it would go on writing to what is replaced. */
const IN_USE = 'the database is in use (a Milepost server is running on it): stop every server first, then restore';

/** Connections of a Milepost server to this schema (the service names its connections: application_name). */
async function postgresServers(database: Extract<DatabaseConfig, { provider: 'postgresql' }>): Promise<number> {
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      // this database's servers only: Milepost servers of other databases on the same PostgreSQL server
      // (whose schema is `public` too) are no reason to refuse
      `SELECT count(*) AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND application_name = $1 AND datname = current_database()`,
      [`milepost/${database.schema}`.slice(0, 63)],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function postgresBackup(
  database: Extract<DatabaseConfig, { provider: 'postgresql' }>,
  command: 'backup' | 'restore',
  target: string,
): Promise<number> {
  if (command === 'backup') {
    if (existsSync(target)) throw new UsageError(`${target} exists; choose a new file`);
    // one snapshot (pg_dump's own transaction), written beside the target and renamed when whole
    const partial = `${target}.partial`;
    const status = pgTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--schema=${database.schema}`,
      `--file=${partial}`,
      `--dbname=${database.connectionString}`,
    ]);
    if (status !== 0) {
      rmSync(partial, { force: true });
      return status;
    }
    renameSync(partial, target);
    console.log(`backed up schema ${database.schema} to ${target}`);
    return 0;
  }
  if (!existsSync(target)) throw new UsageError(`${target} does not exist`);
  if ((await postgresServers(database)) > 0) throw new UsageError(IN_USE);
  // --clean --if-exists: the schema's tables are replaced by the backup's, in one transaction
  const status = pgTool('pg_restore', [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    `--schema=${database.schema}`,
    `--dbname=${database.connectionString}`,
    target,
  ]);
  if (status === 0) console.log(`restored schema ${database.schema} from ${target}`);
  return status;
}

function check(file: string): void {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const [result] = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (result?.integrity_check !== 'ok') throw new Error(`${file} fails SQLite's integrity check: ${result?.integrity_check}`);
    const migrations = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = '_prisma_migrations'").get() as { n: number };
    if (migrations.n !== 1) throw new Error(`${file} is not a Milepost database (no _prisma_migrations table)`);
  } finally {
    db.close();
  }
}

export async function run(argv: string[], command: 'backup' | 'restore') {
  const { values, positionals } = parseOptions(argv, {});
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`expected one file\n\n${HELP}`);
  const target = path.resolve(positionals[0]!);
  const database = loadDatabaseConfig();
  if (database.provider === 'postgresql') return await postgresBackup(database, command, target);
  const live = database.file;
  if (command === 'backup') {
    if (existsSync(target)) throw new UsageError(`${target} exists; choose a new file`);
    const source = new Sqlite(live, { fileMustExist: true, timeout: 10_000 });
    const partial = `${target}.partial`;
    try {
      // the whole database in one step: one read transaction, so the copy is one consistent moment
      // even while the server writes (WAL lets it go on writing meanwhile)
      await source.backup(partial, { progress: () => 0x7fffffff });
    } finally {
      source.close();
    }
    // the copy keeps the live database's WAL mode: made a single file, it leaves no -wal or -shm beside it
    const copy = new Sqlite(partial);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    check(partial);
    for (const suffix of ['-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
    renameSync(partial, target);
    console.log(`backed up ${live} to ${target}`);
    return 0;
  }
  check(target);
  // a WAL database leaves its journal mode only for a connection that is alone on it: a running server
  // (or any other process) keeps it open, and would go on writing to the file the restore replaces
  if (existsSync(live)) {
    const sole = new Sqlite(live, { fileMustExist: true, timeout: 0 });
    try {
      sole.pragma('journal_mode = DELETE');
    } catch (error) {
      if (/locked|busy/i.test((error as Error).message)) throw new UsageError(IN_USE);
      throw error;
    } finally {
      sole.close();
    }
  }
  const from = new Sqlite(target, { readonly: true, fileMustExist: true });
  const staging = `${live}.restoring`;
  try {
    await from.backup(staging, { progress: () => 0x7fffffff });
  } finally {
    from.close();
  }
  // swap in one rename; the old WAL must not be replayed over the restored file
  for (const suffix of ['-wal', '-shm']) rmSync(`${live}${suffix}`, { force: true });
  renameSync(staging, live);
  console.log(`restored ${live} from ${target}`);
  return 0;
}
