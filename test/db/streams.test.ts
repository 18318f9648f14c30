// The four streams of SPEC 4.2 over GraphQL: 20 a page, newest first, `page`, `since`, `until`,
// Relay cursors, and the nearby radius.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/server.ts';
import { EARTH_RADIUS_MILES } from '../../src/domain/geo.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createEntries, createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

const PAGE = `
  edges { cursor node { id: databaseId message at author { username } } }
  pageInfo { hasNextPage hasPreviousPage endCursor }
`;

type Page = {
  edges?: Array<{ cursor: string; node: { id: number; message: string; at: string; author: { username: string } } }>;
  pageInfo?: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
  __typename?: string;
  code?: string;
  issues?: Array<{ path: string; message: string }>;
};

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const unix = (iso: string) => Date.parse(iso) / 1000;

beforeAll(async () => {
  db = await createTestDatabase('streams');
  api = testApp(db);
});
afterAll(() => db.destroy());

/** A stream's page; a refused one as its typed error, which the error's extensions carry beside a null stream. */
async function stream(field: string, args: string, token?: string): Promise<Page> {
  const result = await api.graphql<Record<string, Page | null>>(`{ s: ${field}${args ? `(${args})` : ''} { ${PAGE} } }`, {}, token);
  if (!result.errors) return result.data!.s!;
  expect(result.errors).toHaveLength(1);
  expect(result.data).toEqual({ s: null });
  const { type, ...fields } = result.errors[0]!.extensions as { type: string; code: string };
  return { __typename: type, ...fields };
}
const messages = (page: Page) => page.edges!.map((edge) => edge.node.message);

describe('public stream', () => {
  let author: { id: number; username: string };
  beforeAll(async () => {
    author = await createPerson(db.prisma, { username: 'Pager' });
    // 45 entries one minute apart, newest at 2024-06-01T12:00:00Z: "entry #0" is the newest
    await createEntries(db.prisma, author.id, 45);
  });

  it('returns the 20 newest entries, newest first', async () => {
    const page = await stream('publicStream', '');
    expect(messages(page)).toEqual(Array.from({ length: 20 }, (_, i) => `entry #${i}`));
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(page.edges![0]!.node.at).toBe('2024-06-01T12:00:00Z');
  });

  it('pages by 20 and answers an empty page past the end', async () => {
    expect(messages(await stream('publicStream', 'page: 2'))).toEqual(Array.from({ length: 20 }, (_, i) => `entry #${20 + i}`));
    const last = await stream('publicStream', 'page: 3');
    expect(messages(last)).toEqual(['entry #40', 'entry #41', 'entry #42', 'entry #43', 'entry #44']);
    expect(last.pageInfo!.hasNextPage).toBe(false);
    expect((await stream('publicStream', 'page: 4')).edges).toEqual([]);
  });

  it('answers a page past the deepest one read (10,000) empty, on every stream and path, without a query', async () => {
    for (const field of ['publicStream', 'popularStream', 'nearbyStream(lat: 37.8, lon: -122.27, ']) {
      const call = field.endsWith(', ') ? `${field}page: 999999)` : `${field}(page: 999999)`;
      const before = db.queryCount();
      const result = await api.graphql<Record<string, Page>>(`{ s: ${call} { ${PAGE} } }`);
      expect(result.errors).toBeUndefined();
      expect(result.data!.s!.edges).toEqual([]);
      expect(db.queryCount() - before).toBe(0);
    }
    for (const path of ['/entries.json', '/entries/popular.json', '/entries/nearby/37.8,-122.27.json', '/people/Pager/entries.json']) {
      const response = await api.fetch(`${path}?page=999999`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ entries: [] });
    }
    // still refused: what is not a page
    expect((await api.fetch('/entries.json?page=0')).status).toBe(422);
  });

  it('`until` is inclusive and `since` exclusive, in whole seconds', async () => {
    const at3 = unix('2024-06-01T11:57:00Z'); // "entry #3"
    expect(messages(await stream('publicStream', `until: ${at3}`)).slice(0, 2)).toEqual(['entry #3', 'entry #4']);
    expect(messages(await stream('publicStream', `since: ${at3}`))).toEqual(['entry #0', 'entry #1', 'entry #2']);
    expect(
      messages(await stream('publicStream', `since: ${unix('2024-06-01T11:55:00Z')}, until: ${unix('2024-06-01T11:58:00Z')}`)),
    ).toEqual(['entry #2', 'entry #3', 'entry #4']);
  });

  it('`until` keeps the starting point while new entries arrive between pages', async () => {
    const until = unix('2024-06-01T12:00:00Z');
    const first = await stream('publicStream', `until: ${until}`);
    await createEntry(db.prisma, author.id, { at: new Date('2024-06-01T12:30:00Z'), message: 'late arrival' });
    const second = await stream('publicStream', `until: ${until}, page: 2`);
    expect(messages(second)[0]).toBe('entry #20');
    expect(messages(first)).not.toContain('late arrival');
    expect(messages(await stream('publicStream', ''))[0]).toBe('late arrival');
    await db.prisma.entry.deleteMany({ where: { message: 'late arrival' } });
  });

  it('counts a fraction of a second as its whole second', async () => {
    const entry = await createEntry(db.prisma, author.id, { at: new Date('2030-01-01T00:00:00.700Z'), message: 'fractional' });
    expect(messages(await stream('publicStream', `until: ${unix('2030-01-01T00:00:00Z')}`))[0]).toBe('fractional');
    expect(messages(await stream('publicStream', `since: ${unix('2030-01-01T00:00:00Z')}`))).toEqual([]);
    const page = await stream('publicStream', 'first: 1');
    expect(page.edges![0]!.node.at).toBe('2030-01-01T00:00:00Z');
    await db.prisma.entry.delete({ where: { id: entry.id } });
  });

  it('pages with Relay cursors without gaps or repeats', async () => {
    const first = await stream('publicStream', 'first: 15');
    const second = await stream('publicStream', `first: 15, after: "${first.pageInfo!.endCursor}"`);
    expect(messages(second)).toEqual(Array.from({ length: 15 }, (_, i) => `entry #${15 + i}`));
    expect(second.pageInfo!.hasPreviousPage).toBe(true);
    const back = await stream('publicStream', `last: 5, before: "${second.edges![0]!.cursor}"`);
    expect(messages(back)).toEqual(['entry #10', 'entry #11', 'entry #12', 'entry #13', 'entry #14']);
  });

  it.each([
    ['page: 0', 'page'],
    ['page: -1', 'page'],
    ['first: 0', 'first'],
    ['first: 101', 'first'],
    ['after: "not-a-cursor"', 'after'],
    ['page: 2, after: "MTox"', 'page'],
    ['since: -5', 'since'],
  ])('rejects %s naming the field %s', async (args, path) => {
    const page = await stream('publicStream', args);
    expect(page.__typename).toBe('ValidationError');
    expect(page.code).toBe('VALIDATION_FAILED');
    expect(page.issues!.map((issue) => issue.path)).toContain(path);
  });
});

