// A track is stored with at most MAX_STORED_POINTS points, so that whatever was accepted is served
// cheaply: a 900,000-record FIT once imported, and then every download of it ran out of memory.
import { describe, expect, it } from 'vitest';
import { type GpxPoint, summarizeTrack } from '../../src/domain/track.ts';
import { decodePoints, packPoints } from '../../src/domain/track-codec.ts';
import { MAX_STORED_POINTS, prepareTrack } from '../../src/tracks/prepare.ts';

const line = (count: number): GpxPoint[] =>
  Array.from({ length: count }, (_, i) => ({
    lat: 51.5 + i * 1e-6,
    // a zigzag: thinned, its length would be shorter
    lon: -0.1 + (i % 2) * 1e-5,
    elevation: 10,
    time: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    heartRate: null,
    cadence: null,
    segment: 0,
    power: null,
  }));

describe('the points stored of a track', () => {
  it('are all of them up to the bound', () => {
    const prepared = prepareTrack({ name: null, pointData: packPoints(line(1_000)), routePoints: [], waypoints: [], repairs: [] });
    expect(decodePoints(prepared.data.pointData)).toHaveLength(1_000);
    expect(prepared.data.pointCount).toBe(1_000);
    expect(prepared.data.repairs).toBeNull();
  });

  it('past it, thinned evenly to the bound, first and last kept; the totals are the whole file’s, and it says so', () => {
    const count = MAX_STORED_POINTS + 50_001;
    const points = line(count);
    for (const gpx of [
      { name: null, pointData: packPoints(points), routePoints: [], waypoints: [], repairs: [] },
      { name: null, points, routePoints: [], waypoints: [], repairs: [] },
    ]) {
      const prepared = prepareTrack(gpx);
      const stored = decodePoints(prepared.data.pointData);
      expect(stored).toHaveLength(MAX_STORED_POINTS);
      expect(prepared.data.pointCount).toBe(MAX_STORED_POINTS);
      expect(stored[0]!.time).toEqual(points[0]!.time);
      expect(stored.at(-1)!.time).toEqual(points.at(-1)!.time);
      // started and ended as the file did; its distance is the whole file's
      expect(prepared.data.endedAt).toEqual(points.at(-1)!.time);
      expect(prepared.data.distanceMeters).toBeCloseTo(summarizeTrack(points).distanceMeters, 3);
      expect(prepared.data.repairs).toBe(`${count} points thinned evenly to ${MAX_STORED_POINTS} for storing`);
    }
  });
});
