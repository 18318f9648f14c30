// The one module that reads the environment: defaults, and errors that name the variable.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../../src/config.ts';

describe('loadConfig', () => {
  it('defaults to SQLite at ./data/milepost.db on port 3000, GraphiQL on outside production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', port: 3000, host: '0.0.0.0', graphiql: true, publicUrl: null });
    expect(config.database).toEqual({ provider: 'sqlite', url: 'file:./data/milepost.db', file: path.resolve('data/milepost.db') });
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }).graphiql).toBe(false);
  });

  it('needs SESSION_SECRET in production, and a long one anywhere', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/^SESSION_SECRET: is required in production/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/^SESSION_SECRET: must be at least 32 characters/);
    // tests make their own each time
    expect(loadConfig({ NODE_ENV: 'test' }).sessionSecret).not.toBe(loadConfig({ NODE_ENV: 'test' }).sessionSecret);
  });

  it('without SESSION_SECRET outside production, makes one once and keeps it in the data directory (0600): a restart logs nobody out', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'milepost-secret-'));
    const env = { DATABASE_URL: `file:${path.join(dir, 'milepost.db')}` };
    const first = loadConfig(env).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(env).sessionSecret).toBe(first);
    const file = path.join(dir, 'session-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    rmSync(dir, { recursive: true, force: true });
  });

  it('chooses PostgreSQL for a postgres URL, with its schema', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/milepost?schema=app' }).database).toEqual({
      provider: 'postgresql',
      url: 'postgresql://u:p@db:5432/milepost?schema=app',
      connectionString: 'postgresql://u:p@db:5432/milepost',
      schema: 'app',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/milepost' }).database).toMatchObject({ provider: 'postgresql', schema: 'public' });
  });

  it.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '3.5' }, 'PORT'],
    [{ GRAPHIQL: 'maybe' }, 'GRAPHIQL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'postgresql://db/x?schema=a;drop' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'file:' }, 'DATABASE_URL'],
    [{ MAP_TILE_URL: 'https://tiles.example/{z}/{x}.png' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'javascript:{z}{x}{y}' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'no url {z}/{x}/{y}' }, 'MAP_TILE_URL'],
  ])('rejects %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });

  it('lets the heap grow 20% past its live size by default, and as V8 chooses with 0', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(20);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: 'lots' })).toThrow(/^HEAP_GROWTH_PERCENT: /);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '1000' })).toThrow(/^HEAP_GROWTH_PERCENT: /);
  });

  it('draws maps on OpenStreetMap’s tiles unless told otherwise', () => {
    expect(loadConfig({}).mapTiles).toEqual({
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    });
    expect(loadConfig({ MAP_TILE_URL: 'https://tiles.example/{z}/{x}/{y}@2x.png', MAP_ATTRIBUTION: '© Example' }).mapTiles).toEqual({
      url: 'https://tiles.example/{z}/{x}/{y}@2x.png',
      attribution: '© Example',
    });
  });

  it('never repeats a password in an error', () => {
    expect(() => parseDatabaseUrl('mysql://admin:hunter2@db/x')).toThrow(/admin:\*\*\*@/);
    expect(() => parseDatabaseUrl('mysql://admin:hunter2@db/x')).not.toThrow(/hunter2/);
    // nor in the other URLs that may carry one, and a secret too short is not shown at all
    for (const [env, variable] of [
      [{ REDIS_URL: 'http://admin:hunter2@cache:6379' }, 'REDIS_URL'],
      [{ SMTP_URL: 'http://admin:hunter2@mail:587' }, 'SMTP_URL'],
      [{ SESSION_SECRET: 'hunter2' }, 'SESSION_SECRET'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
      expect(() => loadConfig(env)).not.toThrow(/hunter2/);
    }
  });

  it('says what each refused value must be, and what it was', () => {
    expect(() => loadConfig({ RATE_LIMIT_PER_HOUR: '0' })).toThrow(
      'RATE_LIMIT_PER_HOUR: must be a whole number from 1 to 10000000, got "0"',
    );
    expect(() => loadConfig({ LOG_QUERIES: 'often' })).toThrow('LOG_QUERIES: must be true or false (or 1/0), got "often"');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow('NODE_ENV: must be development, production or test, got "staging"');
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail:587', MAIL_FROM: 'nobody' })).toThrow(
      'MAIL_FROM: must be an address, or a name and <an address>, got "nobody"',
    );
    expect(loadConfig({ LOG_LEVEL: 'DEBUG', LOG_QUERIES: 'yes', PUBLIC_URL: 'https://milepost.example/' })).toMatchObject({
      logLevel: 'debug',
      logQueries: true,
      publicUrl: 'https://milepost.example',
    });
  });
});
