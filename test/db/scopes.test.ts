// What an app may do for a person: the scopes the athlete grants on the consent page, and every read
// and write path held to them (GraphQL, the legacy REST paths, /api/v1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { type CreatedApp, registerApp } from '../../src/db/oauth-clients.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let app: CreatedApp;
let aliceId = 0;
const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://app.example/oauth/callback';
/** Alice's entries, by who may see them. */
const entries = { everyone: 0, friends: 0, onlyMe: 0 };
let bobEntry = 0;

beforeAll(async () => {
  db = await createTestDatabase('scopes');
  api = testApp(db);
  const alice = await createAccount(db.prisma, { username: 'alice', password: PASSWORD, displayName: 'Alice' });
  aliceId = alice.id;
  app = await registerApp(db.prisma, null, { name: 'Run Tracker', redirectUris: [CALLBACK], confidential: true });
  for (const visibility of ['everyone', 'friends', 'only_me'] as const) {
    const entry = await createEntry(db.prisma, alice.id, { message: `alice ${visibility}`, visibility });
    entries[visibility === 'only_me' ? 'onlyMe' : visibility] = entry.id;
  }
  const bob = await createPerson(db.prisma, { username: 'bob' });
  await makeFriends(db.prisma, alice.id, bob.id);
  bobEntry = (await createEntry(db.prisma, bob.id, { message: 'bob for friends', visibility: 'friends' })).id;
  await db.prisma.person.update({ where: { id: alice.id }, data: { statsVisibility: 'only_me' } });
  await db.prisma.privacyZone.create({ data: { personId: alice.id, lat: 40, lon: -105, radiusMeters: 200 } });
});
afterAll(() => db.destroy());

/** Alice logs in, is asked for `scope` by the app, and ticks `grant` (all of them when not given); the redirect the app receives. */
async function authorize(scope: string | null, grant?: string[]): Promise<{ location: URL; consent: string }> {
  const browser = new TestBrowser(api.fetch);
  expect((await browser.logIn('alice', PASSWORD)).status).toBe(302);
  const params: Record<string, string> = { response_type: 'code', client_id: app.clientId, redirect_uri: CALLBACK, state: 's' };
  if (scope !== null) params.scope = scope;
  const page = await browser.get(`/oauth/authorize?${new URLSearchParams(params)}`);
  const consent = await page.text();
  if (page.status !== 200) return { location: new URL(page.headers.get('location')!), consent };
  // what the page's form sends: every ticked box, and `read`, which cannot be unticked
  const ticked = grant ?? [...consent.matchAll(/name="grant" value="([^"]+)"/g)].map((match) => match[1]!);
  const response = await browser.post('/oauth/authorize', { ...params, decision: 'approve', grant: ticked });
  expect(response.status).toBe(302);
  return { location: new URL(response.headers.get('location')!), consent };
}

/** The token the app exchanges its code for, and the scope the answer says it has. */
async function tokenFor(scope: string | null, grant?: string[]): Promise<{ token: string; scope: string }> {
  const { location } = await authorize(scope, grant);
  const code = location.searchParams.get('code');
  expect(code, location.toString()).toBeTruthy();
  const response = await api.fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: CALLBACK,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
    }).toString(),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { access_token: string; scope: string };
  return { token: body.access_token, scope: body.scope };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** What a token reads of Alice's entries, stats and zones over GraphQL. */
async function reads(token: string) {
  const result = await api.graphql<{
    entry: { id: string } | null;
    person: {
      entries: { edges: Array<{ node: { message: string } }> };
      stats: unknown;
      privacyZones: unknown[] | null;
    };
  }>(
    `query ($onlyMe: ID!) {
      entry(id: $onlyMe) { id }
      person(username: "alice") { entries(first: 10) { edges { node { message } } } stats(period: WEEK) { ... on TrainingStats { total { workouts } } } privacyZones { lat } }
    }`,
    { onlyMe: entries.onlyMe },
    token,
  );
  expect(result.errors).toBeUndefined();
  const person = result.data!.person;
  return {
    onlyMeEntry: result.data!.entry !== null,
    messages: person.entries.edges.map((edge) => edge.node.message).sort(),
    stats: person.stats !== null,
    zones: person.privacyZones !== null,
  };
}

