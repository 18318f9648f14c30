// Batched requests (an array of operations in one POST, as Apollo's BatchHttpLink sends them): bounded,
// and each operation costed and rate-limited as if it had come alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_OPERATIONS } from '../../src/app/server.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson } from '../support/factories.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('batching');
  await createEntry(db.prisma, (await createPerson(db.prisma, { username: 'bea' })).id, { message: 'batched' });
});
afterAll(() => db.destroy());

const batch = (api: ReturnType<typeof testApp>, operations: Array<{ query: string }>) =>
  api.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(operations) });

describe('batched operations', () => {
  it('answers an array of operations with an array of results, in order', async () => {
    const api = testApp(db);
    const response = await batch(api, [{ query: '{ person(username: "bea") { username } }' }, { query: '{ __typename }' }]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ data: { person: { username: 'bea' } } }, { data: { __typename: 'Query' } }]);
  });

  it(`refuses more than ${MAX_BATCH_OPERATIONS} operations in one request`, async () => {
    const api = testApp(db);
    const response = await batch(
      api,
      Array.from({ length: MAX_BATCH_OPERATIONS + 1 }, () => ({ query: '{ __typename }' })),
    );
    expect(response.status).toBe(413);
    // an array as long as the batch, as Apollo's BatchHttpLink needs to hand each operation its error
    const results = (await response.json()) as Array<{ errors: Array<{ message: string; extensions: { code: string } }> }>;
    expect(results).toHaveLength(MAX_BATCH_OPERATIONS + 1);
    for (const result of results) expect(result.errors[0]!.extensions.code).toBe('BATCH_TOO_LARGE');
    expect(results[0]!.errors[0]!.message).toMatch(/at most 10/);
  });

  it('costs each operation alone: one too costly is refused, the others answer', async () => {
    const api = testApp(db);
    const costly = `{ ${Array.from({ length: 12 }, (_, i) => `s${i}: publicStream(first: 100) { ... on EntryConnection { edges { node { comments { edges { node { author { friends { edges { node { username } } } } } } } } } } }`).join(' ')} }`;
    const results = (await (await batch(api, [{ query: '{ __typename }' }, { query: costly }])).json()) as Array<{
      data?: unknown;
      errors?: Array<{ message: string }>;
    }>;
    expect(results[0]).toEqual({ data: { __typename: 'Query' } });
    expect(results[1]!.errors?.map((e) => e.message).join(' ')).toMatch(/cost|alias/i);
  });

  it('spends the rate limit once per operation: a batch cannot carry more than the budget', async () => {
    const api = testApp(db, { RATE_LIMIT_PER_HOUR: '5' });
    const four = await batch(
      api,
      Array.from({ length: 4 }, () => ({ query: '{ __typename }' })),
    );
    expect(four.status).toBe(200);
    // 4 spent: one more operation fits, a batch of two does not
    const two = await batch(api, [{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    // GraphQL-shaped: 429, one error each, with the code and when to retry
    expect(two.status).toBe(429);
    const retryAfter = Number(two.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(await two.json()).toEqual(
      Array.from({ length: 2 }, () => ({
        errors: [{ message: expect.stringContaining('rate limit'), extensions: { code: 'RATE_LIMITED', retryAfter } }],
      })),
    );
    // the budget spent, refused at the edge now: a batch still gets an array as long as itself
    const three = await batch(api, [{ query: '{ __typename }' }, { query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(three.status).toBe(429);
    expect(await three.json()).toHaveLength(3);
  });
});
