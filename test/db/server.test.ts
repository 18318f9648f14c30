// The HTTP service as clients meet it: GraphQL at /graphql, health, JSON errors, tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
beforeAll(async () => {
  db = await createTestDatabase('server');
  api = testApp(db);
});
afterAll(() => db.destroy());

describe('HTTP service', () => {
  it('answers /healthz', async () => {
    const response = await api.fetch('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown path with 404 and a JSON body naming it', async () => {
    const response = await api.fetch('/no/such/thing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'no resource at /no/such/thing' } });
  });

  it('serves GraphQL over GET as well as POST, with a CSRF-proof header', async () => {
    const url = `/graphql?query=${encodeURIComponent('{ person(username: "nobody") { username } }')}`;
    const response = await api.fetch(url, { headers: { 'x-graphql-yoga-csrf': '1' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { person: null } });
    // a plain GET is what a cross-site page can send without a CORS preflight
    expect((await api.fetch(url)).status).toBe(403);
  });

  it('serves GraphiQL to browsers when enabled, and not when disabled', async () => {
    const page = await api.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('Milepost GraphQL');
    const closed = testApp(db, { GRAPHIQL: 'false' });
    const response = await closed.fetch('/graphql', { headers: { accept: 'text/html' } });
    // a person who opens it is told what it is and how GraphiQL is turned on (not a CSRF refusal in JSON)
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const text = await response.text();
    expect(text).not.toContain('Milepost GraphQL');
    expect(text).toContain('GraphiQL, the in-browser editor, is turned off');
    expect(text).toContain('GRAPHIQL=true');
    // an operation in the address is still an operation, answered (here refused) as GraphQL, not with the page
    const operation = await closed.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'text/html' } });
    expect(operation.status).toBeGreaterThanOrEqual(400);
    expect(await operation.text()).not.toContain('GraphiQL, the in-browser editor');
  });

  it('builds absolute URLs from PUBLIC_URL when it is set', async () => {
    const person = await createPerson(db.prisma, { username: 'urlperson' });
    const behindProxy = testApp(db, { PUBLIC_URL: 'https://milepost.example' });
    const result = await behindProxy.graphql<{ person: { url: string } }>('{ person(username: "urlperson") { url } }');
    expect(result.data!.person.url).toBe(`https://milepost.example/people/${person.username}`);
  });
});

describe('access tokens', () => {
  it('`me` is the person who authorized the token, by header or by oauth_token', async () => {
    const person = await createPerson(db.prisma, { username: 'tokenholder' });
    const token = await createToken(db.prisma, person.id);
    expect((await api.graphql('{ me { username } }', {}, token)).data).toEqual({ me: { username: 'tokenholder' } });
    const viaQuery = await api.fetch(`/graphql?oauth_token=${token}&query=${encodeURIComponent('{ me { username } }')}`, {
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(await viaQuery.json()).toEqual({ data: { me: { username: 'tokenholder' } } });
    const oauthScheme = await api.fetch(`/graphql?query=${encodeURIComponent('{ me { username } }')}`, {
      headers: { authorization: `OAuth ${token}` },
    });
    expect(await oauthScheme.json()).toEqual({ data: { me: { username: 'tokenholder' } } });
  });

  it('`me` is null without a token', async () => {
    expect((await api.graphql('{ me { username } }')).data).toEqual({ me: null });
  });

  it('refuses a revoked token with 401 and WWW-Authenticate', async () => {
    const person = await createPerson(db.prisma);
    const token = await createToken(db.prisma, person.id);
    await db.prisma.oAuthAccessToken.updateMany({ where: { personId: person.id }, data: { revokedAt: new Date() } });
    const response = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ me { username } }' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('accepts the same token twice but refuses two different ones with 400', async () => {
    const person = await createPerson(db.prisma);
    const token = await createToken(db.prisma, person.id);
    const other = await createToken(db.prisma, person.id);
    const query = encodeURIComponent('{ me { id: username } }');
    const same = await api.fetch(`/graphql?oauth_token=${token}&query=${query}`, { headers: { authorization: `OAuth ${token}` } });
    expect(same.status).toBe(200);
    const different = await api.fetch(`/graphql?oauth_token=${other}&query=${query}`, { headers: { authorization: `Bearer ${token}` } });
    expect(different.status).toBe(400);
    expect(((await different.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe(
      'TOKEN_CONFLICT',
    );
  });
});

describe('NUL characters', () => {
  it('are refused with 400 in URLs, forms, JSON bodies and GraphQL variables, never stored or a 500', async () => {
    const person = await createPerson(db.prisma);
    const token = await createToken(db.prisma, person.id);
    expect((await api.fetch('/people/a%00b.json')).status).toBe(400);
    const form = await api.fetch('/entries.json', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=a%00b',
    });
    expect(form.status).toBe(400);
    const json = await api.fetch('/entries.json', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'a\u0000b' }),
    });
    expect(json.status).toBe(400);
    const graphql = await api.graphql(
      'mutation ($m: String) { createEntry(input: { message: $m }) { error { __typename } } }',
      { m: 'a\u0000b' },
      token,
    );
    expect(graphql.status).toBe(400);
    expect(await db.prisma.entry.count({ where: { authorId: person.id } })).toBe(0);
  });
});
