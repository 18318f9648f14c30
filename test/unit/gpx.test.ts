// GPX parsing and writing, on files shaped like what devices and services export, and on hostile input.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { gpxChunks, parseGpx, parsePackedGpx, toGpx } from '../../src/domain/gpx.ts';
import { decodePolyline, encodePolyline, summarizeTrack, thin } from '../../src/domain/track.ts';
import {
  compressPoints,
  decodePoints,
  encodePoints,
  iteratePoints,
  PackedPointsWriter,
  packedCount,
  packPoints,
  pointsAt,
} from '../../src/domain/track-codec.ts';
import { prepareTrack } from '../../src/tracks/prepare.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/gpx/${name}`, import.meta.url));

/** The bytes in small pieces, as a request body arrives. */
async function* chunked(bytes: Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** The message both parsers refuse the document with (uploads are read by parsePackedGpx); a stream is read once. */
async function rejection(source: Parameters<typeof parseGpx>[0], maxBytes?: number): Promise<string> {
  const messages: string[] = [];
  for (const parse of typeof source === 'string' || source instanceof Uint8Array ? [parseGpx, parsePackedGpx] : [parseGpx]) {
    try {
      await parse(source, maxBytes);
      throw new Error('expected the document to be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const issue = (error as ValidationError).issues[0]!;
      expect(issue.path).toBe('gpx');
      messages.push(issue.message);
    }
  }
  expect(new Set(messages).size).toBe(1);
  return messages[0]!;
}

describe('parseGpx on real-world shapes', () => {
  it('reads a Garmin Connect export with heart rate and cadence', async () => {
    const gpx = await parseGpx(chunked(fixture('garmin-forerunner.gpx')));
    expect(gpx.name).toBe('Oakland Running');
    expect(gpx.points).toHaveLength(40);
    expect(gpx.points[0]).toEqual({
      lat: 37.8044,
      lon: -122.2592,
      elevation: 20,
      time: new Date('2024-05-12T07:30:00Z'),
      heartRate: 120,
      cadence: 84,
      segment: 0,
      power: null,
    });
  });

  it("reads Strava's <power> extension and writes it back out", async () => {
    const gpx = await parseGpx(
      '<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>' +
        '<trkpt lat="51.5" lon="-0.16"><time>2024-05-12T07:30:00Z</time><extensions><power>251</power></extensions></trkpt>' +
        '<trkpt lat="51.5001" lon="-0.16"><extensions><power/></extensions></trkpt>' +
        '</trkseg></trk></gpx>',
    );
    expect(gpx.points.map((p) => p.power)).toEqual([251, null]);
    const again = await parseGpx(toGpx({ name: null, points: gpx.points, waypoints: [] }));
    expect(again.points.map((p) => p.power)).toEqual([251, null]);
    expect(decodePoints(encodePoints(gpx.points)).map((p) => p.power)).toEqual([251, null]);
  });

  it('reads a Strava export', async () => {
    const gpx = await parseGpx(fixture('strava-export.gpx'));
    expect(gpx.name).toBe('Morning Run in Hyde Park');
    expect(gpx.points).toHaveLength(30);
    expect(gpx.points.every((p) => p.heartRate !== null && p.cadence === null)).toBe(true);
  });

  it('keeps segments apart: the gap between them is not distance', async () => {
    const gpx = await parseGpx(fixture('two-segments.gpx'));
    expect(gpx.points.map((p) => p.segment)).toEqual([...Array(10).fill(0), ...Array(10).fill(1)]);
    const joined = summarizeTrack(gpx.points.map((p) => ({ ...p, segment: 0 })));
    const apart = summarizeTrack(gpx.points);
    expect(joined.distanceMeters - apart.distanceMeters).toBeGreaterThan(1000);
  });

  it('reads GPX 1.0 without an XML declaration', async () => {
    const gpx = await parseGpx(fixture('gpx10-no-declaration.gpx'));
    expect(gpx).toMatchObject({ name: 'Tokyo walk' });
    expect(gpx.points).toHaveLength(12);
  });

  it('decodes ISO-8859-1, even with characters split across chunks', async () => {
    const gpx = await parseGpx(chunked(fixture('latin1.gpx'), 3));
    expect(gpx.name).toBe('Café du Lac à Annecy');
    expect(gpx.waypoints[0]!.name).toBe('Départ');
    expect(gpx.points).toHaveLength(8);
  });

  it('decodes a UTF-8 character split across chunks', async () => {
    const bytes = Buffer.from(
      '<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>Zürich – Üetliberg</name></metadata></gpx>',
    );
    expect((await parseGpx(chunked(bytes, 1))).name).toBe('Zürich – Üetliberg');
  });

  it('takes the points of a route when there is no track, and keeps waypoints', async () => {
    const gpx = await parseGpx(fixture('route-with-waypoints.gpx'));
    expect(gpx.name).toBe('Lake Merritt to the hills');
    expect(gpx.points.map((p) => p.elevation)).toEqual([12, 60, 150, 230]);
    expect(gpx.waypoints.map((w) => w.name)).toEqual(['Start', 'Summit']);
    expect(summarizeTrack(gpx.points).elevationGain).toBe(218);
  });

  it('keeps a route beside a track, and gives both back with the waypoints', async () => {
    const gpx = `<gpx xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="1"><name>Start</name></wpt>
      <trk><trkseg><trkpt lat="1" lon="1"/><trkpt lat="1.001" lon="1.001"/></trkseg></trk>
      <rte><rtept lat="2" lon="2"><ele>12</ele></rtept><rtept lat="2.001" lon="2.001"/></rte>
      <rte><rtept lat="3" lon="3"/></rte></gpx>`;
    const parsed = await parseGpx(gpx);
    expect(parsed.points.map((p) => p.lat)).toEqual([1, 1.001]);
    expect(parsed.routePoints.map((p) => [p.lat, p.segment])).toEqual([
      [2, 0],
      [2.001, 0],
      [3, 1],
    ]);
    const written = toGpx(parsed);
    expect(written.match(/<rte>/g)).toHaveLength(2);
    const again = await parseGpx(written);
    expect(again.routePoints.map((p) => [p.lat, p.elevation, p.segment])).toEqual([
      [2, 12, 0],
      [2.001, null, 0],
      [3, null, 1],
    ]);
    expect(again.points).toHaveLength(2);
    expect(again.waypoints.map((w) => w.name)).toEqual(['Start']);
  });

  it('reads an empty <ele/> or <ele></ele> (as OsmAnd writes) as no elevation', async () => {
    const parsed = await parseGpx(
      '<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="1"><ele/></trkpt><trkpt lat="1" lon="2"><ele></ele><time></time></trkpt><trkpt lat="1" lon="3"><ele> 5 </ele></trkpt></trkseg></trk></gpx>',
    );
    expect(parsed.points.map((p) => p.elevation)).toEqual([null, null, 5]);
  });

  it('drops times outside 1970..2199 (GPSBabel’s 1901-12-13 for “no time”), keeping the points, and says so', async () => {
    const gpx = await parseGpx(
      '<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>' +
        '<trkpt lat="1" lon="1"><time>1901-12-13T20:45:52Z</time></trkpt>' +
        '<trkpt lat="1" lon="2"><time>2024-05-12T07:30:00Z</time></trkpt>' +
        '<trkpt lat="1" lon="3"><time>2250-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>',
    );
    expect(gpx.points.map((p) => [p.lon, p.time])).toEqual([
      [1, null],
      [2, new Date('2024-05-12T07:30:00Z')],
      [3, null],
    ]);
    expect(gpx.repairs).toEqual(['2 times were outside 1970..2199 and dropped: those points are kept without a time']);
  });

  it('accepts an empty track', async () => {
    const gpx = await parseGpx(fixture('empty-track.gpx'));
    expect(gpx).toEqual({ name: 'Nothing recorded', points: [], routePoints: [], waypoints: [], repairs: [] });
  });
});

describe('parseGpx refuses', () => {
  it('an element with more attributes than any GPX has, as they are read (1.1 million held the loop 6 s)', async () => {
    const attributes = Array.from({ length: 200_000 }, (_, i) => `a${i}="1"`).join(' ');
    const gpx = `<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="2" ${attributes}/></trkseg></trk></gpx>`;
    expect(await rejection(gpx)).toMatch(/more than 64 attributes/);
  });

  it('more namespace declarations than any GPX makes, across elements', async () => {
    const element = (i: number) => `<extensions ${Array.from({ length: 50 }, (_, j) => `xmlns:n${i}x${j}="urn:x:${j}"`).join(' ')}/>`;
    const gpx = `<gpx xmlns="http://www.topografix.com/GPX/1/1">${Array.from({ length: 10 }, (_, i) => element(i)).join('')}</gpx>`;
    expect(await rejection(gpx)).toMatch(/declares more than 256 namespaces/);
  });

  it('a billion-laughs document, at its DOCTYPE', async () => {
    expect(await rejection(fixture('billion-laughs.gpx'))).toMatch(/DOCTYPE/);
  });

  it('an external entity, at its DOCTYPE, reading nothing', async () => {
    expect(await rejection(fixture('external-entity.gpx'))).toMatch(/DOCTYPE/);
  });

  it('malformed XML', async () => {
    expect(await rejection(fixture('malformed.gpx'))).toMatch(/not well-formed/);
  });

  it('a root that is not <gpx>', async () => {
    expect(await rejection(fixture('kml-not-gpx.kml'))).toMatch(/root element is <kml>/);
  });

  it('a document over the size limit, before reading all of it', async () => {
    let read = 0;
    async function* endless() {
      for (;;) {
        read += 1024;
        yield new Uint8Array(1024).fill(0x20);
      }
    }
    expect(await rejection(endless(), 10_000)).toMatch(/larger than 10000 bytes/);
    expect(read).toBeLessThan(20_000);
  });

  it.each([
    [
      '<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="91" lon="0"/></trkseg></trk></gpx>',
      /trkpt 1 lat 91 is outside/,
    ],
    ['<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lon="0"/></trkseg></trk></gpx>', /needs lat and lon/],
    [
      '<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="2"><ele>high</ele></trkpt></trkseg></trk></gpx>',
      /ele "high" is not a number/,
    ],
    [
      '<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="2"><time>yesterday</time></trkpt></trkseg></trk></gpx>',
      /time "yesterday"/,
    ],
    ['', /is empty/],
    ['<?xml version="1.0" encoding="Shift_JIS"?><gpx/>', /encoding "shift_jis" is not supported/],
  ])('%s', async (doc, message) => {
    expect(await rejection(Buffer.from(doc))).toMatch(message);
  });

  it('bytes that are not UTF-8', async () => {
    expect(await rejection(Buffer.from([0x3c, 0x67, 0x70, 0x78, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x67, 0x70, 0x78, 0x3e]))).toMatch(
      /not valid utf-8/,
    );
  });
});

describe('writing GPX 1.1', () => {
  it('round-trips points, segments, extensions and waypoints', async () => {
    const original = await parseGpx(fixture('garmin-forerunner.gpx'));
    const again = await parseGpx(toGpx({ ...original, waypoints: [{ lat: 1, lon: 2, elevation: 3, time: null, name: 'A & B <x>' }] }));
    expect(again.points).toEqual(original.points);
    expect(again.name).toBe('Oakland Running');
    expect(again.waypoints).toEqual([{ lat: 1, lon: 2, elevation: 3, time: null, name: 'A & B <x>' }]);
    const twoSegments = await parseGpx(fixture('two-segments.gpx'));
    expect((await parseGpx(toGpx(twoSegments))).points).toEqual(twoSegments.points);
  });

  it('streams a long track in chunks', () => {
    const points = Array.from({ length: 20_000 }, (_, i) => ({
      lat: i / 1e5,
      lon: 0,
      elevation: null,
      time: null,
      heartRate: null,
      cadence: null,
      segment: 0,
    }));
    const chunks = [...gpxChunks({ name: null, points, waypoints: [] })];
    expect(chunks.length).toBeGreaterThan(5);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(70 * 1024);
  });
});

describe('encoded polylines', () => {
  it("match Google's documented example", () => {
    const points = [
      { lat: 38.5, lon: -120.2 },
      { lat: 40.7, lon: -120.95 },
      { lat: 43.252, lon: -126.453 },
    ];
    expect(encodePolyline(points)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')).toEqual(points);
  });

  it('thin long tracks, keeping both ends', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => i);
    const kept = thin(many, 500);
    expect(kept).toHaveLength(500);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(10_000);
  });
});

describe('packed track points', () => {
  it('keep every field of every point', async () => {
    const gpx = await parseGpx(fixture('garmin-forerunner.gpx'));
    const twoSegments = await parseGpx(fixture('two-segments.gpx'));
    for (const points of [gpx.points, twoSegments.points, (await parseGpx(fixture('route-with-waypoints.gpx'))).points]) {
      expect(decodePoints(encodePoints(points))).toEqual(points);
    }
    expect(decodePoints(encodePoints(gpx.points), 3)).toEqual(gpx.points.slice(0, 3));
    expect(decodePoints(null)).toEqual([]);
  });

  it('are the same whether a document is parsed into points or packed as it is read (uploads)', async () => {
    for (const name of ['garmin-forerunner.gpx', 'two-segments.gpx', 'route-with-waypoints.gpx']) {
      const parsed = await parseGpx(fixture(name));
      const packed = await parsePackedGpx(chunked(fixture(name), 64));
      const { pointData, ...rest } = packed;
      const { points, ...same } = parsed;
      expect(rest).toEqual(same);
      expect(compressPoints(pointData)).toEqual(encodePoints(points));
      expect([...iteratePoints(pointData)]).toEqual(decodePoints(pointData));
      expect(packedCount(pointData)).toBe(points.length);
      // what is stored of it: the same summary, outline, records, points and waypoints
      const { data: fromPacked, ...packedRest } = prepareTrack(packed);
      const { data: fromParsed, ...parsedRest } = prepareTrack(parsed);
      expect({ ...fromPacked, updatedAt: null }).toEqual({ ...fromParsed, updatedAt: null });
      expect(packedRest).toEqual(parsedRest);
    }
    // a route alone stands for the track either way
    const routeOnly = '<gpx xmlns="http://www.topografix.com/GPX/1/1"><rte><rtept lat="1" lon="2"/><rtept lat="1.5" lon="2"/></rte></gpx>';
    const packed = await parsePackedGpx(routeOnly);
    expect(decodePoints(packed.pointData)).toEqual((await parseGpx(routeOnly)).points);
    expect(packed.routePoints).toEqual([]);
  });

  it('grow as points arrive, and read back one at a time or at chosen indexes', () => {
    const points = Array.from({ length: 5_000 }, (_, i) => ({
      lat: 47 + i / 1e5,
      lon: 8 - i / 1e5,
      elevation: i % 3 === 0 ? null : 400 + (i % 50),
      time: i % 7 === 0 ? null : new Date(Date.UTC(2026, 0, 1) + i * 1000),
      heartRate: i % 2 ? 120 + (i % 40) : null,
      cadence: null,
      segment: Math.floor(i / 2_000),
      power: i % 5 ? null : 200,
    }));
    const writer = new PackedPointsWriter();
    for (const p of points) writer.push(p);
    const bytes = writer.finish();
    expect(bytes.byteLength).toBe(5 + 5_000 * 36);
    expect(packPoints(points)).toEqual(bytes);
    expect(compressPoints(bytes)).toEqual(encodePoints(points));
    expect(decodePoints(bytes)).toEqual(points);
    expect([...iteratePoints(bytes)]).toEqual(points);
    expect(pointsAt(bytes, [0, 1_999, 4_999])).toEqual([points[0], points[1_999], points[4_999]]);
    expect(compressPoints(new PackedPointsWriter().finish())).toEqual(encodePoints([]));
  });

  it('are stored compressed, and read back the same by every reader', () => {
    // a watch's recording: a point a second, coordinates to seven decimals, elevation, heart rate
    const points = Array.from({ length: 20_000 }, (_, i) => ({
      lat: Math.round((47.37 + Math.sin(i / 900) / 100 + (i % 13) / 1e6) * 1e7) / 1e7,
      lon: Math.round((8.54 + Math.cos(i / 900) / 100 - (i % 7) / 1e6) * 1e7) / 1e7,
      elevation: 400 + Math.round(Math.sin(i / 300) * 3000) / 100,
      time: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      heartRate: 120 + (i % 45),
      cadence: i % 11 ? 84 : null,
      segment: i < 10_000 ? 0 : 1,
      power: null,
    }));
    const stored = encodePoints(points);
    // 36 bytes a point as written, far less stored: a track's write and read carry this
    expect(stored.byteLength).toBeLessThan((5 + points.length * 36) / 3);
    expect(decodePoints(stored)).toEqual(points);
    expect(decodePoints(stored, 2)).toEqual(points.slice(0, 2));
    expect([...iteratePoints(stored)]).toEqual(points);
    expect(pointsAt(stored, [0, 12_345, 19_999])).toEqual([points[0], points[12_345], points[19_999]]);
    expect(packedCount(stored)).toBe(20_000);
    expect(decodePoints(encodePoints([]))).toEqual([]);
  });

  it('refuse a damaged compressed value instead of reading past it', () => {
    const stored = encodePoints([{ lat: 1, lon: 2, elevation: null, time: null, heartRate: null, cadence: null, segment: 0 }]);
    // a count larger than what is there, and a stream that is not deflate
    const overstated = stored.slice();
    new DataView(overstated.buffer).setUint32(1, 1_000_000, true);
    expect(() => decodePoints(overstated)).toThrow(/does not hold its count/);
    const garbled = stored.slice();
    garbled.fill(0xff, 5);
    expect(() => decodePoints(garbled)).toThrow(/cannot be read/);
  });

  /** The point of the older formats' tests. */
  const older = {
    lat: 47.37,
    lon: 8.54,
    elevation: 408,
    time: new Date(Date.UTC(2024, 4, 12)),
    heartRate: 140,
    cadence: null,
    segment: 0,
    power: null,
  };

  it('still read tracks stored uncompressed (format version 2)', () => {
    const writer = new PackedPointsWriter();
    const point = { ...older, power: 230 };
    writer.push(point);
    const version2 = writer.finish();
    expect(version2[0]).toBe(2);
    expect(decodePoints(version2)).toEqual([point]);
    expect(packedCount(version2)).toBe(1);
  });

  it('still read tracks stored before power was kept (format version 1)', () => {
    // version 1: lat, lon, elevation, time, heart rate, cadence, segment; 34 bytes a point
    const bytes = new Uint8Array(5 + 34);
    const view = new DataView(bytes.buffer);
    view.setUint8(0, 1);
    view.setUint32(1, 1, true);
    view.setFloat64(5, 47.37, true);
    view.setFloat64(13, 8.54, true);
    view.setFloat32(21, 408, true);
    view.setFloat64(25, Date.UTC(2024, 4, 12), true);
    view.setUint16(33, 140, true);
    view.setUint16(35, 0xffff, true);
    view.setUint16(37, 0, true);
    expect(decodePoints(bytes)).toEqual([older]);
  });
});
