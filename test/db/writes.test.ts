// The write side over GraphQL: entries, comments, likes, friends, routes, tracks and profiles.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGpx, toGpx } from '../../src/domain/gpx.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let alice: { id: number; username: string; token: string };
let bob: { id: number; username: string; token: string };
const fixture = (name: string) => readFileSync(new URL(`../fixtures/gpx/${name}`, import.meta.url), 'utf8');

const FAILED = '__typename ... on Error { code errorMessage: message }';
const FAILURE = `error { ${FAILED} }`;
const ERROR = `error { ${FAILED} ... on ValidationError { issues { path message } } }`;

async function person(username: string, units = 'miles') {
  const row = await createPerson(db.prisma, { username, units });
  return { id: row.id, username, token: await createToken(db.prisma, row.id) };
}

type Result = Record<string, unknown> & { __typename?: string; issues?: Array<{ path: string }> };
async function mutate(token: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<Result> {
  const declarations = variables.input ? '($input: CreateEntryInput!)' : variables.gpx ? '($gpx: GpxDocument!)' : '';
  const result = await api.graphql<Record<string, Result>>(`mutation ${declarations} { r: ${query} }`, variables, token);
  expect(result.errors).toBeUndefined();
  return unwrapped(result.data!.r!);
}

/** A payload as what it holds: its typed error, or the one object it changed (each selects `__typename`). */
function unwrapped(payload: Result): Result {
  const { error, clientMutationId: _, ...changed } = payload;
  if (error) return error as Result;
  const values = Object.values(changed);
  return (values.length === 1 ? values[0] : changed) as Result;
}

beforeAll(async () => {
  db = await createTestDatabase('writes');
  api = testApp(db);
  alice = await person('alice', 'kilometers');
  bob = await person('bob');
});
afterAll(() => db.destroy());

const CREATE = `createEntry(input: $input) { entry { __typename id kind message geo { coordinates } location { name } workout { activityType distance { value units } duration felt calories title routeId } media { content { type url } } } ${ERROR} }`;

describe('createEntry', () => {
  it('posts a workout with defaults from the person: distance in their units', async () => {
    const entry = await mutate(alice.token, CREATE, {
      input: {
        message: 'Tempo run',
        lat: 37.8,
        lon: -122.27,
        placeName: 'Oakland, CA',
        workout: { activityType: 'RUNNING', distance: { value: 10 }, duration: 2700, felt: 'GREAT', calories: 650 },
      },
    });
    expect(entry).toMatchObject({
      __typename: 'Entry',
      kind: 'WORKOUT',
      message: 'Tempo run',
      geo: { coordinates: [-122.27, 37.8] },
      location: { name: 'Oakland, CA' },
      workout: {
        activityType: 'RUNNING',
        distance: { value: 10, units: 'KILOMETERS' },
        duration: 2700,
        felt: 'GREAT',
        calories: 650,
        title: null,
        routeId: null,
      },
    });
  });

  it('writes the entry, its workout and its event at once (on PostgreSQL one statement, no COMMIT round trip)', async () => {
    const statements: string[] = [];
    // a token's first use records it (then at most hourly): not a statement of the post measured
    await mutate(bob.token, CREATE, { input: { message: 'warming up' } });
    const stop = db.onQuery((_ms, sql) => statements.push(sql));
    const events = await db.prisma.outboxEvent.findMany({ select: { id: true } });
    statements.length = 0;
    const posted = await api.graphql<{ r: { entry: { id: string; databaseId: number } } }>(
      'mutation ($input: CreateEntryInput!) { r: createEntry(input: $input) { entry { id databaseId } } }',
      {
        input: {
          message: 'Long ride',
          lat: 46.5,
          lon: 7.1,
          workout: { activityType: 'CYCLING', distance: { value: 80.5 }, duration: 10800 },
        },
      },
      bob.token,
    );
    const written = statements.filter((sql) => /^\s*(INSERT|WITH|UPDATE)/i.test(sql) || /^\s*COMMIT/i.test(sql));
    stop();
    const id = posted.data!.r.entry.databaseId;
    if (db.provider === 'postgresql') expect(written).toHaveLength(1);
    expect(await db.prisma.workout.findUniqueOrThrow({ where: { entryId: id } })).toMatchObject({
      activityType: 'cycling',
      distanceValue: 80.5,
      // Bob reads miles: a distance without units is in his
      distanceUnits: 'miles',
      duration: 10800,
    });
    // the event the webhook relay reads, as in a transaction
    const event = await db.prisma.outboxEvent.findFirstOrThrow({
      where: { id: { notIn: events.map((e) => e.id) } },
      orderBy: { id: 'desc' },
    });
    expect({ name: event.name, payload: JSON.parse(event.payload) }).toEqual({
      name: 'entryCreated',
      payload: { entryId: id, authorId: bob.id, lat: 46.5, lon: 7.1, visibility: 'everyone' },
    });
  });

  it('answers ValidationError naming each field, and writes nothing', async () => {
    const before = await db.prisma.entry.count();
    const result = await mutate(alice.token, CREATE, {
      input: { lat: 90.0001, lon: 0, workout: { activityType: 'RUNNING', duration: -1 }, media: { type: 'IMAGE', url: 'ftp://x/y.jpg' } },
    });
    expect(result.__typename).toBe('ValidationError');
    expect(result.issues!.map((i) => i.path)).toEqual(['lat', 'media.url', 'workout.duration']);
    expect(await db.prisma.entry.count()).toBe(before);
  });

  it('refuses an unknown activity type before anything runs', async () => {
    const result = await api.graphql(
      `mutation ($input: CreateEntryInput!) { createEntry(input: $input) { error { __typename } } }`,
      { input: { workout: { activityType: 'KAYAKING' } } },
      alice.token,
    );
    expect(result.errors![0]!.message).toMatch(/KAYAKING/);
  });

  it("links a workout to the viewer's own route only", async () => {
    const own = await db.prisma.route.create({ data: { ownerId: alice.id, name: 'Lake loop' } });
    const theirs = await db.prisma.route.create({ data: { ownerId: bob.id, name: 'Bob loop' } });
    const linked = await mutate(alice.token, CREATE, { input: { workout: { activityType: 'RUNNING', routeId: own.id } } });
    // answered as the global id the API names routes by (a number before)
    expect(linked).toMatchObject({ workout: { routeId: Buffer.from(`Route:${own.id}`).toString('base64') } });
    const refused = await mutate(alice.token, CREATE, { input: { workout: { activityType: 'RUNNING', routeId: theirs.id } } });
    expect(refused).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: 'workout.routeId', message: 'is not one of your routes' }],
    });
  });

  it('needs a token', async () => {
    expect(await mutate(undefined, CREATE, { input: { message: 'anonymous' } })).toMatchObject({
      __typename: 'NotAuthorizedError',
      code: 'NOT_AUTHORIZED',
    });
  });
});