describe("person's stream", () => {
  it("holds only that person's entries and finds the username in any case", async () => {
    const runner = await createPerson(db.prisma, { username: 'MixedCase' });
    const other = await createPerson(db.prisma);
    await createEntry(db.prisma, runner.id, { message: 'mine', at: new Date('2024-01-01T00:00:00Z') });
    await createEntry(db.prisma, other.id, { message: 'theirs', at: new Date('2024-01-01T00:00:01Z') });
    const page = await stream('personStream', 'username: "mixedcase"');
    expect(messages(page)).toEqual(['mine']);
    expect(page.edges![0]!.node.author.username).toBe('MixedCase');
  });

  it('answers NotFoundError for an unknown username', async () => {
    const page = await stream('personStream', 'username: "nobody-here"');
    expect(page).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
  });
});

describe('the people of a page', () => {
  it('carry every field asked of them, through fragments and aliases, as the person query answers it', async () => {
    const person = await db.prisma.person.create({
      data: {
        username: 'Fielder',
        usernameKey: 'fielder',
        displayName: 'F. Ielder',
        location: 'Oakland',
        timeZone: 'America/Los_Angeles',
        goal: '5k',
        units: 'kilometers',
      },
    });
    const entry = await createEntry(db.prisma, person.id, { message: 'fields' });
    await db.prisma.comment.create({ data: { entryId: entry.id, authorId: person.id, body: 'mine' } });
    await db.prisma.like.create({ data: { entryId: entry.id, personId: person.id } });
    const fields = 'username displayName url location timeZone photoUrl goal units';
    const result = await api.graphql<{
      s: { edges: Array<{ node: Record<string, Record<string, unknown> & { [k: string]: unknown }> }> };
      p: object;
    }>(
      `{ s: personStream(username: "fielder") { ... on EntryConnection { edges { node { a: author { ...All } comments { edges { node { author { username ... on Person { location timeZone goal units displayName url photoUrl } } } } } likes { edges { node { person { ...All } } } } } } } }
         p: person(username: "fielder") { ...All } }
       fragment All on Person { ${fields} }`,
    );
    expect(result.errors).toBeUndefined();
    const node = result.data!.s.edges[0]!.node as unknown as {
      a: object;
      comments: { edges: Array<{ node: { author: object } }> };
      likes: { edges: Array<{ node: { person: object } }> };
    };
    expect(node.a).toEqual(result.data!.p);
    expect(node.comments.edges[0]!.node.author).toEqual(result.data!.p);
    expect(node.likes.edges[0]!.node.person).toEqual(result.data!.p);
    expect(result.data!.p).toMatchObject({ location: 'Oakland', goal: '5k', units: 'KILOMETERS' });
  });
});

