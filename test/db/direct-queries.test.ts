// The common GraphQL request (a JSON query that runs without errors) is answered without yoga's HTTP
// pipeline (src/cache/direct-queries.ts). Clients must not be able to tell: every request below gets
// the same status, content type and body as yoga alone gives it, and everything uncommon is handed
// to yoga (the direct path answers null), so its refusals, CORS and errors stay yoga's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectQueries, plainQueryParams } from '../../src/cache/direct-queries.ts';
import { newExchange } from '../../src/graphql/context.ts';
import { BASE, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let direct: ReturnType<typeof createDirectQueries>;
let token: string;
let username: string;

beforeAll(async () => {
  db = await createTestDatabase('direct');
  // the response cache would answer repeats of anonymous queries without running them
  api = testApp(db, { RESPONSE_CACHE_MB: '0' });
  direct = createDirectQueries(api.app.yoga, (request) => api.app.contexts.forRequest(request));
  const person = await createPerson(db.prisma);
  username = person.username;
  token = await createToken(db.prisma, person.id);
  const entry = await createEntry(db.prisma, person.id, {
    message: 'direct or not',
    workout: { activityType: 'running', distanceValue: 5, distanceUnits: 'miles', duration: 1500 },
  });
  await db.prisma.comment.create({ data: { entryId: entry.id, authorId: person.id, body: 'first' } });
  await db.prisma.like.create({ data: { entryId: entry.id, personId: person.id } });
});
afterAll(() => db.destroy());

const FEED = `{ publicStream { ... on EntryConnection { edges { node { id: databaseId url at message author { username url }
  workout { activityType distance { value units } } comments { edges { node { body author { username } } } } likes { edges { node { person { username } } } } } } } } }`;

interface Case {
  name: string;
  body: unknown;
  headers?: Record<string, string>;
  withToken?: boolean;
}

const body = (query: string, extra: Record<string, unknown> = {}) => ({ query, ...extra });

const ANSWERED: Case[] = [
  { name: 'a stream page, anonymous', body: body(FEED) },
  { name: 'a stream page with a token', body: body(FEED), withToken: true },
  { name: 'Accept: */*', body: body(FEED), headers: { accept: '*/*' } },
  { name: 'Accept: application/json', body: body(FEED), headers: { accept: 'application/json' } },
  { name: 'Accept: application/graphql-response+json', body: body(FEED), headers: { accept: 'application/graphql-response+json' } },
  {
    name: 'variables and an operation name among two',
    body: body('query A($u: String!) { person(username: $u) { username } } query B { me { username } }', {
      variables: { u: 'x' },
      operationName: 'A',
    }),
  },
  { name: 'the viewer, with a token', body: body('{ me { username } }'), withToken: true },
  { name: 'null variables and operation name', body: body('{ me { username } }', { variables: null, operationName: null }) },
];

const HANDED_TO_YOGA: Case[] = [
  { name: 'a mutation', body: body('mutation { createEntry(input: { message: "hi" }) { error { __typename } } }'), withToken: true },
  { name: 'a subscription', body: body('subscription { entryCreated { id } }') },
  { name: 'a browser request (CORS)', body: body(FEED), headers: { origin: 'https://app.example' } },
  {
    name: 'an Accept with preferences',
    body: body(FEED),
    headers: { accept: 'application/graphql-response+json, application/json;q=0.9' },
  },
  { name: 'an Accept yoga refuses', body: body(FEED), headers: { accept: 'text/html' } },
  { name: 'extensions', body: body(FEED, { extensions: { persistedQuery: { version: 1 } } }) },
  { name: 'a batch', body: [body(FEED)] },
  { name: 'a syntax error', body: body('{ publicStream { ') },
  { name: 'an unknown field', body: body('{ nothing }') },
  {
    name: 'variables of the wrong type',
    body: body('query ($n: Int) { publicStream(first: $n) { __typename } }', { variables: { n: 'x' } }),
  },
  { name: 'variables that are not an object', body: body('{ me { username } }', { variables: '{}' }) },
  {
    name: 'a NUL in a variable',
    body: body('query ($u: String!) { person(username: $u) { username } }', { variables: { u: 'a\u0000b' } }),
  },
  {
    name: 'too deep',
    body: body(
      `{ person(username: "x") { friends { edges { node { friends { edges { node { friends { edges { node { friends { edges { node { username } } } } } } } } } } } } } }`,
    ),
  },
  {
    name: 'too costly',
    body: body(`{ publicStream(first: 100) { ... on EntryConnection { edges { node { comments { edges { node { author { friends(first: 50) { edges { node {
      friends(first: 50) { edges { node { username } } } } } } } } } } } } } } }`),
  },
  { name: 'a token never issued', body: body('{ me { username } }'), headers: { authorization: 'Bearer not-a-token' } },
];

function init(c: Case, bodyText: string): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(c.withToken ? { authorization: `Bearer ${token}` } : {}), ...c.headers },
    body: bodyText,
  };
}