describe('deleteEntry', () => {
  const DELETE = (id: number) => `deleteEntry(input: { id: ${id} }) { deletedEntry { __typename id: databaseId } ${FAILURE} }`;

  it('lets the author delete, taking comments, likes and track along', async () => {
    const entry = await createEntry(db.prisma, alice.id, { workout: { activityType: 'running' } });
    await db.prisma.comment.create({ data: { entryId: entry.id, authorId: bob.id, body: 'nice' } });
    await db.prisma.like.create({ data: { entryId: entry.id, personId: bob.id } });
    await db.prisma.track.create({ data: { entryId: entry.id, pointCount: 1 } });
    expect(await mutate(alice.token, DELETE(entry.id))).toEqual({ __typename: 'DeletedEntry', id: entry.id });
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await db.prisma.like.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await db.prisma.track.count({ where: { entryId: entry.id } })).toBe(0);
  });

  it('refuses anyone else, and the entry stays', async () => {
    const entry = await createEntry(db.prisma, alice.id);
    expect(await mutate(bob.token, DELETE(entry.id))).toMatchObject({
      __typename: 'NotAuthorizedError',
      errorMessage: 'only the author may delete this entry',
    });
    expect(await mutate(undefined, DELETE(entry.id))).toMatchObject({ __typename: 'NotAuthorizedError' });
    expect(await db.prisma.entry.count({ where: { id: entry.id } })).toBe(1);
  });

  it('answers NotFoundError for an unknown entry', async () => {
    expect(await mutate(alice.token, DELETE(987654))).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
  });
});

