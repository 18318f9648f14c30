// GraphQL stream pages put together from each entry's JSON kept per version (src/cache/spliced-pages.ts).
// Clients must not be able to tell: after every kind of write, for each viewer (the author too), every
// stream and every shape of query, the answer is byte for byte the one yoga alone gives the same
// request, running the whole query.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASE, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { authorAndReader, commentedWorkout, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let author: { id: number; username: string };
let reader: { id: number; username: string };
let tokens: Record<'author' | 'reader', string>;
let entryId: number;

beforeAll(async () => {
  db = await createTestDatabase('spliced');
  api = testApp(db);
  ({ author, reader, tokens } = await authorAndReader(db.prisma));
});
afterAll(() => db.destroy());

beforeEach(async () => {
  entryId = await commentedWorkout(db.prisma, author.id, reader.id);
});

const PERSON = 'username displayName url photoUrl location timeZone goal units';
const FEED = `edges { cursor node { id: databaseId url at message visibility kind commentCount likeCount location { name }
  geo { latitude longitude coordinates type } media { content { type url } preview { url } }
  author { ${PERSON} } workout { activityType distance { value units } duration felt title calories routeId completedAt }
  comments { totalCount edges { node { id body createdAt author { ${PERSON} } } } } likes { edges { node { id createdAt person { ${PERSON} } } } } } }
  pageInfo { hasNextPage endCursor }`;

/** Queries whose pages are put together, and two whose are not (a track; a person's own entries). */
const QUERIES = () => [
  `{ publicStream { __typename ... on EntryConnection { ${FEED} } } }`,
  `{ friendsStream { ... on EntryConnection { ${FEED} } ... on Error { message } } }`,
  `{ personStream(username: "${author.username}") { ... on EntryConnection { ${FEED} } } }`,
  `{ nearbyStream(lat: 40.0, lon: -105.0) { ... on EntryConnection { ${FEED} } } }`,
  `{ popularStream { ... on EntryConnection { ${FEED} } } }`,
  `query Named($first: Int) { page: publicStream(first: $first) { ... on EntryConnection { items: edges { entry: node { ...Shown } } } } }
   fragment Shown on Entry { said: message ... on Entry { geo { latitude } } author { ...Who } comments { edges { node { author { ...Who } } } } }
   fragment Who on Person { name: displayName url }`,
  `{ publicStream { ... on EntryConnection { edges { node { id: databaseId track { pointCount } } } } } }`,
  `{ publicStream { ... on EntryConnection { edges { node { id: databaseId author { entries(first: 2) { edges { node { message } } } } } } } } }`,
];

const VARIABLES = { first: 5 };

function post(query: string, token: string, origin = BASE): [string, RequestInit] {
  return [
    `${origin}/graphql`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables: query.startsWith('query Named') ? VARIABLES : {} }),
    },
  ];
}

/** The answer through the whole server (the direct path, pages put together) and yoga's alone. */
async function both(query: string, token: string, origin = BASE) {
  const served = await api.app.fetch(...post(query, token, origin));
  const yoga = await api.app.yoga.fetch(new Request(...post(query, token, origin)));
  return { served: { status: served.status, body: await served.text() }, yoga: { status: yoga.status, body: await yoga.text() } };
}

/** Reads every query (each entry's JSON is then kept), writes, and compares each viewer's next answers. */
async function afterWrite(write: () => Promise<unknown>): Promise<Record<string, unknown>> {
  for (const query of QUERIES()) for (const token of Object.values(tokens)) await api.app.fetch(...post(query, token));
  await write();
  const first: Record<string, unknown> = {};
  for (const [who, token] of Object.entries(tokens)) {
    for (const [i, query] of QUERIES().entries()) {
      const { served, yoga } = await both(query, token);
      expect(served, `${who}, query ${i}`).toEqual(yoga);
      expect(served.status).toBe(200);
      if (i === 0 && who === 'reader') Object.assign(first, JSON.parse(served.body));
    }
  }
  return first;
}

const entryOf = (answer: Record<string, unknown>) =>
  (answer as { data: { publicStream: { edges: Array<{ node: Record<string, unknown> & { id: number } }> } } }).data.publicStream.edges.find(
    (edge) => edge.node.id === entryId,
  )?.node;

