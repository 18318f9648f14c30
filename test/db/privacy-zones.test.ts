// Privacy zones (issue 21): the start and finish of every track, and chosen places, are left out of
// everything anyone but the author receives, on every path; the author sees all and is told what is
// hidden; a change takes effect at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceMiles } from '../../src/domain/geo.ts';
import { decodePolyline } from '../../src/domain/track.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

/** A straight run north: 101 points 20 m apart (2 km), timed a second apart. */
const START = { lat: 37.8, lon: -122.27 };
const STEP = 20 / 111_195; // degrees of latitude in 20 m
const POINTS = Array.from({ length: 101 }, (_, i) => ({ lat: START.lat + i * STEP, lon: START.lon }));
const HOME = POINTS[50]!; // a zone of 100 m around the middle: points 45 to 55
const GPX = `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${POINTS.map(
  (p, i) => `<trkpt lat="${p.lat.toFixed(7)}" lon="${p.lon}"><time>${new Date(Date.UTC(2026, 0, 1, 7, 0, i)).toISOString()}</time></trkpt>`,
).join('')}</trkseg></trk></gpx>`;

const meters = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => distanceMiles(a, b) * 1609.344;

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let authorToken: string;
let strangerToken: string;
let entryId: number;
let routeId: number;
let zoneId: number;

const TRACK = '{ distanceMeters pointCount polyline points { lat lon } outline(max: 2000) { lat lon } gpx }';

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
  const created = await asViewer<{ createEntry: { id: number } }>(
    authorToken,
    `mutation { createEntry(input: { message: "from home", lat: ${HOME.lat}, lon: ${HOME.lon}, workout: { activityType: RUNNING } }) { ... on Entry { id } } }`,
  );
  entryId = created.createEntry.id;
  await asViewer(authorToken, 'mutation ($id: Int!, $gpx: GpxDocument!) { setEntryTrack(entryId: $id, gpx: $gpx) { __typename } }', {
    id: entryId,
    gpx: GPX,
  });
  const route = await asViewer<{ createRoute: { id: number } }>(
    authorToken,
    'mutation { createRoute(name: "Home loop") { ... on Route { id } } }',
  );
  routeId = route.createRoute.id;
  await asViewer(authorToken, 'mutation ($id: Int!, $gpx: GpxDocument!) { setRouteTrack(routeId: $id, gpx: $gpx) { __typename } }', {
    id: routeId,
    gpx: GPX,
  });
  await asViewer(authorToken, 'mutation { updateProfile(input: { hiddenEndsMeters: 200 }) { __typename } }');
  const zone = await asViewer<{ addPrivacyZone: { id: number } }>(
    authorToken,
    `mutation { addPrivacyZone(lat: ${HOME.lat}, lon: ${HOME.lon}, radiusMeters: 100) { ... on PrivacyZone { id } } }`,
  );
  zoneId = zone.addPrivacyZone.id;
});
afterAll(() => db.destroy());

/** Whether a place is one the author hides: within 200 m of the start or finish, or 100 m of home. */
const hidden = (p: { lat: number; lon: number }) =>
  meters(p, START) <= 200 + 1 || meters(p, POINTS.at(-1)!) <= 200 + 1 || meters(p, HOME) <= 100 + 1;

