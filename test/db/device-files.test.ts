// Real device files that used to be refused, or to fail on PostgreSQL, on both databases,
// as synthetic files of the same shape: a GPSBabel GPX whose every time is the 32-bit epoch's minimum,
// a GPX whose times leave a best effort starting months after the first point, and a FIT file cut
// short by a dead battery. Each is read, what was dropped or salvaged is said in the answer, and
// computing records never fails the upload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeFitPool } from '../../src/imports/fit-pool.ts';
import { fitCutShort, pointsAlong } from '../support/activity-files.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase('device_files');
  api = testApp(db);
  token = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'gale' })).id);
});
afterAll(async () => {
  await closeFitPool();
  await db.destroy();
});

const gpxOf = (points: Array<{ lat: number; lon: number; time: string }>) =>
  `<?xml version="1.0"?><gpx version="1.0" creator="GPSBabel - https://www.gpsbabel.org" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>${points
    .map((p) => `<trkpt lat="${p.lat.toFixed(6)}" lon="${p.lon.toFixed(6)}"><time>${p.time}</time></trkpt>`)
    .join('')}</trkseg></trk></gpx>`;

async function putRouteTrack(gpx: string) {
  const route = await api.fetch('/routes.json', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'from a device' }),
  });
  const { id } = (await route.json()) as { id: number };
  const response = await api.fetch(`/routes/${id}/track.json`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gpx+xml' },
    body: gpx,
  });
  return { id, status: response.status, json: (await response.json()) as { track: Record<string, unknown> } };
}

describe('GPX with absurd times', () => {
  it('keeps the points as an untimed track, drops the times, and says so', async () => {
    const points = pointsAlong(50).map((p) => ({ ...p, time: '1901-12-13T20:45:52Z' }));
    const upload = await putRouteTrack(gpxOf(points));
    expect(upload.status).toBe(200);
    expect(upload.json.track).toMatchObject({
      points: 50,
      repairs: [expect.stringMatching(/50 times were outside 1970..2199 and dropped/)],
    });
    expect(upload.json.track.started_at).toBeUndefined();
    const { data } = await api.graphql<{ route: { track: { repairs: string[]; points: Array<{ time: string | null }> } } }>(
      `{ route(id: ${upload.id}) { track { repairs points(first: 3) { time } } } }`,
      {},
      token,
    );
    expect(data!.route.track.points).toEqual([{ time: null }, { time: null }, { time: null }]);
    expect(data!.route.track.repairs).toHaveLength(1);
    // what was repaired is the uploader's to know
    const others = await api.graphql<{ route: { track: { repairs: unknown } } }>(`{ route(id: ${upload.id}) { track { repairs } } }`);
    expect(others.data!.route.track.repairs).toBeNull();
  });
});

describe('GPX with odd times', () => {
  it('stores a best effort that starts months after the first point (PostgreSQL once answered 500)', async () => {
    // one point, 120 days of nothing, then 2 km at 3 m/s: the 1 km effort begins ~1.04e10 ms in
    const start = Date.UTC(2023, 0, 1);
    const later = start + 120 * 86_400_000;
    const run = pointsAlong(700, { start: new Date(later) });
    const points = [
      { lat: run[0]!.lat, lon: run[0]!.lon, time: new Date(start).toISOString() },
      ...run.map((p) => ({ ...p, time: p.time.toISOString() })),
    ];
    const upload = await putRouteTrack(gpxOf(points));
    expect(upload.status).toBe(200);
    const efforts = await db.prisma.bestEffort.findMany({ where: { track: { routeId: upload.id } }, orderBy: { distance: 'asc' } });
    expect(efforts.map((e) => e.distance)).toContain('1k');
    expect(efforts.find((e) => e.distance === '1k')!.startOffsetMs).toBeGreaterThan(2 ** 31);
  });
});

describe('FIT cut short', () => {
  it('imports what the watch recorded before its battery died, and the answer says it was repaired', async () => {
    const points = pointsAlong(2000);
    const cut = fitCutShort(points, 40_000);
    const form = new FormData();
    form.set(
      'operations',
      JSON.stringify({
        query: `mutation ($file: ActivityFile!) { importActivity(input: { file: $file }) { entry { workout { duration } track { pointCount repairs } } error { __typename ... on Error { message } } } }`,
        variables: { file: null },
      }),
    );
    form.set('map', JSON.stringify({ 0: ['variables.file'] }));
    form.set('0', new Blob([cut as BlobPart]), 'dead-battery.fit');
    const response = await api.fetch('/graphql', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const body = (await response.json()) as {
      data: {
        importActivity: { error: unknown; entry: { workout: { duration: number }; track: { pointCount: number; repairs: string[] } } };
      };
    };
    expect(body.data.importActivity.error).toBeNull();
    const { track, workout } = body.data.importActivity.entry;
    expect(track.pointCount).toBeGreaterThan(500);
    expect(track.pointCount).toBeLessThan(2000);
    expect(workout.duration).toBe(track.pointCount - 1);
    expect(track.repairs.join(' ')).toMatch(/cut short/);
  });
});
