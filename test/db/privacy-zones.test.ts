// Privacy zones: the start and finish of every track, and chosen places, are left out of
// everything anyone but the author receives, on every path; the author sees all and is told what is
// hidden; a change takes effect at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceMiles } from '../../src/domain/geo.ts';
import { cutCircle } from '../../src/domain/privacy-zones.ts';
import { decodePolyline } from '../../src/domain/track.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

/** A straight run north: 101 points 20 m apart (2 km), timed a second apart. */
const START = { lat: 37.8, lon: -122.27 };
const STEP = 20 / 111_195; // degrees of latitude in 20 m
const POINTS = Array.from({ length: 101 }, (_, i) => ({ lat: START.lat + i * STEP, lon: START.lon }));
const HOME = POINTS[50]!; // a zone of 100 m around the middle: points 45 to 55
/** Waypoints as devices write them: one at home, one at the start, one halfway between the start and home. */
const WAYPOINTS = [
  { name: 'HOME', ...HOME },
  { name: 'START', ...START },
  { name: 'BRIDGE', ...POINTS[25]! },
];
const GPX = `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">${WAYPOINTS.map(
  (w) => `<wpt lat="${w.lat.toFixed(7)}" lon="${w.lon}"><name>${w.name}</name></wpt>`,
).join('')}<trk><trkseg>${POINTS.map(
  (p, i) => `<trkpt lat="${p.lat.toFixed(7)}" lon="${p.lon}"><time>${new Date(Date.UTC(2026, 0, 1, 7, 0, i)).toISOString()}</time></trkpt>`,
).join('')}</trkseg></trk></gpx>`;

const meters = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => distanceMiles(a, b) * 1609.344;

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let authorToken: string;
let strangerToken: string;
let friendToken: string;
let entryId: number;
let startEntryId: number;
let routeId: number;
let zoneId: number;
/** The circle the author's zone cuts from what others see (shifted off HOME, and wider). */
let cut: { lat: number; lon: number; radiusMeters: number };

const TRACK =
  '{ distanceMeters pointCount startedAt endedAt polyline points { lat lon time } outline(max: 2000) { lat lon } gpx waypoints { name lat lon } }';

async function asViewer<T>(token: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await api.graphql<T>(query, variables, token);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

beforeAll(async () => {
  db = await createTestDatabase('zones');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'zoe' });
  const stranger = await createPerson(db.prisma, { username: 'sam' });
  authorToken = await createToken(db.prisma, author.id);
  strangerToken = await createToken(db.prisma, stranger.id);
  // a friend sees what the author shares with friends, never what their zones hide
  const friend = await createPerson(db.prisma, { username: 'fay' });
  await makeFriends(db.prisma, author.id, friend.id);
  friendToken = await createToken(db.prisma, friend.id);
  const created = await asViewer<{ createEntry: { entry: { id: number } } }>(
    authorToken,
    `mutation { createEntry(input: { message: "from home", lat: ${HOME.lat}, lon: ${HOME.lon}, workout: { activityType: RUNNING } }) { entry { id: databaseId } } }`,
  );
  entryId = created.createEntry.entry.id;
  await asViewer(
    authorToken,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: entryId,
      gpx: GPX,
    },
  );
  const route = await asViewer<{ createRoute: { route: { id: number } } }>(
    authorToken,
    'mutation { createRoute(input: { name: "Home loop" }) { route { id: databaseId } } }',
  );
  routeId = route.createRoute.route.id;
  await asViewer(
    authorToken,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setRouteTrack(input: { routeId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: routeId,
      gpx: GPX,
    },
  );
  await asViewer(authorToken, 'mutation { updateProfile(input: { hiddenEndsMeters: 200 }) { error { __typename } } }');
  const zone = await asViewer<{ addPrivacyZone: { privacyZone: { id: number } } }>(
    authorToken,
    `mutation { addPrivacyZone(input: { lat: ${HOME.lat}, lon: ${HOME.lon}, radiusMeters: 100 }) { privacyZone { id: databaseId } } }`,
  );
  zoneId = zone.addPrivacyZone.privacyZone.id;
  cut = cutCircle(await db.prisma.privacyZone.findUniqueOrThrow({ where: { id: zoneId } }));
  // a workout posted where it began: its position is its track's hidden start
  const fromStart = await asViewer<{ createEntry: { entry: { id: number } } }>(
    authorToken,
    `mutation { createEntry(input: { message: "off I go", lat: ${START.lat}, lon: ${START.lon}, workout: { activityType: RUNNING } }) { entry { id: databaseId } } }`,
  );
  startEntryId = fromStart.createEntry.entry.id;
  await asViewer(
    authorToken,
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    {
      id: startEntryId,
      gpx: GPX,
    },
  );
});
afterAll(() => db.destroy());