type Track = {
  distanceMeters: number;
  pointCount: number;
  polyline: string;
  points: Array<{ lat: number; lon: number }>;
  outline: Array<{ lat: number; lon: number }>;
  gpx: string;
};
const gpxPoints = (gpx: string) =>
  [...gpx.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"/g)].map((m) => ({ lat: Number(m[1]), lon: Number(m[2]) }));

describe('what anyone but the author receives', () => {
  for (const [who, token] of [
    ['someone without a token', () => undefined],
    ['a stranger’s app', () => strangerToken],
  ] as const) {
    it(`${who}: no point of the hidden ends or zone in points, outline, polyline or GPX; the whole distance`, async () => {
      const { entry } = await asViewer<{ entry: { geo: unknown; track: Track } }>(
        token(),
        `{ entry(id: ${entryId}) { geo { latitude } track ${TRACK} } }`,
      );
      const whole = POINTS.filter((p) => !hidden(p)).length;
      expect(entry.track.points).toHaveLength(whole);
      for (const shown of [entry.track.points, entry.track.outline, gpxPoints(entry.track.gpx), decodePolyline(entry.track.polyline)]) {
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.filter(hidden)).toEqual([]);
      }
      expect(entry.track.distanceMeters).toBeGreaterThan(1990);
      expect(entry.track.pointCount).toBe(101);
      // the entry was posted at home: no position
      expect(entry.geo).toBeNull();
      const { route } = await asViewer<{ route: { start: { latitude: number; longitude: number }; track: Track } }>(
        token(),
        `{ route(id: ${routeId}) { start { latitude longitude } track { points { lat lon } } } }`,
      );
      expect(route.track.points.filter(hidden)).toEqual([]);
      expect(meters({ lat: route.start.latitude, lon: route.start.longitude }, START)).toBeGreaterThan(200);
    });
  }

  it('the REST paths: the entry has no position, the route’s GPX download leaves the hidden parts out', async () => {
    const entry = (await (await api.fetch(`/entries/${entryId}.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(entry)).not.toContain(String(HOME.lat).slice(0, 7));
    const gpx = await (await api.fetch(`/routes/${routeId}.gpx`)).text();
    expect(gpxPoints(gpx).filter(hidden)).toEqual([]);
    expect(gpxPoints(gpx).length).toBeGreaterThan(40);
  });

  it('a place inside a zone matches no one else’s nearby search, and matches the author’s', async () => {
    const query = `{ nearbyStream(lat: ${HOME.lat}, lon: ${HOME.lon}, radius: 1) { ... on EntryConnection { edges { node { id } } } } }`;
    const ids = (data: { nearbyStream: { edges: Array<{ node: { id: number } }> } }) => data.nearbyStream.edges.map((e) => e.node.id);
    expect(ids(await asViewer(strangerToken, query))).toEqual([]);
    expect(ids(await asViewer(undefined, query))).toEqual([]);
    expect(ids(await asViewer(authorToken, query))).toEqual([entryId]);
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
    expect(entry.track.privacy).toEqual({ endsMeters: 200, hiddenPoints: POINTS.filter(hidden).length, zonesCrossed: 1 });
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
      '{ person(username: "zoe") { hiddenEndsMeters privacyZones { id } } }',
    );
    expect(seen.person).toEqual({ hiddenEndsMeters: null, privacyZones: null });
  });

  it('refuses a zone or a stretch out of bounds, naming the field', async () => {
    const small = await api.graphql<{ addPrivacyZone: { __typename: string; issues: Array<{ path: string }> } }>(
      'mutation { addPrivacyZone(lat: 37.8, lon: -122.27, radiusMeters: 5) { __typename ... on ValidationError { issues { path } } } }',
      {},
      authorToken,
    );
    expect(small.data!.addPrivacyZone.issues.map((i) => i.path)).toEqual(['radiusMeters']);
    const far = await api.graphql<{ updateProfile: { __typename: string; issues: Array<{ path: string }> } }>(
      'mutation { updateProfile(input: { hiddenEndsMeters: 99999 }) { __typename ... on ValidationError { issues { path } } } }',
      {},
      authorToken,
    );
    expect(far.data!.updateProfile.issues.map((i) => i.path)).toEqual(['hiddenEndsMeters']);
    const someone = await api.graphql<{ removePrivacyZone: { __typename: string } }>(
      `mutation { removePrivacyZone(id: ${zoneId}) { __typename } }`,
      {},
      strangerToken,
    );
    expect(someone.data!.removePrivacyZone.__typename).toBe('NotFoundError');
  });

  it('a change takes effect at once: without the zone and the hidden ends, everyone sees the whole track', async () => {
    await asViewer(authorToken, `mutation { removePrivacyZone(id: ${zoneId}) { __typename } }`);
    await asViewer(authorToken, 'mutation { updateProfile(input: { hiddenEndsMeters: 0 }) { __typename } }');
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
