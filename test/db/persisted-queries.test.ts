// Persisted operations in Apollo's protocol: automatic persisted queries (a hash alone, then the text
// when the hash is unknown), shared between processes through Redis, and a trusted-documents mode
// in which only a deployed file's operations run.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson } from '../support/factories.ts';

const redisUrl = process.env.TEST_REDIS_URL;
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('persisted');
  await createEntry(db.prisma, (await createPerson(db.prisma, { username: 'pia' })).id, { message: 'persisted' });
});
afterAll(() => db.destroy());

const QUERY = '{ publicStream { ... on EntryConnection { edges { node { message } } } } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

async function post(api: ReturnType<typeof testApp>, body: Record<string, unknown>) {
  const response = await api.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> },
  };
}

describe('automatic persisted queries', () => {
  it('an unknown hash answers PersistedQueryNotFound; the hash with the text runs and registers it; the hash alone then runs', async () => {
    const api = testApp(db);
    const cold = await post(api, { extensions: persisted(HASH) });
    expect(cold.body.errors?.[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    const registered = await post(api, { query: QUERY, extensions: persisted(HASH) });
    expect(registered.body).toEqual({ data: { publicStream: { edges: [{ node: { message: 'persisted' } }] } } });
    const warm = await post(api, { extensions: persisted(HASH) });
    expect(warm.body).toEqual(registered.body);
    // and by GET, as Apollo's link sends hashed queries
    const params = new URLSearchParams({ extensions: JSON.stringify(persisted(HASH)) });
    const byGet = await api.fetch(`/graphql?${params}`, { headers: { 'graphql-preflight': '1' } });
    expect(await byGet.json()).toEqual(registered.body);
  });

  it('refuses a text whose hash is not the one named, and a malformed persistedQuery', async () => {
    const api = testApp(db);
    const wrong = await post(api, { query: '{ __typename }', extensions: persisted(HASH) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    // the text registered under another's hash would have answered every later request for it
    expect(
      (await post(testApp(db), { extensions: persisted(createHash('sha256').update('{ __typename }').digest('hex')) })).body.errors?.[0]
        ?.message,
    ).toBe('PersistedQueryNotFound');
    const malformed = await post(api, { query: QUERY, extensions: { persistedQuery: { version: 2, sha256Hash: HASH } } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_INVALID');
    // neither text nor hash: the usual answer
    expect((await post(api, {})).body.errors?.[0]?.message).toBe('Must provide query string.');
  });

  it.skipIf(!redisUrl)('a text registered with one process runs by its hash on another, through Redis', async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `apq-${randomBytes(6).toString('hex')}` };
    const query = `${QUERY} # ${randomBytes(4).toString('hex')}`;
    const hash = createHash('sha256').update(query).digest('hex');
    const one = testApp(db, env);
    const other = testApp(db, env);
    await Promise.all([one.app.ready(), other.app.ready()]);
    try {
      expect((await post(one, { query, extensions: persisted(hash) })).body.data).toBeDefined();
      expect((await post(other, { extensions: persisted(hash) })).body).toEqual({
        data: { publicStream: { edges: [{ node: { message: 'persisted' } }] } },
      });
    } finally {
      await Promise.all([one.app.close(), other.app.close()]);
    }
  });
});

describe('trusted documents', () => {
  it('runs only the deployed operations, by id; any other text is refused; REST goes on', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'milepost-trusted-')), 'documents.json');
    writeFileSync(file, JSON.stringify({ feed: QUERY }));
    const api = testApp(db, { TRUSTED_DOCUMENTS: file });
    expect((await post(api, { extensions: persisted('feed') })).body).toEqual({
      data: { publicStream: { edges: [{ node: { message: 'persisted' } }] } },
    });
    const arbitrary = await post(api, { query: '{ __typename }' });
    expect(arbitrary.status).toBe(400);
    expect(arbitrary.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    // registering is not possible either: the text is refused with its hash too
    expect((await post(api, { query: QUERY, extensions: persisted(HASH) })).status).toBe(400);
    expect((await post(api, { extensions: persisted('unknown') })).body.errors?.[0]?.message).toBe('PersistedQueryNotFound');
    // the legacy REST paths run their own operations, in-process
    expect((await api.fetch('/entries.json')).status).toBe(200);
  });

  it('takes a document named by documentId (the persisted-documents draft) or doc_id, in a POST or a GET', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'milepost-trusted-')), 'documents.json');
    writeFileSync(file, JSON.stringify({ [HASH]: QUERY }));
    const api = testApp(db, { TRUSTED_DOCUMENTS: file });
    const answer = { data: { publicStream: { edges: [{ node: { message: 'persisted' } }] } } };
    expect((await post(api, { documentId: `sha256:${HASH}` })).body).toEqual(answer);
    expect((await post(api, { doc_id: HASH })).body).toEqual(answer);
    const get = await api.fetch(`/graphql?documentId=sha256:${HASH}`, {
      headers: { accept: 'application/json', 'graphql-preflight': '1' },
    });
    expect(await get.json()).toEqual(answer);
    expect((await post(api, { documentId: 'sha256:unknown' })).body.errors?.[0]?.message).toBe('PersistedQueryNotFound');
  });
});
