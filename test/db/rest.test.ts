// The legacy REST paths (SPEC 4, COMPAT.md): every endpoint × method × case, and what real clients send.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitExtension } from '../../src/http/negotiation.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';
import { conformance, type SeenResponse } from '../support/openapi.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
let otherToken: string;
let entryId: number;
let routeId: number;
let workoutId: number;
const gpx = readFileSync(new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url), 'utf8');
const BASE = 'http://milepost.test';

beforeAll(async () => {
  db = await createTestDatabase('rest');
  api = testApp(db);
  const ben = await createPerson(db.prisma, { username: 'ben', displayName: 'Ben W.' });
  await db.prisma.person.update({ where: { id: ben.id }, data: { location: 'San Francisco, CA', timeZone: 'Pacific Time (US & Canada)' } });
  const ann = await createPerson(db.prisma, { username: 'ann', displayName: 'Ann K.' });
  await makeFriends(db.prisma, ben.id, ann.id);
  token = await createToken(db.prisma, ben.id);
  otherToken = await createToken(db.prisma, ann.id);
  const entry = await createEntry(db.prisma, ben.id, {
    message: 'A nice Sunday morning run',
    at: new Date('2013-09-16T00:30:39.250Z'),
    lat: 37.8,
    lon: -122.27,
    placeName: 'Oakland, CA',
  });
  entryId = entry.id;
  workoutId = (
    await createEntry(db.prisma, ben.id, {
      workout: { activityType: 'running', distanceValue: 9.9985, distanceUnits: 'miles', duration: 4257 },
    })
  ).id;
  routeId = (await db.prisma.route.create({ data: { ownerId: ben.id, name: 'Lake loop', activityType: 'running' } })).id;
});
afterAll(() => db.destroy());

interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: string | FormData;
}

/** Every response the suite sees, for the conformance check against the OpenAPI document at the end. */
const seen: SeenResponse[] = [];

async function call(path: string, init: Call = {}) {
  const method = init.method ?? 'GET';
  const response = await api.fetch(path, { method, headers: init.headers, body: init.body });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  seen.push({ method, path, status: response.status, contentType: response.headers.get('content-type') ?? '', json });
  return { status: response.status, headers: response.headers, text, json: json as Record<string, unknown> };
}

