// Attacks on the accounts, sessions and limits: each was seen to work once.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createAccount } from '../../src/db/account-sessions.ts';
import { safeNext } from '../../src/pages/kit.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  db = await createTestDatabase('security');
  api = testApp(db);
  await createAccount(db.prisma, { username: 'victim', password: PASSWORD, displayName: 'Victim' });
});
afterAll(() => db.destroy());

describe('log-in guessing', () => {
  it('tries at most the allowed attempts when forty arrive at once', async () => {
    await createAccount(db.prisma, { username: 'raced', password: PASSWORD, displayName: 'Raced' });
    // an app of its own: the attempts spent here would lock this address out of the other tests
    const browser = new TestBrowser(testApp(db).fetch);
    await browser.get('/login');
    // 39 wrong passwords and the right one, all at once: the right one must not be among those tried
    const passwords = [...Array.from({ length: 39 }, (_, i) => `wrong guess ${i}`), PASSWORD];
    const answers = await Promise.all(passwords.map((password) => browser.post('/login', { username: 'raced', password })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 302).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
  });
});

describe('the hourly limit', () => {
  it('counts made-up tokens under the client address, so random tokens open no budgets', async () => {
    const limited = testApp(db, { RATE_LIMIT_PER_HOUR: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await limited.fetch(`/people/victim.json?oauth_token=${randomBytes(16).toString('hex')}`);
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(5)).toEqual([503, 503, 503]);
  });
});

describe('redirects after log-in', () => {
  it.each([
    '/\t/evil.example/x',
    '//evil.example',
    '/\\evil.example',
    '/\n/evil.example',
    'https://evil.example/',
    '/%2F%2Fevil.example',
    '/.//evil.example',
    '/x/..//evil.example',
    '/%2e//evil.example',
    '/./%2e/..//evil.example/a?b',
  ])('never leave the site for %j', (next) => {
    const safe = safeNext(next);
    // a browser resolves the Location against the page: a `//host` path is another site
    if (safe !== null) {
      expect(safe.startsWith('//')).toBe(false);
      expect(new URL(safe, 'https://milepost.example').origin).toBe('https://milepost.example');
    }
  });

  it('keeps a path of the site, with its query', () => {
    expect(safeNext('/oauth/authorize?client_id=a&state=b')).toBe('/oauth/authorize?client_id=a&state=b');
  });

  it('sends a logged-in person with next=/%09/evil.example/x to their feed, not away', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('victim', PASSWORD);
    const response = await browser.get('/login?next=/%09/evil.example/x');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    for (const next of ['/.//evil.example', '/x/..//evil.example', '/%2e//evil.example']) {
      const away = await browser.get(`/login?next=${encodeURIComponent(next)}`);
      expect(away.status).toBe(302);
      expect(away.headers.get('location')).toBe('/');
    }
  });
});

describe('sessions', () => {
  it('end at log-out: a copy of the cookie taken before opens nothing afterwards', async () => {
    const browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('victim', PASSWORD)).status).toBe(302);
    const stolen = browser.cookie('milepost_session')!;
    expect((await browser.get('/account')).status).toBe(200);
    expect((await browser.post('/logout', {})).status).toBe(302);
    const replayed = await api.fetch('/account', {
      headers: { cookie: `milepost_session=${encodeURIComponent(stolen)}`, accept: 'text/html' },
    });
    expect(replayed.status).toBe(302);
    expect(replayed.headers.get('location')).toMatch(/^\/login/);
  });

  it('are kept hashed: the database never holds the cookie’s token', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('victim', PASSWORD);
    const token = browser.cookie('milepost_session')!.split('.')[0]!;
    const rows = JSON.stringify(await db.prisma.session.findMany());
    expect(rows).not.toContain(token);
  });
});

describe('malformed input at the edge', () => {
  it('ignores a malformed cookie instead of answering 500', async () => {
    for (const path of ['/login', '/signup', '/account', '/', '/oauth/authorize?client_id=x']) {
      const response = await api.fetch(path, { headers: { cookie: 'a=%; milepost_csrf=%E0%A4%A', accept: 'text/html' } });
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it('answers malformed Basic credentials on /oauth/revoke with 401 invalid_client', async () => {
    for (const credentials of ['%', Buffer.from('no-colon').toString('base64'), Buffer.from('%:%').toString('base64')]) {
      const response = await api.fetch('/oauth/revoke', {
        method: 'POST',
        headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=abc',
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    }
  });
});

describe('behind a TLS proxy', () => {
  it('believes X-Forwarded-Proto from a trusted proxy: Secure cookies and https metadata', async () => {
    const proxied = testApp(db, { TRUST_PROXY: '1' });
    const headers = { 'x-forwarded-proto': 'https', host: 'milepost.example', accept: 'text/html' };
    const login = await proxied.fetch('/login', { headers });
    expect(login.headers.getSetCookie().join('\n')).toMatch(/; Secure/);
    const metadata = (await (await proxied.fetch('/.well-known/oauth-authorization-server', { headers })).json()) as Record<string, string>;
    expect(metadata.token_endpoint).toMatch(/^https:\/\//);
    // and not from anyone else
    const direct = (await (await api.fetch('/.well-known/oauth-authorization-server', { headers })).json()) as Record<string, string>;
    expect(direct.token_endpoint).toMatch(/^http:\/\//);
  });
});

describe('error details', () => {
  it('are masked unless NODE_ENV=development is set explicitly (npm run dev)', () => {
    expect(loadConfig({}).exposeErrors).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }).exposeErrors).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).exposeErrors).toBe(true);
  });
});
