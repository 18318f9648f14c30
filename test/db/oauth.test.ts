// The authorization server (SPEC 5, COMPAT.md): both flows, every rule failing closed, old clients.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { type CreatedApp, registerApp } from '../../src/db/oauth-clients.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let web: CreatedApp;
let other: CreatedApp;
let native: CreatedApp;
let legacy: CreatedApp;
const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://app.example/oauth/callback';

beforeAll(async () => {
  db = await createTestDatabase('oauth');
  api = testApp(db);
  await createAccount(db.prisma, { username: 'Alice', password: PASSWORD, displayName: 'Alice A.' });
  web = await registerApp(db.prisma, null, { name: 'Run Tracker', redirectUris: [CALLBACK], confidential: true });
  other = await registerApp(db.prisma, null, { name: 'Other App', redirectUris: ['https://other.example/cb'], confidential: true });
  native = await registerApp(db.prisma, null, { name: 'Phone App', redirectUris: ['http://127.0.0.1/callback'], confidential: false });
  legacy = await registerApp(db.prisma, null, {
    name: 'Old Widget',
    redirectUris: [CALLBACK, 'http://widget.example/cb'],
    confidential: true,
    allowImplicit: true,
    allowPlainHttp: true,
  });
});
afterAll(() => db.destroy());

function authorizeUrl(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params)}`;
}

async function loggedInBrowser(): Promise<TestBrowser> {
  const browser = new TestBrowser(api.fetch);
  const response = await browser.logIn('alice', PASSWORD);
  expect(response.status).toBe(302);
  return browser;
}

/** Runs the consent step and returns the redirect Location the app receives. */
async function approve(browser: TestBrowser, params: Record<string, string>, decision = 'approve'): Promise<URL> {
  const consent = await browser.get(authorizeUrl(params));
  expect(consent.status).toBe(200);
  const response = await browser.post('/oauth/authorize', { ...params, decision });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function getCode(params: Record<string, string> = {}): Promise<{ code: string; location: URL }> {
  const browser = await loggedInBrowser();
  const location = await approve(browser, {
    response_type: 'code',
    client_id: web.clientId,
    redirect_uri: CALLBACK,
    state: 's1',
    ...params,
  });
  return { code: location.searchParams.get('code')!, location };
}

async function tokenRequest(
  fields: Record<string, string>,
  init: { query?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
  const response = await api.fetch(`/oauth/token${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...init.headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, string> };
}

const exchange = (code: string, extra: Record<string, string> = {}) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    client_id: web.clientId,
    client_secret: web.clientSecret!,
    ...extra,
  });

async function me(token: string) {
  return api.graphql<{ me: { username: string } | null }>('{ me { username } }', {}, token);
}

