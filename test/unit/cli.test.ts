// The command line: help, unknown commands, and configuration errors that name the variable.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

describe('milepost', () => {
  it('lists its commands with --help and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['serve', 'migrate', 'seed']) expect(result.stdout).toContain(command);
    // backup and restore serve both databases, and say so
    expect(result.stdout).toMatch(/backup +copy the database \(SQLite or PostgreSQL\)/);
    expect(result.stdout).toMatch(/restore +replace the database \(SQLite or PostgreSQL\)/);
  });

  it('says its version, that of package.json, with --version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(`milepost ${version}`);
    }
  });

  it('refuses an unknown command with exit status 2', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  it('refuses an unknown option with exit status 2', async () => {
    const result = await runCli(['seed', '--sclae', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--sclae');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be an integer between 0 and 65535, got "eighty"'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL: must start with file: (SQLite) or postgresql:// (PostgreSQL)'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV: must be development, production or test'],
  ])('stops with exit status 1 and names the bad variable: %o', async (env, message) => {
    const result = await runCli(['serve'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });
});