describe('a GraphQL stream page after a write to one of its entries', () => {
  it('shows a comment added and a like taken back', async () => {
    const commented = await afterWrite(() => db.prisma.comment.create({ data: { entryId, authorId: author.id, body: 'Thanks!' } }));
    const comments = entryOf(commented)!.comments as { totalCount: number; edges: Array<{ node: { body: string } }> };
    expect(comments.edges.map(({ node }) => node.body)).toEqual(['first!', 'Thanks!']);
    expect(comments.totalCount).toBe(2);
    const unliked = await afterWrite(() => db.prisma.like.deleteMany({ where: { entryId } }));
    expect(entryOf(unliked)!.likeCount).toBe(0);
  });

  it('shows the message and the workout edited, and a person renamed wherever they appear', async () => {
    const edited = await afterWrite(() => db.prisma.entry.update({ where: { id: entryId }, data: { message: 'edited later' } }));
    expect(entryOf(edited)!.message).toBe('edited later');
    await afterWrite(() => db.prisma.workout.update({ where: { entryId }, data: { duration: 2400 } }));
    const renamed = await afterWrite(() => db.prisma.person.update({ where: { id: reader.id }, data: { displayName: 'Renamed Reader' } }));
    expect(
      (entryOf(renamed)!.comments as { edges: Array<{ node: { author: { displayName: string } } }> }).edges[0]!.node.author.displayName,
    ).toBe('Renamed Reader');
  });

  it('hides a place inside a new privacy zone, for the author as for others', async () => {
    const zoned = await afterWrite(() =>
      db.prisma.privacyZone.create({ data: { personId: author.id, lat: 40.0, lon: -105.0, radiusMeters: 500 } }),
    );
    expect(entryOf(zoned)!.geo).toBeNull();
    await db.prisma.privacyZone.deleteMany({ where: { personId: author.id } });
  });

  it('leaves out an entry made friends-only for a stranger, and one deleted', async () => {
    const stranger = await createPerson(db.prisma);
    const strangerToken = await createToken(db.prisma, stranger.id);
    await afterWrite(() => db.prisma.entry.update({ where: { id: entryId }, data: { visibility: 'friends' } }));
    const { served, yoga } = await both(QUERIES()[0]!, strangerToken);
    expect(served).toEqual(yoga);
    expect(entryOf(JSON.parse(served.body))).toBeUndefined();
    const deleted = await afterWrite(() => db.prisma.entry.delete({ where: { id: entryId } }));
    expect(entryOf(deleted)).toBeUndefined();
  });
});

describe("a page of each entry's comments and likes, as a client's variables ask", () => {
  const PAGED = `query Paged($c: Int, $after: String) { publicStream(first: 5) { ... on EntryConnection { edges { node { id: databaseId
    comments(first: $c, after: $after) { totalCount edges { cursor node { body } } pageInfo { hasNextPage endCursor } } likes(last: 1) { edges { node { id } } } } } } } }`;
  const paged = async (variables: Record<string, unknown>) => {
    const init = (): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.reader}` },
      body: JSON.stringify({ query: PAGED, variables }),
    });
    // twice through the server: after a few pages of this query have been read whole, the next are put
    // together from the entries' kept JSON
    await api.app.fetch(`${BASE}/graphql`, init());
    const served = await api.app.fetch(`${BASE}/graphql`, init());
    const yoga = await api.app.yoga.fetch(new Request(`${BASE}/graphql`, init()));
    const body = await served.text();
    expect(body).toBe(await yoga.text());
    const edges = (JSON.parse(body) as { data: { publicStream: { edges: Array<{ node: Record<string, unknown> & { id: number } }> } } })
      .data.publicStream.edges;
    return edges.find((edge) => edge.node.id === entryId)!.node.comments as {
      edges: Array<{ node: { body: string } }>;
      pageInfo: { endCursor: string };
    };
  };

  it('answers each page as asked, never one kept for other values', async () => {
    await db.prisma.comment.create({ data: { entryId, authorId: author.id, body: 'Thanks!' } });
    const first = await paged({ c: 1 });
    expect(first.edges.map(({ node }) => node.body)).toEqual(['first!']);
    const next = await paged({ c: 1, after: first.pageInfo.endCursor });
    expect(next.edges.map(({ node }) => node.body)).toEqual(['Thanks!']);
    expect((await paged({ c: 2 })).edges).toHaveLength(2);
    // absent is not null: the default page (20) against an explicit null, which the field takes as absent too
    expect((await paged({})).edges).toHaveLength(2);
    expect((await paged({ c: null })).edges).toHaveLength(2);
  });
});

describe('a stream page at another origin', () => {
  it('has that origin in its URLs', async () => {
    const query = QUERIES()[0]!;
    await api.app.fetch(...post(query, tokens.reader));
    await api.app.fetch(...post(query, tokens.reader));
    const { served, yoga } = await both(query, tokens.reader, 'http://elsewhere.test');
    expect(served).toEqual(yoga);
    expect(entryOf(JSON.parse(served.body))!.url).toBe(`http://elsewhere.test/entries/${entryId}`);
  });
});