describe('friends stream', () => {
  it("holds the viewer's and their friends' entries, no one else's", async () => {
    const viewer = await createPerson(db.prisma);
    const friend = await createPerson(db.prisma);
    const stranger = await createPerson(db.prisma);
    await makeFriends(db.prisma, viewer.id, friend.id);
    await createEntry(db.prisma, viewer.id, { message: 'viewer', at: new Date('2025-01-01T00:00:03Z') });
    await createEntry(db.prisma, friend.id, { message: 'friend', at: new Date('2025-01-01T00:00:02Z') });
    await createEntry(db.prisma, stranger.id, { message: 'stranger', at: new Date('2025-01-01T00:00:01Z') });
    const token = await createToken(db.prisma, viewer.id);
    expect(messages(await stream('friendsStream', `since: ${unix('2024-12-31T00:00:00Z')}`, token))).toEqual(['viewer', 'friend']);
  });

  it('needs an access token', async () => {
    expect(await stream('friendsStream', '')).toMatchObject({ __typename: 'NotAuthorizedError', code: 'NOT_AUTHORIZED' });
  });

  it('refuses an unknown token with 401', async () => {
    const result = await api.graphql('{ me { username } }', {}, 'no-such-token');
    expect(result.status).toBe(401);
    expect(result.errors![0]!.extensions!.code).toBe('INVALID_TOKEN');
  });
});

