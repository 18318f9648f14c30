// urql with graphcache, unconfigured: it normalizes entries, people and comments by their global ids
// (`__typename` and `id`, nothing set up), and a mutation answering a person updates every query
// showing that person, with no refetch.
import { readFileSync } from 'node:fs';
import { Client, fetchExchange, gql } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token = '';

beforeAll(async () => {
  db = await createTestDatabase('urql');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'urs', displayName: 'Urs' });
  token = await createToken(db.prisma, author.id);
  const entry = await createEntry(db.prisma, author.id, { message: 'cached by urql' });
  await db.prisma.comment.create({ data: { entryId: entry.id, authorId: author.id, body: 'hi' } });
});
afterAll(() => db.destroy());

const FEED = gql`
  query Feed {
    publicStream {
      ... on EntryConnection {
        edges {
          node {
            id
            message
            author {
              id
              displayName
            }
            comments {
              edges {
                node {
                  id
                  body
                }
              }
            }
          }
        }
      }
    }
  }
`;

describe('urql with graphcache, unconfigured', () => {
  it('normalizes by global id, and a mutation answering the person updates the cached feed', async () => {
    let requests = 0;
    const client = new Client({
      url: 'http://milepost.test/graphql',
      exchanges: [cacheExchange({}), fetchExchange],
      fetch: (url, init) => {
        requests += 1;
        return api.app.fetch(String(url), init);
      },
      fetchOptions: { headers: { authorization: `Bearer ${token}` } },
      // the cache answers, never the network, for the second read
      requestPolicy: 'cache-first',
    });
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const first = await client.query(FEED, {}).toPromise();
      expect(first.error).toBeUndefined();
      const renamed = await client
        .mutation(
          gql`
            mutation Rename {
              updateProfile(input: { displayName: "Urs B." }) { person {
                  id
                  displayName
                } }
            }
          `,
          {},
        )
        .toPromise();
      expect(renamed.error).toBeUndefined();
      const before = requests;
      const again = await client.query(FEED, {}).toPromise();
      expect(requests).toBe(before);
      const edges = (again.data as { publicStream: { edges: Array<{ node: { author: { displayName: string } } }> } }).publicStream.edges;
      expect(edges[0]!.node.author.displayName).toBe('Urs B.');
    } finally {
      console.warn = warn;
    }
    // graphcache warns of every object it cannot key (no id): there is none
    expect(warnings).toEqual([]);
  });
});

describe('urql with graphcache, given the committed schema files', () => {
  it('reads workouts, distances, media and typed errors without a warning (schema/introspection.json, schema/client-cache.json)', async () => {
    const introspection = JSON.parse(readFileSync(new URL('../../schema/introspection.json', import.meta.url), 'utf8'));
    const { valueTypes } = JSON.parse(readFileSync(new URL('../../schema/client-cache.json', import.meta.url), 'utf8')) as {
      valueTypes: string[];
    };
    const client = new Client({
      url: 'http://milepost.test/graphql',
      exchanges: [
        cacheExchange({ schema: introspection, keys: Object.fromEntries(valueTypes.map((name) => [name, () => null])) }),
        fetchExchange,
      ],
      fetch: (url, init) => api.app.fetch(String(url), init),
      fetchOptions: { headers: { authorization: `Bearer ${token}` } },
    });
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      await client
        .mutation(
          gql`mutation { createEntry(input: { workout: { activityType: RUNNING, distance: { value: 5, units: KILOMETERS } } }) { entry { id } } }`,
          {},
        )
        .toPromise();
      const feed = await client
        .query(
          gql`
            query Workouts {
              publicStream {
                ... on EntryConnection { edges { node { id workout { activityType distance { value units } } media { content { url } } } } }
              }
            }
          `,
          {},
        )
        .toPromise();
      expect(feed.error).toBeUndefined();
      // a typed error in a union, matched by the schema rather than by heuristics
      const refused = await client
        .mutation(
          gql`mutation { likeEntry(input: { entryId: "RW50cnk6OTk5OTk=" }) { error { __typename ... on Error { code message } } } }`,
          {},
        )
        .toPromise();
      expect((refused.data as { likeEntry: { error: { code: string; message: string } } }).likeEntry.error).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.any(String),
      });
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([]);
  });
});
