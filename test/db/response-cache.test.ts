// Anonymous reads are answered from cached bytes while nothing was committed; any commit, from this
// process or another connection, makes the very next read fresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/tokens.ts';
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

const STREAM = '{ publicStream { ... on EntryConnection { edges { node { id: databaseId message } } } } }';

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
  it('keeps https and http answers apart behind a trusted proxy, and believes the proxy’s own X-Forwarded-Proto', async () => {
    const proxied = testApp(db, { TRUST_PROXY: '1' });
    try {
      const urlsOf = async (proto?: string) => {
        const response = await proxied.fetch('/entries.json', proto ? { headers: { 'x-forwarded-proto': proto } } : {});
        return ((await response.json()) as { entries: Array<{ url: string }> }).entries.map((e) => e.url.split(':')[0]);
      };
      expect(new Set(await urlsOf('https'))).toEqual(new Set(['https']));
      expect(new Set(await urlsOf())).toEqual(new Set(['http']));
      expect(new Set(await urlsOf('https'))).toEqual(new Set(['https']));
      // one trusted hop: the value it appended, the last, not what the client sent first
      expect(new Set(await urlsOf('https, http'))).toEqual(new Set(['http']));
    } finally {
      await proxied.app.close();
    }
  });

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
    const created = await api.graphql<{ createEntry: { entry: { id: number } } }>(
      'mutation { createEntry(input: { message: "fresh via API" }) { entry { id: databaseId } } }',
      {},
      token,
    );
    expect(created.data!.createEntry.entry.id).toBeGreaterThan(0);
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

  it('shows writes in the very next computed read with a token (the hot read path), and refuses a revoked token at once', async () => {
    const own = await createToken(db.prisma, authorId);
    const read = async () => {
      const response = await api.fetch('/entries.json', { headers: { authorization: `Bearer ${own}` } });
      return { status: response.status, body: (await response.json()) as { entries: Array<{ message: string; comments?: unknown[] }> } };
    };
    expect((await read()).status).toBe(200);
    for (const message of ['computed one', 'computed two']) {
      await api.graphql(`mutation { createEntry(input: { message: "${message}" }) { error { __typename } } }`, {}, token);
      expect((await read()).body.entries[0]!.message).toBe(message);
    }
    // a commit by another connection (the CLI revoking it) is seen by the very next request
    await db.prisma.oAuthAccessToken.updateMany({ where: { tokenHash: hashToken(own) }, data: { revokedAt: new Date() } });
    expect((await read()).status).toBe(401);
  });

  it('computes a read once for all the readers waiting on it after a commit, each seeing the commit', async () => {
    await api.graphql('mutation { createEntry(input: { message: "before the crowd" }) { error { __typename } } }', {}, token);
    const alone = (await restMessages()).queries;
    await api.graphql('mutation { createEntry(input: { message: "seen by the crowd" }) { error { __typename } } }', {}, token);
    const before = db.queryCount();
    const crowd = await Promise.all(Array.from({ length: 16 }, () => api.fetch('/entries.json').then((r) => r.json())));
    // sixteen readers of one page after a commit: one computation, not sixteen
    expect(db.queryCount() - before).toBe(alone);
    for (const body of crowd as Array<{ entries: Array<{ message: string }> }>) expect(body.entries[0]!.message).toBe('seen by the crowd');
  });

  it('answers 304 to a client holding the current bytes, and 200 once they changed', async () => {
    const { etag } = await restMessages();
    const unchanged = await api.fetch('/entries.json', { headers: { 'if-none-match': etag! } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    await api.graphql('mutation { createEntry(input: { message: "after the etag" }) { error { __typename } } }', {}, token);
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
    const send = () =>
      api.app
        .fetch('http://milepost.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: 'mutation { createEntry(input: { message: "twice" }) { entry { id: databaseId } } }' }),
        })
        .then((r) => r.json() as Promise<{ data: { createEntry: { entry: { id: number } } } }>);
    const [a, b] = [await send(), await send()];
    expect(b.data.createEntry.entry.id).not.toBe(a.data.createEntry.entry.id);
  });
});

/**
 * A repeated read and the statements it cost, tried again (at most 5 times) until one fell between no
 * commit at all: PostgreSQL's change clock is the cluster's snapshot, so a commit by another test file (in
 * its own schema) rightly empties the cache between two reads. `reads` says how many were sent.
 */
