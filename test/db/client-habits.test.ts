// Habits of the original service's clients that Milepost answers as the original did: UNIX times sent
// as decimals (Python's time.mktime() gives `1795102588.0`), floored to the second, on every stream;
// and paths built with a doubled slash (a base ending in '/' + '/people/me/friends'), answered as the
// path with one slash, on every legacy path, without a redirect.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token = '';
let entryId = 0;
let routeId = 0;
let workoutId = 0;
/** The entries' UNIX times: one at each of three whole seconds. */
const AT = [1_795_102_000, 1_795_102_100, 1_795_102_200];
const gpx = readFileSync(new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url), 'utf8');

beforeAll(async () => {
  db = await createTestDatabase('habits');
  api = testApp(db);
  const ben = await createPerson(db.prisma, { username: 'ben' });
  const ann = await createPerson(db.prisma, { username: 'ann' });
  await makeFriends(db.prisma, ben.id, ann.id);
  token = await createToken(db.prisma, ben.id);
  for (const [i, at] of AT.entries()) {
    const entry = await createEntry(db.prisma, ben.id, { message: `at ${i}`, at: new Date(at * 1000), lat: 37.8, lon: -122.27 });
    entryId = entry.id;
  }
  workoutId = (
    await createEntry(db.prisma, ben.id, { workout: { activityType: 'running', distanceValue: 5, distanceUnits: 'kilometers' } })
  ).id;
  routeId = (await db.prisma.route.create({ data: { ownerId: ben.id, name: 'Lake loop' } })).id;
});
afterAll(() => db.destroy());

async function get(path: string) {
  const response = await api.fetch(path, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

const messages = (json: Record<string, unknown>) =>
  (json.entries as Array<{ message?: string }>).map((entry) => entry.message).filter(Boolean);

/** Every stream of SPEC 4.2, as a path taking `since`/`until`. */
const STREAMS = [
  '/entries.json',
  '/entries/friends.json',
  '/entries/nearby/37.8,-122.27.json',
  '/people/me/entries.json',
  '/people/ben/entries.json',
] as const;

describe('decimal UNIX times', () => {
  it.each(STREAMS)('%s takes since and until as decimals, floored to the second', async (path) => {
    // since is exclusive and until inclusive, at whole seconds: (AT[0], AT[2]] holds "at 1" and "at 2"
    const whole = await get(`${path}?since=${AT[0]}&until=${AT[2]}`);
    const decimal = await get(`${path}?since=${AT[0]}.0&until=${AT[2]}.9`);
    expect(decimal.status).toBe(200);
    expect(messages(decimal.json)).toEqual(['at 2', 'at 1']);
    expect(decimal.text).toBe(whole.text);
    // a fraction past the second is the same second: AT[0].5 still keeps "at 0" out
    expect(messages((await get(`${path}?since=${AT[0]}.5&until=${AT[2]}`)).json)).toEqual(['at 2', 'at 1']);
  });

  it('the popular stream takes a decimal `until` too', async () => {
    const now = Math.floor(Date.now() / 1000);
    const decimal = await get(`/entries/popular.json?until=${now}.25`);
    expect(decimal.status).toBe(200);
    expect(decimal.text).toBe((await get(`/entries/popular.json?until=${now}`)).text);
  });

  it.each([
    ['since=abc', 'since'],
    ['since=1.2.3', 'since'],
    ['until=1e999', 'until'],
    ['since=-5.5', 'since'],
    ['until=253402300800.5', 'until'],
    ['page=1.5', 'page'],
  ])('still refuses %s, naming %s', async (query, field) => {
    const refused = await get(`/entries.json?${query}`);
    expect(refused.status).toBe(422);
    expect((refused.json.error as { fields: Array<{ field: string }> }).fields.map((f) => f.field)).toContain(field);
  });

  it('/api/v1 takes them too', async () => {
    const decimal = await get(`/api/v1/entries?since=${AT[0]}.5&until=${AT[2]}.5`);
    expect(decimal.status).toBe(200);
    expect((decimal.json.edges as unknown[]).length).toBe(2);
  });

  it('GraphQL takes a decimal literal or variable', async () => {
    const literal = await api.graphql<{ publicStream: { edges: unknown[] } }>(
      `{ publicStream(since: ${AT[0]}.5, until: ${AT[2]}.1) { edges { cursor } } }`,
    );
    expect(literal.errors).toBeUndefined();
    expect(literal.data!.publicStream.edges).toHaveLength(2);
    const variable = await api.graphql<{ publicStream: { edges: unknown[] } }>(
      'query ($since: UnixTime) { publicStream(since: $since) { edges { cursor } } }',
      { since: AT[1]! + 0.999 },
    );
    expect(variable.data!.publicStream.edges).toHaveLength(2);
  });
});

/** Every legacy path, as a client with a base ending in '/' builds it, with what its one-slash form answers. */
const PATHS: Array<[string, string, () => RequestInit | undefined]> = [
  ['GET', '/entries.json', () => undefined],
  ['GET', '/entries/popular.json', () => undefined],
  ['GET', '/entries/friends.json', () => undefined],
  ['GET', '/entries/nearby/37.8,-122.27.json', () => undefined],
  ['GET', '/people/me/entries.json', () => undefined],
  ['GET', '/people/ben/entries.json', () => undefined],
  ['GET', `/entries/{entry}.json`, () => undefined],
  ['GET', '/people/me.json', () => undefined],
  ['GET', '/people/ben.json', () => undefined],
  ['GET', '/people/me/friends.json', () => undefined],
  ['GET', '/people/ben/routes.json', () => undefined],
  ['GET', `/routes/{route}.gpx`, () => undefined],
  ['POST', '/entries.json', () => ({ body: JSON.stringify({ message: 'posted twice-slashed' }) })],
  ['POST', `/entries/{entry}/comments.json`, () => ({ body: JSON.stringify({ body: 'slashes' }) })],
  ['POST', `/entries/{entry}/likes.json`, () => ({ body: '{}' })],
  ['POST', '/routes.json', () => ({ body: JSON.stringify({ name: 'doubled' }) })],
  ['PUT', `/entries/{workout}/track.json`, () => ({ body: gpx, headers: { 'content-type': 'application/gpx+xml' } })],
  ['POST', '/people/ann/friends.json', () => ({ body: '{}' })],
  ['DELETE', '/people/ann/friends.json', () => undefined],
  ['DELETE', `/entries/{entry}.json`, () => undefined],
];

describe('paths with doubled slashes', () => {
  it.each(PATHS)('%s %s answers as with single slashes, never a redirect', async (method, template, init) => {
    const path = template.replace('{entry}', String(entryId)).replace('{route}', String(routeId)).replace('{workout}', String(workoutId));
    // doubled at the front (base + path) and inside (a segment joined with a trailing slash)
    const doubled = `/${path.replace(/\/([^/]+)\//, '/$1//')}`;
    const given = init();
    const response = await api.fetch(doubled, {
      method,
      ...given,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(given?.headers as object) },
    });
    expect(response.status, `${method} ${doubled}`).toBeLessThan(300);
    expect(response.headers.get('location') ?? '').not.toContain('//people');
    if (method === 'GET') {
      const single = await api.fetch(path, { headers: { authorization: `Bearer ${token}` } });
      expect(await response.text()).toBe(await single.text());
    }
  });
});
