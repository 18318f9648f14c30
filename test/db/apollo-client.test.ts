// Apollo Client as a frontend team uses it, unconfigured: its InMemoryCache normalizes entries,
// people and comments by their global ids (no type policies), a mutation's answer updates the cached
// person, and its persisted-queries link (APQ) goes cold then warm.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ApolloClient, CombinedGraphQLErrors, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token = '';

beforeAll(async () => {
  db = await createTestDatabase('apollo');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'apollonia', displayName: 'Apollonia' });
  token = await createToken(db.prisma, author.id);
  const entry = await createEntry(db.prisma, author.id, { message: 'cached' });
  await db.prisma.comment.create({ data: { entryId: entry.id, authorId: author.id, body: 'first' } });
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

function client(server = api) {
  const requests: Array<{ query: boolean; hash: boolean }> = [];
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { query?: string; extensions?: { persistedQuery?: unknown } };
    requests.push({ query: typeof body.query === 'string', hash: body.extensions?.persistedQuery !== undefined });
    return server.app.fetch(String(url), init);
  };
  const link = new PersistedQueryLink({ sha256: (text: string) => createHash('sha256').update(text).digest('hex') }).concat(
    new HttpLink({ uri: 'http://milepost.test/graphql', fetch, headers: { authorization: `Bearer ${token}` } }),
  );
  return { apollo: new ApolloClient({ link, cache: new InMemoryCache() }), requests };
}

describe('Apollo Client, unconfigured', () => {
  it('normalizes entries, people and comments by their global ids', async () => {
    const { apollo } = client();
    await apollo.query({ query: FEED });
    const cached = Object.keys(apollo.cache.extract() as object);
    expect(cached.filter((key) => key.startsWith('Entry:'))).toHaveLength(1);
    expect(cached.filter((key) => key.startsWith('Person:'))).toHaveLength(1);
    expect(cached.filter((key) => key.startsWith('Comment:'))).toHaveLength(1);
  });

  it('a mutation answering the person updates it wherever the cache shows it', async () => {
    const { apollo } = client();
    await apollo.query({ query: FEED });
    const result = await apollo.mutate({
      mutation: gql`
        mutation Rename {
          updateProfile(input: { displayName: "Apollonia R." }) { person {
              id
              displayName
            } }
        }
      `,
    });
    expect(result.error).toBeUndefined();
    const again = await apollo.query({ query: FEED, fetchPolicy: 'cache-only' });
    const edges = (again.data as { publicStream: { edges: Array<{ node: { author: { displayName: string } } }> } }).publicStream.edges;
    expect(edges[0]!.node.author.displayName).toBe('Apollonia R.');
  });

  it('persisted queries: the first time the hash, then the text; after that the hash alone', async () => {
    // a server that has not seen the query yet
    const fresh = testApp(db);
    const first = client(fresh);
    await first.apollo.query({ query: FEED, fetchPolicy: 'network-only' });
    expect(first.requests).toEqual([
      { query: false, hash: true },
      { query: true, hash: true },
    ]);
    const second = client(fresh);
    await second.apollo.query({ query: FEED, fetchPolicy: 'network-only' });
    expect(second.requests).toEqual([{ query: false, hash: true }]);
    await fresh.app.close();
  });
});

describe('Apollo Client at the limits', () => {
  const PING = gql`
    query Ping {
      __typename
    }
  `;
  const apolloFor = (server: ReturnType<typeof testApp>, batched: boolean) => {
    const options = {
      uri: 'http://milepost.test/graphql',
      fetch: (url: RequestInfo | URL, init?: RequestInit) => server.app.fetch(String(url), init),
    };
    const link = batched ? new BatchHttpLink({ ...options, batchMax: 20, batchInterval: 5 }) : new HttpLink(options);
    return new ApolloClient({ link, cache: new InMemoryCache() });
  };
  const codeOf = (error: unknown) =>
    CombinedGraphQLErrors.is(error) ? error.errors[0]?.extensions?.code : `not a GraphQL error: ${String(error)}`;

  it('over the rate limit: a GraphQL error with its code and when to retry, not a bare status', async () => {
    const limited = testApp(db, { RATE_LIMIT_PER_HOUR: '1' });
    const apollo = apolloFor(limited, false);
    await apollo.query({ query: PING, fetchPolicy: 'network-only' });
    const refused = await apollo.query({ query: PING, fetchPolicy: 'network-only' }).catch((error: unknown) => error);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect((refused as CombinedGraphQLErrors).errors[0]?.extensions?.retryAfter).toBeGreaterThan(0);
    await limited.app.close();
  });

  it('a batch over 10 operations: each operation gets its own error, not "results with length 1"', async () => {
    const apollo = apolloFor(api, true);
    const answers = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        apollo.query({ query: gql`query Ping${i} { __typename }`, fetchPolicy: 'network-only' }).catch((error: unknown) => error),
      ),
    );
    expect(answers.map(codeOf)).toEqual(Array.from({ length: 11 }, () => 'BATCH_TOO_LARGE'));
  });
});

describe('Apollo Client given the committed possibleTypes', () => {
  it('keeps a typed error’s fields (schema/client-cache.json)', async () => {
    const { possibleTypes } = JSON.parse(readFileSync(new URL('../../schema/client-cache.json', import.meta.url), 'utf8')) as {
      possibleTypes: Record<string, string[]>;
    };
    const LIKE = gql`
      mutation Like($id: ID!) {
        likeEntry(input: { entryId: $id }) {
          error {
            __typename
            ... on Error {
              code
              message
            }
          }
        }
      }
    `;
    const apolloWith = (types?: Record<string, string[]>) =>
      new ApolloClient({
        link: new HttpLink({
          uri: 'http://milepost.test/graphql',
          fetch: (url: RequestInfo | URL, init?: RequestInit) => api.app.fetch(String(url), init),
          headers: { authorization: `Bearer ${token}` },
        }),
        cache: new InMemoryCache(types ? { possibleTypes: types } : {}),
      });
    const missing = 'RW50cnk6OTk5OTk=';
    type Liked = { likeEntry: { error: Record<string, unknown> } };
    const told = await apolloWith(possibleTypes).mutate<Liked>({ mutation: LIKE, variables: { id: missing } });
    expect(told.data?.likeEntry.error).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: expect.any(String) });
    // the control: without them, Apollo cannot tell that NotFoundError implements Error, and drops its fields
    const bare = await apolloWith().mutate<Liked>({ mutation: LIKE, variables: { id: missing } });
    expect(bare.data?.likeEntry.error).toEqual({ __typename: 'NotFoundError' });
  });
});
