// The generated REST API at /api/v1: one test per kind of operation, auth on and off, the
// statuses of typed failures, the edge rules it shares with /graphql, and the contract that every
// query and mutation of the schema has an operation and an OpenAPI entry.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { API_BASE } from '../../src/rest/generated-api.ts';
import { LEFT_OUT } from '../../src/rest/rest-view.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';
import { conformance, type SeenResponse } from '../support/openapi.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let benToken: string;
let annToken: string;
let benEntry: number;
const gpx = readFileSync(new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url), 'utf8');

beforeAll(async () => {
  db = await createTestDatabase('api_v1');
  api = testApp(db);
  const ben = await createPerson(db.prisma, { username: 'ben', displayName: 'Ben W.' });
  const ann = await createPerson(db.prisma, { username: 'ann', displayName: 'Ann K.' });
  await makeFriends(db.prisma, ben.id, ann.id);
  benToken = await createToken(db.prisma, ben.id);
  annToken = await createToken(db.prisma, ann.id);
  benEntry = (
    await createEntry(db.prisma, ben.id, {
      message: 'Sunday long run',
      workout: { activityType: 'running', distanceValue: 10, distanceUnits: 'miles', duration: 4800 },
    })
  ).id;
  for (let i = 0; i < 3; i += 1) await createEntry(db.prisma, ann.id, { message: `note ${i}` });
  await db.prisma.route.create({ data: { ownerId: ben.id, name: 'Lake loop', activityType: 'running' } });
});
afterAll(() => db.destroy());

/** A JSON answer, read loosely: the assertions say what it holds, and the OpenAPI check its shape. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Answer = any;

/** Every answer this file sees, checked against /openapi.json at the end. */
const seen: SeenResponse[] = [];

