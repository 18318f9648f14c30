// Laps, splits, zones and best power of a track (src/domain/analysis.ts, zones.ts), on hand-made
// tracks whose figures are known: splits add up to the whole, zones to the moving time, a lap's
// figures are the device's or its points', and unsound laps or thresholds are left out and said.
import { describe, expect, it } from 'vitest';
import { analyzeTrack, type RecordedLap, soundLaps, soundThresholds } from '../../src/domain/analysis.ts';
import type { GpxPoint } from '../../src/domain/track.ts';
import { heartRateZones, powerZones, thresholdsFor } from '../../src/domain/zones.ts';

const METERS_PER_DEGREE = 111_194.93; // along a meridian, on the sphere geo.ts uses
const START = Date.parse('2026-06-01T07:00:00Z');

/** A run north from (0, 0), a point a second at `speed` m/s, with the readings given per second. */
function run(
  seconds: number,
  options: { speed?: (s: number) => number; heartRate?: (s: number) => number | null; power?: (s: number) => number | null } = {},
): GpxPoint[] {
  const speed = options.speed ?? (() => 4);
  let meters = 0;
  return Array.from({ length: seconds + 1 }, (_, s) => {
    if (s > 0) meters += speed(s);
    return {
      lat: meters / METERS_PER_DEGREE,
      lon: 0,
      elevation: 100 + meters / 100,
      time: new Date(START + s * 1000),
      heartRate: options.heartRate ? options.heartRate(s) : 150,
      cadence: 85,
      power: options.power ? options.power(s) : null,
      segment: 0,
    };
  });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('splits', () => {
  it('cut a run every kilometre and every mile, the last one partial, adding up to the whole', () => {
    // 2,600 m at 4 m/s: 650 s
    const analysis = analyzeTrack(run(650), null);
    const km = analysis.splits.kilometers;
    expect(km.map((split) => split.distanceMeters)).toEqual([1000, 1000, expect.closeTo(600, 0)]);
    expect(km[0]!.elapsedSeconds).toBeCloseTo(250, 0);
    expect(sum(km.map((split) => split.elapsedSeconds))).toBeCloseTo(650, 0);
    expect(sum(km.map((split) => split.distanceMeters))).toBeCloseTo(2600, -1);
    // climbing 1 m every 100 m
    expect(km[0]!.elevationChange).toBeCloseTo(10, 0);
    expect(km[0]!.averageHeartRate).toBe(150);
    const miles = analysis.splits.miles;
    expect(miles).toHaveLength(2);
    expect(miles[0]!.distanceMeters).toBeCloseTo(1609.3, 0);
    expect(sum(miles.map((split) => split.elapsedSeconds))).toBeCloseTo(650, 0);
  });

  it('count a standstill in the elapsed time, not the moving time', () => {
    // a minute standing at 500 m
    const analysis = analyzeTrack(run(310, { speed: (s) => (s > 125 && s <= 185 ? 0 : 4) }), null);
    const first = analysis.splits.kilometers[0]!;
    expect(first.elapsedSeconds).toBeCloseTo(310, 0);
    expect(first.movingSeconds).toBeCloseTo(250, 0);
    expect(analysis.movingSeconds).toBeCloseTo(250, 0);
  });

  it('stop at 2,000 a unit on an absurd track, the last holding the rest', () => {
    // 3,000 km in 10 km leaps, ten seconds apart: bad GPS, or a hostile file
    const analysis = analyzeTrack(run(300, { speed: () => 10_000 }), null);
    const km = analysis.splits.kilometers;
    expect(km).toHaveLength(2000);
    expect(km.at(-1)!.distanceMeters).toBeCloseTo(3_000_000 - 1999 * 1000, -1);
    expect(sum(km.map((split) => split.distanceMeters))).toBeCloseTo(3_000_000, -1);
    expect(sum(km.map((split) => split.elapsedSeconds))).toBeCloseTo(300, 0);
  });
});

describe('zones', () => {
  // 100 s at each of 120, 140, 160, 180 beats, then 50 s without a reading
  const analysis = analyzeTrack(run(450, { heartRate: (s) => (s > 400 ? null : 120 + 20 * Math.floor((s - 1) / 100)) }), null);

  it('add up, with the seconds without a reading, to the moving time', () => {
    const times = heartRateZones(analysis, { maxHeartRate: 200, restingHeartRate: null, thresholdPower: null }, 'ATHLETE')!;
    expect(sum(times.zones.map((zone) => zone.seconds)) + times.withoutReadingSeconds).toBeCloseTo(analysis.movingSeconds, 0);
    // the second after the last reading is still credited to it
    expect(times.withoutReadingSeconds).toBeCloseTo(49, 0);
    // of the maximum: zones start at 120, 140, 160, 180
    expect(times.zones.map((zone) => [zone.minimum, zone.maximum])).toEqual([
      [0, 120],
      [120, 140],
      [140, 160],
      [160, 180],
      [180, null],
    ]);
    expect(times.zones.map((zone) => Math.round(zone.seconds))).toEqual([0, 100, 100, 100, 101]);
  });

  it('are of the heart-rate reserve when a resting rate is known, and the athlete’s thresholds win over the device’s', () => {
    const { thresholds, basis } = thresholdsFor(
      { maxHeartRate: 190, restingHeartRate: 50, thresholdPower: null },
      { maxHeartRate: 200, restingHeartRate: 60, thresholdPower: 250 },
    );
    expect(thresholds).toEqual({ maxHeartRate: 190, restingHeartRate: 50, thresholdPower: 250 });
    expect(basis).toMatchObject({ maxHeartRate: 'ATHLETE', thresholdPower: 'DEVICE' });
    const times = heartRateZones(analysis, thresholds, basis.maxHeartRate)!;
    // 50 + 0.6 × 140 = 134, 148, 162, 176
    expect(times.zones.map((zone) => zone.minimum)).toEqual([0, 134, 148, 162, 176]);
  });

  it('of power are Coggan’s seven, and none without a threshold or a reading', () => {
    const ride = analyzeTrack(run(1300, { speed: () => 9, power: (s) => (s <= 600 ? 150 : 260) }), null);
    const times = powerZones(ride, { maxHeartRate: null, restingHeartRate: null, thresholdPower: 250 }, 'ATHLETE')!;
    expect(times.zones).toHaveLength(7);
    expect(times.zones[1]).toMatchObject({ minimum: 140, maximum: 190 });
    expect(Math.round(times.zones[1]!.seconds)).toBe(600);
    expect(Math.round(times.zones[3]!.seconds)).toBe(700);
    expect(powerZones(ride, { maxHeartRate: null, restingHeartRate: null, thresholdPower: null }, 'ATHLETE')).toBeNull();
    expect(powerZones(analysis, { maxHeartRate: null, restingHeartRate: null, thresholdPower: 250 }, 'ATHLETE')).toBeNull();
  });
});

describe('best power', () => {
  it('is the best average over 1, 5 and 20 minutes, nothing credited across a pause', () => {
    // 10 min at 200 W, a 5-minute stop, 25 min at 300 W with a 400 W minute in it
    const points = run(2100, { speed: () => 9, power: (s) => (s <= 600 ? 200 : s >= 1000 && s < 1060 ? 400 : 300) });
    const paused = [...points.slice(0, 601), ...points.slice(601).map((p) => ({ ...p, time: new Date(p.time!.getTime() + 300_000) }))];
    const efforts = analyzeTrack(paused, null).powerEfforts;
    // each where it began, on the clock (the stop included): the 400 W minute at 1,299 s, the riding resumed at 901 s
    expect(efforts).toEqual([
      { seconds: 60, watts: 400, startOffsetMs: 1_299_000 },
      { seconds: 300, watts: 320, startOffsetMs: 1_059_000 },
      { seconds: 1200, watts: 305, startOffsetMs: 901_000 },
    ]);
  });
});

describe('laps', () => {
  const lap = (fromSecond: number, toSecond: number, device: Partial<RecordedLap> = {}): RecordedLap => ({
    startMs: START + fromSecond * 1000,
    endMs: START + toSecond * 1000,
    elapsedSeconds: null,
    movingSeconds: null,
    distanceMeters: null,
    averageHeartRate: null,
    maxHeartRate: null,
    averageCadence: null,
    averagePower: null,
    maxPower: null,
    elevationGain: null,
    ...device,
  });

  it('keep the device’s figures, and fill what it left out from their points', () => {
    const points = run(600, { heartRate: (s) => (s <= 300 ? 140 : 170) });
    const analysis = analyzeTrack(points, {
      laps: [lap(0, 300, { distanceMeters: 1210, averageHeartRate: 141 }), lap(300, 600)],
      thresholds: null,
      notes: [],
    });
    expect(analysis.laps).toHaveLength(2);
    expect(analysis.laps[0]).toMatchObject({ distanceMeters: 1210, averageHeartRate: 141, elapsedSeconds: 300 });
    expect(analysis.laps[1]).toMatchObject({ startOffsetSeconds: 300, distanceMeters: 1200, averageHeartRate: 170, maxHeartRate: 170 });
    // anyone shown only part of the track gets laps of the points shown
    const shown = analyzeTrack(
      points.slice(0, 301),
      { laps: [lap(0, 300, { distanceMeters: 1210 }), lap(300, 600)], thresholds: null, notes: [] },
      { trustDevice: false },
    );
    expect(shown.laps).toHaveLength(1);
    expect(shown.laps[0]!.distanceMeters).toBeCloseTo(1200, 0);
  });

  it('past the first 1,000 of a file are left out, and said', () => {
    const notes: string[] = [];
    const many = Array.from({ length: 1500 }, (_, i) => lap(i, i + 1));
    expect(soundLaps(many, notes)).toHaveLength(1000);
    expect(notes).toEqual(['500 laps after the first 1000 left out']);
    // and each lap's figures are its own points', read in one pass
    const laps = analyzeTrack(run(1500), { laps: soundLaps(many, []), thresholds: null, notes: [] }).laps;
    expect(laps).toHaveLength(1000);
    expect(laps.every((one) => Math.round(one.distanceMeters) === 4 && one.elapsedSeconds === 1)).toBe(true);
  });

  it('that contradict each other are left out, and the notes say which', () => {
    const notes: string[] = [];
    const kept = soundLaps([lap(0, 100), lap(50, 200), lap(300, 250), lap(200, 400)], notes);
    expect(kept).toHaveLength(2);
    expect(notes).toEqual(['lap 2 left out: it overlaps lap 1', 'lap 3 left out: it ends before it starts']);
  });

  it('thresholds that do not ascend are left out', () => {
    const notes: string[] = [];
    expect(soundThresholds({ maxHeartRate: 105, restingHeartRate: 110, thresholdPower: 240 }, notes)).toEqual({
      maxHeartRate: null,
      restingHeartRate: null,
      thresholdPower: 240,
    });
    expect(notes[0]).toContain('resting heart rate (110) is not below its maximum (105)');
  });
});