async function cachedRead<T>(read: () => Promise<T>): Promise<{ answer: T; statements: number; reads: number }> {
  let last = { answer: undefined as T, statements: -1, reads: 0 };
  while (last.reads < 5 && last.statements !== 0) {
    const before = db.queryCount();
    const answer = await read();
    last = { answer, statements: db.queryCount() - before, reads: last.reads + 1 };
  }
  return last;
}

describe('cached reads over node:http (the fast path)', () => {
  it('answers with the same bytes and edge headers as the full way, and stays fresh after writes', async () => {
    const { createApp, listen } = await import('../../src/app/server.ts');
    const { testConfig } = await import('../support/database.ts');
    const config = { ...testConfig(db.config, { RATE_LIMIT_PER_HOUR: '20' }), port: 0, host: '127.0.0.1' };
    const app = createApp(config, db);
    const server = await listen(app, config);
    const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
    try {
      const first = await fetch(`${base}/entries.json`, { headers: { 'accept-encoding': 'identity' } });
      const firstBody = await first.text();
      // identity: fetch asks for gzip by default, and the length compared below is of the plain bytes
      const again = () => fetch(`${base}/entries.json`, { headers: { 'x-request-id': 'fast-1', 'accept-encoding': 'identity' } });
      const { answer, statements, reads } = await cachedRead(async () => {
        const response = await again();
        return { response, body: await response.text() };
      });
      let answered = 1 + reads;
      expect(statements).toBe(0);
      expect(answer.body).toBe(firstBody);
      const second = answer.response;
      // every read counted against the limit, the cached ones too
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - reads);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(second.headers.get('access-control-allow-origin')).toBe('*');
      expect(second.headers.get('x-request-id')).toBe('fast-1');
      expect(second.headers.get('content-length')).toBe(String(Buffer.byteLength(firstBody)));

      const head = await fetch(`${base}/entries.json`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      const unchanged = await fetch(`${base}/entries.json`, { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect(unchanged.status).toBe(304);

      // a write by another connection is seen at once
      const other = await openDatabase(db.config, { migrate: false });
      await createEntry(other.prisma, authorId, { message: 'seen by the fast path' });
      await other.close();
      const fresh = (await (await fetch(`${base}/entries.json`)).json()) as { entries: Array<{ message: string }> };
      expect(fresh.entries[0]!.message).toBe('seen by the fast path');

      answered += 1;

      // the limit holds on this path too: 20 an hour, the 21st is refused with Retry-After
      while (answered + 2 < 20) {
        expect((await fetch(`${base}/entries.json`)).status).toBe(200);
        answered += 1;
      }
      const refused = await fetch(`${base}/entries.json`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/milepost_rate_limit_rejections_total 1\b/);
      expect(metrics).toMatch(new RegExp(`milepost_http_requests_total\\{method="GET",route="/entries",status="200"\\} ${answered}\\b`));
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });

  it('serves a repeated GraphQL query from the cache and never a mutation', async () => {
    const { createApp, listen } = await import('../../src/app/server.ts');
    const { testConfig } = await import('../support/database.ts');
    const config = { ...testConfig(db.config), port: 0, host: '127.0.0.1' };
    const app = createApp(config, db);
    const server = await listen(app, config);
    const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
    // what these tests read of the answers: an id, and a page's messages
    type Shape = { entry: { id: number }; edges: Array<{ node: { message: string } }> };
    const post = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query }),
      }).then((r) => r.json() as Promise<{ data: Record<string, Shape> }>);
    try {
      const first = await post(STREAM);
      const repeated = await cachedRead(() => post(STREAM));
      expect(repeated.answer).toEqual(first);
      expect(repeated.statements).toBe(0);
      const created = await post('mutation { createEntry(input: { message: "posted over http" }) { entry { id: databaseId } } }', {
        authorization: `Bearer ${token}`,
      });
      expect(created.data.createEntry!.entry.id).toBeGreaterThan(0);
      const after = await post(STREAM);
      expect(after.data.publicStream!.edges[0]!.node.message).toBe('posted over http');
      // a malformed body still gets the full way's answer
      const malformed = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query": ',
      });
      expect(malformed.status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });
});
