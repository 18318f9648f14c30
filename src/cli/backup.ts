// `milepost backup <file>` and `milepost restore <file>`: online, consistent SQLite backups through
// SQLite's backup API. PostgreSQL has pg_dump and pg_restore for that (see README).
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { loadConfig } from '../config.ts';
import { parseOptions, UsageError } from './args.ts';

const HELP = `Usage: milepost backup <file>     copy the SQLite database while the server runs
       milepost restore <file>    replace the SQLite database with a backup (stop the server first)

A backup is a consistent snapshot: every write acknowledged before it started is in it, and no write
is in it half. On PostgreSQL use pg_dump and pg_restore instead (README, "Deployment").`;

function sqliteFile(): string {
  const { database } = loadConfig();
  if (database.provider !== 'sqlite') {
    throw new UsageError('backup and restore work on SQLite; on PostgreSQL use pg_dump and pg_restore (see README)');
  }
  return database.file;
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
  const live = sqliteFile();
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
    check(partial);
    renameSync(partial, target);
    console.log(`backed up ${live} to ${target}`);
    return 0;
  }
  check(target);
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