/** Whether a place is one the author hides: within 200 m of the start or finish, or 100 m of home. */
const hidden = (p: { lat: number; lon: number }) =>
  meters(p, START) <= 200 + 1 || meters(p, POINTS.at(-1)!) <= 200 + 1 || meters(p, HOME) <= 100 + 1;
/** What the author's settings cut: the ends, and the zone's shifted circle (which holds the 100 m around home). */
const cutAway = (p: { lat: number; lon: number }) =>
  meters(p, START) <= 200.5 || meters(p, POINTS.at(-1)!) <= 200.5 || meters(p, cut) <= cut.radiusMeters;

type Track = {
  distanceMeters: number;
  pointCount: number;
  startedAt: string | null;
  endedAt: string | null;
  polyline: string;
  points: Array<{ lat: number; lon: number; time: string }>;
  outline: Array<{ lat: number; lon: number }>;
  gpx: string;
  waypoints: Array<{ name: string; lat: number; lon: number }>;
};
const gpxWaypoints = (gpx: string) => [...gpx.matchAll(/<wpt lat="[-\d.]+" lon="[-\d.]+">\s*<name>([^<]*)<\/name>/g)].map((m) => m[1]);
const gpxPoints = (gpx: string) =>
  [...gpx.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"/g)].map((m) => ({ lat: Number(m[1]), lon: Number(m[2]) }));

type Stats = { total: { workouts: number; meters: number; movingSeconds: number }; records: { running: Array<{ distance: string }> } };

/** The author's training totals since 2020 and their running records, as `token` reads them. */
async function statsOf(token: string | undefined): Promise<Stats> {
  const { person } = await asViewer<{ person: { stats: { total: Stats['total'] }; records: Stats['records'] } }>(
    token,
    `{ person(username: "zoe") { stats(period: YEAR, from: "2020-01-01T00:00:00Z") { ... on TrainingStats { total { workouts meters movingSeconds } } }
      records { running { distance } } } }`,
  );
  return { total: person.stats.total, records: person.records };
}

/** The distance of both workouts' tracks as `token` receives them. */
async function shownMeters(token: string | undefined): Promise<number> {
  const { a, b } = await asViewer<{ a: { track: { distanceMeters: number } }; b: { track: { distanceMeters: number } } }>(
    token,
    `{ a: entry(id: ${entryId}) { track { distanceMeters } } b: entry(id: ${startEntryId}) { track { distanceMeters } } }`,
  );
  return a.track.distanceMeters + b.track.distanceMeters;
}

describe('what anyone but the author receives', () => {
  for (const [who, token] of [
    ['someone without a token', () => undefined],
    ['a stranger’s app', () => strangerToken],
    ['a friend’s app', () => friendToken],
  ] as const) {
    it(`${who}: no point of the hidden ends or zone in points, outline, polyline or GPX`, async () => {
      const { entry } = await asViewer<{ entry: { geo: unknown; track: Track } }>(
        token(),
        `{ entry(id: ${entryId}) { geo { latitude } track ${TRACK} } }`,
      );
      const shownPoints = POINTS.filter((p) => !cutAway(p));
      expect(entry.track.points).toHaveLength(shownPoints.length);
      for (const shown of [entry.track.points, entry.track.outline, gpxPoints(entry.track.gpx), decodePolyline(entry.track.polyline)]) {
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.filter(hidden)).toEqual([]);
      }
      // the entry was posted at home: no position
      expect(entry.geo).toBeNull();
      const { route } = await asViewer<{ route: { start: { latitude: number; longitude: number }; track: Track } }>(
        token(),
        `{ route(id: ${routeId}) { start { latitude longitude } track ${TRACK} } }`,
      );
      expect(route.track.points.filter(hidden)).toEqual([]);
      expect(meters({ lat: route.start.latitude, lon: route.start.longitude }, START)).toBeGreaterThan(200);
    });

    it(`${who}: no waypoint at home or at the hidden start, in the field or the GPX, of entries and routes`, async () => {
      const { entry, route } = await asViewer<{ entry: { track: Track }; route: { track: Track } }>(
        token(),
        `{ entry(id: ${entryId}) { track { waypoints { name } gpx } } route(id: ${routeId}) { track { waypoints { name } gpx } } }`,
      );
      for (const track of [entry.track, route.track]) {
        expect(track.waypoints.map((w) => w.name)).toEqual(['BRIDGE']);
        expect(gpxWaypoints(track.gpx)).toEqual(['BRIDGE']);
      }
    });

    it(`${who}: the count, times and distance describe only the part shown`, async () => {
      const { entry } = await asViewer<{ entry: { track: Track } }>(token(), `{ entry(id: ${entryId}) { track ${TRACK} } }`);
      const { points } = entry.track;
      expect(entry.track.pointCount).toBe(points.length);
      expect(entry.track.pointCount).toBeLessThan(101);
      expect(entry.track.startedAt).toBe(points[0]!.time);
      expect(entry.track.endedAt).toBe(points.at(-1)!.time);
      // two stretches 20 m a step, the gap at the zone not counted
      const drawn = points.slice(1).reduce((sum, p, i) => sum + (meters(points[i]!, p) < 25 ? meters(points[i]!, p) : 0), 0);
      expect(entry.track.distanceMeters).toBeCloseTo(drawn, 0);
      const page = await api.fetch(`/entries/${entryId}`, { headers: { accept: 'text/html' } });
      expect(await page.text()).toContain(`${points.length} points`);
    });

    it(`${who}: the workout's figures are the shown part's too, so none tells how much was cut`, async () => {
      // as an imported file's: the whole track's figures, stored with the workout
      await db.prisma.workout.update({
        where: { entryId },
        data: { distanceValue: 2, distanceUnits: 'kilometers', duration: 600, completedAt: new Date('2024-05-01T10:10:00Z') },
      });
      const { entry } = await asViewer<{
        entry: { track: Track; workout: { distance: { value: number; units: string }; duration: number; completedAt: string } };
      }>(token(), `{ entry(id: ${entryId}) { track ${TRACK} workout { distance { value units } duration completedAt } } }`);
      const { track, workout } = entry;
      expect(workout.distance).toEqual({ value: Math.round(track.distanceMeters / 10) / 100, units: 'KILOMETERS' });
      expect(workout.duration).toBe((Date.parse(track.endedAt!) - Date.parse(track.startedAt!)) / 1000);
      expect(workout.completedAt).toBe(track.endedAt);
      // the REST paths and the streams say the same
      const headers: Record<string, string> = token() ? { authorization: `Bearer ${token()}` } : {};
      const rest = (await (await api.fetch(`/entries/${entryId}.json`, { headers })).json()) as { workout: Record<string, unknown> };
      expect(rest.workout).toMatchObject({ duration: workout.duration });
      const stream = (await (await api.fetch('/people/zoe/entries.json', { headers })).json()) as {
        entries: Array<{ id: number; workout?: Record<string, unknown> }>;
      };
      expect(stream.entries.find((e) => e.id === entryId)?.workout).toMatchObject({ duration: workout.duration });
      // the author is told what was stored
      const own = await asViewer<{ entry: { workout: { duration: number } } }>(
        authorToken,
        `{ entry(id: ${entryId}) { workout { duration } } }`,
      );
      expect(own.entry.workout.duration).toBe(600);
    });

    it(`${who}: stats and records are made of the shown parts, as the workouts answer them`, async () => {
      const [shown, whole] = await Promise.all([statsOf(token()), statsOf(authorToken)]);
      // the two workouts' tracks as this viewer receives them
      expect(shown.total.workouts).toBe(2);
      expect(shown.total.meters).toBeCloseTo(await shownMeters(token()), 0);
      expect(shown.total.meters).toBeLessThan(whole.total.meters - 1000);
      expect(shown.total.movingSeconds).toBeLessThan(whole.total.movingSeconds);
      // the fastest kilometre ran from the hidden start: the author has it, nobody else
      expect(whole.records.running.map((r) => r.distance)).toContain('ONE_K');
      expect(shown.records.running).toEqual([]);
    });

    it(`${who}: no position of an entry posted at its track’s hidden start`, async () => {
      const { entry } = await asViewer<{ entry: { geo: unknown } }>(token(), `{ entry(id: ${startEntryId}) { geo { latitude } } }`);
      expect(entry.geo).toBeNull();
      const rest = (await (await api.fetch(`/entries/${startEntryId}.json`)).json()) as Record<string, unknown>;
      expect(rest.geo).toBeUndefined();
    });
  }

  it('the REST paths: the entry has no position, the route’s GPX download leaves the hidden parts out', async () => {
    const entry = (await (await api.fetch(`/entries/${entryId}.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(entry)).not.toContain(String(HOME.lat).slice(0, 7));
    const gpx = await (await api.fetch(`/routes/${routeId}.gpx`)).text();
    expect(gpxPoints(gpx).filter(hidden)).toEqual([]);
    expect(gpxPoints(gpx).length).toBeGreaterThan(40);
    expect(gpxWaypoints(gpx)).toEqual(['BRIDGE']);
    // the entry's track has a GPX download of its own, as README and /api/v1 point to
    const download = await api.fetch(`/entries/${entryId}.gpx`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
    const entryGpx = await download.text();
    expect(gpxPoints(entryGpx).filter(hidden)).toEqual([]);
    expect(gpxPoints(entryGpx).length).toBeGreaterThan(40);
    expect(gpxWaypoints(entryGpx)).toEqual(['BRIDGE']);
    const note = await asViewer<{ createEntry: { entry: { id: number } } }>(
      authorToken,
      'mutation { createEntry(input: { message: "no track" }) { entry { id: databaseId } } }',
    );
    expect((await api.fetch(`/entries/${note.createEntry.entry.id}.gpx`)).status).toBe(404);
  });

  it('a place inside a zone matches no one else’s nearby search, and matches the author’s', async () => {
    const query = `{ nearbyStream(lat: ${HOME.lat}, lon: ${HOME.lon}, radius: 1) { ... on EntryConnection { edges { node { id: databaseId } } } } }`;
    const ids = (data: { nearbyStream: { edges: Array<{ node: { id: number } }> } }) => data.nearbyStream.edges.map((e) => e.node.id);
    expect(ids(await asViewer(strangerToken, query))).toEqual([]);
    expect(ids(await asViewer(undefined, query))).toEqual([]);
    expect(ids(await asViewer(authorToken, query))).toEqual([startEntryId, entryId]);
    const rest = (await (await api.fetch(`/entries/nearby/${HOME.lat},${HOME.lon}.json?radius=1`)).json()) as { entries: unknown[] };
    expect(rest.entries).toEqual([]);
  });
});

describe('the author', () => {
  it('sees the whole track and their position, and is told what is hidden', async () => {
    const { entry } = await asViewer<{ entry: { geo: { latitude: number }; track: Track & { privacy: Record<string, number> } } }>(
      authorToken,
      `{ entry(id: ${entryId}) { geo { latitude } track { points { lat lon } privacy { endsMeters hiddenPoints zonesCrossed } } } }`,
    );
    expect(entry.track.points).toHaveLength(101);
    expect(entry.geo.latitude).toBeCloseTo(HOME.lat, 6);
    expect(entry.track.privacy).toEqual({ endsMeters: 200, hiddenPoints: POINTS.filter(cutAway).length, zonesCrossed: 1 });
    const own = await asViewer<{ entry: { geo: { latitude: number }; track: Track } }>(
      authorToken,
      `{ entry(id: ${startEntryId}) { geo { latitude } track ${TRACK} } }`,
    );
    expect(own.entry.geo.latitude).toBeCloseTo(START.lat, 6);
    expect(own.entry.track.pointCount).toBe(101);
    expect(own.entry.track.waypoints.map((w) => w.name)).toEqual(['HOME', 'START', 'BRIDGE']);
    const others = await asViewer<{ entry: { track: { privacy: unknown } } }>(
      strangerToken,
      `{ entry(id: ${entryId}) { track { privacy { hiddenPoints } } } }`,
    );
    expect(others.entry.track.privacy).toBeNull();
    const me = await asViewer<{ me: { hiddenEndsMeters: number; privacyZones: Array<{ radiusMeters: number }> } }>(
      authorToken,
      '{ me { hiddenEndsMeters privacyZones { radiusMeters } } }',
    );
    expect(me.me).toEqual({ hiddenEndsMeters: 200, privacyZones: [{ radiusMeters: 100 }] });
    const seen = await asViewer<{ person: { hiddenEndsMeters: unknown; privacyZones: unknown } }>(
      strangerToken,
      '{ person(username: "zoe") { hiddenEndsMeters privacyZones { id: databaseId } } }',
    );
    expect(seen.person).toEqual({ hiddenEndsMeters: null, privacyZones: null });
  });

  it('refuses a zone or a stretch out of bounds, naming the field', async () => {
    const small = await api.graphql<{ addPrivacyZone: { error: { __typename: string; issues: Array<{ path: string }> } | null } }>(
      'mutation { addPrivacyZone(input: { lat: 37.8, lon: -122.27, radiusMeters: 5 }) { error { __typename ... on ValidationError { issues { path } } } } }',
      {},
      authorToken,
    );
    expect(small.data!.addPrivacyZone.error!.issues.map((i) => i.path)).toEqual(['radiusMeters']);
    const far = await api.graphql<{ updateProfile: { error: { __typename: string; issues: Array<{ path: string }> } | null } }>(
      'mutation { updateProfile(input: { hiddenEndsMeters: 99999 }) { error { __typename ... on ValidationError { issues { path } } } } }',
      {},
      authorToken,
    );
    expect(far.data!.updateProfile.error!.issues.map((i) => i.path)).toEqual(['hiddenEndsMeters']);
    const someone = await api.graphql<{ removePrivacyZone: { error: { __typename: string } | null } }>(
      `mutation { removePrivacyZone(input: { id: ${zoneId} }) { error { __typename } } }`,
      {},
      strangerToken,
    );
    expect(someone.data!.removePrivacyZone.error?.__typename).toBe('NotFoundError');
  });

  it('a change takes effect at once: without the zone and the hidden ends, everyone sees the whole track', async () => {
    const before = await statsOf(strangerToken);
    await asViewer(authorToken, `mutation { removePrivacyZone(input: { id: ${zoneId} }) { error { __typename } } }`);
    // the totals others read follow at once: the part the zone cut counts again, the hidden ends do not
    const withoutZone = await statsOf(strangerToken);
    expect(withoutZone.total.meters).toBeGreaterThan(before.total.meters + 100);
    expect(withoutZone.total.meters).toBeCloseTo(await shownMeters(strangerToken), 0);
    await asViewer(authorToken, 'mutation { updateProfile(input: { hiddenEndsMeters: 0 }) { error { __typename } } }');
    expect((await statsOf(strangerToken)).total).toEqual((await statsOf(authorToken)).total);
    const { entry } = await asViewer<{ entry: { geo: { latitude: number }; track: { points: unknown[]; polyline: string } } }>(
      undefined,
      `{ entry(id: ${entryId}) { geo { latitude } track { points { lat } polyline } } }`,
    );
    expect(entry.track.points).toHaveLength(101);
    expect(entry.geo.latitude).toBeCloseTo(HOME.lat, 6);
    // stored tracks never changed: the stored polyline is the one answered again
    const stored = await db.prisma.track.findFirstOrThrow({ where: { entryId }, select: { polyline: true } });
    expect(entry.track.polyline).toBe(stored.polyline);
  });
});
