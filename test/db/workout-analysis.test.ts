// What a watch recorded, read back over GraphQL on both databases: the laps Garmin's own SDK counts
// in the file, splits that add up to the track, time in zones that adds up to the moving time (the
// device's thresholds, then the athlete's own), best power, and streams for charts. Unsound laps and
// thresholds are left out and said, never a failure; anyone the owner hides part of the track from
// gets all of it made of the points they are shown.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decoder, Stream } from '@garmin/fitsdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountExport } from '../../src/db/account-export.ts';
import { backfillTrackRecords } from '../../src/db/track-records.ts';
import { importArchive } from '../../src/imports/archive.ts';
import { closeFitPool } from '../../src/imports/fit-pool.ts';
import { createMediaStore } from '../../src/media/store.ts';
import { fitFile, pointsAlong, type TestPoint, tcxFile } from '../support/activity-files.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens = { owner: '', friend: '' };

const ANALYSIS = `
  id databaseId
  workout { duration }
  track {
    distanceMeters startedAt endedAt movingSeconds repairs
    laps { startOffsetSeconds elapsedSeconds movingSeconds distanceMeters averageHeartRate maxHeartRate averagePower maxPower elevationGain }
    km: splits(units: KILOMETERS) { distanceMeters elapsedSeconds movingSeconds paceSeconds elevationChange averageHeartRate partial }
    mi: splits(units: MILES) { distanceMeters elapsedSeconds }
    heartRateZones { basis withoutReadingSeconds zones { number minimum maximum seconds } }
    powerZones { basis withoutReadingSeconds zones { number minimum maximum seconds } }
    powerEfforts { seconds watts }
    streams(resolution: 100) { pointCount time distance lat lon elevation heartRate cadence power speed }
  }`;

interface Zones {
  basis: string;
  withoutReadingSeconds: number;
  zones: Array<{ number: number; minimum: number; maximum: number | null; seconds: number }>;
}
interface Analysed {
  id: string;
  databaseId: number;
  workout: { duration: number };
  track: {
    distanceMeters: number;
    startedAt: string;
    endedAt: string;
    movingSeconds: number;
    repairs: string[] | null;
    laps: Array<Record<string, number | null>>;
    km: Array<{ distanceMeters: number; elapsedSeconds: number; movingSeconds: number; paceSeconds: number; partial: boolean }>;
    mi: Array<{ distanceMeters: number; elapsedSeconds: number }>;
    heartRateZones: Zones | null;
    powerZones: Zones | null;
    powerEfforts: Array<{ seconds: number; watts: number }>;
    streams: Record<string, unknown[]> & { pointCount: number };
  };
}

async function importFile(bytes: Uint8Array | string, name: string): Promise<Analysed> {
  const result = await api.graphqlUpload<{ importActivity: { entry: Analysed; error: unknown } }>(
    `mutation ($file: ActivityFile!) { importActivity(input: { file: $file }) { entry { ${ANALYSIS} } error { __typename } } }`,
    new Blob([bytes as BlobPart]),
    name,
    tokens.owner,
  );
  expect(result.errors).toBeUndefined();
  expect(result.data!.importActivity.error).toBeNull();
  return result.data!.importActivity.entry;
}