const request = (c: Case, bodyText: string) => new Request(`${BASE}/graphql`, init(c, bodyText));
const served = (c: Case, bodyText: string) => api.app.fetch(`${BASE}/graphql`, init(c, bodyText));

async function answerOf(response: Response) {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('GraphQL requests answered without yoga', () => {
  it.each(ANSWERED)('$name: answered directly, as yoga answers it', async (c) => {
    const text = JSON.stringify(c.body);
    const own = await direct(request(c, text), text, newExchange());
    expect(own).not.toBeNull();
    const yoga = await answerOf(await api.app.yoga.fetch(request(c, text)));
    expect(yoga.status).toBe(200);
    expect(await answerOf(own!)).toEqual(yoga);
    // and through the whole server
    expect(await answerOf(await served(c, text))).toEqual(yoga);
  });

  it.each(HANDED_TO_YOGA)('$name: handed to yoga, answered as yoga answers it', async (c) => {
    const text = JSON.stringify(c.body);
    expect(await direct(request(c, text), text, newExchange())).toBeNull();
    const yoga = await answerOf(await api.app.yoga.fetch(request(c, text)));
    const response = await served(c, text);
    expect(await answerOf(response)).toEqual(yoga);
    if (c.headers?.origin) expect(response.headers.get('access-control-allow-origin')).toBe(c.headers.origin);
  });

  it('answers a page with the data a write just changed', async () => {
    const query = `{ personStream(username: "${username}") { ... on EntryConnection { edges { node { message } } } } }`;
    const read = async () => {
      const text = JSON.stringify(body(query));
      return JSON.parse(await (await direct(request({ name: '', body: null, withToken: true }, text), text, newExchange()))!.text());
    };
    const before = await read();
    const created = await api.graphql('mutation { createEntry(input: { message: "just now" }) { error { __typename } } }', {}, token);
    expect(created.errors).toBeUndefined();
    const after = await read();
    expect(after.data.personStream.edges).toHaveLength(before.data.personStream.edges.length + 1);
    expect(after.data.personStream.edges[0].node.message).toBe('just now');
  });
});

describe('plainQueryParams', () => {
  it.each([
    ['{"query":"{ me { id } }"}', { query: '{ me { id } }' }],
    ['{"query":"q","variables":{"a":1},"operationName":"A"}', { query: 'q', variables: { a: 1 }, operationName: 'A' }],
    ['{"query":"q","variables":null,"operationName":null}', { query: 'q' }],
  ])('takes %s', (text, params) => {
    expect(plainQueryParams(text)).toEqual(params);
  });

  it.each([
    'not json',
    '[]',
    'null',
    '"query"',
    '{}',
    '{"query":1}',
    '{"query":"q","variables":[]}',
    '{"query":"q","variables":"{}"}',
    '{"query":"q","operationName":1}',
    '{"query":"q","extensions":{}}',
  ])('leaves %s to yoga', (text) => {
    expect(plainQueryParams(text)).toBeNull();
  });
});
