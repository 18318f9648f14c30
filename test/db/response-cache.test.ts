// Anonymous reads are answered from cached bytes while nothing was committed; any commit, from this
// process or another connection, makes the very next read fresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
let authorId: number;

beforeAll(async () => {
  db = await createTestDatabase('cache');
  api = testApp(db);
  const author = await createPerson(db.prisma);
  authorId = author.id;
  token = await createToken(db.prisma, author.id);
  for (let i = 0; i < 3; i++) await createEntry(db.prisma, author.id, { message: `seeded ${i}` });
});
afterAll(async () => {
  await api.app.close();
  await db.destroy();
});

const STREAM = '{ publicStream { ... on EntryConnection { edges { node { id message } } } } }';

async function restMessages(): Promise<{ messages: string[]; etag: string | null; queries: number }> {
  const before = db.queryCount();
  const response = await api.fetch('/entries.json');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { entries: Array<{ message: string }> };
  return { messages: body.entries.map((e) => e.message), etag: response.headers.get('etag'), queries: db.queryCount() - before };
}

async function graphqlMessages(): Promise<{ messages: string[]; queries: number }> {
  const before = db.queryCount();
  const result = await api.graphql<{ publicStream: { edges: Array<{ node: { message: string } }> } }>(STREAM);
  return { messages: result.data!.publicStream.edges.map((e) => e.node.message), queries: db.queryCount() - before };
}

describe('the response cache', () => {
  it('answers a repeated anonymous read without SQL, with the same bytes and ETag', async () => {
    const first = await restMessages();
    const second = await restMessages();
    expect(second.messages).toEqual(first.messages);
    expect(second.etag).toBe(first.etag);
    expect(first.queries).toBeGreaterThan(0);
    expect(second.queries).toBe(0);
    await graphqlMessages();
    expect((await graphqlMessages()).queries).toBe(0);
  });

  it('shows a write through the API in the very next read, on both interfaces', async () => {
    await restMessages();
    await graphqlMessages();
    const created = await api.graphql<{ createEntry: { id: number } }>('mutation { createEntry(input: { message: "fresh via API" }) { ... on Entry { id } } }', {}, token);
    expect(created.data!.createEntry.id).toBeGreaterThan(0);
    expect((await restMessages()).messages[0]).toBe('fresh via API');
    expect((await graphqlMessages()).messages[0]).toBe('fresh via API');
  });

  it('shows a write by another connection (another worker, the CLI) in the very next read', async () => {
    await restMessages();
    const other = await openDatabase(db.config, { migrate: false });
    try {
      await createEntry(other.prisma, authorId, { message: 'written elsewhere' });
    } finally {
      await other.close();
    }
    expect((await restMessages()).messages[0]).toBe('written elsewhere');
    expect((await graphqlMessages()).messages[0]).toBe('written elsewhere');
  });

  it('answers 304 to a client holding the current bytes, and 200 once they changed', async () => {
    const { etag } = await restMessages();
    const unchanged = await api.fetch('/entries.json', { headers: { 'if-none-match': etag! } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    await api.graphql('mutation { createEntry(input: { message: "after the etag" }) { __typename } }', {}, token);
    const changed = await api.fetch('/entries.json', { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('never answers a request with a token from what an anonymous one was given', async () => {
    const anonymous = await api.graphql<{ me: { username: string } | null }>('{ me { username } }');
    expect(anonymous.data!.me).toBeNull();
    const viewer = await api.graphql<{ me: { username: string } | null }>('{ me { username } }', {}, token);
    expect(viewer.data!.me).not.toBeNull();
    const withParameter = await api.fetch(`/people/me.json?oauth_token=${token}`);
    expect(withParameter.status).toBe(200);
    expect(withParameter.headers.get('cache-control')).toBe('private');
  });

  it('never stores a mutation: sending the same one twice writes twice', async () => {
    const send = () => api.app.fetch('http://milepost.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'mutation { createEntry(input: { message: "twice" }) { ... on Entry { id } } }' }),
    }).then((r) => r.json() as Promise<{ data: { createEntry: { id: number } } }>);
    const [a, b] = [await send(), await send()];
    expect(b.data.createEntry.id).not.toBe(a.data.createEntry.id);
  });
});
