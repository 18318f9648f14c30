// Importing one activity file, on both databases: `importActivity` and
// POST /entries/import.json make a workout entry with its track from FIT, TCX or GPX (gzipped or not),
// answer the first entry when the same file comes again, and refuse broken files with 422 on `file`
// leaving nothing behind.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeFitPool } from '../../src/imports/fit-pool.ts';
import { fitFile, pointsAlong, tcxFile } from '../support/activity-files.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
let personId: number;

const IMPORT = `mutation ($file: ActivityFile!, $message: String, $visibility: Visibility) {
  importActivity(input: { file: $file, message: $message, visibility: $visibility }) { __typename created
      entry {
        id message visibility
        workout { activityType completedAt duration calories title distance { value units } }
        track { pointCount distanceMeters points(first: 2) { lat lon elevation time heartRate cadence power } }
      } error { __typename ... on Error { code message } ... on ValidationError { issues { path message } } ... on TryAgainLaterError { retryAfterSeconds } } }
}`;

/** The mutation with the file as a multipart upload, as GraphQL clients send files. */
async function importFile(bytes: Uint8Array | string, name: string, variables: Record<string, unknown> = {}, as = token) {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query: IMPORT, variables: { ...variables, file: null } }));
  form.set('map', JSON.stringify({ 0: ['variables.file'] }));
  form.set('0', new Blob([bytes as BlobPart]), name);
  const response = await api.fetch('/graphql', { method: 'POST', headers: { authorization: `Bearer ${as}` }, body: form });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { importActivity: Record<string, unknown> }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  // the payload, or the typed error it holds
  const { error, ...payload } = body.data.importActivity;
  return (error as Record<string, unknown> | null) ?? payload;
}

/** POST /entries/import.json with a multipart form. */
function restImport(bytes: Uint8Array | string | null, fields: Record<string, string> = {}, as = token) {
  const form = new FormData();
  if (bytes !== null) form.set('file', new Blob([bytes as BlobPart]), 'upload.bin');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return api.fetch('/entries/import.json', { method: 'POST', headers: { authorization: `Bearer ${as}` }, body: form });
}

const counts = async () => ({
  entries: await db.prisma.entry.count({ where: { authorId: personId } }),
  workouts: await db.prisma.workout.count(),
  tracks: await db.prisma.track.count(),
  efforts: await db.prisma.bestEffort.count(),
});

beforeAll(async () => {
  db = await createTestDatabase('activity_import');
  api = testApp(db);
  const person = await createPerson(db.prisma, { username: 'ivy', units: 'kilometers' });
  personId = person.id;
  token = await createToken(db.prisma, person.id);
});

afterAll(async () => {
  await closeFitPool();
  await db.destroy();
});