async function call(
  path: string,
  init: { method?: string; token?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const method = init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET');
  const response = await api.fetch(`${API_BASE}${path}`, {
    method,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await response.text();
  const json: Answer = text ? JSON.parse(text) : null;
  seen.push({ method, path: `${API_BASE}${path}`, status: response.status, contentType: response.headers.get('content-type') ?? '', json });
  return { status: response.status, headers: response.headers, json };
}

describe('each kind of operation', () => {
  it('a query: GET /me answers the token’s person, with routes and friend requests', async () => {
    const me = await call('/me', { token: benToken });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      username: 'ben',
      displayName: 'Ben W.',
      friendRequests: { totalCount: 0, edges: [], pageInfo: { hasNextPage: false, startCursor: null, endCursor: null } },
      routes: { totalCount: 1, edges: [{ node: { name: 'Lake loop', track: null } }] },
    });
    expect(me.json.friends.edges.map((edge: Answer) => edge.node.username)).toEqual(['ann']);
    // nested people are summaries: no collections of their own
    expect(Object.keys(me.json.friends.edges[0].node).sort()).toEqual(
      ['databaseId', 'displayName', 'goal', 'id', 'location', 'photoUrl', 'timeZone', 'units', 'url', 'username'].sort(),
    );
  });

  it('a query with arguments: GET /people/{username} and /entries/{id}', async () => {
    const person = await call('/people/ANN');
    expect(person.status).toBe(200);
    expect(person.json).toMatchObject({ username: 'ann', friendRequests: null });
    const entry = await call(`/entries/${benEntry}`);
    expect(entry.status).toBe(200);
    expect(entry.json).toMatchObject({
      databaseId: benEntry,
      id: expect.any(String),
      message: 'Sunday long run',
      author: { username: 'ben' },
      workout: { activityType: 'RUNNING', distance: { value: 10, units: 'MILES' }, duration: 4800 },
    });
    expect(entry.json).not.toHaveProperty('__typename');
  });

  it('a mutation with an input: POST /create-entry as JSON, and the same as a form; the answer is its payload', async () => {
    const created = await call('/create-entry', {
      token: benToken,
      json: {
        message: 'Recovery jog',
        workout: { activityType: 'RUNNING', distance: { value: 3, units: 'MILES' } },
        clientMutationId: 'm1',
      },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      clientMutationId: 'm1',
      entry: { message: 'Recovery jog', author: { username: 'ben' }, workout: { distance: { value: 3 } } },
    });
    // no null `error` beside a success, and no edge (a GraphQL client's cursor)
    expect(Object.keys(created.json).sort()).toEqual(['clientMutationId', 'entry']);
    // the input as GraphQL names it is taken too
    const named = await call('/create-entry', { token: benToken, json: { input: { message: 'Named input' } } });
    expect(named.status).toBe(201);
    expect(named.json.entry.message).toBe('Named input');
    created.json = created.json.entry;
    const form = await call('/create-comment', {
      token: annToken,
      body: new URLSearchParams({ entryId: String(created.json.id), body: 'Easy does it' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(201);
    expect(form.json.comment).toMatchObject({ body: 'Easy does it', author: { username: 'ann' } });
    // a 201 says where its creation is read again: the entry at its path, a comment on its entry
    const location = created.headers.get('location')!;
    expect(location).toBe(`/api/v1/entries/${encodeURIComponent(created.json.id)}`);
    expect((await call(location.slice('/api/v1'.length))).json.message).toBe('Recovery jog');
    expect(form.headers.get('location')).toBe(location);
    const entry = await call(`/entries/${created.json.id}`);
    expect(entry.json.comments.edges.map((edge: Answer) => edge.node.body)).toEqual(['Easy does it']);
  });

  it('a paged connection: GET /entries with first and after', async () => {
    const first = await call('/entries?first=2');
    expect(first.status).toBe(200);
    expect(first.json.edges).toHaveLength(2);
    expect(first.json.pageInfo.hasNextPage).toBe(true);
    const next = await call(`/entries?first=2&after=${encodeURIComponent(first.json.pageInfo.endCursor)}`);
    expect(next.status).toBe(200);
    const ids = [...first.json.edges, ...next.json.edges].map((edge: Answer) => edge.node.id);
    expect(new Set(ids).size).toBe(ids.length);
    const person = await call('/people/ann/entries?first=10');
    expect(person.json.edges.map((edge: Answer) => edge.node.message)).toEqual(['note 2', 'note 1', 'note 0']);
  });

  it('an upload: POST /set-entry-track with the GPX as a multipart file part, and a photo inside createEntry’s input', async () => {
    const form = new FormData();
    form.set('entryId', String(benEntry));
    form.set('gpx', new File([gpx], 'run.gpx', { type: 'application/gpx+xml' }));
    const uploaded = await call('/set-entry-track', { token: benToken, body: form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.json.entry.track.pointCount).toBeGreaterThan(10);
    expect(uploaded.json.entry.track.polyline).toMatch(/\S/);
    // the points themselves are the GPX download, never a megabyte of JSON here
    expect(uploaded.json.entry.track).not.toHaveProperty('points');
    // a file inside an input object: the part is named by its path
    const photo = new FormData();
    photo.set('input', JSON.stringify({ message: 'Lunch ride', media: { type: 'IMAGE' } }));
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer();
    photo.set('input.media.data', new File([new Uint8Array(jpeg)], 'ride.jpg', { type: 'image/jpeg' }));
    const withPhoto = await call('/create-entry', { token: benToken, body: photo });
    expect(withPhoto.status).toBe(201);
    expect(withPhoto.json.entry.media[0].content.url).toMatch(/\/media\/\w+\.jpg$/);
    // or the input's fields as parts, the file named by its path in the input
    const flat = new FormData();
    flat.set('message', 'Second lunch ride');
    flat.set('media', JSON.stringify({ type: 'IMAGE' }));
    flat.set('media.data', new File([new Uint8Array(jpeg)], 'ride.jpg', { type: 'image/jpeg' }));
    const flatPhoto = await call('/create-entry', { token: benToken, body: flat });
    expect(flatPhoto.status).toBe(201);
    expect(flatPhoto.json.entry).toMatchObject({
      message: 'Second lunch ride',
      media: [{ content: { url: expect.stringMatching(/\.jpg$/) } }],
    });
    const text = await call('/set-entry-track', { token: benToken, json: { entryId: benEntry, gpx: '<gpx' } });
    expect(text.status).toBe(422);
    expect(text.json.error.fields[0].field).toBe('gpx');
  });
});

describe('auth', () => {
  it('reads answer anyone; a token-only read or any write without a token is 401 with a challenge', async () => {
    expect((await call('/entries')).status).toBe(200);
    for (const anonymous of [
      await call('/me'),
      await call('/entries/friends'),
      await call('/like-entry', { json: { entryId: benEntry }, headers: { 'x-graphql-yoga-csrf': '1' } }),
    ]) {
      expect(anonymous.status).toBe(401);
      expect(anonymous.json.error.code).toBe('NOT_AUTHORIZED');
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    const friends = await call('/entries/friends', { token: benToken });
    expect(friends.status).toBe(200);
    expect(friends.json.edges.length).toBeGreaterThan(0);
  });

  it('an unknown token is refused, never treated as anonymous', async () => {
    const refused = await call('/entries', { token: 'not-a-token' });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('INVALID_TOKEN');
  });

  it('a cookie is no credential', async () => {
    const page = await call('/me', { headers: { cookie: `milepost_session=${benToken}` } });
    expect(page.status).toBe(401);
  });

  it('a likes and unlikes round trip (the write the legacy paths lack)', async () => {
    const liked = await call('/like-entry', { token: annToken, json: { entryId: benEntry } });
    expect(liked.status).toBe(200);
    const unliked = await call('/unlike-entry', { token: annToken, json: { entryId: benEntry } });
    expect(unliked.status).toBe(200);
    expect(unliked.json.entry.likes).toMatchObject({ totalCount: 0, edges: [] });
  });
});

describe('typed failures as statuses, in the one error body', () => {
  it('422 names each field', async () => {
    const invalid = await call('/create-comment', { token: benToken, json: { entryId: benEntry, body: '   ' } });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'some parameters are invalid',
        fields: [{ field: 'body', message: expect.any(String) }],
      },
    });
  });

  it('404 for a missing resource, and for a missing target of a write', async () => {
    const missing = await call('/entries/999999');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
    const person = await call('/people/nobody-here');
    expect(person.status).toBe(404);
    const like = await call('/like-entry', { token: benToken, json: { entryId: 999999 } });
    expect(like.status).toBe(404);
  });

  it('403 when the token is valid but its person may not', async () => {
    const forbidden = await call('/delete-entry', { token: annToken, json: { id: benEntry } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error.code).toBe('FORBIDDEN');
  });

  it('422 for a parameter of the wrong type or a missing one, naming it; 400 for a body that is not JSON; 415 for another type', async () => {
    // an id is opaque (a global id, or the number): one naming nothing is a 404, not a type error
    const unknown = await call('/entries/abc');
    expect(unknown.status).toBe(404);
    const page = await call('/entries?first=many');
    expect(page.status).toBe(422);
    expect(page.json.error.fields[0].field).toBe('first');
    const missing = await call('/create-comment', { token: benToken, json: { entryId: benEntry } });
    expect(missing.status).toBe(422);
    expect(missing.json.error.fields).toEqual([{ field: 'body', message: expect.stringMatching(/not provided/) }]);
    const malformed = await call('/create-comment', {
      token: benToken,
      body: '{"entryId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const xml = await call('/create-comment', { token: benToken, body: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
  });
});

describe('the rules of /graphql', () => {
  it('CSRF: a form post with no preflight header is refused before anything runs', async () => {
    const before = await db.prisma.comment.count();
    const forged = await call('/create-comment', {
      body: new URLSearchParams({ entryId: String(benEntry), body: 'forged' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.status).toBe(403);
    expect(forged.json.error.code).toBe('CSRF_HEADER_REQUIRED');
    expect(await db.prisma.comment.count()).toBe(before);
  });

  it('the rate limit counts and reports it', async () => {
    const answer = await call('/entries');
    expect(answer.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('HEAD answers as GET; another method is a 405 naming the allowed ones', async () => {
    const head = await api.fetch(`${API_BASE}/entries/${benEntry}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    // the GET after it still gets the whole answer
    expect((await call(`/entries/${benEntry}`)).json.databaseId).toBe(benEntry);
    const wrong = await call(`/entries/${benEntry}`, { method: 'DELETE', token: benToken });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('subscriptions and sofa’s own webhook routes are not exposed', async () => {
    expect((await call('/webhook', { token: benToken, json: { subscription: 'entryCreated', url: 'http://127.0.0.1/' } })).status).toBe(
      404,
    );
    expect((await call('/entry-created')).status).toBe(404);
  });

  it('a write is seen by the next anonymous read (the response cache does not hold it back)', async () => {
    const before = await call(`/entries/${benEntry}`);
    await call('/create-comment', { token: annToken, json: { entryId: benEntry, body: 'Fresh comment' } });
    const after = await call(`/entries/${benEntry}`);
    expect(after.json.comments.totalCount).toBe(before.json.comments.totalCount + 1);
  });
});

describe('the contract', () => {
  it('every query and mutation of the schema has an operation and an OpenAPI entry, and answers at its path', async () => {
    const doc = (await (await api.fetch('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    const documented = new Map<string, { path: string; method: string }>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.tags?.some((tag) => tag.startsWith('REST API v1')) && operation.operationId)
          documented.set(operation.operationId, { path, method });
      }
    }
    const fields = [
      ...Object.keys(schema.getQueryType()!.getFields())
        .filter((field) => !(`Query.${field}` in LEFT_OUT))
        .map((field) => ({ field, method: 'get' })),
      ...Object.keys(schema.getMutationType()!.getFields()).map((field) => ({ field, method: 'post' })),
    ];
    for (const { field, method } of fields) {
      const operation = documented.get(field);
      expect(operation, `no OpenAPI operation for ${field}`).toBeDefined();
      expect(operation!.method).toBe(method);
      // every operation runs: its generated document fits the schema (a conflict would be a 500)
      const path = operation!.path.replace(API_BASE, '').replace(/\{\w+\}/g, '1');
      const answer = await call(path, method === 'post' ? { token: benToken, json: {} } : { token: benToken });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.json)}`).toBeLessThan(500);
      expect(answer.json?.error?.message ?? '').not.toMatch(/^no operation at/);
    }
    expect(documented.size).toBe(fields.length);
    expect(fields.some(({ field }) => field === 'entryCreated')).toBe(false);
  });

  it('the document stays valid OpenAPI 3.1 and lists the generated operations on /docs', async () => {
    const doc = await (await api.fetch('/openapi.json')).json();
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    const page = await (await api.fetch('/docs')).text();
    expect(page).toContain(`<code>${API_BASE}/entries/{id}</code>`);
  });

  it('describes every answer this file saw', async () => {
    const doc = await (await api.fetch('/openapi.json')).json();
    const { problems, checked } = conformance(doc, seen);
    expect(problems, JSON.stringify(problems, null, 1)).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});
