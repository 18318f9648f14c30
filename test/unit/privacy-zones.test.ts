// Privacy zones (src/domain/privacy-zones.ts): which points of a track anyone but its owner receives.
import { describe, expect, it } from 'vitest';
import { distanceMiles } from '../../src/domain/geo.ts';
import {
  cutCircle,
  hiddenParts,
  hidesPlace,
  insideZone,
  NO_PRIVACY,
  randomShift,
  trackEnds,
  visiblePoints,
} from '../../src/domain/privacy-zones.ts';

const STEP = 10 / 111_195; // 10 m of latitude
/** 101 points 10 m apart going north (1 km), one segment. */
const line = Array.from({ length: 101 }, (_, i) => ({ lat: 40 + i * STEP, lon: -74, segment: 0, n: i }));

describe('visiblePoints', () => {
  it('hides nothing without settings', () => {
    expect(visiblePoints(line, NO_PRIVACY)).toEqual(line);
  });

  it('hides the first and last stretch, measured along the track', () => {
    const shown = visiblePoints(line, { endsMeters: 100, zones: [] });
    // points 0-10 are within 100 m of the start (10 within a rounding hair), 90-100 of the finish
    expect(shown[0]!.n).toBeGreaterThanOrEqual(10);
    expect(shown[0]!.n).toBeLessThanOrEqual(11);
    expect(shown.at(-1)!.n).toBeLessThanOrEqual(90);
    expect(shown.at(-1)!.n).toBeGreaterThanOrEqual(89);
  });

  it('hides a whole short track when its ends overlap', () => {
    expect(visiblePoints(line.slice(0, 10), { endsMeters: 100, zones: [] })).toEqual([]);
  });

  it('hides the points inside a zone, and starts a new segment after the gap', () => {
    const zone = { lat: line[50]!.lat, lon: -74, radiusMeters: 25 };
    const shown = visiblePoints(line, { endsMeters: 0, zones: [zone] });
    expect(shown.map((p) => p.n)).not.toContain(50);
    expect(shown.filter((p) => insideZone(p, [zone]))).toEqual([]);
    expect(new Set(shown.map((p) => p.segment))).toEqual(new Set([0, 1]));
    expect(shown.find((p) => p.n > 50)!.segment).toBe(1);
  });

  it('measures a zone’s radius in meters on the ground', () => {
    const zone = { lat: line[0]!.lat, lon: -74, radiusMeters: 15 };
    expect(insideZone(line[1]!, [zone])).toBe(true);
    expect(insideZone(line[2]!, [zone])).toBe(false);
  });
});

describe('hiddenParts', () => {
  it('tells the owner how much is hidden and which zones the track crosses', () => {
    const zones = [
      { lat: line[50]!.lat, lon: -74, radiusMeters: 25 },
      { lat: 10, lon: 10, radiusMeters: 100 },
    ];
    const parts = hiddenParts(line, { endsMeters: 100, zones });
    expect(parts.endsMeters).toBe(100);
    expect(parts.zonesCrossed).toBe(1);
    expect(parts.hiddenPoints).toBe(101 - visiblePoints(line, { endsMeters: 100, zones }).length);
  });
});

describe('the circle a zone cuts', () => {
  const meters = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => distanceMiles(a, b) * 1609.344;
  const home = { lat: 52.52, lon: 13.405 };

  it('is shifted 20-50% of the radius off the centre, in a random direction', () => {
    const shifts = Array.from({ length: 200 }, () => randomShift(100, Math.random));
    for (const shift of shifts) {
      const distance = Math.hypot(shift.shiftNorthMeters, shift.shiftEastMeters);
      expect(distance).toBeGreaterThanOrEqual(20);
      expect(distance).toBeLessThanOrEqual(50);
    }
    expect(shifts.some((s) => s.shiftNorthMeters > 0) && shifts.some((s) => s.shiftNorthMeters < 0)).toBe(true);
    expect(shifts.some((s) => s.shiftEastMeters > 0) && shifts.some((s) => s.shiftEastMeters < 0)).toBe(true);
  });

  it('is not centred on the home, yet covers the whole radius around it in every direction', () => {
    const zone = { ...home, radiusMeters: 100, ...randomShift(100, () => 0.3) };
    const cut = cutCircle(zone);
    expect(meters(cut, home)).toBeGreaterThan(20);
    for (let bearing = 0; bearing < 360; bearing += 15) {
      const rad = (bearing * Math.PI) / 180;
      const edge = {
        lat: home.lat + (100 * Math.cos(rad)) / 111_195,
        lon: home.lon + (100 * Math.sin(rad)) / (111_195 * Math.cos((home.lat * Math.PI) / 180)),
      };
      expect(insideZone(edge, [cut])).toBe(true);
    }
  });
});

describe('hidesPlace: waypoints and positions', () => {
  const start = line[0]!;
  const finish = line.at(-1)!;
  it('hides a place inside a zone, or within the hidden stretch of the start or finish', () => {
    const settings = { endsMeters: 100, zones: [{ lat: line[50]!.lat, lon: -74, radiusMeters: 25 }] };
    const ends = trackEnds(line);
    expect(ends).toEqual([start, finish]);
    expect(hidesPlace(line[50]!, settings, ends)).toBe(true);
    expect(hidesPlace(start, settings, ends)).toBe(true);
    expect(hidesPlace({ lat: start.lat, lon: -74.0005 }, settings, ends)).toBe(true); // 42 m west of the start
    expect(hidesPlace(finish, settings, ends)).toBe(true);
    expect(hidesPlace(line[25]!, settings, ends)).toBe(false);
    expect(hidesPlace(start, NO_PRIVACY, ends)).toBe(false);
  });
});