describe('comments and likes', () => {
  const COMMENT = `createComment(input: { entryId: $entryId, body: $body }) { comment { __typename body author { username } } ${ERROR} }`;
  const comment = async (entryId: number, body: string) => {
    const result = await api.graphql<{ r: Result }>(
      `mutation ($entryId: ID!, $body: String!) { r: ${COMMENT} }`,
      { entryId, body },
      bob.token,
    );
    return unwrapped(result.data!.r);
  };

  it('takes 510 characters after trimming, not 511', async () => {
    const entry = await createEntry(db.prisma, alice.id);
    expect(await comment(entry.id, `  ${'a'.repeat(510)}\n`)).toMatchObject({
      __typename: 'Comment',
      body: 'a'.repeat(510),
      author: { username: 'bob' },
    });
    expect(await comment(entry.id, 'a'.repeat(511))).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'body' }] });
    expect(await comment(entry.id, '   ')).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'body' }] });
    expect(await comment(123456789, 'hello')).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('likes are idempotent both ways, even when sent at once', async () => {
    const entry = await createEntry(db.prisma, alice.id);
    const like = `likeEntry(input: { entryId: ${entry.id} }) { like { __typename person { username } } ${FAILURE} }`;
    const results = await Promise.all(Array.from({ length: 5 }, () => mutate(bob.token, like)));
    for (const r of results) expect(r).toEqual({ __typename: 'Like', person: { username: 'bob' } });
    expect(await db.prisma.like.count({ where: { entryId: entry.id } })).toBe(1);
    const unlike = `unlikeEntry(input: { entryId: ${entry.id} }) { entry { __typename likeCount } ${FAILURE} }`;
    expect(await mutate(bob.token, unlike)).toEqual({ __typename: 'Entry', likeCount: 0 });
    expect(await mutate(bob.token, unlike)).toEqual({ __typename: 'Entry', likeCount: 0 });
    expect(await mutate(bob.token, `likeEntry(input: { entryId: 99999999 }) { error { __typename } }`)).toEqual({
      __typename: 'NotFoundError',
    });
  });
});

describe('friends', () => {
  const act = (token: string, verb: string, username: string) =>
    mutate(token, `${verb}(input: { username: "${username}" }) { friendship { __typename status person { username } } ${ERROR} }`);
  const friendsOf = async (username: string) =>
    (
      await api.graphql<{ person: { friends: { edges: Array<{ node: { username: string } }> } } }>(
        `{ person(username: "${username}") { friends { edges { node { username } } } } }`,
      )
    ).data!.person.friends.edges.map((f) => f.node.username);

  it('request → pending for both → accept → friends both ways → remove', async () => {
    const carol = await person('carol');
    const dave = await person('dave');
    expect(await act(carol.token, 'requestFriend', 'dave')).toEqual({
      __typename: 'FriendshipState',
      status: 'REQUESTED',
      person: { username: 'dave' },
    });
    expect(await act(carol.token, 'requestFriend', 'dave')).toMatchObject({ status: 'REQUESTED' });
    const pending = await api.graphql<{ me: { friendRequests: unknown } }>(
      '{ me { friendRequests { totalCount edges { node { username } } } } }',
      {},
      dave.token,
    );
    expect(pending.data!.me.friendRequests).toEqual({ totalCount: 1, edges: [{ node: { username: 'carol' } }] });
    const seenByOthers = await api.graphql<{ person: { friendRequests: unknown } }>(
      '{ person(username: "dave") { friendRequests { edges { node { username } } } } }',
      {},
      carol.token,
    );
    expect(seenByOthers.data!.person.friendRequests).toBeNull();

    expect(await act(dave.token, 'acceptFriend', 'carol')).toMatchObject({ status: 'FRIENDS' });
    expect(await friendsOf('carol')).toEqual(['dave']);
    expect(await friendsOf('dave')).toEqual(['carol']);
    expect(await act(carol.token, 'requestFriend', 'dave')).toMatchObject({ status: 'FRIENDS' });

    expect(await act(dave.token, 'removeFriend', 'carol')).toMatchObject({ status: 'NONE' });
    expect(await friendsOf('carol')).toEqual([]);
    expect(await act(dave.token, 'removeFriend', 'carol')).toMatchObject({ status: 'NONE' });
  });

  it('two requests towards each other make friends; declining ends a request', async () => {
    const erin = await person('erin');
    const fay = await person('fay');
    await act(erin.token, 'requestFriend', 'fay');
    expect(await act(fay.token, 'requestFriend', 'erin')).toMatchObject({ status: 'FRIENDS' });
    const gus = await person('gus');
    await act(gus.token, 'requestFriend', 'erin');
    expect(await act(erin.token, 'declineFriend', 'gus')).toMatchObject({ status: 'NONE' });
    expect(await act(erin.token, 'declineFriend', 'gus')).toMatchObject({ __typename: 'NotFoundError' });
    expect(await act(erin.token, 'acceptFriend', 'gus')).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('refuses oneself and unknown people', async () => {
    expect(await act(alice.token, 'requestFriend', 'ALICE')).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: 'username' }],
    });
    expect(await act(alice.token, 'requestFriend', 'nobody-at-all')).toMatchObject({ __typename: 'NotFoundError' });
  });
});