describe('granting', () => {
  it('an app that asks for nothing gets the legacy default: everything the original API could do, never what only the person sees', async () => {
    const { token, scope } = await tokenFor(null);
    expect(scope).toBe('read entries:write profile:write');
    expect(await reads(token)).toEqual({
      onlyMeEntry: false,
      messages: ['alice everyone', 'alice friends'],
      stats: false,
      zones: false,
    });
    // the only-me entry is missing on the legacy paths too, exactly as a hidden entry is
    expect((await api.fetch(`/entries/${entries.onlyMe}.json`, { headers: auth(token) })).status).toBe(404);
    const stream = (await (await api.fetch('/people/me/entries.json', { headers: auth(token) })).json()) as {
      entries: Array<{ id: number }>;
    };
    expect(stream.entries.map((entry) => entry.id).sort()).toEqual([entries.everyone, entries.friends].sort());
    // and it writes, as the original clients do
    const posted = await api.fetch(`/entries/${bobEntry}/comments.json`, {
      method: 'POST',
      headers: { ...auth(token), 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'nice' }),
    });
    expect(posted.status).toBe(201);
  });

  it('the account page lists each authorized app with what it may do', async () => {
    await tokenFor('read_all');
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('alice', PASSWORD);
    const page = await (await browser.get('/account')).text();
    const row = /<tr><td>Run Tracker<\/td><td><ul class="scopes">(.*?)<\/ul>/.exec(page)?.[1] ?? '';
    expect([...row.matchAll(/<code>([^<]+)<\/code>/g)].map((match) => match[1])).toEqual([
      'read',
      'read_all',
      'entries:write',
      'profile:write',
    ]);
  });

  it('read_all reads what only the person sees', async () => {
    const { token, scope } = await tokenFor('read_all');
    expect(scope).toBe('read read_all');
    expect(await reads(token)).toEqual({
      onlyMeEntry: true,
      messages: ['alice everyone', 'alice friends', 'alice only_me'],
      stats: true,
      zones: true,
    });
  });

  it('the consent page says in words what the app asks for, and the athlete may grant less', async () => {
    const { consent } = await authorize('read_all entries:write');
    expect(consent).toContain('Also see what only you see');
    expect(consent).toContain('Post, change and delete your entries');
    expect(consent).not.toContain('Change your profile');
    const { token, scope } = await tokenFor('read_all entries:write', ['read', 'read_all']);
    expect(scope).toBe('read read_all');

    // a write the athlete did not grant: a typed error naming the scope, in GraphQL
    const graphql = await api.graphql<{ createComment: { comment: unknown; error: { __typename: string; code: string; scope: string } } }>(
      `mutation { createComment(input: { entryId: ${bobEntry}, body: "hi" }) { comment { id } error { __typename ... on Error { code } ... on InsufficientScopeError { scope } } } }`,
      {},
      token,
    );
    expect(graphql.data!.createComment).toEqual({
      comment: null,
      error: { __typename: 'InsufficientScopeError', code: 'INSUFFICIENT_SCOPE', scope: 'entries:write' },
    });
    // 403 with RFC 6750's challenge on the legacy paths and /api/v1
    for (const [path, body] of [
      [`/entries/${bobEntry}/comments.json`, { body: 'hi' }],
      ['/api/v1/create-comment', { entryId: bobEntry, body: 'hi' }],
    ] as const) {
      const response = await api.fetch(path, {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(403);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="milepost", error="insufficient_scope", scope="entries:write"');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect(await db.prisma.comment.count({ where: { body: 'hi' } })).toBe(0);
    // the profile too
    const profile = await api.fetch('/api/v1/update-profile', {
      method: 'POST',
      headers: { ...auth(token), 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Mallory' }),
    });
    expect(profile.status).toBe(403);
    expect(profile.headers.get('www-authenticate')).toContain('scope="profile:write"');
  });

  it('an unknown scope answers invalid_scope at the app’s redirect_uri, and nothing is granted', async () => {
    const { location } = await authorize('read admin:everything');
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toContain('admin:everything');
    expect(location.searchParams.get('state')).toBe('s');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('a token granted before scopes existed keeps the legacy default', async () => {
    const token = await createToken(db.prisma, aliceId, { scope: null });
    expect((await reads(token)).onlyMeEntry).toBe(false);
    const liked = await api.graphql<{ likeEntry: { error: unknown } }>(
      `mutation { likeEntry(input: { entryId: ${bobEntry} }) { error { __typename } } }`,
      {},
      token,
    );
    expect(liked.data!.likeEntry.error).toBeNull();
  });
});

describe('saying so', () => {
  it('the metadata lists the scopes, and OpenAPI declares them per operation', async () => {
    const metadata = (await (await api.fetch('/.well-known/oauth-authorization-server')).json()) as { scopes_supported: string[] };
    expect(metadata.scopes_supported).toEqual(['read', 'read_all', 'entries:write', 'profile:write']);
    const openapi = (await (await api.fetch('/openapi.json')).json()) as {
      components: { securitySchemes: { oauth2: { flows: { authorizationCode: { scopes: Record<string, string> } } } } };
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(Object.keys(openapi.components.securitySchemes.oauth2.flows.authorizationCode.scopes)).toEqual([
      'read',
      'read_all',
      'entries:write',
      'profile:write',
    ]);
    expect(openapi.paths['/entries/{id}/comments.json']!.post!.security).toEqual([
      { oauth2: ['entries:write'] },
      { bearer: ['entries:write'] },
    ]);
    expect(openapi.paths['/api/v1/update-profile']!.post!.security).toEqual([{ oauth2: ['profile:write'] }, { bearer: ['profile:write'] }]);
    // a read a token changes (what the person may see), but does not need
    expect(openapi.paths['/api/v1/entries/{id}']!.get!.security).toEqual([{}, { oauth2: ['read'] }, { bearer: ['read'] }]);
  });
});

describe('personal access tokens, on the account page', () => {
  it('are made with a name, the scopes ticked and an expiry; shown once; listed; and revoked', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('alice', PASSWORD);
    const made = await browser.post('/account/tokens', { name: 'My script', scope: ['read', 'entries:write'], expires: '7' });
    expect(made.status).toBe(201);
    const page = await made.text();
    const token = /<code class="secret" id="new-token">([^<]+)<\/code>/.exec(page)?.[1];
    expect(token).toBeTruthy();
    // what was ticked, and no more
    expect((await reads(token!)).onlyMeEntry).toBe(false);
    const liked = await api.graphql<{ likeEntry: { error: unknown } }>(
      `mutation { likeEntry(input: { entryId: ${bobEntry} }) { error { __typename } } }`,
      {},
      token,
    );
    expect(liked.data!.likeEntry.error).toBeNull();
    const profile = await api.graphql<{ updateProfile: { error: { __typename: string } } }>(
      'mutation { updateProfile(input: { displayName: "x" }) { error { __typename } } }',
      {},
      token,
    );
    expect(profile.data!.updateProfile.error.__typename).toBe('InsufficientScopeError');
    // shown once: the page lists it by name, never the token again
    const later = await (await browser.get('/account')).text();
    expect(later).toContain('My script');
    expect(later).not.toContain(token!);
    expect(later).toMatch(/<td>My script<\/td>.*?<code>read<\/code>.*?<code>entries:write<\/code>/s);
    // hashed at rest
    expect(await db.prisma.oAuthAccessToken.count({ where: { name: 'My script', tokenHash: token! } })).toBe(0);
    const row = await db.prisma.oAuthAccessToken.findFirstOrThrow({ where: { name: 'My script' } });
    expect(row.expiresAt!.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    // not an app the person authorized
    expect(later).not.toMatch(/<td>Personal access tokens<\/td>/);

    await browser.post('/account/tokens/revoke', { id: String(row.id) });
    expect((await api.fetch('/people/me.json', { headers: auth(token!) })).status).toBe(401);
    expect(await (await browser.get('/account')).text()).not.toContain('My script');
  });

  it('refuses a missing name, an unknown scope or expiry with 422 naming the field; never another person’s revoke', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('alice', PASSWORD);
    const refused = await browser.post('/account/tokens', { name: ' ', scope: ['read', 'admin'], expires: '12' });
    expect(refused.status).toBe(422);
    const text = await refused.text();
    expect(text).toContain('name: must be 1 to 80 characters');
    expect(text).toContain('scope: unknown scope admin');
    expect(text).toContain('expires: must be');
    // a token of someone else's cannot be revoked from Alice's page
    const bob = await db.prisma.person.findFirstOrThrow({ where: { username: 'bob' } });
    const theirs = await db.prisma.oAuthAccessToken.create({
      data: { tokenHash: 'x'.repeat(64), clientId: app.id, personId: bob.id, name: 'bob’s' },
    });
    await browser.post('/account/tokens/revoke', { id: String(theirs.id) });
    expect((await db.prisma.oAuthAccessToken.findUniqueOrThrow({ where: { id: theirs.id } })).revokedAt).toBeNull();
  });
});
