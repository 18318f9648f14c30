// Distances, bounding boxes, units and track summaries: the arithmetic nearby search and workouts rely on.
import { describe, expect, it } from 'vitest';
import { ACTIVITY_TYPES, activityTypeName, displayActivityType } from '../../src/domain/activity.ts';
import { boundingBox, distanceMiles } from '../../src/domain/geo.ts';
import { summarizeTrack } from '../../src/domain/track.ts';
import { defaultDistanceUnits, fromMeters, toMeters, unitsForLanguage } from '../../src/domain/units.ts';

const sf = { lat: 37.7749, lon: -122.4194 };
const oakland = { lat: 37.8044, lon: -122.2712 };

describe('distanceMiles', () => {
  it('measures San Francisco to Oakland as about 8.4 miles', () => {
    expect(distanceMiles(sf, oakland)).toBeCloseTo(8.39, 1);
  });

  it('measures London to New York as about 3,460 miles', () => {
    expect(distanceMiles({ lat: 51.5074, lon: -0.1278 }, { lat: 40.7128, lon: -74.006 })).toBeCloseTo(3461, -1);
  });
});

describe('boundingBox', () => {
  const inside = (box: ReturnType<typeof boundingBox>, p: { lat: number; lon: number }) =>
    p.lat >= box.minLat && p.lat <= box.maxLat && box.lonRanges.some(([w, e]) => p.lon >= w && p.lon <= e);

  it('contains every point of the circle', () => {
    const box = boundingBox(sf, 50);
    for (let bearing = 0; bearing < 360; bearing += 5) {
      const rad = (bearing * Math.PI) / 180;
      // walk outwards until just past 50 miles
      for (let step = 0.001; ; step += 0.001) {
        const p = { lat: sf.lat + step * Math.cos(rad), lon: sf.lon + step * Math.sin(rad) };
        if (distanceMiles(sf, p) > 49.9) {
          expect(inside(box, p)).toBe(true);
          break;
        }
      }
    }
  });

  it('splits at the antimeridian', () => {
    const box = boundingBox({ lat: 0, lon: 179.9 }, 50);
    expect(box.lonRanges).toHaveLength(2);
    expect(inside(box, { lat: 0, lon: -179.9 })).toBe(true);
  });

  it('covers every longitude near a pole', () => {
    expect(boundingBox({ lat: 89.9, lon: 10 }, 50).lonRanges).toEqual([[-180, 180]]);
  });
});

describe('units', () => {
  it('convert through meters', () => {
    expect(toMeters(1, 'miles')).toBeCloseTo(1609.344, 6);
    expect(fromMeters(toMeters(3.1, 'miles'), 'kilometers')).toBeCloseTo(4.989, 3);
    expect(fromMeters(100, 'yards')).toBeCloseTo(109.361, 3);
  });

  it("default from the person's preference, and swims in pool units", () => {
    expect(defaultDistanceUnits('miles', 'running')).toBe('miles');
    expect(defaultDistanceUnits('kilometers', 'cycling')).toBe('kilometers');
    expect(defaultDistanceUnits('miles', 'swimming')).toBe('yards');
    expect(defaultDistanceUnits('kilometers', 'swimming')).toBe('meters');
    expect(defaultDistanceUnits('miles', 'rowing')).toBe('meters');
    expect(defaultDistanceUnits('miles', 'cc_skiing')).toBe('miles');
    expect(defaultDistanceUnits('kilometers', 'hiking')).toBe('kilometers');
  });
});

describe('the units a new account reads in', () => {
  it('are miles where the browser’s first language names a mile region, kilometres anywhere else', () => {
    expect(unitsForLanguage('en-US,en;q=0.9')).toBe('miles');
    expect(unitsForLanguage('es-us')).toBe('miles');
    expect(unitsForLanguage('en-LR')).toBe('miles');
    expect(unitsForLanguage('en-GB,en;q=0.8')).toBe('kilometers');
    expect(unitsForLanguage('de-DE,de;q=0.9,en-US;q=0.5')).toBe('kilometers');
    expect(unitsForLanguage('zh-Hant-TW')).toBe('kilometers');
    expect(unitsForLanguage('en')).toBe('kilometers');
    expect(unitsForLanguage('')).toBe('kilometers');
    expect(unitsForLanguage(null)).toBe('kilometers');
    expect(unitsForLanguage(`${'x'.repeat(5000)}-US`)).toBe('kilometers');
  });
});

describe('activity types', () => {
  it('read in any case, with spaces or underscores, and answer in the display form', () => {
    for (const sent of ['cc_skiing', 'Cc Skiing', 'CC SKIING', ' cc  skiing ', 'Cc_Skiing'])
      expect(activityTypeName(sent)).toBe('CC_SKIING');
    expect(activityTypeName('running')).toBe('RUNNING');
    for (const bad of ['', 'cc-skiing', '_running', 'run1', 'cc skiing_']) expect(activityTypeName(bad)).toBeNull();
    expect(displayActivityType('CC_SKIING')).toBe('Cc Skiing');
    expect(displayActivityType('cross_training')).toBe('Cross Training');
    expect(displayActivityType('running')).toBe('Running');
    // every type round-trips: display form → GraphQL name → stored value
    for (const type of ACTIVITY_TYPES) expect(activityTypeName(displayActivityType(type))!.toLowerCase()).toBe(type);
    expect(ACTIVITY_TYPES.map(displayActivityType)).toEqual([
      'Running',
      'Cycling',
      'Swimming',
      'Walking',
      'Fitness',
      'Cc Skiing',
      'Commute',
      'Core Fitness',
      'Crossfit',
      'Cross Training',
      'Elliptical',
      'Hiking',
      'Inline Skating',
      'Rock Climbing',
      'Rowing',
      'Spinning',
      'Weights',
      'Yoga',
    ]);
  });
});

describe('summarizeTrack', () => {
  it('sums the legs and finds the bounds and times', () => {
    const t0 = new Date('2024-01-01T00:00:00Z');
    const summary = summarizeTrack([
      { ...sf, elevation: 10, time: t0 },
      { ...oakland, elevation: 20, time: new Date(t0.getTime() + 3_600_000) },
    ]);
    expect(summary.pointCount).toBe(2);
    expect(summary.distanceMeters).toBeCloseTo(toMeters(distanceMiles(sf, oakland), 'miles'), 3);
    expect(summary).toMatchObject({ minLat: sf.lat, maxLat: oakland.lat, minLon: sf.lon, maxLon: oakland.lon, startedAt: t0 });
  });

  it('has no bounds without points', () => {
    expect(summarizeTrack([])).toMatchObject({ pointCount: 0, distanceMeters: 0, minLat: null, startedAt: null });
  });
});
