// The account export: /account/export and `milepost export` give a zip of everything the
// person owns, with the layout its README describes, on both databases: JSON that reads back, tracks
// as GPX that parses back to the same points, photos byte for byte.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { createAccount } from '../../src/db/account-sessions.ts';
import { parseGpx } from '../../src/domain/gpx.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

const PASSWORD = 'a long enough password';
const POINTS = 120;
const GPX = `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${Array.from(
  { length: POINTS },
  (_, i) =>
    `<trkpt lat="${(40 + i * 0.0001).toFixed(4)}" lon="-74"><ele>${10 + i}</ele><time>${new Date(Date.UTC(2026, 0, 1, 7, 0, i * 5)).toISOString()}</time></trkpt>`,
).join('')}</trkseg></trk></gpx>`;

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let mediaDir: string;
let token: string;
const ids = { entry: 0, route: 0, otherEntry: 0 };
let photoName = '';
let avatarName = '';

async function graphql<T>(as: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await api.graphql<T>(query, variables, as);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

/** The files of a zip, by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      zip
        .openReadStreamPromise(entry)
        .then(async (stream) => {
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        })
        .catch(reject);
    });
    zip.readEntry();
  });
  return files;
}

beforeAll(async () => {
  db = await createTestDatabase('export');
  mediaDir = mkdtempSync(path.join(tmpdir(), 'milepost-export-'));
  api = testApp(db, { MEDIA_DIR: mediaDir });
  const account = await createAccount(db.prisma, { username: 'eve', password: PASSWORD, displayName: 'Eve Export' });
  token = await createToken(db.prisma, account.id);
  const friend = await createPerson(db.prisma, { username: 'fay' });
  const friendToken = await createToken(db.prisma, friend.id);
  await makeFriends(db.prisma, account.id, friend.id);
  const entry = await graphql<{ createEntry: { entry: { id: number } } }>(
    token,
    'mutation { createEntry(input: { message: "tempo run", workout: { activityType: RUNNING, distance: { value: 6, units: KILOMETERS }, duration: 1800 } }) { entry { id: databaseId } } }',
  );
  ids.entry = entry.createEntry.entry.id;
  await graphql(
    token,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: ids.entry,
      gpx: GPX,
    },
  );
  const route = await graphql<{ createRoute: { route: { id: number } } }>(
    token,
    'mutation { createRoute(input: { name: "River loop", activityType: RUNNING }) { route { id: databaseId } } }',
  );
  ids.route = route.createRoute.route.id;
  await graphql(
    token,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setRouteTrack(input: { routeId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: ids.route,
      gpx: GPX,
    },
  );
  // a privacy zone hides part of her tracks from others, never from her export
  await graphql(token, 'mutation { addPrivacyZone(input: { lat: 40.005, lon: -74, radiusMeters: 100 }) { error { __typename } } }');
  const bytes = await sharp({ create: { width: 50, height: 40, channels: 3, background: '#c0ffee' } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.set('message', 'with a photo');
  form.set('media[type]', 'image');
  form.set('media[data]', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const posted = await api.fetch('/entries.json', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  photoName = path.basename(((await posted.json()) as { media: Array<{ content: { url: string } }> }).media[0]!.content.url);
  // the same picture as her avatar, uploaded
  const avatarSet = await api.graphqlUpload(
    'mutation ($file: ImageFile!) { updateProfile(input: { photo: $file }) { error { __typename } } }',
    new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }),
    'me.jpg',
    token,
  );
  expect(avatarSet.data).toEqual({ updateProfile: { error: null } });
  avatarName = path.basename((await db.prisma.person.findFirstOrThrow({ where: { usernameKey: 'eve' } })).photoUrl!);
  const other = await graphql<{ createEntry: { entry: { id: number } } }>(
    friendToken,
    'mutation { createEntry(input: { message: "fay’s" }) { entry { id: databaseId } } }',
  );
  ids.otherEntry = other.createEntry.entry.id;
  await graphql(
    token,
    `mutation { createComment(input: { entryId: ${ids.otherEntry}, body: "well done" }) { error { __typename } } likeEntry(input: { entryId: ${ids.otherEntry} }) { error { __typename } } }`,
  );
  await graphql(
    friendToken,
    `mutation { createComment(input: { entryId: ${ids.entry}, body: "not Eve's words" }) { error { __typename } } }`,
  );
});
afterAll(async () => {
  await db.destroy();
  rmSync(mediaDir, { recursive: true, force: true });
});

function checkExport(files: Map<string, Buffer>) {
  expect([...files.keys()].sort()).toEqual(
    [
      'README.txt',
      'profile.json',
      'entries.json',
      'comments.json',
      'likes.json',
      'friends.json',
      'routes.json',
      'gear.json',
      `tracks/entry-${ids.entry}.gpx`,
      `tracks/route-${ids.route}.gpx`,
      `photos/${photoName}`,
      `photos/avatar-${avatarName}`,
    ].sort(),
  );
  const json = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));
  const profile = json('profile.json');
  expect(profile).toMatchObject({
    username: 'eve',
    displayName: 'Eve Export',
    privacyZones: [{ lat: 40.005, lon: -74, radiusMeters: 100 }],
    photoUrl: null,
    photo: `photos/avatar-${avatarName}`,
  });
  // her avatar as it is served: the 320-pixel picture
  expect(files.get(`photos/avatar-${avatarName}`)!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  expect(JSON.stringify(profile)).not.toContain('password');
  const entries = json('entries.json');
  expect(entries).toHaveLength(2);
  expect(entries[0]).toMatchObject({
    id: ids.entry,
    message: 'tempo run',
    workout: { activityType: 'running', distanceValue: 6, distanceUnits: 'kilometers', duration: 1800 },
    track: `tracks/entry-${ids.entry}.gpx`,
    photo: null,
  });
  expect(entries[1]).toMatchObject({ message: 'with a photo', photo: `photos/${photoName}`, track: null });
  // the service's own bookkeeping (the revision kept pages go by) is not part of what she owns
  for (const entry of entries) expect(entry).not.toHaveProperty('revision');
  // what she gave, not what others wrote on her entries
  expect(json('comments.json')).toEqual([expect.objectContaining({ entryId: ids.otherEntry, body: 'well done' })]);
  expect(json('likes.json')).toEqual([expect.objectContaining({ entryId: ids.otherEntry })]);
  expect(json('friends.json')).toEqual([expect.objectContaining({ username: 'fay' })]);
  expect(json('routes.json')).toEqual([expect.objectContaining({ name: 'River loop', track: `tracks/route-${ids.route}.gpx` })]);
  expect(readFileSync(path.join(mediaDir, photoName)).equals(files.get(`photos/${photoName}`)!)).toBe(true);
  expect(files.get('README.txt')!.toString()).toContain('entries.json');
}

describe('exporting an account', () => {
  it('at /account/export: a zip of everything the person owns, tracks whole as GPX 1.1', async () => {
    const browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('eve', PASSWORD)).status).toBe(302);
    expect(await (await browser.get('/account')).text()).toContain('href="/account/export"');
    const response = await browser.get('/account/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="milepost-eve-\d{4}-\d\d-\d\d\.zip"$/);
    const files = await unzip(Buffer.from(await response.arrayBuffer()));
    checkExport(files);
    // every point, the ones inside her privacy zone included
    for (const name of [`tracks/entry-${ids.entry}.gpx`, `tracks/route-${ids.route}.gpx`]) {
      const track = await parseGpx(files.get(name)!.toString('utf8'));
      expect(track.points).toHaveLength(POINTS);
      expect(track.points[0]!.time!.toISOString()).toBe('2026-01-01T07:00:00.000Z');
    }
  });

  it('leaves out what the person wrote or liked on an entry hidden from them since: it would tell that it is still there', async () => {
    const eve = await db.prisma.person.findFirstOrThrow({ where: { usernameKey: 'eve' } });
    const other = await createPerson(db.prisma, { username: 'hider' });
    const entry = await db.prisma.entry.create({ data: { authorId: other.id, message: 'soon hidden', kind: 'note' } });
    await db.prisma.comment.create({ data: { entryId: entry.id, authorId: eve.id, body: 'on a hidden entry' } });
    await db.prisma.like.create({ data: { entryId: entry.id, personId: eve.id } });
    const exported = async () => {
      const browser = new TestBrowser(api.fetch);
      await browser.logIn('eve', PASSWORD);
      return unzip(Buffer.from(await (await browser.get('/account/export')).arrayBuffer()));
    };
    const entryIds = (files: Map<string, Buffer>, name: string) =>
      (JSON.parse(files.get(name)!.toString('utf8')) as Array<{ entryId: number }>).map((item) => item.entryId);
    const before = await exported();
    expect(entryIds(before, 'comments.json')).toContain(entry.id);
    expect(entryIds(before, 'likes.json')).toContain(entry.id);
    await db.prisma.entry.update({ where: { id: entry.id }, data: { visibility: 'only_me' } });
    const after = await exported();
    expect(entryIds(after, 'comments.json')).not.toContain(entry.id);
    expect(entryIds(after, 'likes.json')).not.toContain(entry.id);
  });

  it('runs one export at a time for a person: a second while the first is read is 429', async () => {
    const browser = new TestBrowser(api.fetch);
    expect((await browser.logIn('eve', PASSWORD)).status).toBe(302);
    const first = await browser.get('/account/export');
    expect(first.status).toBe(200);
    const second = await browser.get('/account/export');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('30');
    await first.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await browser.get('/account/export');
    expect(third.status).toBe(200);
    await third.arrayBuffer();
  });

  it('needs a log-in', async () => {
    const response = await api.fetch('/account/export', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toContain('/login');
  });

  it('with `milepost export <username> <file>`, the same zip', async () => {
    const file = path.join(mediaDir, 'eve.zip');
    const result = await runCli(['export', 'Eve', file], { DATABASE_URL: db.config.url, MEDIA_DIR: mediaDir });
    expect(result.code).toBe(0);
    checkExport(await unzip(readFileSync(file)));
    const nobody = await runCli(['export', 'nobody', file], { DATABASE_URL: db.config.url, MEDIA_DIR: mediaDir });
    expect(nobody.code).toBe(1);
  });
});