async function read(id: string, token: string): Promise<Analysed> {
  const result = await api.graphql<{ entry: Analysed }>(`query ($id: ID!) { entry(id: $id) { ${ANALYSIS} } }`, { id }, token);
  expect(result.errors).toBeUndefined();
  return result.data!.entry;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const zoneSeconds = (zones: Zones) => sum(zones.zones.map((zone) => zone.seconds)) + zones.withoutReadingSeconds;

/** A ride of an hour at 8 m/s, a point a second, power rising every 10 minutes and heart rate with it. */
function ride(start?: Date): TestPoint[] {
  return pointsAlong(3600, { speed: 8, ...(start && { start }) }).map((point, i) => ({
    ...point,
    power: 150 + 20 * Math.floor(i / 600),
    heartRate: 110 + 8 * Math.floor(i / 600),
  }));
}

beforeAll(async () => {
  db = await createTestDatabase('workout_analysis');
  api = testApp(db);
  const owner = await createPerson(db.prisma, { username: 'wren', units: 'kilometers' });
  const friend = await createPerson(db.prisma, { username: 'finch' });
  await makeFriends(db.prisma, owner.id, friend.id);
  tokens.owner = await createToken(db.prisma, owner.id);
  tokens.friend = await createToken(db.prisma, friend.id);
});

afterAll(async () => {
  await closeFitPool();
  await db.destroy();
});

describe('a FIT file with laps and thresholds', () => {
  let entry: Analysed;
  const points = ride();
  const fit = fitFile({
    points,
    sport: 'cycling',
    lapsAt: [600, 1200, 1800, 2400, 3000, 3300],
    thresholds: { maxHeartRate: 190, restingHeartRate: 50, functionalThresholdPower: 250 },
  });

  beforeAll(async () => {
    entry = await importFile(fit, 'ride.fit');
  });

  it('has the laps Garmin’s SDK counts in the file, with the device’s figures', () => {
    const { messages } = new Decoder(Stream.fromByteArray(fit)).read();
    expect(messages.lapMesgs).toHaveLength(7);
    expect(entry.track.laps).toHaveLength(7);
    entry.track.laps.forEach((lap, index) => {
      const device = messages.lapMesgs![index]!;
      expect(lap.distanceMeters).toBeCloseTo(device.totalDistance as number, 0);
      expect(lap.elapsedSeconds).toBeCloseTo(device.totalElapsedTime as number, 0);
      expect(lap.averagePower).toBe(device.avgPower);
      expect(lap.maxHeartRate).toBe(device.maxHeartRate);
    });
    expect(entry.track.laps[1]).toMatchObject({ startOffsetSeconds: 600, averagePower: 170 });
    expect(sum(entry.track.laps.map((lap) => lap.distanceMeters!))).toBeCloseTo(entry.track.distanceMeters, -2);
  });

  it('has splits in either unit that add up to the track, the last one partial', () => {
    const { km, mi, distanceMeters, startedAt, endedAt } = entry.track;
    const elapsed = (Date.parse(endedAt) - Date.parse(startedAt)) / 1000;
    expect(km).toHaveLength(Math.ceil(distanceMeters / 1000));
    expect(sum(km.map((split) => split.distanceMeters))).toBeCloseTo(distanceMeters, 0);
    expect(sum(km.map((split) => split.elapsedSeconds))).toBeCloseTo(elapsed, 0);
    expect(km[0]).toMatchObject({ distanceMeters: 1000, partial: false, paceSeconds: 125 });
    expect(km.at(-1)!.partial).toBe(true);
    expect(sum(mi.map((split) => split.distanceMeters))).toBeCloseTo(distanceMeters, 0);
    expect(sum(mi.map((split) => split.elapsedSeconds))).toBeCloseTo(elapsed, 0);
  });

  it('answers time in zones of the device’s thresholds, adding up to the moving time', () => {
    const { heartRateZones, powerZones, movingSeconds } = entry.track;
    expect(heartRateZones!.basis).toBe('DEVICE');
    expect(zoneSeconds(heartRateZones!)).toBeCloseTo(movingSeconds, 0);
    // of the reserve between 50 and 190: zone 2 from 134
    expect(heartRateZones!.zones[1]).toMatchObject({ minimum: 134, maximum: 148 });
    expect(powerZones!.basis).toBe('DEVICE');
    expect(zoneSeconds(powerZones!)).toBeCloseTo(movingSeconds, 0);
    // 150 and 170 W are zone 2 (140-190) of 250 W: the first 20 minutes
    // (a second is credited to the reading that ends it: the 1,200th to 190 W, zone 3)
    expect(Math.round(powerZones!.zones[1]!.seconds)).toBe(1199);
    expect(entry.track.powerEfforts).toEqual([
      { seconds: 60, watts: 250 },
      { seconds: 300, watts: 250 },
      { seconds: 1200, watts: 240 },
    ]);
  });

  it('makes the zones of the athlete’s own thresholds once they set them, and refuses ones that contradict', async () => {
    const set = async (input: string) =>
      (
        await api.graphql<{
          updateProfile: { error: { issues: Array<{ path: string; message: string }> } | null; person: Record<string, number> };
        }>(
          `mutation { updateProfile(input: { ${input} }) { person { maxHeartRate restingHeartRate thresholdPower } error { ... on ValidationError { issues { path message } } } } }`,
          {},
          tokens.owner,
        )
      ).data!.updateProfile;
    expect((await set('restingHeartRate: 150')).error!.issues[0]).toMatchObject({ path: 'restingHeartRate' });
    expect((await set('maxHeartRate: 180, thresholdPower: 200')).person).toEqual({
      maxHeartRate: 180,
      restingHeartRate: null,
      thresholdPower: 200,
    });
    expect((await set('maxHeartRate: 100, restingHeartRate: 110')).error!.issues[0]!.message).toContain('below the maximum');
    const mine = await read(entry.id, tokens.owner);
    expect(mine.track.heartRateZones!.basis).toBe('ATHLETE');
    // of the maximum alone now: zone 2 from 108
    expect(mine.track.heartRateZones!.zones[1]).toMatchObject({ minimum: 108, maximum: 126 });
    expect(mine.track.powerZones!.zones[1]).toMatchObject({ minimum: 112, maximum: 152 });
    expect(zoneSeconds(mine.track.powerZones!)).toBeCloseTo(mine.track.movingSeconds, 0);
    // nobody else reads the thresholds themselves
    const other = await api.graphql<{ person: Record<string, unknown> }>(
      '{ person(username: "wren") { maxHeartRate thresholdPower } }',
      {},
      tokens.friend,
    );
    expect(other.data!.person).toEqual({ maxHeartRate: null, thresholdPower: null });
    await set('maxHeartRate: 0, thresholdPower: 0');
    expect((await read(entry.id, tokens.owner)).track.heartRateZones!.basis).toBe('DEVICE');
  });

  it('shows it all on the entry page, drawn by the server: charts, laps, splits, zones and best power', async () => {
    const response = await api.fetch(`/entries/${entry.databaseId}`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const page = await response.text();
    const section = /<section class="card" aria-labelledby="analysis-heading">(.*?)<\/section>/s.exec(page)![1]!;
    // named by what it holds
    expect(section).toContain('<h2 id="analysis-heading">Laps, splits, zones and best power</h2>');
    expect(section).toContain('<title id="speed-chart-title">Speed along the way: from');
    expect(section).toContain('<title id="heart-chart-title">Heart rate along the way: from 110 bpm to 150 bpm');
    expect(section).toContain('<title id="power-chart-title">');
    const tables = [...section.matchAll(/<table class="totals"><caption class="meta">([^<]*)<\/caption>(.*?)<\/table>/gs)];
    const rows = (caption: string) =>
      (tables.find(([, text]) => text!.startsWith(caption))?.[2]?.match(/<tr><th scope="row">/g) ?? []).length;
    expect(rows('Laps as the device recorded them')).toBe(7);
    // a visitor reads kilometres
    expect(rows('Splits per kilometre')).toBe(29);
    expect(rows('Heart rate zones of the thresholds the device wrote')).toBe(5);
    expect(rows('Power zones of the thresholds the device wrote')).toBe(7);
    expect(section).toContain('Best power: 1:00 250 W · 5:00 250 W · 20:00 240 W');
  });

  it('has its best efforts, and its best power feeds the person’s records', async () => {
    const efforts = await api.graphql<{ entry: { track: { bestEfforts: Array<{ distance: string; seconds: number }> } } }>(
      'query ($id: ID!) { entry(id: $id) { track { bestEfforts { distance seconds startOffsetSeconds } } } }',
      { id: entry.id },
      tokens.friend,
    );
    // 8 m/s throughout: a kilometre in 125 s
    expect(efforts.data!.entry.track.bestEfforts.map((effort) => effort.distance)).toEqual([
      'ONE_K',
      'ONE_MILE',
      'FIVE_K',
      'TEN_K',
      'HALF_MARATHON',
    ]);
    expect(efforts.data!.entry.track.bestEfforts[0]!.seconds).toBeCloseTo(125, 0);
    const records = await api.graphql<{
      person: { records: { power: Array<{ seconds: number; watts: number; entry: { databaseId: number } }> } };
    }>('{ person(username: "wren") { records { power { seconds watts entry { databaseId } } } } }', {}, tokens.friend);
    expect(records.data!.person.records.power).toEqual([
      { seconds: 60, watts: 250, entry: { databaseId: entry.databaseId } },
      { seconds: 300, watts: 250, entry: { databaseId: entry.databaseId } },
      { seconds: 1200, watts: 240, entry: { databaseId: entry.databaseId } },
    ]);
    // and the stats page shows them among the cycling records
    const page = await (await api.fetch('/people/wren/stats', { headers: { accept: 'text/html' } })).text();
    expect(page).toMatch(/<th scope="row">Best 5-minute power<\/th><td><a href="[^"]+">250 W<\/a>/);
  });

  it('answers the laps, splits and zones at /api/v1 too, without the streams', async () => {
    const response = await api.fetch(`/api/v1/entries/${entry.databaseId}`, { headers: { authorization: `Bearer ${tokens.friend}` } });
    expect(response.status).toBe(200);
    const { track } = (await response.json()) as { track: Record<string, unknown> };
    expect(track.laps).toHaveLength(7);
    expect(track.splits).toHaveLength(29);
    expect(track.heartRateZones).toMatchObject({ basis: 'DEVICE' });
    expect(track.powerEfforts).toHaveLength(3);
    expect(track).not.toHaveProperty('streams');
  });

  it('streams the points for a chart, in step, at the resolution asked', () => {
    const { streams } = entry.track;
    expect(streams.pointCount).toBe(3600);
    for (const kind of ['time', 'distance', 'lat', 'lon', 'elevation', 'heartRate', 'cadence', 'power', 'speed'])
      expect(streams[kind]).toHaveLength(100);
    expect(streams.time![0]).toBe(0);
    expect(streams.time!.at(-1)).toBe(3599);
    expect(streams.speed![1]).toBeCloseTo(8, 0);
  });

  it('refuses a resolution, an outline or a count of points out of bounds, naming the argument, rather than answer another size', async () => {
    for (const [selection, name] of [
      ['streams(resolution: 1) { pointCount }', 'resolution'],
      ['streams(resolution: 10001) { pointCount }', 'resolution'],
      ['outline(max: 0) { lat }', 'max'],
      ['outline(max: 2001) { lat }', 'max'],
      ['points(first: -1) { lat }', 'first'],
    ]) {
      const result = await api.graphql<{ entry: { track: unknown } }>(
        `query ($id: ID!) { entry(id: $id) { track { ${selection} } } }`,
        { id: entry.id },
        tokens.owner,
      );
      expect(result.data?.entry.track, `${selection}: ${JSON.stringify(result.errors)}`).toBeNull();
      expect(result.errors?.[0]?.extensions, selection).toMatchObject({ type: 'ValidationError', issues: [{ path: name }] });
    }
  });
});

describe('files whose laps or thresholds contradict each other', () => {
  it('read as far as they are sound, and say what was left out', async () => {
    const points = pointsAlong(900, { speed: 3 });
    const fit = fitFile({
      points,
      lapSpans: [
        [0, 300],
        [200, 600],
        [600, 899],
      ],
      thresholds: { maxHeartRate: 110, restingHeartRate: 115 },
    });
    const entry = await importFile(fit, 'overlapping.fit');
    expect(entry.track.laps).toHaveLength(2);
    expect(entry.track.repairs).toEqual(
      expect.arrayContaining([
        'lap 2 left out: it overlaps lap 1',
        "the device's heart-rate zones left out: its resting heart rate (115) is not below its maximum (110)",
      ]),
    );
    expect(entry.track.heartRateZones).toBeNull();
  });
});

describe('TCX and GPX', () => {
  it('a TCX file has its <Lap>s, with their own figures', async () => {
    const entry = await importFile(tcxFile({ points: pointsAlong(1200, { speed: 3 }), lapsAt: [400, 800] }), 'run.tcx');
    expect(entry.track.laps).toHaveLength(3);
    expect(entry.track.laps.map((lap) => lap.averageHeartRate)).toEqual([140, 140, 140]);
    expect(entry.track.laps[2]!.startOffsetSeconds).toBe(800);
    expect(sum(entry.track.km.map((split) => split.distanceMeters))).toBeCloseTo(entry.track.distanceMeters, 0);
  });

  it('a GPX upload has no laps, and splits of its track', async () => {
    const points = pointsAlong(700, { speed: 3 });
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${points
      .map((p) => `<trkpt lat="${p.lat}" lon="${p.lon}"><ele>${p.elevation}</ele><time>${p.time.toISOString()}</time></trkpt>`)
      .join('')}</trkseg></trk></gpx>`;
    const entry = await importFile(gpx, 'walk.gpx');
    expect(entry.track.laps).toEqual([]);
    expect(entry.track.km.map((split) => split.partial)).toEqual([false, false, true]);
    expect(entry.track.heartRateZones).toBeNull();
    // its page's section says it holds splits, not laps it has none of
    const page = await (await api.fetch(`/entries/${entry.databaseId}`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('<h2 id="analysis-heading">Splits</h2>');
  });
});

describe('privacy', () => {
  it('anyone the owner hides the ends from gets laps, splits, zones and streams of the points shown', async () => {
    const entry = await importFile(
      fitFile({ points: pointsAlong(1500, { speed: 4, lat: 46.1 }), lapsAt: [100, 1400], thresholds: { maxHeartRate: 190 } }),
      'hidden-ends.fit',
    );
    await api.graphql('mutation { updateProfile(input: { hiddenEndsMeters: 500 }) { error { __typename } } }', {}, tokens.owner);
    const seen = await read(entry.id, tokens.friend);
    const whole = await read(entry.id, tokens.owner);
    expect(whole.track.laps).toHaveLength(3);
    // the first and last laps lie within 500 m of the ends: nothing of them is shown
    expect(seen.track.laps).toHaveLength(1);
    expect(seen.track.distanceMeters).toBeLessThan(whole.track.distanceMeters - 900);
    expect(sum(seen.track.km.map((split) => split.distanceMeters))).toBeCloseTo(seen.track.distanceMeters, 0);
    expect(zoneSeconds(seen.track.heartRateZones!)).toBeLessThan(zoneSeconds(whole.track.heartRateZones!) - 200);
    expect(seen.track.streams.pointCount).toBeLessThan(whole.track.streams.pointCount - 200);
    const shownLats = seen.track.streams.lat as number[];
    expect(Math.min(...shownLats)).toBeGreaterThan(46.1 + 450 / 111_195);
    await api.graphql('mutation { updateProfile(input: { hiddenEndsMeters: 0 }) { error { __typename } } }', {}, tokens.owner);
  });
});

describe('the account export', () => {
  it('carries the laps and thresholds beside the GPX, and the archive import reads them back', async () => {
    const fit = fitFile({
      points: ride(new Date(Date.UTC(2025, 2, 3, 6))).slice(0, 1800),
      sport: 'cycling',
      lapsAt: [600, 1200],
      thresholds: { maxHeartRate: 185, restingHeartRate: 48, functionalThresholdPower: 240 },
    });
    const original = await importFile(fit, 'export.fit');
    const dir = mkdtempSync(path.join(tmpdir(), 'milepost-laps-'));
    try {
      const media = createMediaStore(path.join(dir, 'media'));
      const zip = await accountExport(db.prisma, media, (await db.prisma.person.findUniqueOrThrow({ where: { usernameKey: 'wren' } })).id);
      const chunks: Buffer[] = [];
      for await (const chunk of zip!.outputStream) chunks.push(chunk as Buffer);
      writeFileSync(path.join(dir, 'export.zip'), Buffer.concat(chunks));
      const heir = await createPerson(db.prisma, { username: 'wren_again', units: 'kilometers' });
      await importArchive({ database: db, media, personId: heir.id, zipPath: path.join(dir, 'export.zip') });
      const restored = await db.prisma.entry.findFirstOrThrow({
        where: { authorId: heir.id, workout: { completedAt: new Date(original.track.startedAt) } },
        select: { id: true },
      });
      const token = await createToken(db.prisma, heir.id);
      const again = await read(String(restored.id), token);
      expect(again.track.laps).toHaveLength(3);
      expect(again.track.laps).toEqual(original.track.laps);
      expect(again.track.powerZones!.basis).toBe('DEVICE');
      expect(again.track.powerZones!.zones).toEqual(original.track.powerZones!.zones);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tracks stored before the analysis', () => {
  it('are analysed by the start-up pass over older records', async () => {
    const entry = await importFile(fitFile({ points: pointsAlong(400, { speed: 3 }) }), 'older.fit');
    await db.prisma.track.updateMany({ where: { entryId: entry.databaseId }, data: { analysis: null, recordsVersion: 1 } });
    expect((await read(entry.id, tokens.owner)).track.km).toEqual([]);
    expect(await backfillTrackRecords(db.prisma)).toBeGreaterThanOrEqual(1);
    expect((await read(entry.id, tokens.owner)).track.km).toHaveLength(2);
  });
});
