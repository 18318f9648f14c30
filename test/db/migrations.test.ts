// The start-up migration runner: records migrations as Prisma does, applies each once, refuses edits.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations, MigrationError, migrationsDir, readMigrations } from '../../src/db/migrate.ts';
import { runCli } from '../support/cli.ts';
import { freshDatabaseConfig, provider } from '../support/database.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
function fresh() {
  const { config, destroy } = freshDatabaseConfig('migrate');
  cleanups.push(destroy);
  return config;
}

describe('applyMigrations', () => {
  it('applies every committed migration once and records it the way prisma migrate does', async () => {
    const config = fresh();
    const committed = readMigrations(migrationsDir(config.provider));
    expect(committed.length).toBeGreaterThan(0);
    expect(await applyMigrations(config)).toEqual(committed.map((m) => m.name));
    expect(await applyMigrations(config)).toEqual([]);

    const database = await openDatabase(config, { migrate: false });
    try {
      const rows = await database.prisma.$queryRawUnsafe<
        Array<{ migration_name: string; checksum: string; applied_steps_count: number | bigint }>
      >('SELECT migration_name, checksum, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name');
      const first = committed[0]!;
      const sha = createHash('sha256')
        .update(readFileSync(path.join(migrationsDir(config.provider), first.name, 'migration.sql')))
        .digest('hex');
      expect(rows.map((r) => r.migration_name)).toEqual(committed.map((m) => m.name));
      expect(rows[0]!.checksum).toBe(sha);
      expect(Number(rows[0]!.applied_steps_count)).toBe(1);
      // the schema is usable: a table of the model exists
      expect(await database.prisma.person.count()).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('refuses to start when an applied migration was edited afterwards', async () => {
    const config = fresh();
    const committed = readMigrations(migrationsDir(config.provider));
    await applyMigrations(config);
    const edited = committed.map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64) } : m));
    await expect(applyMigrations(config, edited)).rejects.toBeInstanceOf(MigrationError);
  });

  it('applies a new migration after the committed ones, and a failing one leaves nothing half-applied', async () => {
    const config = fresh();
    await applyMigrations(config);
    const committed = readMigrations(migrationsDir(config.provider));
    const extra = { name: '99999999999999_extra', sql: 'CREATE TABLE "Extra" ("id" INTEGER PRIMARY KEY);', checksum: 'x'.repeat(64) };
    expect(await applyMigrations(config, [...committed, extra])).toEqual(['99999999999999_extra']);

    const broken = {
      name: '99999999999999_zbroken',
      sql: 'CREATE TABLE "Half" ("id" INTEGER PRIMARY KEY);\nTHIS IS NOT SQL;',
      checksum: 'y'.repeat(64),
    };
    await expect(applyMigrations(config, [...committed, extra, broken])).rejects.toThrow();
    const database = await openDatabase(config, { migrate: false });
    try {
      const tables = await database.prisma.$queryRawUnsafe<Array<{ name: string }>>(
        provider === 'sqlite'
          ? `SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Half'`
          : `SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'Half' AND table_schema = current_schema()`,
      );
      expect(tables).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('keeps the rows of tables that later migrations rebuild, and the rows that reference them', async () => {
    const config = fresh();
    const all = readMigrations(migrationsDir(config.provider));
    const rebuilding = all.findIndex((m) => m.name.endsWith('_gpx_details'));
    expect(rebuilding).toBeGreaterThan(0);
    await applyMigrations(config, all.slice(0, rebuilding));
    const before = await openDatabase(config, { migrate: false });
    try {
      const person = await before.prisma.$executeRawUnsafe(
        `INSERT INTO "Person" ("username", "usernameKey", "displayName") VALUES ('old', 'old', 'Old')`,
      );
      expect(person).toBe(1);
      await before.prisma.$executeRawUnsafe(`INSERT INTO "Route" ("ownerId", "name") VALUES (1, 'Kept')`);
      await before.prisma.$executeRawUnsafe(`INSERT INTO "Track" ("routeId", "pointCount") VALUES (1, 2)`);
      await before.prisma.$executeRawUnsafe(
        `INSERT INTO "TrackPoint" ("trackId", "seq", "lat", "lon") VALUES (1, 0, 1.5, 2.5), (1, 1, 1.6, 2.6)`,
      );
    } finally {
      await before.close();
    }
    // up to and including the migration that rebuilds Track and TrackPoint (a later one packs the points)
    await applyMigrations(config, all.slice(0, rebuilding + 1));
    const after = await openDatabase(config, { migrate: false });
    try {
      const points = await after.prisma.$queryRawUnsafe<Array<{ n: number | bigint }>>('SELECT count(*) AS n FROM "TrackPoint"');
      expect(Number(points[0]!.n)).toBe(2);
      expect(await after.prisma.track.findFirstOrThrow({ select: { pointCount: true, elevationGain: true } })).toEqual({
        pointCount: 2,
        elevationGain: 0,
      });
    } finally {
      await after.close();
    }
  });

  it('lets two processes start at once without applying a migration twice', async () => {
    const config = fresh();
    const migrate = () => runCli(['migrate'], { DATABASE_URL: config.url });
    const [a, b] = await Promise.all([migrate(), migrate()]);
    expect([a.code, b.code], `${a.stderr}\n${b.stderr}`).toEqual([0, 0]);
    const committed = readMigrations(migrationsDir(config.provider)).map((m) => m.name);
    // exactly one of them applied the migrations; the other waited for the lock and found nothing to do
    // each migration named as it is applied, with its time
    const named = committed.map((name) => new RegExp(`^applied migration ${name} \\(\\d+ ms\\)$`));
    const [applier, waiter] = a.stdout.includes('applied migration') ? [a, b] : [b, a];
    expect(applier.stdout.trim().split('\n')).toEqual(named.map((pattern) => expect.stringMatching(pattern)));
    expect(waiter.stdout.trim()).toBe('database is up to date');
    const database = await openDatabase(config, { migrate: false });
    try {
      const rows = await database.prisma.$queryRawUnsafe<unknown[]>('SELECT migration_name FROM "_prisma_migrations"');
      expect(rows).toHaveLength(committed.length);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(provider !== 'postgresql')('a PostgreSQL database that does not exist', () => {
  it('is made at the first start when the role may, and migrated', async () => {
    const url = new URL(process.env.TEST_POSTGRES_URL!);
    const name = `milepost_missing_${process.pid}_${Date.now().toString(36)}`;
    url.pathname = `/${name}`;
    const cleanup = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await cleanup.connect();
    try {
      const config = parseDatabaseUrl(url.toString());
      const applied = await applyMigrations(config);
      expect(applied.length).toBeGreaterThan(5);
      const { rows } = await cleanup.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      expect(rows).toHaveLength(1);
    } finally {
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await cleanup.end();
    }
  });

  it('stops the start with what to do when the role may not make it', async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await admin.connect();
    const role = `milepost_nocreate_${process.pid}`;
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN NOCREATEDB`).catch(() => undefined);
      const url = new URL(process.env.TEST_POSTGRES_URL!);
      url.pathname = '/milepost_never_made';
      url.username = role;
      const error = await applyMigrations(parseDatabaseUrl(url.toString())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(/database "milepost_never_made" does not exist.*createdb milepost_never_made/);
    } finally {
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  });
});