describe('routes and tracks', () => {
  const TRACK =
    'route { __typename id name track { name pointCount distanceMeters elevationGain polyline points(first: 2) { lat heartRate cadence } } } ';

  it('creates a route and attaches a Garmin track; a bad upload leaves the old track', async () => {
    const route = await mutate(
      alice.token,
      `createRoute(input: { name: "Lake loop", activityType: RUNNING }) { route { __typename id: databaseId name activityType owner { username } } ${ERROR} }`,
    );
    expect(route).toMatchObject({ __typename: 'Route', name: 'Lake loop', activityType: 'RUNNING', owner: { username: 'alice' } });
    const id = route.id as number;
    const withTrack = await mutate(alice.token, `setRouteTrack(input: { routeId: ${id}, gpx: $gpx }) { ${TRACK} ${ERROR} }`, {
      gpx: fixture('garmin-forerunner.gpx'),
    });
    expect(withTrack).toMatchObject({
      __typename: 'Route',
      track: { name: 'Oakland Running', pointCount: 40, points: [{ lat: 37.8044, heartRate: 120, cadence: 84 }, {}] },
    });
    const track = (withTrack as { track: { distanceMeters: number; elevationGain: number; polyline: string } }).track;
    expect(track.distanceMeters).toBeGreaterThan(5000);
    expect(track.elevationGain).toBeGreaterThan(10);
    expect(track.polyline.length).toBeGreaterThan(40);

    const refused = await mutate(alice.token, `setRouteTrack(input: { routeId: ${id}, gpx: $gpx }) { ${TRACK} ${ERROR} }`, {
      gpx: fixture('billion-laughs.gpx'),
    });
    expect(refused).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'gpx' }] });
    expect(await db.prisma.track.findUniqueOrThrow({ where: { routeId: id }, select: { pointCount: true, name: true } })).toEqual({
      pointCount: 40,
      name: 'Oakland Running',
    });

    expect(
      await mutate(bob.token, `setRouteTrack(input: { routeId: ${id}, gpx: $gpx }) { error { __typename } }`, {
        gpx: fixture('strava-export.gpx'),
      }),
    ).toEqual({ __typename: 'NotAuthorizedError' });
  });

  it('round-trips a track from upload to GPX download', async () => {
    const entry = await createEntry(db.prisma, alice.id, { workout: { activityType: 'cycling' } });
    const original = fixture('two-segments.gpx');
    await mutate(alice.token, `setEntryTrack(input: { entryId: ${entry.id}, gpx: $gpx }) { error { __typename } }`, { gpx: original });
    const download = await api.graphql<{ entry: { track: { gpx: string } } }>(`{ entry(id: ${entry.id}) { track { gpx } } }`);
    const gpx = download.data!.entry.track.gpx;
    expect(gpx).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<gpx version="1.1"/);
    expect((await parseGpx(gpx)).points).toEqual((await parseGpx(original)).points);
  });

  it('puts tracks on workouts only, of their author', async () => {
    const note = await createEntry(db.prisma, alice.id);
    expect(
      await mutate(alice.token, `setEntryTrack(input: { entryId: ${note.id}, gpx: $gpx }) { ${ERROR} }`, {
        gpx: fixture('strava-export.gpx'),
      }),
    ).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: 'entryId' }],
    });
    const workout = await createEntry(db.prisma, alice.id, { workout: { activityType: 'running' } });
    expect(
      await mutate(bob.token, `setEntryTrack(input: { entryId: ${workout.id}, gpx: $gpx }) { error { __typename } }`, {
        gpx: fixture('strava-export.gpx'),
      }),
    ).toEqual({ __typename: 'NotAuthorizedError' });
  });

  it('accepts the GPX document as a multipart file upload', async () => {
    const workout = await createEntry(db.prisma, alice.id, { workout: { activityType: 'running' } });
    const form = new FormData();
    form.set(
      'operations',
      JSON.stringify({
        query: `mutation ($gpx: GpxDocument!) { setEntryTrack(input: { entryId: ${workout.id}, gpx: $gpx }) { entry { track { pointCount name } } error { __typename } } }`,
        variables: { gpx: null },
      }),
    );
    form.set('map', JSON.stringify({ 0: ['variables.gpx'] }));
    form.set(
      '0',
      new Blob([readFileSync(new URL('../fixtures/gpx/latin1.gpx', import.meta.url))], { type: 'application/gpx+xml' }),
      'latin1.gpx',
    );
    const response = await api.fetch('/graphql', { method: 'POST', headers: { authorization: `Bearer ${alice.token}` }, body: form });
    expect(await response.json()).toEqual({
      data: { setEntryTrack: { entry: { track: { pointCount: 8, name: 'Café du Lac à Annecy' } }, error: null } },
    });
  });

  it('keeps no copy of a stored track once it is written', async () => {
    // Prisma's driver adapters remember the arguments of their last 100 statements: a track's packed
    // points stayed referenced after its write (as base64 text and bytes), until a hundred more went by
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const settled = async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return process.memoryUsage().external;
    };
    const workout = await createEntry(db.prisma, alice.id, { workout: { activityType: 'running' } });
    const start = Date.UTC(2024, 4, 12, 7);
    const points = Array.from({ length: 100_000 }, (_, i) => ({
      ...{ lat: 37.8 + Math.sin(i / 5000) / 50, lon: -122.27 + Math.cos(i / 5000) / 50, elevation: 100 + (i % 50) },
      ...{ time: new Date(start + i * 1000), heartRate: null, cadence: null, segment: 0 },
    }));
    const document = toGpx({ name: 'Long run', points, waypoints: [] });
    const upload = async () => {
      const form = new FormData();
      form.set(
        'operations',
        JSON.stringify({
          query: `mutation ($gpx: GpxDocument!) { setEntryTrack(input: { entryId: ${workout.id}, gpx: $gpx }) { entry { track { pointCount } } } }`,
          variables: { gpx: null },
        }),
      );
      form.set('map', JSON.stringify({ 0: ['variables.gpx'] }));
      form.set('0', new Blob([document], { type: 'application/gpx+xml' }), 'long.gpx');
      const response = await api.fetch('/graphql', { method: 'POST', headers: { authorization: `Bearer ${alice.token}` }, body: form });
      expect(await response.json()).toEqual({ data: { setEntryTrack: { entry: { track: { pointCount: 100_000 } } } } });
    };
    await upload(); // the first one loads what every upload uses
    const before = await settled();
    for (let i = 0; i < 3; i++) await upload();
    // each upload's packed points are 3.5 MB, 4.7 as base64: kept, the three held 14 MB here
    expect((await settled()) - before).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('updateProfile', () => {
  it('changes the given fields and names invalid ones', async () => {
    const update = (input: string) =>
      mutate(bob.token, `updateProfile(input: ${input}) { person { __typename displayName location goal units photoUrl } ${ERROR} }`);
    expect(await update('{ displayName: "Bob B.", location: "Oakland, CA", units: KILOMETERS }')).toMatchObject({
      __typename: 'Person',
      displayName: 'Bob B.',
      location: 'Oakland, CA',
      units: 'KILOMETERS',
    });
    expect(await update('{ goal: "Sub-3 marathon" }')).toMatchObject({ displayName: 'Bob B.', goal: 'Sub-3 marathon' });
    expect(await update('{ displayName: "", photoUrl: "not a url" }')).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: 'displayName' }, { path: 'photoUrl' }],
    });
  });
});

