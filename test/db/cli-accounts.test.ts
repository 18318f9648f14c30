// `milepost users|apps|tokens create`: what scripts use to set up people, apps and tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/tokens.ts';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { newClientId } from '../../src/db/oauth-clients.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { freshDatabaseConfig } from '../support/database.ts';

const { config, destroy } = freshDatabaseConfig('cli');
const env = { DATABASE_URL: config.url };
let database: Database;

beforeAll(async () => {
  database = await openDatabase(config);
});
afterAll(async () => {
  await database.close();
  await destroy();
});

describe('milepost users create', () => {
  it('creates a person who can then log in', async () => {
    const result = await runCli(
      ['users', 'create', '--username', 'scripted', '--password', 'a long password', '--display-name', 'Scripted S.'],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: expect.any(Number), username: 'scripted' });
    const person = await database.prisma.person.findUniqueOrThrow({ where: { usernameKey: 'scripted' } });
    expect(person.displayName).toBe('Scripted S.');
    expect(person.passwordHash).toMatch(/^scrypt\$/);
  });

  it('names the invalid field and exits 1', async () => {
    const result = await runCli(['users', 'create', '--username', 'x', '--password', 'short'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('username:');
    expect(result.stderr).toContain('password:');
  });

  it('needs --username and --password (exit 2)', async () => {
    const result = await runCli(['users', 'create', '--username', 'only'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--username and --password are required');
  });
});

describe('milepost users set-password', () => {
  it('lets a person who never had a password (a demo athlete) log in, and logs out whoever had the old one', async () => {
    await database.prisma.person.create({ data: { username: 'demoathlete', usernameKey: 'demoathlete', displayName: 'Demo A.' } });
    const browser = new TestBrowser(testApp(Object.assign(database, { config })).fetch);
    // no password: nobody logs in as them
    expect((await browser.logIn('demoathlete', 'a long password')).status).toBe(401);
    const first = await runCli(['users', 'set-password', '--username', 'DemoAthlete', '--password', 'a long password'], env);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({ id: expect.any(Number), username: 'demoathlete' });
    expect((await browser.logIn('demoathlete', 'a long password')).headers.get('location')).toBe('/');
    expect((await browser.get('/account')).status).toBe(200);
    const again = await runCli(['users', 'set-password', '--username', 'demoathlete', '--password', 'another long password'], env);
    expect(again.code).toBe(0);
    // the session made with the old password has ended
    expect((await browser.get('/account')).headers.get('location')).toMatch(/^\/login/);
    expect((await browser.logIn('demoathlete', 'a long password')).status).toBe(401);
  });

  it('names a short password, and nobody by that name, with exit 1', async () => {
    const short = await runCli(['users', 'set-password', '--username', 'demoathlete', '--password', 'short'], env);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password:');
    const nobody = await runCli(['users', 'set-password', '--username', 'nobody-here', '--password', 'a long password'], env);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('nobody is called "nobody-here"');
  });
});

describe('milepost apps create and tokens create', () => {
  it('registers an app, prints its credentials once, and mints a working token', async () => {
    const app = await runCli(
      ['apps', 'create', '--name', 'Batch Importer', '--redirect-uri', 'https://import.example/cb', '--owner', 'scripted'],
      env,
    );
    expect(app.code).toBe(0);
    const credentials = JSON.parse(app.stdout) as { client_id: string; client_secret: string };
    expect(credentials).toEqual({ client_id: expect.any(String), client_secret: expect.any(String) });
    const row = await database.prisma.oAuthClient.findUniqueOrThrow({
      where: { clientId: credentials.client_id },
      include: { owner: true },
    });
    expect(row.secretHash).toBe(hashToken(credentials.client_secret));
    expect(row.owner?.username).toBe('scripted');

    const minted = await runCli(['tokens', 'create', '--username', 'scripted', '--client-id', credentials.client_id], env);
    expect(minted.code).toBe(0);
    const token = minted.stdout.trim();
    const api = testApp(Object.assign(database, { config }));
    expect((await api.graphql('{ me { username } }', {}, token)).data).toEqual({ me: { username: 'scripted' } });
  });

  it('makes client ids a command line can take: none begins with a dash', () => {
    for (let i = 0; i < 2_000; i++) expect(newClientId()).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{19}$/);
  });

  it('registers a public app with no secret', async () => {
    const app = await runCli(['apps', 'create', '--name', 'Phone', '--redirect-uri', 'http://127.0.0.1/cb', '--public'], env);
    expect(JSON.parse(app.stdout)).toEqual({ client_id: expect.any(String), client_secret: null });
  });

  it('mints a token for scripts without naming an app', async () => {
    const minted = await runCli(['tokens', 'create', '--username', 'scripted'], env);
    expect(minted.code).toBe(0);
    expect(minted.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    [['apps', 'create', '--name', 'Bad', '--redirect-uri', 'javascript:alert(1)'], 'redirect-uri[0]:'],
    [
      ['apps', 'create', '--name', 'Orphan', '--redirect-uri', 'https://x.example/cb', '--owner', 'nobody'],
      '--owner: nobody is called "nobody"',
    ],
    [['tokens', 'create', '--username', 'nobody'], '--username: nobody is called "nobody"'],
    [['tokens', 'create', '--username', 'scripted', '--client-id', 'nope'], '--client-id: no app has client_id "nope"'],
  ])('refuses %j with exit 1: %s', async (args, message) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });
});

describe('milepost friends add', () => {
  it('makes two people friends both ways at once', async () => {
    await runCli(['users', 'create', '--username', 'pal', '--password', 'a long password'], env);
    const result = await runCli(['friends', 'add', 'scripted', 'PAL'], env);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ friends: ['scripted', 'pal'] });
    const rows = await database.prisma.friendship.findMany({
      select: { person: { select: { username: true } }, friend: { select: { username: true } } },
    });
    expect(rows.map((r) => `${r.person.username}→${r.friend.username}`).sort()).toEqual(['pal→scripted', 'scripted→pal']);
    // again: still friends, no duplicate
    expect((await runCli(['friends', 'add', 'pal', 'scripted'], env)).code).toBe(0);
    expect(await database.prisma.friendship.count()).toBe(2);
  });

  it.each([
    [['friends', 'add', 'scripted', 'ghost'], 1, 'nobody is called "ghost"'],
    [['friends', 'add', 'scripted', 'scripted'], 1, 'cannot befriend themselves'],
    [['friends', 'add', 'scripted'], 2, 'expected "friends add <username> <username>"'],
  ])('refuses %j (exit %i)', async (args, code, message) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });
});
