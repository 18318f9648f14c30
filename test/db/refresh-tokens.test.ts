// Expiring access tokens with rotating refresh tokens (OAuth 2.1, RFC 9700 4.14), introspection (RFC
// 7662), and the legacy apps whose tokens never expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { type CreatedApp, registerApp } from '../../src/db/oauth-clients.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let app: CreatedApp;
let other: CreatedApp;
let legacy: CreatedApp;
const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://app.example/oauth/callback';

beforeAll(async () => {
  db = await createTestDatabase('refresh');
  api = testApp(db, { ACCESS_TOKEN_TTL_SECONDS: '3600' });
  await createAccount(db.prisma, { username: 'rae', password: PASSWORD, displayName: 'Rae' });
  app = await registerApp(db.prisma, null, { name: 'Run Tracker', redirectUris: [CALLBACK], confidential: true });
  other = await registerApp(db.prisma, null, { name: 'Other', redirectUris: [CALLBACK], confidential: true });
  legacy = await registerApp(db.prisma, null, { name: 'Old Widget', redirectUris: [CALLBACK], confidential: true, legacyTokens: true });
});
afterAll(() => db.destroy());

async function post(path: string, fields: Record<string, string>) {
  const response = await api.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const credentials = (client: CreatedApp) => ({ client_id: client.clientId, client_secret: client.clientSecret! });

/** Rae grants `client` (with `scope`), and the app exchanges the code. */
async function grant(client: CreatedApp, scope?: string) {
  const { code } = await approve(client, scope);
  return post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, ...credentials(client) });
}

/** Rae approves `client` (with `scope`): the code the app receives. */
async function approve(client: CreatedApp, scope?: string) {
  const browser = new TestBrowser(api.fetch);
  await browser.logIn('rae', PASSWORD);
  const params: Record<string, string> = { response_type: 'code', client_id: client.clientId, redirect_uri: CALLBACK };
  if (scope) params.scope = scope;
  await browser.get(`/oauth/authorize?${new URLSearchParams(params)}`);
  const approved = await browser.post('/oauth/authorize', { ...params, decision: 'approve' });
  return { code: new URL(approved.headers.get('location')!).searchParams.get('code')! };
}

const refresh = (client: CreatedApp, token: unknown, extra: Record<string, string> = {}) =>
  post('/oauth/token', { grant_type: 'refresh_token', refresh_token: String(token), ...credentials(client), ...extra });

const me = async (token: unknown) =>
  (await api.graphql<{ me: { username: string } | null }>('{ me { username } }', {}, String(token))).data?.me ?? null;