const auth = (t = token) => ({ authorization: `Bearer ${t}` });
const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('every endpoint answers its success case in the COMPAT.md shape', () => {
  it('GET /entries/popular.json answers the stream shape (ranking: popular.test.ts)', async () => {
    const now = Math.floor(Date.now() / 1000) + 1;
    const response = await call(`/entries/popular.json?until=${now}`);
    expect(response.status).toBe(200);
    // posted this week: ranked (the 2013 entry is not)
    const ranked = (response.json.entries as Array<{ id: number }>).map((e) => e.id);
    expect(ranked).toContain(workoutId);
    expect(ranked).not.toContain(entryId);
  });

  it('GET /entries.json: {"entries": [...]}, the entry key for key', async () => {
    const response = await call('/entries.json');
    expect(response.status).toBe(200);
    const entries = response.json.entries as Array<Record<string, unknown>>;
    const entry = entries.find((e) => e.id === entryId)!;
    expect(Object.keys(entry)).toEqual(['id', 'url', 'at', 'message', 'comments', 'likes', 'location', 'geo', 'user']);
    expect(entry).toEqual({
      id: entryId,
      url: `${BASE}/entries/${entryId}`,
      at: '2013-09-16T00:30:39Z',
      message: 'A nice Sunday morning run',
      comments: [],
      likes: [],
      location: { name: 'Oakland, CA' },
      geo: { type: 'Point', coordinates: ['-122.27', '37.8'] },
      user: { username: 'ben', display_name: 'Ben W.', photo_url: `${BASE}/people/ben/avatar.svg`, url: `${BASE}/people/ben` },
    });
    const workout = entries.find((e) => e.id === workoutId)!;
    expect(workout.workout).toEqual({ activity_type: 'Running', distance: { value: 9.9985, units: 'miles' }, duration: 4257 });
  });

  it.each([
    ['/entries.json'],
    ['/entries'],
    ['/people/ben/entries.json'],
    ['/people/ben/entries'],
    ['/entries/nearby/37.8,-122.27.json'],
    ['/entries/nearby/37.8,-122.27'],
    ['/entries/nearby/37.80000,-122.270000'],
  ])('GET %s is a stream', async (path) => {
    const response = await call(path);
    expect(response.status).toBe(200);
    expect((response.json.entries as Array<{ id: number }>).map((e) => e.id)).toContain(entryId);
  });

  it('GET /entries/friends.json needs a token and holds the viewer and friends', async () => {
    expect((await call('/entries/friends.json')).status).toBe(401);
    const response = await call('/entries/friends.json', { headers: auth(otherToken) });
    expect(response.status).toBe(200);
    expect((response.json.entries as Array<{ id: number }>).map((e) => e.id)).toContain(entryId);
    expect(response.headers.get('cache-control')).toBe('private');
  });

  it('GET /entries/<id>.json, /people/<username>.json, /people/me.json, friends and routes', async () => {
    expect((await call(`/entries/${entryId}.json`)).json.id).toBe(entryId);
    expect((await call('/people/ben.json')).json).toEqual({
      username: 'ben',
      display_name: 'Ben W.',
      url: `${BASE}/people/ben`,
      location: 'San Francisco, CA',
      time_zone: 'Pacific Time (US & Canada)',
      photo_url: `${BASE}/people/ben/avatar.svg`,
    });
    expect((await call('/people/me.json', { headers: auth() })).json.username).toBe('ben');
    // a person who set no location nor time zone still has the six keys (a login library reads time_zone)
    const ann = { username: 'ann', display_name: 'Ann K.', url: `${BASE}/people/ann`, location: null, time_zone: 'UTC' };
    const annJson = (await call('/people/ann.json')).json;
    expect(annJson).toEqual({ ...ann, photo_url: `${BASE}/people/ann/avatar.svg` });
    expect(Object.keys(annJson)).toEqual(['username', 'display_name', 'url', 'location', 'time_zone', 'photo_url']);
    expect((await call('/people/me.json', { headers: auth(otherToken) })).json).toEqual(annJson);
    expect((await call('/people/ben/friends.json')).json).toEqual({
      friends: [
        {
          username: 'ann',
          display_name: 'Ann K.',
          photo_url: `${BASE}/people/ann/avatar.svg`,
          url: `${BASE}/people/ann`,
          location: null,
        },
      ],
    });
    // the five keys clients read (COMPAT), no more: a friend's time zone is on their own resource
    const friends = (await call('/people/ben/friends.json')).json as { friends: object[] };
    expect(Object.keys(friends.friends[0]!)).toEqual(['username', 'display_name', 'photo_url', 'url', 'location']);
    expect((await call('/people/ben/routes.json')).json).toEqual({
      routes: [{ id: routeId, name: 'Lake loop', activity_type: 'Running' }],
    });
  });

  it('POST /entries.json takes form fields with brackets: 201, Location and the entry', async () => {
    const response = await call('/entries.json', {
      method: 'POST',
      ...form({
        oauth_token: token,
        message: 'Tempo',
        lat: '37.8',
        lon: '-122.27',
        'workout[activity_type]': 'running',
        'workout[distance][value]': '5',
        'workout[distance][units]': 'kilometers',
        'workout[duration]': '1500',
        'workout[felt]': 'great',
        'workout[completed_at]': '2024-05-12T07:55:00Z',
        'media[type]': 'image',
        'media[url]': 'https://img.example/run.jpg',
      }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(response.json.url);
    expect(response.json).toMatchObject({
      message: 'Tempo',
      workout: { activity_type: 'Running', distance: { value: 5, units: 'kilometers' }, duration: 1500, felt: 'great' },
      media: [{ content: { type: 'image', url: 'https://img.example/run.jpg' } }],
    });
    expect(response.json.workout).not.toHaveProperty('completed_at');
    const id = Number(response.headers.get('location')!.split('/').at(-1));
    expect((await call(`/entries/${id}.json`)).json.message).toBe('Tempo');
  });

  it('POST /entries.json takes JSON with nested objects, and multipart forms', async () => {
    const json = await call('/entries.json', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'JSON swim', workout: { activity_type: 'swimming', distance: { value: 1500 } } }),
    });
    expect(json.status).toBe(201);
    expect(json.json.workout).toEqual({ activity_type: 'Swimming', distance: { value: 1500, units: 'yards' } });
    const multipart = new FormData();
    multipart.set('message', 'multipart note');
    multipart.set('oauth_token', token);
    const response = await call('/entries.json', { method: 'POST', body: multipart });
    expect(response.status).toBe(201);
    expect(response.json.message).toBe('multipart note');
  });

  it('POST /entries.json and /routes.json take every activity type of the original service, as clients spell it', async () => {
    const sent: Array<[string, string]> = [
      ['cc_skiing', 'Cc Skiing'],
      ['Cc Skiing', 'Cc Skiing'],
      ['ROCK CLIMBING', 'Rock Climbing'],
      ['Inline_Skating', 'Inline Skating'],
      ['crossfit', 'Crossfit'],
      ['yoga', 'Yoga'],
    ];
    for (const [activity, shown] of sent) {
      const created = await call('/entries.json', { method: 'POST', ...form({ oauth_token: token, 'workout[activity_type]': activity }) });
      expect(created.status).toBe(201);
      expect(created.json.workout).toEqual({ activity_type: shown });
      expect((await call(`/entries/${created.json.id}.json`)).json.workout).toEqual({ activity_type: shown });
    }
    // rowing is measured in meters, whatever the person prefers
    const row = await call('/entries.json', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ workout: { activity_type: 'Rowing', distance: { value: 2000 } } }),
    });
    expect(row.json.workout).toEqual({ activity_type: 'Rowing', distance: { value: 2000, units: 'meters' } });
    const route = await call('/routes.json', {
      method: 'POST',
      ...form({ oauth_token: token, name: 'Ridge', activity_type: 'Cross Training' }),
    });
    expect(route.json).toEqual({ id: expect.any(Number), name: 'Ridge', activity_type: 'Cross Training' });
    const graphql = await api.graphql<{ createEntry: { entry: { workout: { activityType: string } } } }>(
      'mutation { createEntry(input: { workout: { activityType: CC_SKIING } }) { entry { workout { activityType } } } }',
      {},
      token,
    );
    expect(graphql.data!.createEntry.entry.workout.activityType).toBe('CC_SKIING');
  });

  it('POST /entries/<id>/comments.json and likes.json: 201 with the comment or like; liking twice is fine', async () => {
    const comment = await call(`/entries/${entryId}/comments.json`, {
      method: 'POST',
      headers: { ...auth(otherToken), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'body=congrats!',
    });
    expect(comment.status).toBe(201);
    expect(comment.json).toEqual({
      body: 'congrats!',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      user: expect.objectContaining({ username: 'ann' }),
    });
    // clients take the new id off the end of Location (`.*/[0-9]+$`); a GET there answers the comment
    const commentUrl = comment.headers.get('location')!;
    expect(commentUrl).toMatch(new RegExp(`^${BASE}/entries/${entryId}/comments/\\d+$`));
    expect(await call(`${commentUrl.slice(BASE.length)}.json`)).toMatchObject({ status: 200, json: comment.json });
    expect((await call(commentUrl.slice(BASE.length))).json).toEqual(comment.json);
    const likeUrls = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const like = await call(`/entries/${entryId}/likes.json`, { method: 'POST', headers: auth(otherToken) });
      expect(like.status).toBe(201);
      expect(Object.keys(like.json)).toEqual(['created_at', 'user']);
      likeUrls.add(like.headers.get('location')!);
      expect(like.headers.get('location')).toMatch(new RegExp(`^${BASE}/entries/${entryId}/likes/\\d+$`));
      expect((await call(`${like.headers.get('location')!.slice(BASE.length)}.json`)).json).toEqual(like.json);
    }
    // liking twice: the first like stands, and both answers point at it
    expect(likeUrls.size).toBe(1);
    // a comment or like of another entry, or none at all, is not found under this one
    const commentId = Number(commentUrl.split('/').at(-1));
    expect((await call(`/entries/${workoutId}/comments/${commentId}.json`)).status).toBe(404);
    expect((await call(`/entries/${entryId}/comments/${commentId + 1000}.json`)).status).toBe(404);
    expect((await call(`/entries/${entryId}/likes/x.json`)).status).toBe(404);
    const entry = (await call(`/entries/${entryId}.json`)).json;
    expect((entry.likes as unknown[]).length).toBe(1);
    expect(entry.comments).toEqual([comment.json]);
  });

  it('POST and DELETE /people/<username>/friends.json send, accept and end friendships', async () => {
    const cy = await createPerson(db.prisma, { username: 'cy', displayName: 'Cy' });
    const cyToken = await createToken(db.prisma, cy.id);
    const path = '/people/cy/friends.json';
    expect((await call(path, { method: 'POST' })).status).toBe(401);
    expect((await call('/people/nobody-at-all/friends.json', { method: 'POST', headers: auth() })).status).toBe(404);
    for (const self of ['/people/ben/friends.json', '/people/me/friends.json']) {
      const refused = await call(self, { method: 'POST', headers: auth() });
      expect(refused.status).toBe(422);
      expect(refused.json).toMatchObject({ error: { fields: [expect.objectContaining({ field: 'username' })] } });
    }
    // ben asks cy: a request, twice without error
    for (let i = 0; i < 2; i++) {
      const asked = await call(path, { method: 'POST', headers: auth(), body: '' });
      expect(asked.status).toBe(201);
      expect(asked.headers.get('location')).toBe(`${BASE}/people/cy`);
      expect(asked.json).toEqual({
        status: 'requested',
        person: {
          username: 'cy',
          display_name: 'Cy',
          photo_url: `${BASE}/people/cy/avatar.svg`,
          url: `${BASE}/people/cy`,
          location: null,
        },
      });
    }
    expect((await call('/people/ben/friends.json')).json.friends).not.toContainEqual(expect.objectContaining({ username: 'cy' }));
    // cy asks ben back, as a form with oauth_token: that accepts, and both are friends
    const accepted = await call('/people/ben/friends.json', { method: 'POST', ...form({ oauth_token: cyToken }) });
    expect(accepted.status).toBe(201);
    expect(accepted.json).toMatchObject({ status: 'friends', person: { username: 'ben', location: 'San Francisco, CA' } });
    expect((await call('/people/ben/friends.json')).json.friends).toContainEqual(expect.objectContaining({ username: 'cy' }));
    expect((await call('/people/cy/friends.json')).json.friends).toContainEqual(expect.objectContaining({ username: 'ben' }));
    // ben ends it; ending it again is not an error
    for (let i = 0; i < 2; i++) {
      const ended = await call(path, { method: 'DELETE', headers: auth() });
      expect(ended.status).toBe(200);
      expect(ended.json).toMatchObject({ status: 'none', person: { username: 'cy' } });
    }
    expect((await call('/people/ben/friends.json')).json.friends).not.toContainEqual(expect.objectContaining({ username: 'cy' }));
    expect((await call(path, { method: 'DELETE' })).status).toBe(401);
    expect((await call(path, { method: 'PUT', headers: auth() })).status).toBe(405);
  });

  it('POST /routes.json, PUT /routes/<id>/track.json and GET /routes/<id>.gpx round-trip a track', async () => {
    const created = await call('/routes.json', {
      method: 'POST',
      ...form({ oauth_token: token, name: 'Hill repeats', activity_type: 'running' }),
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: expect.any(Number), name: 'Hill repeats', activity_type: 'Running' });
    expect(created.headers.get('location')).toBe(`${BASE}/routes/${created.json.id}.gpx`);
    const upload = await call(`/routes/${created.json.id}/track.json`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/gpx+xml' },
      body: gpx,
    });
    expect(upload.status).toBe(200);
    expect(upload.json).toMatchObject({
      id: created.json.id,
      track: { points: 40, distance: { units: 'meters' }, started_at: '2024-05-12T07:30:00Z' },
    });
    const download = await call(`/routes/${created.json.id}.gpx`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
    expect(download.text).toContain('<name>Oakland Running</name>');
    expect(download.text.match(/<trkpt /g)).toHaveLength(40);
    const listed = (await call('/people/ben/routes.json')).json.routes as Array<Record<string, unknown>>;
    expect(listed.find((r) => r.id === created.json.id)).toMatchObject({
      geo: { type: 'Point' },
      distance: { units: 'miles' },
      encoded_samples: expect.any(String),
    });
  });

  it('PUT /entries/<id>/track.json attaches a track to a workout', async () => {
    const upload = await call(`/entries/${workoutId}/track.json`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/gpx+xml' },
      body: gpx,
    });
    expect(upload).toMatchObject({ status: 200, json: { id: workoutId, track: { points: 40 } } });
  });

  it('DELETE /entries/<id>.json: 200 with a JSON body; then 404', async () => {
    const entry = await createEntry(db.prisma, (await db.prisma.person.findUniqueOrThrow({ where: { usernameKey: 'ben' } })).id);
    expect((await call(`/entries/${entry.id}.json`, { method: 'DELETE', headers: auth(otherToken) })).status).toBe(403);
    const deleted = await call(`/entries/${entry.id}.json`, { method: 'DELETE', headers: auth() });
    expect(deleted).toMatchObject({ status: 200, json: { id: entry.id, deleted: true } });
    expect((await call(`/entries/${entry.id}.json`)).status).toBe(404);
  });
});

