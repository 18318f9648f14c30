// Activity files: FIT through Garmin's SDK, TCX as Garmin Connect and Strava write it, GPX;
// gzipped or not; the format told by content; corrupt, truncated and hostile files refused on `file`.
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { activityTypeOf, detectFormat } from '../../src/domain/activity-file.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { parseFit } from '../../src/domain/fit.ts';
import { parseTcx } from '../../src/domain/tcx.ts';
import { decodePoints } from '../../src/domain/track-codec.ts';
import { readActivityFile } from '../../src/imports/activity-files.ts';
import { closeFitPool } from '../../src/imports/fit-pool.ts';
import { fitCutShort, fitFile, fitWithCompressedTimestamps, pointsAlong, tcxFile } from '../support/activity-files.ts';

afterAll(closeFitPool);

/** The message of the ValidationError on `file` that `run` throws. */
async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]!.path).toBe('file');
    return (error as ValidationError).issues[0]!.message;
  }
  throw new Error('expected a refusal');
}

const GPX = `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Lunch Ride</name><type>cycling</type><trkseg>
<trkpt lat="47.1" lon="8.5"><time>2025-06-01T12:00:00Z</time><extensions><power>180</power></extensions></trkpt>
<trkpt lat="47.11" lon="8.5"><time>2025-06-01T12:05:00Z</time></trkpt></trkseg></trk></gpx>`;

describe('the format, by content', () => {
  it('tells FIT, TCX and GPX apart whatever the name, and nothing else', () => {
    expect(detectFormat(fitFile({ points: pointsAlong(3) }))).toBe('fit');
    expect(detectFormat(Buffer.from(tcxFile({ points: pointsAlong(3), stravaPadding: true })))).toBe('tcx');
    expect(detectFormat(Buffer.from(`\uFEFF<?xml version="1.0"?>\n<!-- <gpx> in a comment --><gpx version="1.1"/>`))).toBe('gpx');
    expect(detectFormat(Buffer.from('<TrainingCenterDatabase/>', 'utf16le'))).toBe('tcx');
    expect(detectFormat(Buffer.from('<kml xmlns="http://www.opengis.net/kml/2.2"/>'))).toBeNull();
    expect(detectFormat(Buffer.from('{"type":"FeatureCollection"}'))).toBeNull();
  });

  it('maps sports of every source to activity types', () => {
    expect(activityTypeOf('indoorCycling', 'cycling')).toBe('spinning');
    expect(activityTypeOf('generic', 'running')).toBe('running');
    expect(activityTypeOf('trail', 'running')).toBe('running');
    expect(activityTypeOf('Biking')).toBe('cycling');
    expect(activityTypeOf('VirtualRide')).toBe('cycling');
    expect(activityTypeOf('NordicSki')).toBe('cc_skiing');
    expect(activityTypeOf('WeightTraining')).toBe('weights');
    expect(activityTypeOf('strengthTraining', 'training')).toBe('weights');
    expect(activityTypeOf('Other')).toBe('fitness');
    expect(activityTypeOf('standUpPaddleboarding')).toBe('fitness');
  });
});

