// `npx milepost serve` as a newcomer runs it: migrations, the demo community, GraphQL on a port, clean shutdown.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsDir, readMigrations } from '../../src/db/migrate.ts';
import { runCli } from '../support/cli.ts';
import { freshDatabaseConfig, provider } from '../support/database.ts';

const bin = fileURLToPath(new URL('../../bin/milepost.js', import.meta.url));
const { config, destroy } = freshDatabaseConfig('serve');
const cleanups: Array<() => void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await destroy();
});

describe('milepost serve', () => {
  it('migrates, seeds an empty SQLite database, serves /graphql and stops on SIGTERM', async () => {
    // on SQLite as a fresh checkout starts: no DATABASE_URL, and no ./data/ directory yet
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'milepost-fresh-'));
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    const child = spawn(process.execPath, [bin, 'serve'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        ...(provider === 'sqlite' ? {} : { DATABASE_URL: config.url }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk) => (output += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        // the start line names the home page, and where GraphQL is
        const match = /listening on (http:\/\/\S+)\/ \(GraphQL at \/graphql;/.exec(output);
        if (match) resolve(`${match[1]!}/graphql`);
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ publicStream { ... on EntryConnection { edges { node { id: databaseId } } } } }' }),
    });
    const body = (await response.json()) as { data: { publicStream: { edges: unknown[] } } };
    // SQLite gets the demo community on first start; PostgreSQL starts empty
    expect(body.data.publicStream.edges).toHaveLength(provider === 'sqlite' ? 20 : 0);
    if (provider === 'sqlite') {
      // the migrations a first start applies are named in its log
      for (const migration of readMigrations(migrationsDir('sqlite'))) expect(output).toContain(`applied migration ${migration.name} (`);
      expect(output).toContain('seeded a demo community');
      expect(existsSync(path.join(cwd, 'data', 'milepost.db'))).toBe(true);
    }

    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  /** `milepost serve` on `port` with `env`: its output so far, and how it ended (null while it runs). */
  const serve = (env: Record<string, string>) => {
    const child = spawn(process.execPath, [bin, 'serve', '--no-seed'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    const run = { child, output: '', exit: null as number | null };
    child.stdout.on('data', (chunk) => (run.output += chunk));
    child.stderr.on('data', (chunk) => (run.output += chunk));
    const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((run.exit = code))));
    const until = async (pattern: RegExp) => {
      for (let i = 0; i < 300 && !pattern.test(run.output) && run.exit === null; i++) await new Promise((r) => setTimeout(r, 50));
      return run.output;
    };
    return { run, ended, until };
  };

  it('a second server on a port already taken says which port and what to do', async () => {
    const first = serve({ PORT: '0', DATABASE_URL: config.url });
    const port = /listening on http:\/\/[^:]+:(\d+)/.exec(await first.until(/listening on/))![1]!;
    const second = serve({ PORT: port, DATABASE_URL: config.url });
    expect(await second.ended).toBe(1);
    expect(second.run.output).toContain(`port ${port} on 127.0.0.1 is taken`);
    expect(second.run.output).toMatch(/PORT=\d+ npm start/);
    first.run.child.kill('SIGTERM');
    expect(await first.ended).toBe(0);
  });

  it.skipIf(provider !== 'sqlite')('a second server on the same SQLite file says so, naming the first', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-twice-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const url = `file:${path.join(dir, 'milepost.db')}`;
    const first = serve({ PORT: '0', DATABASE_URL: url });
    await first.until(/listening on/);
    const second = serve({ PORT: '0', DATABASE_URL: url });
    expect(await second.until(/listening on/)).toContain(`another Milepost server (process ${first.run.child.pid}) already serves`);
    second.run.child.kill('SIGTERM');
    await second.ended;
    first.run.child.kill('SIGTERM');
    expect(await first.ended).toBe(0);
    // the first one stopped: a server started now is alone, and says nothing of another
    const third = serve({ PORT: '0', DATABASE_URL: url });
    expect(await third.until(/listening on/)).not.toContain('another Milepost server');
    third.run.child.kill('SIGTERM');
    await third.ended;
  });

  it('migrate, backup and restore in production need DATABASE_URL, not the SESSION_SECRET only a server uses', async () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: config.url };
    const migrated = await runCli(['migrate'], production);
    expect(migrated.stderr).not.toContain('SESSION_SECRET');
    expect(migrated.code).toBe(0);
    // a server still needs it
    const served = await runCli(['serve'], { ...production, PORT: '0' });
    expect(served.code).toBe(1);
    expect(served.stderr).toContain('SESSION_SECRET');
  });
});