describe('status codes (SPEC 7)', () => {
  const PROTECTED: Array<[string, string]> = [
    ['GET', '/entries/friends.json'],
    ['POST', '/entries.json'],
    ['DELETE', '/entries/1.json'],
    ['POST', '/entries/1/comments.json'],
    ['POST', '/entries/1/likes.json'],
    ['GET', '/people/me.json'],
    ['PUT', '/entries/1/track.json'],
    ['POST', '/routes.json'],
    ['PUT', '/routes/1/track.json'],
  ];

  it.each(PROTECTED)('%s %s without a token: 401 with WWW-Authenticate and a JSON body', async (method, path) => {
    const response = await call(path, { method });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="milepost"/);
    expect(response.json).toEqual({ error: { code: 'NOT_AUTHORIZED', message: expect.any(String) } });
  });

  it.each(PROTECTED)('%s %s with a revoked token: 401 invalid_token', async (method, path) => {
    const person = await createPerson(db.prisma);
    const revoked = await createToken(db.prisma, person.id);
    await db.prisma.oAuthAccessToken.updateMany({ where: { personId: person.id }, data: { revokedAt: new Date() } });
    const response = await call(path, { method, headers: auth(revoked) });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it.each([
    ['/entries/999999.json'],
    ['/entries/abc.json'],
    ['/people/nobody-here.json'],
    ['/people/nobody-here/entries.json'],
    ['/people/nobody-here/friends.json'],
    ['/people/nobody-here/routes.json'],
    ['/routes/999999.gpx'],
    ['/no/such/path.json'],
  ])('GET %s: 404 with a JSON body', async (path) => {
    const response = await call(path);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it.each([
    ['DELETE', '/entries.json', 'GET, POST, HEAD'],
    ['PUT', '/people/me.json', 'GET, HEAD'],
    ['POST', '/people/ben.json', 'GET, HEAD'],
    ['GET', '/entries/1/comments.json', 'POST'],
    ['GET', '/routes/1/track.json', 'PUT'],
    ['PUT', '/entries/1.json', 'GET, DELETE, HEAD'],
    ['DELETE', '/routes/1.gpx', 'GET, HEAD'],
  ])('%s %s: 405 with Allow: %s', async (method, path, allow) => {
    const response = await call(path, { method, headers: auth() });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.json).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it.each([
    ['/entries.xml', {}],
    ['/entries.atom', {}],
    ['/people/ben.xml', {}],
    ['/routes/1.xml', {}],
    ['/entries.json', { accept: 'text/html' }],
    ['/entries/nearby/37.8,-122.27.xml', {}],
  ])('GET %s %o: 406', async (path, headers) => {
    const response = await call(path, { headers });
    expect(response.status).toBe(406);
    expect(response.json).toMatchObject({ error: { code: 'NOT_ACCEPTABLE' } });
  });

  it.each<[string, Record<string, string>, string[]]>([
    ['lat without lon', { message: 'x', lat: '10' }, ['lon']],
    ['lat 90.0001', { lat: '90.0001', lon: '0' }, ['lat']],
    ['lat not a number', { lat: 'north', lon: '0' }, ['lat']],
    ['an unknown activity type', { 'workout[activity_type]': 'kayaking' }, ['workout[activity_type]']],
    ['a negative duration', { 'workout[activity_type]': 'running', 'workout[duration]': '-1' }, ['workout[duration]']],
    ['a workout without activity type', { 'workout[duration]': '60' }, ['workout[activity_type]']],
    ['a fractional duration', { 'workout[activity_type]': 'running', 'workout[duration]': '1.5' }, ['workout[duration]']],
    ['an unknown felt', { 'workout[activity_type]': 'running', 'workout[felt]': 'meh' }, ['workout[felt]']],
    ['media without url', { 'media[type]': 'image' }, ['media[url]']],
    ['media of another type', { 'media[type]': 'video', 'media[url]': 'https://x.example/v.mp4' }, ['media[type]']],
    ['nothing at all', {}, ['message']],
    ['someone else’s route', { 'workout[activity_type]': 'running', 'workout[route_id]': '999999' }, ['workout[route_id]']],
  ])('POST /entries.json with %s: 422 naming %j', async (_what, fields, names) => {
    const response = await call('/entries.json', { method: 'POST', ...form({ oauth_token: token, ...fields }) });
    expect(response.status).toBe(422);
    expect((response.json.error as { fields: Array<{ field: string }> }).fields.map((f) => f.field)).toEqual(names);
  });

  it.each([
    ['x'.repeat(511), 422],
    ['', 422],
    ['x'.repeat(510), 201],
  ])('POST comments with a body of %#: %i', async (body, status) => {
    const response = await call(`/entries/${entryId}/comments.json`, { method: 'POST', ...form({ oauth_token: token, body }) });
    expect(response.status).toBe(status);
    if (status === 422) expect(response.json).toMatchObject({ error: { fields: [{ field: 'body' }] } });
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['since=yesterday', 'since'],
    // a decimal is a UNIX time floored to its second (client-habits.test.ts); another notation is not
    ['until=1.5e9', 'until'],
  ])('GET /entries.json?%s: 422 naming %s', async (query, field) => {
    const response = await call(`/entries.json?${query}`);
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', fields: [{ field }] } });
  });

  it.each([
    ['/entries/nearby/91,0.json', 'lat'],
    ['/entries/nearby/0,181.json', 'lon'],
    ['/entries/nearby/0,0.json?radius=0', 'radius'],
    ['/entries/nearby/0,0.json?radius=far', 'radius'],
    ['/entries/nearby/0,0.json?radius=100000', 'radius'],
  ])('GET %s: 422 naming %s', async (path, field) => {
    const response = await call(path);
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ error: { fields: [{ field }] } });
  });

  it('track uploads take application/gpx+xml only (415), and refuse bad GPX with 422', async () => {
    const wrongType = await call(`/entries/${workoutId}/track.json`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(wrongType.status).toBe(415);
    const laughs = readFileSync(new URL('../fixtures/gpx/billion-laughs.gpx', import.meta.url), 'utf8');
    const bad = await call(`/entries/${workoutId}/track.json`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/gpx+xml' },
      body: laughs,
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ error: { fields: [{ field: 'gpx', message: expect.stringContaining('DOCTYPE') }] } });
  });

  it('a comment body that is not text: 422 naming body, nothing stored as "[object Object]"', async () => {
    for (const body of ['{"body": {"a": 1}}', '{"body": ["x"]}']) {
      const response = await call(`/entries/${entryId}/comments.json`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body,
      });
      expect(response).toMatchObject({ status: 422, json: { error: { fields: [{ field: 'body' }] } } });
    }
    expect(await db.prisma.comment.count({ where: { body: { contains: 'object' } } })).toBe(0);
  });

  it('/people/me/friends.json and routes.json without a token: 401, not someone called "me"', async () => {
    for (const path of ['/people/me/friends.json', '/people/me/routes.json']) {
      const response = await call(path);
      expect(response.status).toBe(401);
    }
    expect((await call('/people/me/friends.json', { headers: auth() })).status).toBe(200);
  });

  it('a malformed JSON body: 400 with a JSON error', async () => {
    const response = await call('/entries.json', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"message": ',
    });
    expect(response).toMatchObject({ status: 400, json: { error: { code: 'MALFORMED_BODY' } } });
  });
});

