// Big tracks never hold the event loop: a track of more than IN_PLACE_POINTS points is worked
// on the track thread (its GPX, outline, streams, points, and what a privacy zone leaves of it), and a
// GPX document, an outline and streams are made once a version, whatever the query string. The test
// counts the work, not the time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_PLACE_POINTS, workedOffThread } from '../../src/tracks/pool.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
let routeId: number;
const POINTS = IN_PLACE_POINTS + 5_000;

beforeAll(async () => {
  db = await createTestDatabase('big_tracks');
  api = testApp(db);
  token = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'long_haul' })).id);
  const created = await api.fetch('/routes.json', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'across the country' }),
  });
  routeId = ((await created.json()) as { id: number }).id;
  const points = Array.from(
    { length: POINTS },
    (_, i) =>
      `<trkpt lat="${(45 + i * 1e-4).toFixed(6)}" lon="7.5"><ele>${400 + (i % 100)}</ele><time>${new Date(Date.UTC(2025, 5, 1) + i * 1000).toISOString()}</time></trkpt>`,
  );
  const upload = await api.fetch(`/routes/${routeId}/track.json`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gpx+xml' },
    body: `<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="45" lon="7.5"><name>HOME</name></wpt><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`,
  });
  expect(upload.status).toBe(200);
}, 60_000);
afterAll(() => db.destroy());

describe('a track too big to work on in place', () => {
  it('has its GPX made on the track thread, once a version, whatever the query string', async () => {
    const before = workedOffThread();
    const first = await (await api.fetch(`/routes/${routeId}.gpx?a=1`)).text();
    expect(workedOffThread()).toBe(before + 1);
    expect(first.match(/<trkpt /g)).toHaveLength(POINTS);
    // asked again: the kept document, without reading the track's megabytes of packed points
    const statements: string[] = [];
    const stop = db.onQuery((_ms, sql) => statements.push(sql));
    const again = await (await api.fetch(`/routes/${routeId}.gpx?b=2`)).text();
    stop();
    expect(again).toBe(first);
    expect(workedOffThread()).toBe(before + 1);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((sql) => sql.includes('pointData') || sql.includes('routePointData'))).toEqual([]);
  });

  it('has its outline and points read on the track thread, and the same as in place', async () => {
    const before = workedOffThread();
    const { data } = await api.graphql<{ route: { track: { outline: Array<{ lat: number }>; points: Array<{ lat: number }> } } }>(
      `{ route(id: ${routeId}) { track { outline(max: 100) { lat } points(first: 3) { lat } } } }`,
    );
    expect(workedOffThread()).toBe(before + 2);
    expect(data!.route.track.outline).toHaveLength(100);
    expect(data!.route.track.outline[0]!.lat).toBeCloseTo(45, 6);
    expect(data!.route.track.outline[99]!.lat).toBeCloseTo(45 + (POINTS - 1) * 1e-4, 6);
    expect(data!.route.track.points.map((p) => p.lat)).toEqual([45, 45.0001, 45.0002]);
  });

  it('keeps its outline and its streams once made: a page asked again reads none of its packed points', async () => {
    const query = `{ route(id: ${routeId}) { track { outline(max: 100) { lat } streams(resolution: 50) { distance time } } } }`;
    const before = workedOffThread();
    const first = await api.graphql<{ route: { track: { streams: { distance: number[]; time: number[] } } } }>(query);
    // the outline of the test before is kept; the streams are made once, on the thread
    expect(workedOffThread()).toBe(before + 1);
    expect(first.data!.route.track.streams.distance).toHaveLength(50);
    expect(first.data!.route.track.streams.time.at(-1)).toBe(POINTS - 1);
    const statements: string[] = [];
    const stop = db.onQuery((_ms, sql) => statements.push(sql));
    const again = await api.graphql(query);
    stop();
    expect(again.data).toEqual(first.data);
    expect(workedOffThread()).toBe(before + 1);
    expect(statements.filter((sql) => sql.includes('pointData'))).toEqual([]);
  });

  it('has what a privacy zone leaves of it worked on the track thread too', async () => {
    await api.graphql('mutation { updateProfile(input: { hiddenEndsMeters: 500 }) { error { __typename } } }', {}, token);
    const before = workedOffThread();
    const { data } = await api.graphql<{ route: { start: { latitude: number }; track: { pointCount: number } } }>(
      `{ route(id: ${routeId}) { start { latitude } track { pointCount } } }`,
    );
    expect(workedOffThread()).toBeGreaterThan(before);
    // 500 m at 11 m a point is hidden at each end
    expect(data!.route.track.pointCount).toBeLessThan(POINTS - 80);
    expect(data!.route.start.latitude).toBeGreaterThan(45.004);
  });
});
