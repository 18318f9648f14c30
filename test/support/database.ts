// A fresh, migrated database for one test file: a temporary SQLite file, or (in the postgres project)
// a schema of its own on TEST_POSTGRES_URL, so files running in parallel never share rows.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Config, type DatabaseConfig, loadConfig, parseDatabaseUrl } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/database.ts';

export const provider = process.env.MILEPOST_TEST_DB === 'postgres' ? 'postgresql' : 'sqlite';

export interface TestDatabase extends Database {
  config: DatabaseConfig;
  /** Drops the schema or deletes the file. */
  destroy(): Promise<void>;
}

let counter = 0;

/** A database config nobody else uses; nothing is created until it is opened. */
export function freshDatabaseConfig(label = 'test'): { config: DatabaseConfig; destroy: () => Promise<void> } {
  counter += 1;
  if (provider === 'postgresql') {
    const url = new URL(process.env.TEST_POSTGRES_URL!);
    const schema = `mp_${label}_${process.pid}_${Date.now().toString(36)}_${counter}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
    url.searchParams.set('schema', schema);
    const config = parseDatabaseUrl(url.toString());
    return {
      config,
      destroy: async () => {
        const client = new pg.Client({ connectionString: (config as { connectionString: string }).connectionString });
        await client.connect();
        // a write the test left in flight can lock the same tables in the other order: PostgreSQL then
        // ends one of the two (deadlock, 40P01); the drop is tried again once the write is gone
        for (let attempt = 1; ; attempt++) {
          try {
            await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '40P01' || attempt === 3) throw error;
          }
        }
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `milepost-${label}-`));
  return {
    config: parseDatabaseUrl(`file:${path.join(dir, 'milepost.db')}`),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function createTestDatabase(label?: string): Promise<TestDatabase> {
  const { config, destroy } = freshDatabaseConfig(label);
  const database = await openDatabase(config);
  return Object.assign(Object.create(null) as object, database, {
    config,
    destroy: async () => {
      await database.close();
      await destroy();
    },
  }) as TestDatabase;
}

/** The service's configuration for tests, pointing at `database`. */
export function testConfig(database: DatabaseConfig, overrides: Record<string, string> = {}): Config {
  // suites send thousands of requests from one address; the rate limit's own tests set it low
  // uploaded photos go to a directory of the test's own
  const mediaDir = overrides.MEDIA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'milepost-media-'));
  return { ...loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_HOUR: '10000000', ...overrides, MEDIA_DIR: mediaDir }), database };
}