describe('an app’s tokens', () => {
  it('expire after the configured lifetime, and come with a refresh token', async () => {
    const { status, body } = await grant(app, 'read entries:write');
    expect(status).toBe(200);
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: 'read entries:write',
    });
    expect(await me(body.access_token)).toEqual({ username: 'rae' });
    // an hour later the token no longer works: 401 invalid_token, as a revoked one
    await db.prisma.oAuthAccessToken.updateMany({
      where: { refreshedAt: null, revokedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await api.fetch('/people/me.json', { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // its refresh token still gets the next pair
    const next = await refresh(app, body.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read entries:write' });
    expect(await me(next.body.access_token)).toEqual({ username: 'rae' });
  });

  it('rotate: the old access token works until it expires; the same refresh token again within the window answers the same pair, after it is a replay that revokes the family', async () => {
    const first = (await grant(app)).body;
    const second = (await refresh(app, first.refresh_token)).body;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    // a tab still using the old access token is not cut off by another tab's refresh
    expect(await me(first.access_token)).toEqual({ username: 'rae' });
    // the same refresh token a moment later (a retry after a lost answer): the same pair, still working
    const again = await refresh(app, first.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ access_token: second.access_token, refresh_token: second.refresh_token });
    const third = (await refresh(app, second.refresh_token)).body;
    expect(await me(third.access_token)).toEqual({ username: 'rae' });

    // past the reuse window (30 s), the first refresh token again is a replay: stolen, or the app's
    // stale copy. Everything of the grant goes.
    await db.prisma.oAuthAccessToken.updateMany({
      where: { refreshedAt: { not: null } },
      data: { refreshedAt: new Date(Date.now() - 31_000) },
    });
    const replay = await refresh(app, first.refresh_token);
    expect(replay).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringContaining('used already') } });
    expect(await me(third.access_token)).toBeNull();
    expect(await me(first.access_token)).toBeNull();
    expect((await refresh(app, third.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('two tabs refreshing one token at once both get the same new pair, and the session lives on', async () => {
    const first = (await grant(app)).body;
    const answers = await Promise.all([refresh(app, first.refresh_token), refresh(app, first.refresh_token)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[0]!.body.access_token).toBe(answers[1]!.body.access_token);
    expect(answers[0]!.body.refresh_token).toBe(answers[1]!.body.refresh_token);
    expect(await me(answers[0]!.body.access_token)).toEqual({ username: 'rae' });
    expect((await refresh(app, answers[1]!.body.refresh_token)).status).toBe(200);
  });

  it('without a reuse window (REFRESH_REUSE_SECONDS=0), a second refresh at once is a replay', async () => {
    const strict = testApp(db, { ACCESS_TOKEN_TTL_SECONDS: '3600', REFRESH_REUSE_SECONDS: '0' });
    const first = (await grant(app)).body;
    const use = () =>
      strict.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: String(first.refresh_token),
          ...credentials(app),
        }).toString(),
      });
    expect((await use()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await use()).status).toBe(400);
  });

  it('a code presented again after its token was refreshed revokes every token issued from it (RFC 6749 4.1.2)', async () => {
    const { code } = await approve(app);
    const exchange = () => post('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, ...credentials(app) });
    const first = (await exchange()).body;
    const refreshed = (await refresh(app, first.refresh_token)).body;
    expect(await me(refreshed.access_token)).toEqual({ username: 'rae' });
    expect((await exchange()).body.error).toBe('invalid_grant');
    expect(await me(refreshed.access_token)).toBeNull();
    expect((await refresh(app, refreshed.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('a suspended person’s tokens refresh to nothing, and introspect as inactive', async () => {
    const { body } = await grant(app, 'read');
    await db.prisma.person.updateMany({ where: { username: 'rae' }, data: { suspendedAt: new Date() } });
    try {
      expect(await refresh(app, body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await post('/oauth/introspect', { token: String(body.access_token), ...credentials(app) })).body).toEqual({ active: false });
      expect((await post('/oauth/introspect', { token: String(body.refresh_token), ...credentials(app) })).body).toEqual({ active: false });
    } finally {
      await db.prisma.person.updateMany({ where: { username: 'rae' }, data: { suspendedAt: null } });
    }
  });

  it('refresh only for the app that holds the token, with the scopes granted or fewer', async () => {
    const first = (await grant(app, 'read read_all entries:write')).body;
    expect((await refresh(other, first.refresh_token)).body.error).toBe('invalid_grant');
    expect((await refresh(app, first.refresh_token, { client_secret: 'wrong' })).status).toBe(401);
    expect((await refresh(app, first.refresh_token, { scope: 'read profile:write' })).body.error).toBe('invalid_scope');
    const narrower = await refresh(app, first.refresh_token, { scope: 'read' });
    expect(narrower.body.scope).toBe('read');
  });
});

describe('legacy apps', () => {
  it('keep tokens that never expire, without a refresh token, and the developer page says which kind an app is', async () => {
    const { body } = await grant(legacy);
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', scope: 'read entries:write profile:write' });
    expect(await db.prisma.oAuthAccessToken.count({ where: { clientId: legacy.id, expiresAt: { not: null } } })).toBe(0);
    const owner = new TestBrowser(api.fetch);
    await owner.logIn('rae', PASSWORD);
    await owner.post('/developers/apps', { name: 'Mine', redirect_uris: CALLBACK, client_type: 'confidential', legacy_tokens: '1' });
    await owner.post('/developers/apps', { name: 'Modern', redirect_uris: CALLBACK, client_type: 'confidential' });
    const page = await (await owner.get('/developers/apps')).text();
    expect(page).toMatch(/<td>Mine<\/td>.*?Legacy: never expire/s);
    expect(page).toMatch(/<td>Modern<\/td>.*?Expire, with a refresh token/s);
  });
});

describe('introspection (RFC 7662)', () => {
  it('tells a confidential app what its own token is, and nothing of another’s', async () => {
    const { body } = await grant(app, 'read entries:write');
    const active = await post('/oauth/introspect', { token: String(body.access_token), ...credentials(app) });
    expect(active).toEqual({
      status: 200,
      body: {
        active: true,
        scope: 'read entries:write',
        client_id: app.clientId,
        username: 'rae',
        token_type: 'bearer',
        exp: expect.any(Number),
        iat: expect.any(Number),
      },
    });
    expect((active.body.exp as number) - Date.now() / 1000).toBeGreaterThan(3500);
    const ofRefresh = await post('/oauth/introspect', { token: String(body.refresh_token), ...credentials(app) });
    expect(ofRefresh.body).toMatchObject({ active: true, token_type: 'refresh_token' });
    expect((await post('/oauth/introspect', { token: String(body.access_token), ...credentials(other) })).body).toEqual({ active: false });
    expect((await post('/oauth/introspect', { token: 'made-up', ...credentials(app) })).body).toEqual({ active: false });
    expect((await post('/oauth/introspect', { token: String(body.access_token), client_id: app.clientId })).status).toBe(401);
    // revoked (RFC 7009, here by its refresh token): inactive
    await post('/oauth/revoke', { token: String(body.refresh_token), ...credentials(app) });
    expect((await post('/oauth/introspect', { token: String(body.access_token), ...credentials(app) })).body).toEqual({ active: false });
  });

  it('the metadata lists every endpoint and grant', async () => {
    const metadata = (await (await api.fetch('/.well-known/oauth-authorization-server')).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      introspection_endpoint: expect.stringMatching(/\/oauth\/introspect$/),
      revocation_endpoint: expect.stringMatching(/\/oauth\/revoke$/),
      grant_types_supported: ['authorization_code', 'refresh_token', 'implicit'],
    });
  });
});