describe('JSONP (SPEC 4.1)', () => {
  it('wraps GET JSON in the callback, with its headers', async () => {
    const response = await call('/people/ben.json?callback=App.handlers.person');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.text).toMatch(/^\/\*\*\/ typeof App\.handlers\.person === 'function' && App\.handlers\.person\(\{"username":"ben"/);
    expect(response.text.endsWith(');')).toBe(true);
  });

  it('wraps errors too, in the same error shape', async () => {
    const response = await call('/people/nobody-here.json?callback=cb');
    expect(response.status).toBe(404);
    expect(response.text).toMatch(/^\/\*\*\/ typeof cb === 'function' && cb\(\{"error":\{"code":"NOT_FOUND"/);
  });

  it('escapes U+2028 and U+2029', async () => {
    const person = await createPerson(db.prisma, { username: 'linesep', displayName: 'Line\u2028Para\u2029Sep' });
    const response = await call(`/people/${person.username}.json?callback=cb`);
    expect(response.text).toContain('Line\\u2028Para\\u2029Sep');
    expect(response.text).not.toMatch(/[\u2028\u2029]/);
  });

  it.each(['alert(1)', '1abc', 'a..b', 'a b', `a${'b'.repeat(128)}`, '<script>', 'cb;x'])(
    'refuses callback=%s with 400 JSON',
    async (callback) => {
      const response = await call(`/entries.json?callback=${encodeURIComponent(callback)}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.json).toMatchObject({ error: { code: 'INVALID_CALLBACK' } });
    },
  );
});

describe('what real clients send (COMPAT.md)', () => {
  it('the token twice, the same, as the Ruby client does: query plus Authorization: OAuth', async () => {
    const response = await call(`/people/me.json?oauth_token=${token}`, { headers: { authorization: `OAuth ${token}` } });
    expect(response.json.username).toBe('ben');
    const post = await call(`/entries/${entryId}/likes.json`, {
      method: 'POST',
      headers: { authorization: `OAuth ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `oauth_token=${token}`,
    });
    expect(post.status).toBe(201);
  });

  it('two different tokens: 400', async () => {
    const response = await call(`/people/me.json?oauth_token=${otherToken}`, { headers: auth() });
    expect(response).toMatchObject({ status: 400, json: { error: { code: 'TOKEN_CONFLICT' } } });
  });

  it('paths without .json answer JSON; the nearby coordinates’ decimals are not an extension', async () => {
    const response = await call('/entries/nearby/37.77916,-122.420049');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await call('/people/ben')).json.username).toBe('ben');
  });

  it('timestamps never carry fractional seconds', async () => {
    const response = await call(`/entries/${entryId}.json`);
    expect(response.text).not.toMatch(/\d\.\d{3}Z/);
    expect(response.json.at).toBe('2013-09-16T00:30:39Z');
  });

  it('paging to the end answers {"entries": []} with 200', async () => {
    const response = await call('/entries.json?page=500');
    expect(response).toMatchObject({ status: 200, json: { entries: [] } });
  });

  it('creates give the id in Location and in the body', async () => {
    const response = await call('/entries.json', { method: 'POST', ...form({ oauth_token: token, message: 'from an exporter' }) });
    expect(Number(response.headers.get('location')!.match(/\/entries\/(\d+)$/)![1])).toBe(response.json.id);
  });

  it('every 2xx response but the GPX download has a JSON body', async () => {
    for (const [path, init] of [
      [`/entries/${entryId}/likes.json`, { method: 'POST', headers: auth() }],
      ['/people/me.json', { headers: auth() }],
    ] as const) {
      const response = await call(path, init);
      expect(response.json).not.toBeNull();
    }
  });
});

describe('browsers', () => {
  it('CORS: any origin, no credentials; preflight answers 204', async () => {
    const preflight = await call('/entries.json', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const response = await call('/entries.json', { headers: { origin: 'https://app.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('Location');
  });

  it('authenticated responses are Cache-Control: private', async () => {
    expect((await call('/people/me.json', { headers: auth() })).headers.get('cache-control')).toBe('private');
    expect((await call('/people/ben.json')).headers.get('cache-control')).toBeNull();
  });

  it('every photo_url resolves to a picture', async () => {
    const person = (await call('/people/ben.json')).json;
    const avatar = await api.fetch(String(person.photo_url).replace(BASE, ''));
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
    expect(await avatar.text()).toMatch(/^<svg[^>]*>.*>B<\/text><\/svg>$/);
  });
});

describe('the OpenAPI document', () => {
  it('is served at /openapi.json and validates as OpenAPI 3.1', async () => {
    const response = await api.fetch('/openapi.json');
    const doc = (await response.json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('passes Redocly’s recommended rules without an error or a warning', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'milepost-openapi-'));
    try {
      const file = join(directory, 'openapi.json');
      await writeFile(file, await (await api.fetch('/openapi.json')).text());
      const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
      // exit status 1 when it finds errors: the report is read either way
      const report = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [cli, 'lint', '--extends', 'recommended', '--format', 'json', file],
          { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 64 * 1024 * 1024 },
          (error, stdout) => (stdout ? resolve(stdout) : reject(error)),
        ),
      );
      const { problems } = JSON.parse(report) as { problems: Array<{ ruleId: string; severity: string; message: string }> };
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('is rendered at /docs', async () => {
    const page = await (await api.fetch('/docs')).text();
    expect(page).toContain('<code>/entries/{id}/comments.json</code>');
  });

  it('describes every response this suite saw', async () => {
    const doc = await (await api.fetch('/openapi.json')).json();
    const { problems, checked } = conformance(doc, seen, (path) => splitExtension(path).path);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
