// GraphiQL in an athlete's browser runs as them: a GraphQL request without a token that carries their
// pages' log-in session is theirs. Still safe from other sites (the requests a browser sends without a
// preflight are refused), and never mixed with the anonymous response cache either way.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, listen } from '../../src/app/server.ts';
import { createAccount } from '../../src/db/account-sessions.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';

/** One secret for the two servers below: the session cookie of one is good on the other. */
const SESSION_SECRET = 'graphql-session-test-secret-0123456789abcdef';
let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let browser: TestBrowser;

beforeAll(async () => {
  db = await createTestDatabase('graphql_session');
  api = testApp(db, { SESSION_SECRET });
  await createAccount(db.prisma, { username: 'gina', displayName: 'Gina', password: 'a long password' });
  browser = new TestBrowser(api.fetch);
  await browser.logIn('gina', 'a long password');
});
afterAll(() => db.destroy());

const ME = JSON.stringify({ query: '{ me { username } }' });
const session = () => `milepost_session=${encodeURIComponent(browser.cookie('milepost_session')!)}`;
const ask = (cookie: string | null, init: RequestInit = {}) =>
  api.fetch('/graphql', {
    method: 'POST',
    ...init,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    body: init.body ?? ME,
  });

describe('GraphQL with a log-in session', () => {
  it('runs as the athlete, and the anonymous answer to the same query stays anonymous, in either order', async () => {
    expect(await (await ask(null)).json()).toEqual({ data: { me: null } });
    expect(await (await ask(session())).json()).toEqual({ data: { me: { username: 'gina' } } });
    expect(await (await ask(null)).json()).toEqual({ data: { me: null } });
    expect(await (await ask(session())).json()).toEqual({ data: { me: { username: 'gina' } } });
  });

  it('refuses what another site could make a browser send with the cookie: a GET or a form post without the CSRF header', async () => {
    const get = await api.fetch(`/graphql?query=${encodeURIComponent('{ me { username } }')}`, { headers: { cookie: session() } });
    expect(get.status).toBe(403);
    const form = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session() },
      body: new URLSearchParams({ query: 'mutation { updateProfile(input: { displayName: "pwned" }) { error { __typename } } }' }),
    });
    expect(form.status).toBe(403);
    expect((await db.prisma.person.findFirstOrThrow({ where: { username: 'gina' } })).displayName).not.toBe('pwned');
  });

  it('over node:http too, where cached anonymous reads are answered before the edge', async () => {
    const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0', SESSION_SECRET });
    const server = await listen(createApp(config, db), config);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    try {
      // node:http, not fetch: undici leaves a Cookie header out, as browsers' fetch does
      const post = (cookie: string | null) =>
        new Promise<unknown>((resolve, reject) => {
          const req = request(
            url,
            { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) } },
            (res) => {
              let text = '';
              res.on('data', (chunk) => (text += chunk));
              res.on('end', () => resolve(JSON.parse(text)));
            },
          );
          req.on('error', reject);
          req.end(ME);
        });
      // the anonymous answer is cached by then: the session's is still its own
      expect(await post(null)).toEqual({ data: { me: null } });
      expect(await post(null)).toEqual({ data: { me: null } });
      expect(await post(session())).toEqual({ data: { me: { username: 'gina' } } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an unknown or ended session is simply anonymous', async () => {
    expect(await (await ask('milepost_session=forged')).json()).toEqual({ data: { me: null } });
  });

  it('ends a subscription over server-sent events once its session ends (logged out in another tab)', async () => {
    const app = createApp(testConfig(db.config, { SESSION_SECRET }), db, { tokenRecheckMs: 200 });
    const fetcher = (path: string, init?: RequestInit) => app.fetch(`http://milepost.test${path}`, init);
    const other = new TestBrowser(fetcher);
    await createAccount(db.prisma, { username: 'sara', displayName: 'Sara', password: 'a long password' });
    await other.logIn('sara', 'a long password');
    const response = await fetcher('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        cookie: `milepost_session=${encodeURIComponent(other.cookie('milepost_session')!)}`,
      },
      body: JSON.stringify({ query: 'subscription { notifications { id } }' }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const ended = (async () => {
      let text = '';
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        text += new TextDecoder().decode(part.value);
        if (text.includes('event: complete')) return true;
      }
      return true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.prisma.session.updateMany({ where: { person: { usernameKey: 'sara' } }, data: { revokedAt: new Date() } });
    // the recheck (200 ms here) ends it; a stream still open after 3 s outlived its session
    expect(await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve(false), 3_000))])).toBe(true);
    await app.close();
  });
});