describe('payloads', () => {
  it('hand back the clientMutationId, and a typed error inside the payload, never as a GraphQL error', async () => {
    const result = await api.graphql<{ r: Result }>(
      'mutation { r: createEntry(input: { lat: 91, lon: 0, clientMutationId: "req-7" }) { clientMutationId entry { id } entryEdge { cursor } error { __typename ... on Error { code } } } }',
      {},
      alice.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.r).toEqual({
      clientMutationId: 'req-7',
      entry: null,
      entryEdge: null,
      error: { __typename: 'ValidationError', code: 'VALIDATION_FAILED' },
    });
  });

  it('give the new item as the edge its list pages on from: a comment’s cursor reads on to the comments after it', async () => {
    const entry = await createEntry(db.prisma, alice.id);
    const add = (body: string) =>
      api.graphql<{ r: { commentEdge: { cursor: string; node: { body: string } }; entry: { commentCount: number } } }>(
        `mutation { r: createComment(input: { entryId: ${entry.id}, body: "${body}" }) { commentEdge { cursor node { body } } entry { commentCount } } }`,
        {},
        bob.token,
      );
    await add('one');
    const second = (await add('two')).data!.r;
    await add('three');
    expect(second.commentEdge.node.body).toBe('two');
    expect(second.entry.commentCount).toBe(2);
    const after = await api.graphql<{ entry: { comments: { edges: Array<{ node: { body: string } }> } } }>(
      `{ entry(id: ${entry.id}) { comments(first: 5, after: "${second.commentEdge.cursor}") { edges { node { body } } } } }`,
    );
    expect(after.data!.entry.comments.edges.map((edge) => edge.node.body)).toEqual(['three']);
  });

  it('give a new entry the cursor the streams give it, and name what a removal took away', async () => {
    const created = await api.graphql<{ r: { entryEdge: { cursor: string; node: { databaseId: number } } } }>(
      'mutation { r: createEntry(input: { message: "edge" }) { entryEdge { cursor node { databaseId } } } }',
      {},
      alice.token,
    );
    const edge = created.data!.r.entryEdge;
    const stream = await api.graphql<{ personStream: { edges: Array<{ cursor: string; node: { databaseId: number } }> } }>(
      '{ personStream(username: "alice", first: 1) { edges { cursor node { databaseId } } } }',
    );
    expect(stream.data!.personStream.edges[0]).toEqual(edge);

    const id = edge.node.databaseId;
    const liked = await api.graphql<{ r: { like: { id: string }; likeEdge: { node: { id: string } } } }>(
      `mutation { r: likeEntry(input: { entryId: ${id} }) { like { id } likeEdge { node { id } } } }`,
      {},
      bob.token,
    );
    expect(liked.data!.r.likeEdge.node.id).toBe(liked.data!.r.like.id);
    const unliked = await api.graphql<{ r: { deletedLikeId: string | null } }>(
      `mutation { r: unlikeEntry(input: { entryId: ${id} }) { deletedLikeId } }`,
      {},
      bob.token,
    );
    expect(unliked.data!.r.deletedLikeId).toBe(liked.data!.r.like.id);
    const again = await api.graphql<{ r: { deletedLikeId: string | null } }>(
      `mutation { r: unlikeEntry(input: { entryId: ${id} }) { deletedLikeId } }`,
      {},
      bob.token,
    );
    expect(again.data!.r.deletedLikeId).toBeNull();
  });
});
