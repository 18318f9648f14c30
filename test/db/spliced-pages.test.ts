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

const TRACK = 'track { name distanceMeters elevationGain startedAt endedAt pointCount polyline repairs updatedAt }';

/** Queries whose pages are put together, and one whose are not (a person's own entries). */
const QUERIES = () => [
  `{ publicStream { __typename ... on EntryConnection { ${FEED} } } }`,
  `{ friendsStream { ... on EntryConnection { ${FEED} } ... on Error { message } } }`,
  `{ personStream(username: "${author.username}") { ... on EntryConnection { ${FEED} } } }`,
  `{ nearbyStream(lat: 40.0, lon: -105.0) { ... on EntryConnection { ${FEED} } } }`,
  `{ popularStream { ... on EntryConnection { ${FEED} } } }`,
  `query Named($first: Int) { page: publicStream(first: $first) { ... on EntryConnection { items: edges { entry: node { ...Shown } } } } }
   fragment Shown on Entry { said: message ... on Entry { geo { latitude } } author { ...Who } comments { edges { node { author { ...Who } } } } }
   fragment Who on Person { name: displayName url }`,
  `{ publicStream { ... on EntryConnection { edges { node { id: databaseId ${TRACK} } } } } }`,
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

/**
 * Reads every query twice (an entry's JSON is kept once it was asked for before), writes, and compares
 * each viewer's next answers.
 */
async function afterWrite(write: () => Promise<unknown>): Promise<Record<string, unknown>> {
  for (const _round of [1, 2])
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

/** A GPX walk north from the entry's place (40, -105), a point every 11 m and 10 s. */
const walk = (points: number) =>
  `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Walk</name><trkseg>${Array.from(
    { length: points },
    (_, i) =>
      `<trkpt lat="${(40 + i * 0.0001).toFixed(4)}" lon="-105"><ele>${1600 + i}</ele><time>${new Date(Date.UTC(2026, 9, 1, 8, 0, i * 10)).toISOString()}</time></trkpt>`,
  ).join('')}</trkseg></trk></gpx>`;

const setTrack = (gpx: string) =>
  api.graphql(
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    { id: entryId, gpx },
    tokens.author,
  );

describe("a stream page with its entries' tracks", () => {
  const trackOf = (answer: Record<string, unknown>) =>
    (
      answer as { data: { publicStream: { edges: Array<{ node: { id: number; track: { pointCount: number } | null } }> } } }
    ).data.publicStream.edges.find((edge) => edge.node.id === entryId)?.node.track;
  const tracked = async (token: string) => {
    const query = QUERIES()[6]!;
    const { served, yoga } = await both(query, token);
    expect(served).toEqual(yoga);
    return trackOf(JSON.parse(served.body));
  };
  /** Reads the tracks' page until each viewer's is put together from kept JSON, then writes. */
  const keptThen = async (write: () => Promise<unknown>) => {
    for (const token of Object.values(tokens)) for (const _round of [1, 2, 3]) await tracked(token);
    await write();
  };

  it('shows a track added and replaced, and what a new privacy zone cuts of it from others but not from its author', async () => {
    await keptThen(() => setTrack(walk(40)));
    expect(await tracked(tokens.reader)).toMatchObject({ pointCount: 40 });
    await keptThen(() => setTrack(walk(60)));
    expect(await tracked(tokens.reader)).toMatchObject({ pointCount: 60 });
    await keptThen(() => db.prisma.privacyZone.create({ data: { personId: author.id, lat: 40.0, lon: -105.0, radiusMeters: 300 } }));
    expect((await tracked(tokens.reader))!.pointCount).toBeLessThan(60);
    expect(await tracked(tokens.author)).toMatchObject({ pointCount: 60 });
    // written as another process would: only a trigger tells the kept JSON
    await keptThen(() => db.prisma.track.updateMany({ where: { entryId }, data: { name: 'Renamed walk' } }));
    expect(await tracked(tokens.author)).toMatchObject({ name: 'Renamed walk' });
    await keptThen(() => db.prisma.privacyZone.deleteMany({ where: { personId: author.id } }));
    expect(await tracked(tokens.reader)).toMatchObject({ pointCount: 60 });
    await keptThen(() => db.prisma.track.deleteMany({ where: { entryId } }));
    expect(await tracked(tokens.reader)).toBeNull();
  });
});

describe('a stream page of the generated REST API (/api/v1)', () => {
  it('is, put together, the bytes sofa answers with nothing kept, for the author as for others', async () => {
    const nothingKept = testApp(db, { ENTRY_JSON_MB: '0' });
    await setTrack(walk(50));
    await db.prisma.privacyZone.create({ data: { personId: author.id, lat: 40.0, lon: -105.0, radiusMeters: 300 } });
    const paths = ['/api/v1/entries', '/api/v1/entries?first=3', `/api/v1/people/${author.username}/entries`, '/api/v1/entries/friends'];
    for (const [who, token] of Object.entries(tokens)) {
      for (const path of paths) {
        const init = { headers: { authorization: `Bearer ${token}` } };
        // the second answer is put together from what the first kept
        for (const round of [1, 2]) {
          const served = await api.fetch(path, init);
          const plain = await nothingKept.fetch(path, init);
          expect(served.status, `${who} ${path}`).toBe(200);
          expect(await served.text(), `${who} ${path}, round ${round}`).toBe(await plain.text());
        }
      }
    }
    const page = (await (await api.fetch('/api/v1/entries', { headers: { authorization: `Bearer ${tokens.reader}` } })).json()) as {
      edges: Array<{ node: { databaseId: number; track: { pointCount: number } | null } }>;
    };
    expect(page.edges.find((edge) => edge.node.databaseId === entryId)!.node.track!.pointCount).toBeLessThan(50);
    await db.prisma.privacyZone.deleteMany({ where: { personId: author.id } });
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
