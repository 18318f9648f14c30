// `npx milepost serve` as a newcomer runs it: migrations, the demo community, GraphQL on a port, clean shutdown.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
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
        const match = /listening on (http:\/\/\S+\/graphql)/.exec(output);
        if (match) resolve(match[1]!);
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
      expect(output).toContain('seeded a demo community');
      expect(existsSync(path.join(cwd, 'data', 'milepost.db'))).toBe(true);
    }

    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
