// Best efforts and moving time of a track (src/domain/records.ts), on hand-made tracks whose splits
// are known: a record is the fastest stretch anywhere inside the track, to the second.
import { describe, expect, it } from 'vitest';
import { trackEfforts } from '../../src/domain/records.ts';

const METERS_PER_DEGREE = 111_194.93; // along a meridian, on the sphere geo.ts uses
const START = Date.parse('2026-06-01T07:00:00Z');

/**
 * A track north from (0, 0) with a point every 10 m; `pace(meter)` is the seconds a kilometer takes
 * where the runner is. Points carry their time.
 */
function run(meters: number, pace: (meter: number) => number, options: { segmentAt?: number; pauseAt?: [number, number] } = {}) {
  const points = [];
  let time = START;
  for (let m = 0; m <= meters; m += 10) {
    if (m > 0) time += (pace(m - 10) / 1000) * 10 * 1000;
    if (options.pauseAt && m === options.pauseAt[0]) time += options.pauseAt[1] * 1000;
    points.push({
      lat: m / METERS_PER_DEGREE,
      lon: 0,
      elevation: null,
      time: new Date(time),
      segment: options.segmentAt !== undefined && m >= options.segmentAt ? 1 : 0,
    });
  }
  return points;
}

const effort = (result: ReturnType<typeof trackEfforts>, distance: string) => result.efforts.find((e) => e.distance === distance);

describe('trackEfforts', () => {
  it('times each record distance of an even-paced run', () => {
    const result = trackEfforts(run(10_000, () => 300)); // 5:00 a km
    expect(effort(result, '1k')!.seconds).toBeCloseTo(300, 0);
    expect(effort(result, '1mi')!.seconds).toBeCloseTo(482.8, 0);
    expect(effort(result, '5k')!.seconds).toBeCloseTo(1500, 0);
    expect(effort(result, '10k')!.seconds).toBeCloseTo(3000, 0);
    expect(effort(result, 'half')).toBeUndefined();
    expect(result.movingSeconds).toBeCloseTo(3000, -1);
  });

  it('finds the fastest kilometer in the middle of a longer run', () => {
    // 6:00 a km, but 4:00 from 3,000 to 4,000 m
    const result = trackEfforts(run(8_000, (m) => (m >= 3000 && m < 4000 ? 240 : 360)));
    const fastest = effort(result, '1k')!;
    expect(fastest.seconds).toBeCloseTo(240, 0);
    // it began 3 km in, after 18 minutes
    expect(fastest.startOffsetMs / 1000).toBeCloseTo(1080, 0);
    // the 5 km holds the fast kilometer: 4 at 6:00 and 1 at 4:00
    expect(effort(result, '5k')!.seconds).toBeCloseTo(4 * 360 + 240, 0);
  });

  it('interpolates the start of a stretch between two points', () => {
    // points 10 m apart, the fast part begins 5 m past a point: the kilometer is still exactly timed
    const points = run(3_000, (m) => (m >= 1000 && m < 2000 ? 200 : 400));
    expect(effort(trackEfforts(points), '1k')!.seconds).toBeCloseTo(200, 0);
  });

  it('leaves out points without a time, and a track with fewer than two timed points has nothing', () => {
    const points = run(2_000, () => 300).map((p, i) => (i % 2 ? { ...p, time: null } : p));
    expect(effort(trackEfforts(points), '1k')!.seconds).toBeCloseTo(300, 0);
    const untimed = run(2_000, () => 300).map((p) => ({ ...p, time: null }));
    expect(trackEfforts(untimed)).toEqual({ efforts: [], movingSeconds: null });
  });

  it('keeps the clock running through a stop, but not the moving time', () => {
    const result = trackEfforts(run(2_000, () => 300, { pauseAt: [500, 120] }));
    // every kilometer holding meter 500 includes the stop; the fastest one starts after it
    expect(effort(result, '1k')!.seconds).toBeCloseTo(300, 0);
    expect(result.movingSeconds).toBeCloseTo(600, -1);
    const noRoom = trackEfforts(run(1_000, () => 300, { pauseAt: [500, 120] }));
    expect(effort(noRoom, '1k')!.seconds).toBeCloseTo(420, 0);
  });

  it('does not count the gap between two segments as distance', () => {
    // the second segment jumps back to the start: only 500 + 1,000 m were run, so no 2 km exists
    const first = run(500, () => 300);
    const second = run(1_000, () => 300).map((p) => ({ ...p, time: new Date(p.time.getTime() + 3_600_000), segment: 1 }));
    const result = trackEfforts([...first, ...second]);
    expect(effort(result, '1k')!.seconds).toBeCloseTo(300, 0);
    expect(effort(result, '1mi')).toBeUndefined();
  });
});