describe('web server flow (response_type=code)', () => {
  it('sign in, consent, code, token, and the token reads `me`', async () => {
    const { code, location } = await getCode();
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('state')).toBe('s1');
    const token = await exchange(code);
    expect(token.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 21600,
      refresh_token: expect.any(String),
      scope: 'read entries:write profile:write',
    });
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect((await me(token.body.access_token!)).data).toEqual({ me: { username: 'Alice' } });
  });

  it('sends a person who is not logged in to the log-in page first, and back afterwards', async () => {
    const browser = new TestBrowser(api.fetch);
    const url = authorizeUrl({ response_type: 'code', client_id: web.clientId, redirect_uri: CALLBACK });
    const response = await browser.get(url);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/login?next=${encodeURIComponent(url)}`);
    await browser.get(response.headers.get('location')!);
    const loggedIn = await browser.post('/login', { username: 'alice', password: PASSWORD, next: url });
    expect(loggedIn.headers.get('location')).toBe(url);
    const consent = await browser.get(url);
    expect(await consent.text()).toContain('Run Tracker');
  });

  it('redirects with error=access_denied and the state when the person declines', async () => {
    const browser = await loggedInBrowser();
    const location = await approve(
      browser,
      { response_type: 'code', client_id: web.clientId, redirect_uri: CALLBACK, state: 'keep-me' },
      'deny',
    );
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('keep-me');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it.each([
    ['a trailing slash', `${CALLBACK}/`],
    ['other letter case', CALLBACK.replace('callback', 'Callback')],
    ['an extra query', `${CALLBACK}?next=1`],
    ['another host', 'https://evil.example/oauth/callback'],
    ['another scheme', CALLBACK.replace('https:', 'http:')],
  ])('never redirects to a redirect_uri with %s: an error page instead', async (_what, redirectUri) => {
    const browser = await loggedInBrowser();
    const response = await browser.get(authorizeUrl({ response_type: 'code', client_id: web.clientId, redirect_uri: redirectUri }));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri');
  });

  it('shows an error page for an unknown client', async () => {
    const browser = await loggedInBrowser();
    const response = await browser.get(authorizeUrl({ response_type: 'code', client_id: 'nope', redirect_uri: CALLBACK }));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('redirects unsupported response types back with the RFC 6749 error', async () => {
    const browser = await loggedInBrowser();
    const response = await browser.get(
      authorizeUrl({ response_type: 'id_token', client_id: web.clientId, redirect_uri: CALLBACK, state: 'x' }),
    );
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('x');
  });

  it('refuses a consent form without its CSRF token', async () => {
    const browser = await loggedInBrowser();
    const response = await browser.post('/oauth/authorize', {
      csrf: 'forged',
      response_type: 'code',
      client_id: web.clientId,
      redirect_uri: CALLBACK,
      decision: 'approve',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('codes', () => {
  it('are single-use, and a replay revokes the token the code produced', async () => {
    const { code } = await getCode();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const replay = await exchange(code);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await me(first.body.access_token!)).status).toBe(401);
  });

  it('exchanged four times at once: one answer carries a token, and the replays revoke it', async () => {
    // an app of its own: the refused exchanges count against the app's guessing budget
    const racer = await registerApp(db.prisma, null, { name: 'Racer', redirectUris: [CALLBACK], confidential: true });
    const race = (code: string) =>
      tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        client_id: racer.clientId,
        client_secret: racer.clientSecret!,
      });
    for (let round = 0; round < 5; round++) {
      const { code } = await getCode({ client_id: racer.clientId });
      const answers = await Promise.all([race(code), race(code), race(code), race(code)]);
      const granted = answers.filter((a) => a.status === 200);
      expect(granted.length).toBeLessThanOrEqual(1);
      expect(answers.filter((a) => a.status === 400).length).toBeGreaterThanOrEqual(3);
      for (const answer of granted) expect((await me(answer.body.access_token!)).status).toBe(401);
    }
  });

  it('expire after ten minutes', async () => {
    const { code } = await getCode();
    const row = await db.prisma.oAuthAuthorizationCode.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(599_000);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThan(601_000);
    await db.prisma.oAuthAuthorizationCode.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await exchange(code)).body.error).toBe('invalid_grant');
  });

  it('belong to the client they were issued to', async () => {
    const { code } = await getCode();
    const stolen = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      client_id: other.clientId,
      client_secret: other.clientSecret!,
    });
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('are bound to their redirect_uri', async () => {
    const { code } = await getCode();
    expect((await exchange(code, { redirect_uri: `${CALLBACK}/` })).body.error).toBe('invalid_request');
  });

  it('need the client secret of a confidential client', async () => {
    const { code } = await getCode();
    const wrong = await exchange(code, { client_secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const missing = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: web.clientId });
    expect(missing.body.error).toBe('invalid_client');
  });

  it('refuse other grant types in the RFC 6749 form', async () => {
    const response = await tokenRequest({ grant_type: 'password', username: 'alice', password: PASSWORD });
    expect(response).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });
});

describe('native apps: public clients with PKCE (S256) and loopback redirects', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const loopback = 'http://127.0.0.1:53682/callback';

  async function nativeCode(extra: Record<string, string> = {}) {
    const browser = await loggedInBrowser();
    const location = await approve(browser, {
      response_type: 'code',
      client_id: native.clientId,
      redirect_uri: loopback,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return location.searchParams.get('code')!;
  }
  const nativeExchange = (code: string, extra: Record<string, string> = {}) =>
    tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: loopback,
      client_id: native.clientId,
      code_verifier: verifier,
      ...extra,
    });

  it('exchange the code with the verifier and no secret, on any loopback port', async () => {
    const response = await nativeExchange(await nativeCode());
    expect(response.status).toBe(200);
    expect((await me(response.body.access_token!)).data).toEqual({ me: { username: 'Alice' } });
  });

  it('must use PKCE, and only S256', async () => {
    const browser = await loggedInBrowser();
    const without = await browser.get(authorizeUrl({ response_type: 'code', client_id: native.clientId, redirect_uri: loopback }));
    expect(new URL(without.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const plain = await browser.get(
      authorizeUrl({
        response_type: 'code',
        client_id: native.clientId,
        redirect_uri: loopback,
        code_challenge: challenge,
        code_challenge_method: 'plain',
      }),
    );
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('refuse a downgrade (no verifier) and a wrong verifier', async () => {
    // a public client without its verifier has proven nothing at all
    const bare = await tokenRequest({
      grant_type: 'authorization_code',
      code: await nativeCode(),
      redirect_uri: loopback,
      client_id: native.clientId,
    });
    expect(bare).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    // a confidential client that started with PKCE must finish with it, secret or not
    const { code } = await getCode({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await exchange(code)).body.error).toBe('invalid_grant');
    const wrong = await nativeExchange(await nativeCode(), { code_verifier: randomBytes(32).toString('base64url') });
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('refuse a verifier for a code issued without a challenge', async () => {
    const { code } = await getCode();
    expect((await exchange(code, { code_verifier: verifier })).body.error).toBe('invalid_grant');
  });

  it('may not send a client secret', async () => {
    expect((await nativeExchange(await nativeCode(), { client_secret: 'anything' })).body.error).toBe('invalid_client');
  });

  it('loopback ports are free, but paths and hosts are not', async () => {
    const browser = await loggedInBrowser();
    for (const redirectUri of ['http://127.0.0.1:53682/other', 'http://127.0.0.2:53682/callback', 'https://127.0.0.1:53682/callback']) {
      const response = await browser.get(
        authorizeUrl({ response_type: 'code', client_id: native.clientId, redirect_uri: redirectUri, code_challenge: challenge }),
      );
      expect(response.status).toBe(400);
    }
  });
});

describe('user-agent flow (response_type=token), opt-in per app', () => {
  it('redirects with the token in the fragment', async () => {
    const browser = await loggedInBrowser();
    const location = await approve(browser, { response_type: 'token', client_id: legacy.clientId, redirect_uri: CALLBACK, state: 'ua' });
    expect(location.search).toBe('');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('state')).toBe('ua');
    expect((await me(fragment.get('access_token')!)).data).toEqual({ me: { username: 'Alice' } });
  });

  it('declining answers in the fragment too', async () => {
    const browser = await loggedInBrowser();
    const location = await approve(browser, { response_type: 'token', client_id: legacy.clientId, redirect_uri: CALLBACK }, 'deny');
    expect(new URLSearchParams(location.hash.slice(1)).get('error')).toBe('access_denied');
  });

  it('is refused for an app that did not opt in (RFC 9700), before any consent', async () => {
    const browser = await loggedInBrowser();
    const refused = await browser.get(
      authorizeUrl({ response_type: 'token', client_id: web.clientId, redirect_uri: CALLBACK, state: 'ua' }),
    );
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get('location')!);
    expect(new URLSearchParams(location.hash.slice(1)).get('error')).toBe('unauthorized_client');
    expect(location.hash).not.toContain('access_token');
  });
});

describe('plain http callbacks, opt-in per app', () => {
  it('refuses an http callback on a host other than loopback unless the app allows it', async () => {
    await expect(
      registerApp(db.prisma, null, { name: 'Plain', redirectUris: ['http://plain.example/cb'], confidential: true }),
    ).rejects.toThrow(/must use https/);
    const loopback = await registerApp(db.prisma, null, { name: 'Local', redirectUris: ['http://localhost:8080/cb'], confidential: true });
    expect(loopback.redirectUris).toEqual(['http://localhost:8080/cb']);
    const browser = await loggedInBrowser();
    const consent = await browser.get(
      authorizeUrl({ response_type: 'code', client_id: legacy.clientId, redirect_uri: 'http://widget.example/cb' }),
    );
    expect(consent.status).toBe(200);
  });

  it('refuses at authorization an http callback kept from before, on an app that no longer allows it', async () => {
    await db.prisma.oAuthClient.update({ where: { clientId: legacy.clientId }, data: { allowPlainHttp: false } });
    try {
      const browser = await loggedInBrowser();
      const refused = await browser.get(
        authorizeUrl({ response_type: 'code', client_id: legacy.clientId, redirect_uri: 'http://widget.example/cb' }),
      );
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('plain http');
    } finally {
      await db.prisma.oAuthClient.update({ where: { clientId: legacy.clientId }, data: { allowPlainHttp: true } });
    }
  });
});

describe('old clients (COMPAT.md)', () => {
  it('type=web_server stands for response_type=code and for grant_type=authorization_code', async () => {
    const browser = await loggedInBrowser();
    const location = await approve(browser, { type: 'web_server', client_id: web.clientId, redirect_uri: CALLBACK });
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const token = await tokenRequest({
      type: 'web_server',
      code,
      redirect_uri: CALLBACK,
      client_id: web.clientId,
      client_secret: web.clientSecret!,
    });
    expect(token.status).toBe(200);
  });

  it('token request fields may come in the query string with an empty body', async () => {
    const { code } = await getCode();
    const token = await tokenRequest(
      {},
      {
        query: {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CALLBACK,
          client_id: web.clientId,
          client_secret: web.clientSecret!,
        },
      },
    );
    expect(token.status).toBe(200);
  });

  it('redirect_uri may carry exactly ?code=…&state=… appended', async () => {
    const { code } = await getCode();
    expect((await exchange(code, { redirect_uri: `${CALLBACK}?code=${code}&state=s1` })).status).toBe(200);
  });

  it.each([
    ['another parameter', (code: string) => `${CALLBACK}?code=${code}&state=s1&x=1`],
    ['another code', () => `${CALLBACK}?code=someothercode&state=s1`],
    ['parameters in another order', (code: string) => `${CALLBACK}?state=s1&code=${code}`],
  ])('but nothing looser: %s is refused', async (_what, build) => {
    const { code } = await getCode();
    expect((await exchange(code, { redirect_uri: build(code) })).body.error).toBe('invalid_request');
  });

  it('the token may be sent twice, the same, as the Ruby client does', async () => {
    const { code } = await getCode();
    const token = (await exchange(code)).body.access_token!;
    const response = await api.fetch(`/graphql?oauth_token=${token}&query=${encodeURIComponent('{ me { username } }')}`, {
      headers: { authorization: `OAuth ${token}` },
    });
    expect(await response.json()).toEqual({ data: { me: { username: 'Alice' } } });
  });
});

describe('revocation', () => {
  it('POST /oauth/revoke (RFC 7009) ends a token; unknown tokens are not an error', async () => {
    const { code } = await getCode();
    const token = (await exchange(code)).body.access_token!;
    const revoke = (fields: Record<string, string>) =>
      api.fetch('/oauth/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    expect((await revoke({ token, client_id: web.clientId, client_secret: 'wrong' })).status).toBe(401);
    expect((await me(token)).data).toEqual({ me: { username: 'Alice' } });
    expect((await revoke({ token, client_id: web.clientId, client_secret: web.clientSecret! })).status).toBe(200);
    expect((await me(token)).status).toBe(401);
    expect((await revoke({ token: 'never-issued', client_id: web.clientId, client_secret: web.clientSecret! })).status).toBe(200);
  });

  it('the account page lists authorized apps and revokes one', async () => {
    const { code } = await getCode();
    const token = (await exchange(code)).body.access_token!;
    const browser = await loggedInBrowser();
    const page = await (await browser.get('/account')).text();
    expect(page).toContain('Run Tracker');
    const response = await browser.post('/account/authorizations/revoke', { client_id: web.clientId });
    expect(response.status).toBe(302);
    expect((await me(token)).status).toBe(401);
    expect(await (await browser.get('/account')).text()).not.toContain('Run Tracker');
  });
});

describe('accounts', () => {
  it('sign up logs the new person in with a signed HttpOnly SameSite cookie', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.get('/signup');
    const response = await browser.post('/signup', { username: 'NewRunner', display_name: 'New R.', password: 'long enough pw' });
    expect(response.status).toBe(302);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('milepost_session='))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(await (await browser.get('/account')).text()).toContain('New R.');
  });

  it.each([
    [{ username: 'me', display_name: 'Me', password: 'long enough pw' }, 'username'],
    [{ username: 'ALICE', display_name: 'Other Alice', password: 'long enough pw' }, 'username'],
    [{ username: 'shortpw', display_name: 'S', password: 'short' }, 'password'],
  ])('refuses %o naming %s', async (fields, field) => {
    const browser = new TestBrowser(api.fetch);
    await browser.get('/signup');
    const response = await browser.post('/signup', fields);
    expect(response.status).toBe(422);
    expect(await response.text()).toContain(`${field}:`);
  });

  it('a tampered session cookie is ignored', async () => {
    const victim = await createAccount(db.prisma, { username: 'victim', password: PASSWORD, displayName: 'V' });
    const browser = await loggedInBrowser();
    const signature = browser.cookie('milepost_session')!.split('.')[1];
    // Alice's signature on a payload naming someone else
    const forged = `${Buffer.from(JSON.stringify([victim.id, Math.floor(Date.now() / 1000)])).toString('base64url')}.${signature}`;
    const response = await api.fetch('/account', { headers: { cookie: `milepost_session=${forged}` } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/login/);
  });

  it('throttles password guessing: after 5 failures even the right password waits', async () => {
    await createAccount(db.prisma, { username: 'target', password: PASSWORD, displayName: 'T' });
    const browser = new TestBrowser(api.fetch);
    for (let i = 0; i < 5; i++) expect((await browser.logIn('target', `guess-${i}`)).status).toBe(401);
    const blocked = await browser.logIn('target', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('log-in forms need their CSRF token', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.get('/login');
    expect((await browser.post('/login', { csrf: 'x', username: 'alice', password: PASSWORD })).status).toBe(403);
  });
});

describe('developers', () => {
  it('register an app on the developer page; the secret is shown once and stored hashed', async () => {
    const browser = await loggedInBrowser();
    const response = await browser.post('/developers/apps', {
      name: 'My Coach',
      redirect_uris: 'https://coach.example/cb\nhttps://coach.example/cb2',
      client_type: 'confidential',
    });
    expect(response.status).toBe(201);
    const html = await response.text();
    const clientId = /id="client-id">([^<]+)</.exec(html)![1]!;
    const secret = /id="client-secret">([^<]+)</.exec(html)![1]!;
    const row = await db.prisma.oAuthClient.findUniqueOrThrow({ where: { clientId }, include: { redirectUris: true } });
    expect(row.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(row.redirectUris.map((r) => r.uri)).toEqual(['https://coach.example/cb', 'https://coach.example/cb2']);
    expect(await (await browser.get('/developers/apps')).text()).not.toContain(secret);
  });

  it('refuses a callback with a fragment, naming it', async () => {
    const browser = await loggedInBrowser();
    const response = await browser.post('/developers/apps', {
      name: 'Bad',
      redirect_uris: 'https://x.example/cb#frag',
      client_type: 'public',
    });
    expect(response.status).toBe(422);
    expect(await response.text()).toContain('fragment');
  });
});

describe('metadata and storage', () => {
  it('publishes RFC 8414 metadata', async () => {
    const response = await api.fetch('/.well-known/oauth-authorization-server');
    expect(await response.json()).toMatchObject({
      issuer: 'http://milepost.test',
      authorization_endpoint: 'http://milepost.test/oauth/authorize',
      token_endpoint: 'http://milepost.test/oauth/token',
      revocation_endpoint: 'http://milepost.test/oauth/revoke',
      response_types_supported: ['code', 'token'],
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('the database holds no plaintext token, code, client secret or password', async () => {
    const { code } = await getCode();
    const token = (await exchange(code)).body.access_token!;
    const browser = await loggedInBrowser();
    const implicit = await approve(browser, { response_type: 'token', client_id: legacy.clientId, redirect_uri: CALLBACK });
    const implicitToken = new URLSearchParams(implicit.hash.slice(1)).get('access_token')!;
    const tables = ['Person', 'OAuthClient', 'OAuthRedirectUri', 'OAuthAuthorizationCode', 'OAuthAccessToken'];
    let dump = '';
    for (const table of tables)
      dump += JSON.stringify(await db.prisma.$queryRawUnsafe(`SELECT * FROM "${table}"`), (_k, v) =>
        typeof v === 'bigint' ? Number(v) : v,
      );
    expect(dump.length).toBeGreaterThan(1000);
    for (const secret of [token, implicitToken, code, web.clientSecret!, other.clientSecret!, PASSWORD]) expect(dump).not.toContain(secret);
  });
});
