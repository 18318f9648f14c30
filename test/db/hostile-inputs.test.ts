// Inputs that once reached a 500: each is answered as the client's mistake (a 4xx naming what is
// wrong) or as an empty answer, and never as INTERNAL_SERVER_ERROR.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token = '';

beforeAll(async () => {
  db = await createTestDatabase('hostile');
  api = testApp(db);
  const person = await createPerson(db.prisma, { username: 'hostess' });
  token = await createToken(db.prisma, person.id);
  await createEntry(db.prisma, person.id, { message: 'an ordinary entry' });
});
afterAll(() => db.destroy());

const deep = (depth: number) => `{"message":${'['.repeat(depth)}${']'.repeat(depth)}}`;
const json = { 'content-type': 'application/json' };

describe('a JSON body nested 100,000 deep', () => {
  it.each([
    ['/entries.json', 'REST'],
    ['/api/v1/create-entry', '/api/v1'],
  ])('is a 400 naming the depth on %s (%s)', async (path) => {
    const response = await api.fetch(path, { method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body: deep(100_000) });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/nested deeper than 64 levels/);
  });

  it('is a 400 on /graphql, in its variables', async () => {
    const body = `{"query":"query ($m: String) { __typename }","variables":${deep(100_000)}}`;
    const response = await api.fetch('/graphql', { method: 'POST', headers: json, body });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/nested deeper than 64 levels/);
  });
});

describe('GraphQL requests that once failed inside the server', () => {
  it('a batch holding null: the null is refused, the rest answered', async () => {
    const response = await api.fetch('/graphql', { method: 'POST', headers: json, body: '[{"query":"{__typename}"},null]' });
    expect(response.status).toBeLessThan(500);
    const text = await response.text();
    expect(text).not.toMatch(/INTERNAL_SERVER_ERROR|Unexpected error/);
  });

  it('@stream with a negative initialCount is refused naming the argument, written or in a variable', async () => {
    const stream = async (query: string, variables: Record<string, unknown> = {}) => {
      const response = await api.fetch('/graphql', {
        method: 'POST',
        headers: { ...json, accept: 'multipart/mixed, application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, text: await response.text() };
    };
    const written = await stream('{ publicStream(first: 2) { edges @stream(initialCount: -1) { cursor } } }');
    // refused with the document, before anything runs: no data at all
    expect(JSON.parse(written.text).data).toBeUndefined();
    expect(written.text).toMatch(/@stream\(initialCount:\) must be 0 or more/);
    const given = await stream('query ($n: Int!) { publicStream(first: 2) { edges @stream(initialCount: $n) { cursor } } }', { n: -1 });
    expect(given.text).not.toMatch(/INTERNAL_SERVER_ERROR|Unexpected error/);
    expect(given.text).toMatch(/@stream\(initialCount:\) must be 0 or more/);
  });

  it.each(['Person', 'Route', 'Entry', 'Comment'])('node(id:) of a %s that does not exist is null', async (type) => {
    const result = await api.graphql<{ node: unknown }>('query ($id: ID!) { node(id: $id) { id } }', {
      id: encodeGlobalID(type, '987654'),
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.node).toBeNull();
  });

  it('node(id:) of a deleted account is null', async () => {
    const gone = await createPerson(db.prisma, { username: 'gone' });
    const id = encodeGlobalID('Person', String(gone.id));
    await db.prisma.person.delete({ where: { id: gone.id } });
    const result = await api.graphql<{ node: unknown }>('query ($id: ID!) { node(id: $id) { id } }', { id });
    expect(result.errors).toBeUndefined();
    expect(result.data!.node).toBeNull();
  });
});

describe('search for letters that unaccent turns into query syntax', () => {
  const search = async (text: string) => {
    const result = await api.graphql('query ($q: String!) { searchEntries(query: $q) { edges { cursor } } }', { q: text });
    const rest = await api.fetch(`/api/v1/search/entries?query=${encodeURIComponent(text)}`);
    const page = await api.fetch(`/search?q=${encodeURIComponent(text)}`, { headers: { accept: 'text/html' } });
    return { errors: result.errors?.map((error) => error.extensions?.code), rest: rest.status, page: page.status };
  };

  // letters (U+02D0 is a modifier letter, U+0149 a Latin letter, the parenthesized digits digits) that
  // unaccent turns into ':', "'n" and '(1)': each once broke PostgreSQL's to_tsquery
  it.each(['aː', 'ŉab', '⑴⑵'])('%s is searched', async (text) => {
    expect(await search(text)).toEqual({ errors: undefined, rest: 200, page: 200 });
  });

  it.each(['x:*', "o'", '(', '!', '&|'])("%s, no word at all, is refused as the client's mistake", async (text) => {
    expect(await search(text)).toEqual({ errors: ['VALIDATION_FAILED'], rest: 422, page: 422 });
  });
});