describe('importActivity', () => {
  it("makes a workout entry with its track from a watch's FIT file", async () => {
    const points = pointsAlong(1800, { speed: 3.2 });
    const result = await importFile(fitFile({ points, calories: 640, sport: 'running' }), 'Morning_Run.fit', {
      message: 'tempo along the lake',
      visibility: 'FRIENDS',
    });
    expect(result).toMatchObject({
      __typename: 'ImportActivityPayload',
      created: true,
      entry: {
        message: 'tempo along the lake',
        visibility: 'FRIENDS',
        workout: {
          activityType: 'RUNNING',
          completedAt: points[0]!.time.toISOString().replace('.000Z', 'Z'),
          duration: 1799,
          calories: 640,
          title: null,
          distance: { value: 5.757, units: 'KILOMETERS' },
        },
        track: { pointCount: 1800 },
      },
    });
    const entry = result.entry as { track: { distanceMeters: number; points: Array<Record<string, unknown>> } };
    expect(entry.track.distanceMeters).toBeCloseTo(5757, -1);
    expect(entry.track.points[1]).toMatchObject({
      heartRate: 121,
      cadence: 81,
      power: 201,
      elevation: 408.2,
      time: points[1]!.time.toISOString().replace('.000Z', 'Z'),
    });
  });

  it('the same file again, even gzipped, answers the first entry and makes nothing', async () => {
    const fit = fitFile({ points: pointsAlong(300), sport: 'cycling' });
    const first = await importFile(fit, 'ride.fit');
    const before = await counts();
    const again = await importFile(gzipSync(fit), 'ride.fit.gz');
    expect(again).toMatchObject({ created: false, entry: { id: (first.entry as { id: number }).id } });
    expect(await counts()).toEqual(before);
  });

  it('reads TCX (Strava padding, notes as the message) and GPX, told by content whatever the name', async () => {
    const tcx = await importFile(
      tcxFile({ points: pointsAlong(120), notes: 'felt strong', sport: 'Biking', stravaPadding: true }),
      'activity.gpx',
    );
    expect(tcx).toMatchObject({
      created: true,
      entry: { message: 'felt strong', workout: { activityType: 'CYCLING', duration: 119 }, track: { pointCount: 120 } },
    });
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Evening Walk</name><type>walking</type><trkseg>${pointsAlong(
      60,
      { speed: 1.4 },
    )
      .map((p) => `<trkpt lat="${p.lat}" lon="${p.lon}"><time>${p.time.toISOString()}</time></trkpt>`)
      .join('')}</trkseg></trk></gpx>`;
    const walk = await importFile(gzipSync(gpx), 'walk.fit');
    expect(walk).toMatchObject({
      created: true,
      entry: { workout: { activityType: 'WALKING', title: 'Evening Walk', duration: 59 }, track: { pointCount: 60 } },
    });
  });

  it('refuses corrupt, truncated and empty files naming `file`, and leaves nothing half-made', async () => {
    const before = await counts();
    const fit = fitFile({ points: pointsAlong(200) });
    for (const bad of [
      // cut before its first record: nothing to salvage (a file cut later is read: device-files.test.ts)
      fit.subarray(0, 40),
      gzipSync(fit).subarray(0, 80),
      'just some text',
      '<gpx xmlns="http://www.topografix.com/GPX/1/1"/>',
    ]) {
      const result = await importFile(bad, 'bad.fit');
      expect(result).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'file' }] });
    }
    expect(await counts()).toEqual(before);
  });
});

describe('POST /entries/import.json', () => {
  it('201 with the entry and its Location; the same file again is 200 with the same entry', async () => {
    const fit = fitFile({ points: pointsAlong(240), calories: 90, sport: 'walking' });
    const created = await restImport(gzipSync(fit), { message: 'stroll', visibility: 'only_me' });
    expect(created.status).toBe(201);
    const entry = (await created.json()) as { id: number; url: string; message: string; workout: Record<string, unknown> };
    expect(created.headers.get('location')).toBe(entry.url);
    expect(entry).toMatchObject({ message: 'stroll', workout: { activity_type: 'Walking', duration: 239, calories: 90 } });
    const again = await restImport(fit);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(entry.id);
  });

  it('422 naming `file` for a missing or broken file; 401 without a token', async () => {
    const missing = await restImport(null, { message: 'no file' });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', fields: [{ field: 'file' }] } });
    const broken = await restImport(
      '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>',
    );
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({ error: { fields: [{ field: 'file', message: expect.stringMatching(/well-formed/) }] } });
    const form = new FormData();
    form.set('file', new Blob([fitFile({ points: pointsAlong(10) }) as BlobPart]), 'a.fit');
    const anonymous = await api.fetch('/entries/import.json', { method: 'POST', body: form });
    expect(anonymous.status).toBe(401);
  });

  it('422 naming `visibility` or `message` when they are wrong, and nothing is made', async () => {
    const before = await counts();
    const fit = fitFile({ points: pointsAlong(30), sport: 'hiking' });
    const badVisibility = await restImport(fit, { visibility: 'the whole world' });
    expect(badVisibility.status).toBe(422);
    expect(await badVisibility.json()).toMatchObject({ error: { fields: [{ field: 'visibility' }] } });
    const longMessage = await restImport(fit, { message: 'x'.repeat(5001) });
    expect(longMessage.status).toBe(422);
    expect(await longMessage.json()).toMatchObject({ error: { fields: [{ field: 'message' }] } });
    expect(await counts()).toEqual(before);
  });

  it('a second file while the first is being read is 429 with Retry-After, and only one entry is made', async () => {
    const fit = fitFile({ points: pointsAlong(20_000), sport: 'cycling' });
    const before = await counts();
    const [a, b] = await Promise.all([restImport(fit), restImport(fit)]);
    expect([a.status, b.status].sort()).toEqual([201, 429]);
    const refused = a.status === 429 ? a : b;
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ error: { code: 'TRY_AGAIN_LATER' } });
    expect((await counts()).entries).toBe(before.entries + 1);
  });
});