describe('nearby stream', () => {
  const oakland = { lat: 37.8044, lon: -122.2712 };
  /** A point `miles` due north of `from`. */
  const north = (from: { lat: number; lon: number }, miles: number) => ({
    lat: from.lat + (miles / EARTH_RADIUS_MILES) * (180 / Math.PI),
    lon: from.lon,
  });

  beforeAll(async () => {
    const local = await createPerson(db.prisma);
    const at = new Date('2020-01-01T00:00:00Z');
    await createEntry(db.prisma, local.id, { ...north(oakland, 0), message: 'center', at: new Date(at.getTime() + 3000) });
    await createEntry(db.prisma, local.id, { ...north(oakland, 49.9), message: 'inside 50', at: new Date(at.getTime() + 2000) });
    await createEntry(db.prisma, local.id, { ...north(oakland, 50.1), message: 'outside 50', at: new Date(at.getTime() + 1000) });
    await createEntry(db.prisma, local.id, { lat: 0, lon: -179.95, message: 'across the antimeridian', at });
    await createEntry(db.prisma, local.id, { message: 'no location', at });
  });

  it('defaults to a radius of 50 miles, boundary included', async () => {
    expect(messages(await stream('nearbyStream', `lat: ${oakland.lat}, lon: ${oakland.lon}`))).toEqual(['center', 'inside 50']);
  });

  it('finds the same entries when it must read the bounding box instead of the newest entries', async () => {
    // an app that reads one newest entry before it falls back to the box
    const boxed = createApp(testConfig(db.config), db, { nearbyProbeRows: 1 });
    const inBox = async (args: string) => {
      const response = await boxed.fetch('http://milepost.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ s: nearbyStream(${args}) { ${PAGE} } }` }),
      });
      return ((await response.json()) as { data: Record<string, Page> }).data.s!;
    };
    expect(messages(await inBox(`lat: ${oakland.lat}, lon: ${oakland.lon}`))).toEqual(['center', 'inside 50']);
    expect(messages(await inBox('lat: 0, lon: 179.95, radius: 20'))).toEqual(['across the antimeridian']);
    expect(messages(await inBox(`lat: ${oakland.lat}, lon: ${oakland.lon}, radius: 51, first: 1, page: 3`))).toEqual(['outside 50']);
  });

  it('fills its page past newer entries in the corners of the bounding box, however many newest entries it reads first', async () => {
    // Denver: 30 new entries inside the search's box but outside its circle, three older ones at the center
    const denver = { lat: 39.7392, lon: -104.9903 };
    const corner = {
      lat: north(denver, 40).lat,
      lon: denver.lon + (40 / (EARTH_RADIUS_MILES * Math.cos((denver.lat * Math.PI) / 180))) * (180 / Math.PI),
    };
    const person = await createPerson(db.prisma);
    const at = new Date('2021-06-01T00:00:00Z').getTime();
    for (let i = 0; i < 30; i++)
      await createEntry(db.prisma, person.id, { ...corner, message: `corner ${i}`, at: new Date(at + 100_000 + i) });
    for (let i = 0; i < 3; i++) await createEntry(db.prisma, person.id, { ...denver, message: `denver ${i}`, at: new Date(at + i) });
    const args = `lat: ${denver.lat}, lon: ${denver.lon}, first: 2`;
    expect(messages(await stream('nearbyStream', args))).toEqual(['denver 2', 'denver 1']);
    // the newest five entries are all corners: the rest is found through the box
    const probing = createApp(testConfig(db.config), db, { nearbyProbeRows: 5 });
    const response = await probing.fetch('http://milepost.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ s: nearbyStream(${args}, page: 2) { ${PAGE} } }` }),
    });
    expect(messages(((await response.json()) as { data: Record<string, Page> }).data.s!)).toEqual(['denver 0']);
  });

  it('walks the newest entries for a page deeper than it read first, with the entries a full read gives', async () => {
    // Boise: every other entry of a stretch of time there, the rest in Lisbon
    const boise = { lat: 43.615, lon: -116.2023 };
    const person = await createPerson(db.prisma);
    const at = new Date('2021-07-01T00:00:00Z').getTime();
    for (let i = 0; i < 40; i++) {
      const place = i % 2 === 0 ? boise : { lat: 38.7223, lon: -9.1393 };
      await createEntry(db.prisma, person.id, {
        ...place,
        message: `${i % 2 === 0 ? 'boise' : 'lisbon'} ${i}`,
        at: new Date(at + i * 1000),
      });
    }
    const args = `lat: ${boise.lat}, lon: ${boise.lon}, radius: 5, first: 3, page: 4`;
    const whole = messages(await stream('nearbyStream', args));
    expect(whole).toEqual(['boise 20', 'boise 18', 'boise 16']);
    // reading the newest four entries first, half of them in the box: the page lies further, walked to
    // in one step, or in steps of five rows, each going on after the last entry the one before found
    for (const nearbyWalkRows of [undefined, 5]) {
      const walking = createApp(testConfig(db.config), db, { nearbyProbeRows: 4, nearbyWalkRows });
      const response = await walking.fetch('http://milepost.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ s: nearbyStream(${args}) { ${PAGE} } }` }),
      });
      expect(messages(((await response.json()) as { data: Record<string, Page> }).data.s!)).toEqual(whole);
    }
  });

  it('takes a radius in miles', async () => {
    expect(messages(await stream('nearbyStream', `lat: ${oakland.lat}, lon: ${oakland.lon}, radius: 10`))).toEqual(['center']);
    expect(messages(await stream('nearbyStream', `lat: ${oakland.lat}, lon: ${oakland.lon}, radius: 51`))).toEqual([
      'center',
      'inside 50',
      'outside 50',
    ]);
  });

  it('finds entries across the antimeridian', async () => {
    expect(messages(await stream('nearbyStream', 'lat: 0, lon: 179.95, radius: 20'))).toEqual(['across the antimeridian']);
  });

  it.each([
    ['lat: 91, lon: 0', 'lat'],
    ['lat: 0, lon: -180.5', 'lon'],
    ['lat: 0, lon: 0, radius: 0', 'radius'],
    ['lat: 0, lon: 0, radius: 100000', 'radius'],
  ])('rejects %s naming %s', async (args, path) => {
    const page = await stream('nearbyStream', args);
    expect(page.__typename).toBe('ValidationError');
    expect(page.issues!.map((issue) => issue.path)).toEqual([path]);
  });
});
