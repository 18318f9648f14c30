// No N+1: a stream page costs the same few SQL statements however many entries, comments and likes it holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

const FEED = `
  edges { node {
    id url at message location { name } geo { coordinates } media { content { url } }
    author { username displayName url photoUrl }
    workout { activityType distance { value units } duration felt title }
    comments { edges { node { body createdAt author { username displayName url } } } }
    likes { edges { node { createdAt person { username url } } } }
  } }
`;

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let viewerToken: string;

beforeAll(async () => {
  db = await createTestDatabase('querycount');
  // the response cache would answer repeated reads with no SQL at all, and entries' JSON kept per
  // version (spliced pages) would read each page twice when it was not kept: measure the work itself
  api = testApp(db, { RESPONSE_CACHE_MB: '0', ENTRY_JSON_MB: '0' });
  const people = [];
  for (let i = 0; i < 12; i++) people.push(await createPerson(db.prisma));
  viewerToken = await createToken(db.prisma, people[0]!.id);
  // a token's first use records lastUsedAt (then at most hourly): keep that write out of the counts
  await api.graphql('{ me { username } }', {}, viewerToken);
  for (const friend of people.slice(1, 6)) await makeFriends(db.prisma, people[0]!.id, friend.id);
});
afterAll(() => db.destroy());

/** Adds `entries` entries, each with `comments` comments and `likes` likes by different people. */
async function grow(entries: number, comments: number, likes: number) {
  const people = await db.prisma.person.findMany({ orderBy: { id: 'asc' } });
  for (let i = 0; i < entries; i++) {
    const author = people[i % 6]!;
    const entry = await createEntry(db.prisma, author.id, {
      lat: 37.8 + i / 1000,
      lon: -122.27,
      placeName: 'Oakland, CA',
      workout: i % 2 ? { activityType: 'running', distanceValue: 5, distanceUnits: 'miles', duration: 2400 } : undefined,
    });
    await db.prisma.comment.createMany({
      data: Array.from({ length: comments }, (_, c) => ({
        entryId: entry.id,
        authorId: people[c % people.length]!.id,
        body: `comment ${c}`,
      })),
    });
    await db.prisma.like.createMany({ data: Array.from({ length: likes }, (_, l) => ({ entryId: entry.id, personId: people[l]!.id })) });
  }
}

async function queriesFor(query: string, token?: string): Promise<number> {
  const before = db.queryCount();
  const result = await api.graphql(query, {}, token);
  expect(result.errors).toBeUndefined();
  return db.queryCount() - before;
}

const STREAMS: Array<[string, string, boolean]> = [
  ['public', `{ publicStream { ... on EntryConnection { ${FEED} } } }`, false],
  ['friends', `{ friendsStream { ... on EntryConnection { ${FEED} } } }`, true],
  ['person', `{ personStream(username: "athlete-x") { ... on EntryConnection { ${FEED} } } }`, false],
  ['nearby', `{ nearbyStream(lat: 37.8, lon: -122.27) { ... on EntryConnection { ${FEED} } } }`, false],
];