describe('FIT', () => {
  it("reads a watch's run: sport, start, totals, and records with heart rate, cadence, power and elevation", () => {
    const points = pointsAlong(900);
    const activity = parseFit(fitFile({ points, calories: 612, sport: 'running', subSport: 'trail' }));
    expect(activity).toMatchObject({
      format: 'fit',
      activityType: 'running',
      startedAt: points[0]!.time,
      distanceMeters: points.at(-1)!.distance,
      durationSeconds: 899,
      calories: 612,
    });
    expect(activity.points).toHaveLength(900);
    const p = activity.points[10]!;
    expect(p.lat).toBeCloseTo(points[10]!.lat, 6);
    expect(p.lon).toBeCloseTo(points[10]!.lon, 6);
    expect(p).toMatchObject({ elevation: points[10]!.elevation, time: points[10]!.time, heartRate: 130, cadence: 80, power: 210 });
  });

  it('an indoor ride: totals without a track; a head unit without a session: totals from the records', () => {
    const indoor = parseFit(fitFile({ points: pointsAlong(120), sport: 'cycling', subSport: 'indoorCycling', indoor: true }));
    expect(indoor).toMatchObject({ activityType: 'spinning', distanceMeters: 357, durationSeconds: 119, points: [] });
    const bare = parseFit(fitFile({ points: pointsAlong(120), noSession: true }));
    expect(bare).toMatchObject({ distanceMeters: 357, durationSeconds: 119 });
    expect(bare.points).toHaveLength(120);
  });

  it('reads a clean file without a word of repair', () => {
    expect(parseFit(fitFile({ points: pointsAlong(50) })).repairs).toEqual([]);
  });

  it('salvages a file cut short by a dead battery: the records before the cut, totals from them, and says so', () => {
    const points = pointsAlong(3000);
    const whole = fitFile({ points, noSession: true });
    const cut = fitCutShort(points, Math.floor(whole.length * 0.6));
    const activity = parseFit(cut);
    expect(activity.points.length).toBeGreaterThan(1500);
    expect(activity.points.length).toBeLessThan(3000);
    const last = activity.points.at(-1)!;
    expect(last.time).toEqual(points[activity.points.length - 1]!.time);
    // no session: the distance and time are the last record's
    expect(activity.distanceMeters).toBe(points[activity.points.length - 1]!.distance);
    expect(activity.durationSeconds).toBe(activity.points.length - 1);
    expect(activity.repairs.join(' ')).toMatch(/cut short.*records were read/);
    expect(activity.repairs.join(' ')).toMatch(/no session/);
    // the same file with its header's size left as the device planned it
    const planned = Uint8Array.from(whole.subarray(0, 5000));
    expect(parseFit(planned).repairs.join(' ')).toMatch(/cut short \(5,000 of the [\d,]+ bytes it declares\)/);
  });

  it('salvages a file damaged midway, and one whose checksum does not match', () => {
    const points = pointsAlong(200);
    const good = fitFile({ points });
    const damaged = Uint8Array.from(good);
    // the header of the 100th record (its timestamp comes first), made to name a local message never defined
    const stamp = Buffer.alloc(4);
    stamp.writeUInt32LE(points[100]!.time.getTime() / 1000 - 631_065_600);
    const at = Buffer.from(good).indexOf(stamp) - 1;
    expect(at).toBeGreaterThan(100);
    damaged[at] = 0x0f;
    const salvaged = parseFit(damaged);
    expect(salvaged.points).toHaveLength(100);
    expect(salvaged.repairs[0]).toMatch(
      new RegExp(`damaged at byte ${at.toLocaleString('en-US')} of .*: the \\d+ records before it were read`),
    );
    const altered = Uint8Array.from(good);
    altered[400] = altered[400]! ^ 0xff;
    const read = parseFit(altered);
    expect(read.points).toHaveLength(200);
    expect(read.repairs[0]).toMatch(/checksum does not match/);
  });

  it('reads compressed timestamp headers (older ANT-FS watches), the time rolling over every 32 seconds', () => {
    const points = pointsAlong(100, { start: new Date('2011-03-05T08:00:13Z') }).map((p, i) => ({
      ...p,
      time: new Date(Date.parse('2011-03-05T08:00:13Z') + i * 7000),
    }));
    const activity = parseFit(fitWithCompressedTimestamps(points));
    expect(activity.points).toHaveLength(100);
    expect(activity.points.map((p) => p.time)).toEqual(points.map((p) => p.time));
    expect(activity.points[50]!.heartRate).toBe(points[50]!.heartRate);
    expect(activity.points[99]!.lat).toBeCloseTo(points[99]!.lat, 6);
    expect(activity.repairs).not.toContain(expect.stringMatching(/damaged|cut short|checksum/));
  });

  it('refuses a file with nothing to salvage, non-activity files and what is not FIT', async () => {
    const good = fitFile({ points: pointsAlong(200) });
    expect(await refusal(() => readActivityFile(good.subarray(0, 40)))).toMatch(/no usable data/);
    expect(await refusal(() => parseFit(fitFile({ points: pointsAlong(5), fileType: 'course' })))).toMatch(/course file, not an activity/);
    expect(await refusal(() => parseFit(Buffer.from('hello, not a fit file at all')))).toMatch(/not a FIT file/);
  });
});