describe('a stream page of entries with authors, workouts, comments and likes', () => {
  it('costs a constant number of SQL statements as the page fills up', async () => {
    const person = await db.prisma.person.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const streams = STREAMS.map(([name, query, auth]) => [name, query.replace('athlete-x', person.username), auth] as const);

    // one at a time: the counter is shared. Each stream is read with no entry document kept (cold),
    // then again (its documents are kept the second time they are read), then warm: every document
    // kept (db/kept-documents.ts)
    const measure = async () => {
      const counts: Array<[string, { cold: number; warm: number }]> = [];
      for (const [name, query, auth] of streams) {
        db.documents.clear();
        const cold = await queriesFor(query, auth ? viewerToken : undefined);
        expect(await queriesFor(query, auth ? viewerToken : undefined)).toBe(cold);
        const warm = await queriesFor(query, auth ? viewerToken : undefined);
        counts.push([name, { cold, warm }]);
      }
      return counts;
    };
    await grow(2, 1, 1);
    const small = await measure();
    await grow(30, 8, 10);
    const large = await measure();

    expect(large).toEqual(small);
    // one statement reads the page's entries with their revisions; a second reads the documents of
    // those not kept at that revision, with their workouts, comments, likes and all their people
    // (authors, commenters, likers). The person and friends streams match their authors inside the
    // first. Nearby adds its probe of candidates; friends adds the token's look-up.
    expect(Object.fromEntries(large)).toEqual({
      public: { cold: 2, warm: 1 },
      person: { cold: 2, warm: 1 },
      nearby: { cold: 3, warm: 2 },
      friends: { cold: 3, warm: 2 },
    });
    console.log('SQL statements per stream page:', Object.fromEntries(large));
  });

  it('reads the parts of entries asked for one by one in a single batched statement', async () => {
    // the one read alone is a workout, as some of the six are: a workout's figures read its author's privacy (workout.ts)
    const ids = (await db.prisma.entry.findMany({ select: { id: true, workout: { select: { entryId: true } } }, take: 6 }))
      .sort((a, b) => Number(b.workout !== null) - Number(a.workout !== null))
      .map((e) => e.id);
    const node = FEED.replace(/^\s*edges \{ node \{/, '{').replace(/\} \}\s*$/, '}');
    const one = await queriesFor(`{ e0: entry(id: ${ids[0]}) ${node} }`);
    const six = await queriesFor(`{ ${ids.map((id, i) => `e${i}: entry(id: ${id}) ${node}`).join(' ')} }`);
    // each entry by itself (Prisma batches the look-ups by id), then one statement for all their parts and one for the people
    expect(six).toBe(one);
  });

  it('returns a full page, so the comparison above covers 20 entries', async () => {
    type List = { edges: unknown[] };
    const result = await api.graphql<{ publicStream: { edges: Array<{ node: { comments: List; likes: List } }> } }>(
      `{ publicStream { ... on EntryConnection { ${FEED} } } }`,
    );
    expect(result.data!.publicStream.edges).toHaveLength(20);
    expect(result.data!.publicStream.edges[0]!.node.comments.edges).toHaveLength(8);
    expect(result.data!.publicStream.edges[0]!.node.likes.edges).toHaveLength(10);
  });
});

describe("a person's routes with their distances", () => {
  const ROUTES = (fields: string) => `{ person(username: "route-owner") { routes(first: 100) { edges { node { ${fields} } } } } }`;

  it('cost nothing more with their distances when there are none, and three statements for any number of them', async () => {
    const owner = await createPerson(db.prisma, { username: 'route-owner' });
    // no routes: the distances read nothing (Prisma's relation reads asked for `IN (NULL)`, twice)
    expect(await queriesFor(ROUTES('id name distance { value units }'))).toBe(await queriesFor(ROUTES('id name')));
    const counts: number[] = [];
    for (const routes of [3, 6]) {
      while ((await db.prisma.route.count({ where: { ownerId: owner.id } })) < routes) {
        const route = await db.prisma.route.create({ data: { ownerId: owner.id, name: 'loop' } });
        await db.prisma.track.create({
          data: { routeId: route.id, pointCount: 2, distanceMeters: 1609.344, elevationGain: 0, polyline: '' } as never,
        });
      }
      const withDistances = await api.graphql<{ person: { routes: { edges: Array<{ node: { distance: { value: number } } }> } } }>(
        ROUTES('distance { value units }'),
      );
      expect(withDistances.data!.person.routes.edges.map((edge) => edge.node.distance.value)).toEqual(Array(routes).fill(1));
      counts.push((await queriesFor(ROUTES('id name distance { value units }'))) - (await queriesFor(ROUTES('id name'))));
    }
    // their tracks, their owner's units, what the owner's privacy settings show others of them
    expect(counts).toEqual([3, 3]);
  });
});