describe('TCX', () => {
  it("reads Garmin Connect's export, Strava's leading spaces and all", async () => {
    const points = pointsAlong(60);
    const activity = await parseTcx(tcxFile({ points, calories: 55, notes: 'easy &amp; steady', stravaPadding: true, sport: 'Biking' }));
    expect(activity).toMatchObject({
      format: 'tcx',
      activityType: 'cycling',
      startedAt: points[0]!.time,
      distanceMeters: points.at(-1)!.distance,
      durationSeconds: 59,
      calories: 55,
      notes: 'easy & steady',
    });
    expect(activity.points).toHaveLength(60);
    expect(activity.points[5]).toMatchObject({ heartRate: 125, cadence: 85, power: 205, elevation: points[5]!.elevation });
  });

  it('refuses a DOCTYPE, deep nesting, a foreign root, no activity and bad numbers, naming the point', async () => {
    const tcx = tcxFile({ points: pointsAlong(3) });
    expect(
      await refusal(() => parseTcx(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>${tcx.slice(tcx.indexOf('<Train'))}`)),
    ).toMatch(/DOCTYPE/);
    expect(await refusal(() => parseTcx(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`))).toMatch(/root element is <a>|levels deep/);
    const deep = tcx.replace('<Activities>', `<Activities>${'<Extensions>'.repeat(40)}${'</Extensions>'.repeat(40)}`);
    expect(await refusal(() => parseTcx(deep))).toMatch(/more than 32 levels deep/);
    expect(
      await refusal(() =>
        parseTcx(
          '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities/></TrainingCenterDatabase>',
        ),
      ),
    ).toMatch(/no <Activity>/);
    expect(await refusal(() => parseTcx(tcx.replace('<LatitudeDegrees>47.3769<', '<LatitudeDegrees>north<')))).toMatch(
      /trackpoint 1 LatitudeDegrees "north" is not a number/,
    );
    expect(await refusal(() => parseTcx(tcx.slice(0, tcx.length / 2)))).toMatch(/not well-formed/);
  });
});

describe('readActivityFile', () => {
  it('reads gzipped files of every format, FIT on its worker thread; the hash is of the content', async () => {
    const fit = fitFile({ points: pointsAlong(300), calories: 100 });
    const plain = await readActivityFile(fit);
    const gzipped = await readActivityFile(gzipSync(fit));
    expect(gzipped.hash).toBe(plain.hash);
    // read and prepared for storing on the thread: the points come back packed, not as 300 objects
    expect(gzipped.activity.points).toEqual([]);
    const prepared = gzipped.activity.prepared!;
    expect(prepared.data.pointCount).toBe(300);
    expect(decodePoints(prepared.data.pointData)[3]!.power).toBe(203);
    const tcx = await readActivityFile(gzipSync(tcxFile({ points: pointsAlong(10) })));
    expect(tcx.activity.format).toBe('tcx');
    const gpx = await readActivityFile(Buffer.from(GPX));
    expect(gpx.activity).toMatchObject({
      format: 'gpx',
      activityType: 'cycling',
      name: 'Lunch Ride',
      startedAt: new Date('2025-06-01T12:00:00Z'),
    });
    expect(gpx.activity.points[0]!.power).toBe(180);
  });

  it('refuses a gzip bomb at the limit, corrupt gzip, unknown formats and files with nothing usable', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    expect(await refusal(() => readActivityFile(bomb))).toMatch(/uncompresses to more than 20971520 bytes/);
    const gz = gzipSync(fitFile({ points: pointsAlong(50) }));
    expect(await refusal(() => readActivityFile(gz.subarray(0, gz.length - 20)))).toMatch(/corrupt or truncated gzip/);
    expect(await refusal(() => readActivityFile(Buffer.from('PK\u0003\u0004 a zip')))).toMatch(/not a FIT, TCX or GPX/);
    expect(await refusal(() => readActivityFile(new Uint8Array(0)))).toMatch(/is empty/);
    expect(await refusal(() => readActivityFile(Buffer.from('<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"/>')))).toMatch(
      /no usable data/,
    );
    // a FIT refusal crosses back from the worker with its reason
    const fit = fitFile({ points: pointsAlong(50) });
    expect(await refusal(() => readActivityFile(fit.subarray(0, 60)))).toMatch(/no usable data|corrupt/);
  });
});
