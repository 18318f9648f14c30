// What a workout's track tells beyond its totals: its laps, its splits, the moving seconds spent at
// each heart rate and each power, and its best power. Computed once when a track is stored
// (tracks/prepare.ts) from its points and the laps its device recorded, and kept beside it: a read
// of a workout with 100,000 points decodes none of them. Time in zones is answered from the kept
// seconds per beat and per watt (zones.ts), so an athlete who changes their thresholds needs no
// track read. No I/O.
import { stepMeters } from './geo.ts';
import { type BestEffort, MOVING_METERS_PER_SECOND, trackEfforts } from './records.ts';
import type { GpxPoint } from './track.ts';
import { METERS_PER_MILE } from './units.ts';

/** Which rules computed a track's analysis: raise it (and records.ts RECORDS_VERSION) when they change. */
export const ANALYSIS_VERSION = 1;

/** A gap longer than this between two timed points is a pause: no power is credited across it. */
const PAUSE_SECONDS = 10;
/** The best average power is kept over these many seconds (1, 5 and 20 minutes). */
export const POWER_EFFORT_SECONDS = [60, 300, 1200] as const;
/** Longest track the best power is looked for in: two days of seconds. */
const MAX_EFFORT_SPAN_SECONDS = 2 * 86_400;
/** Laps kept of a file at most: a track meet's intervals are some hundreds. */
export const MAX_LAPS = 1000;
/** Splits of a unit at most: the last one holds the rest (a 2,000 km ride in kilometres). */
export const MAX_SPLITS = 2000;
/** Readings outside these bounds are a sensor's noise, not an athlete's. */
const HEART_RATE_BOUNDS = [20, 260] as const;
const POWER_BOUNDS = [0, 3000] as const;

/** The thresholds zones are made of: the athlete's own, or what a device wrote in the file. */
export interface Thresholds {
  maxHeartRate: number | null;
  restingHeartRate: number | null;
  thresholdPower: number | null;
}

/** A lap as a device recorded it: its span, and the totals it wrote (null where it wrote none). */
export interface RecordedLap {
  /** Milliseconds since the epoch. */
  startMs: number;
  endMs: number;
  elapsedSeconds: number | null;
  movingSeconds: number | null;
  distanceMeters: number | null;
  averageHeartRate: number | null;
  maxHeartRate: number | null;
  averageCadence: number | null;
  averagePower: number | null;
  maxPower: number | null;
  elevationGain: number | null;
}

/** What a file says beyond its points: its laps and the device's thresholds, and what of them was left out. */
export interface Recorded {
  laps: RecordedLap[];
  thresholds: Thresholds | null;
  /** One sentence for each lap or threshold left out as unsound. */
  notes: string[];
}

export interface Lap {
  /** Seconds after the track's first timed point. */
  startOffsetSeconds: number;
  elapsedSeconds: number;
  movingSeconds: number;
  distanceMeters: number;
  averageHeartRate: number | null;
  maxHeartRate: number | null;
  averageCadence: number | null;
  averagePower: number | null;
  maxPower: number | null;
  elevationGain: number;
}

export interface Split {
  distanceMeters: number;
  elapsedSeconds: number;
  movingSeconds: number;
  /** Meters up (or down, below 0) from the split's start to its end; null without elevations. */
  elevationChange: number | null;
  averageHeartRate: number | null;
}

export interface PowerEffort {
  seconds: number;
  watts: number;
  /** Milliseconds after the track's first timed point where it began (as a best effort's). */
  startOffsetMs: number;
}

export interface Analysis {
  version: number;
  movingSeconds: number;
  laps: Lap[];
  splits: { kilometers: Split[]; miles: Split[] };
  /** Moving seconds at each heart rate: [beats a minute, seconds], ascending. */
  heartRate: Array<[number, number]>;
  /** Moving seconds at each power: [watts, seconds], ascending. */
  power: Array<[number, number]>;
  /** Moving seconds without a heart-rate reading, and without a power reading. */
  withoutHeartRate: number;
  withoutPower: number;
  /** The best average power over each of POWER_EFFORT_SECONDS that the track lasts; none without power. */
  powerEfforts: PowerEffort[];
  /** The fastest time over each record distance inside the track (records.ts): its running records. */
  bestEfforts: BestEffort[];
  /** The device's thresholds, when its file gave sound ones. */
  thresholds: Thresholds | null;
  /** What was left out as unsound, one sentence each. */
  notes: string[];
}

const within = (value: number | null | undefined, [low, high]: readonly [number, number]) =>
  value != null && Number.isFinite(value) && value >= low && value <= high ? value : null;

/** The timed points of a track, as columns: what every figure here is computed from. */
interface Timed {
  at: number[];
  along: number[];
  elevation: Array<number | null>;
  heartRate: Array<number | null>;
  cadence: Array<number | null>;
  power: Array<number | null>;
}

function timedPoints(points: Iterable<GpxPoint>): Timed {
  const timed: Timed = { at: [], along: [], elevation: [], heartRate: [], cadence: [], power: [] };
  let previous: GpxPoint | null = null;
  for (const point of points) {
    const time = point.time?.getTime() ?? Number.NaN;
    if (!Number.isFinite(time) || (timed.at.length > 0 && time < timed.at.at(-1)!)) continue;
    const step = stepMeters(previous, point);
    timed.at.push(time);
    timed.along.push((timed.along.at(-1) ?? 0) + step);
    timed.elevation.push(point.elevation != null && Number.isFinite(point.elevation) ? point.elevation : null);
    timed.heartRate.push(within(point.heartRate, HEART_RATE_BOUNDS));
    timed.cadence.push(within(point.cadence, [0, 300]));
    timed.power.push(within(point.power, POWER_BOUNDS));
    previous = point;
  }
  return timed;
}

/** A stretch's figures, added up one interval (or part of one) at a time. */
class Stretch {
  elapsed = 0;
  moving = 0;
  meters = 0;
  gain = 0;
  private heartBeats = 0;
  private heartSeconds = 0;
  private cadenceSum = 0;
  private cadenceSeconds = 0;
  private powerSum = 0;
  private powerSeconds = 0;
  maxHeartRate: number | null = null;
  maxPower: number | null = null;

  add(
    seconds: number,
    meters: number,
    moving: boolean,
    reading: { heartRate: number | null; cadence: number | null; power: number | null },
  ) {
    this.elapsed += seconds;
    this.meters += meters;
    if (moving) this.moving += seconds;
    if (reading.heartRate !== null) {
      this.heartBeats += reading.heartRate * seconds;
      this.heartSeconds += seconds;
      this.maxHeartRate = Math.max(this.maxHeartRate ?? 0, reading.heartRate);
    }
    if (reading.cadence !== null && moving) {
      this.cadenceSum += reading.cadence * seconds;
      this.cadenceSeconds += seconds;
    }
    if (reading.power !== null) {
      this.powerSum += reading.power * seconds;
      this.powerSeconds += seconds;
      this.maxPower = Math.max(this.maxPower ?? 0, reading.power);
    }
  }

  get averageHeartRate() {
    return this.heartSeconds > 0 ? Math.round(this.heartBeats / this.heartSeconds) : null;
  }
  get averageCadence() {
    return this.cadenceSeconds > 0 ? Math.round(this.cadenceSum / this.cadenceSeconds) : null;
  }
  get averagePower() {
    return this.powerSeconds > 0 ? Math.round(this.powerSum / this.powerSeconds) : null;
  }
}

/** What interval i (from point i-1 to point i) was: its seconds, meters, whether it moved, and its readings (the later point's, else the earlier's). */
function interval(timed: Timed, i: number) {
  const seconds = (timed.at[i]! - timed.at[i - 1]!) / 1000;
  const meters = timed.along[i]! - timed.along[i - 1]!;
  return {
    seconds,
    meters,
    moving: seconds > 0 && meters / seconds >= MOVING_METERS_PER_SECOND,
    reading: {
      heartRate: timed.heartRate[i] ?? timed.heartRate[i - 1] ?? null,
      cadence: timed.cadence[i] ?? timed.cadence[i - 1] ?? null,
      power: timed.power[i] ?? timed.power[i - 1] ?? null,
    },
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The elevation at a fraction of interval i, or the nearer known one; null when neither end has one. */
function elevationAt(timed: Timed, i: number, fraction: number): number | null {
  const from = timed.elevation[i - 1] ?? null;
  const to = timed.elevation[i] ?? null;
  if (from !== null && to !== null) return from + (to - from) * fraction;
  return to ?? from;
}

/** Splits of `unit` meters, the last one partial (or, past MAX_SPLITS, the rest); their distances and times add up to the track's. */
function splitsOf(timed: Timed, unit: number): Split[] {
  const splits: Split[] = [];
  const n = timed.at.length;
  if (n < 2) return splits;
  let current = new Stretch();
  let startElevation = timed.elevation.find((value) => value !== null) ?? null;
  let lastElevation = startElevation;
  let boundary = unit;
  // what the splits before add up to, as answered: the last one is the rest, so that they add up to the whole
  const told = { meters: 0, seconds: 0 };
  const close = (endElevation: number | null, last = false) => {
    const meters = last ? round1(timed.along[n - 1]! - told.meters) : round1(current.meters);
    const seconds = last ? round1((timed.at[n - 1]! - timed.at[0]!) / 1000 - told.seconds) : round1(current.elapsed);
    told.meters += meters;
    told.seconds += seconds;
    splits.push({
      distanceMeters: meters,
      elapsedSeconds: seconds,
      movingSeconds: round1(current.moving),
      elevationChange: startElevation !== null && endElevation !== null ? round1(endElevation - startElevation) : null,
      averageHeartRate: current.averageHeartRate,
    });
    current = new Stretch();
    startElevation = endElevation;
  };
  for (let i = 1; i < n; i++) {
    const { seconds, meters, moving, reading } = interval(timed, i);
    let done = 0;
    // each boundary crossed inside this interval closes a split at the point between its ends
    while (meters > 0 && timed.along[i]! >= boundary && splits.length < MAX_SPLITS - 1) {
      const fraction = (boundary - timed.along[i - 1]!) / meters;
      current.add((fraction - done) * seconds, (fraction - done) * meters, moving, reading);
      close(elevationAt(timed, i, fraction));
      done = fraction;
      boundary += unit;
    }
    current.add((1 - done) * seconds, (1 - done) * meters, moving, reading);
    lastElevation = timed.elevation[i] ?? lastElevation;
  }
  if (current.elapsed > 0 || current.meters > 0.05) close(lastElevation, true);
  return splits;
}

/** Moving seconds at each reading, and moving seconds without one. */
function histogram(timed: Timed, of: 'heartRate' | 'power'): { counts: Array<[number, number]>; without: number; moving: number } {
  const seconds = new Map<number, number>();
  let without = 0;
  let moving = 0;
  for (let i = 1; i < timed.at.length; i++) {
    const step = interval(timed, i);
    if (!step.moving) continue;
    moving += step.seconds;
    const value = step.reading[of];
    if (value === null) without += step.seconds;
    else seconds.set(Math.round(value), (seconds.get(Math.round(value)) ?? 0) + step.seconds);
  }
  const counts = [...seconds].sort((a, b) => a[0] - b[0]).map(([value, time]) => [value, round1(time)] as [number, number]);
  return { counts, without: round1(without), moving };
}

/** The best average power over each span: watts on a one-second grid, nothing credited across a pause. */
function powerEffortsOf(timed: Timed): Analysis['powerEfforts'] {
  const n = timed.at.length;
  if (n < 2 || !timed.power.some((value) => value !== null)) return [];
  const span = Math.floor((timed.at[n - 1]! - timed.at[0]!) / 1000);
  if (span < POWER_EFFORT_SECONDS[0] || span > MAX_EFFORT_SPAN_SECONDS) return [];
  const grid = new Float64Array(span);
  for (let i = 1; i < n; i++) {
    const { seconds, reading } = interval(timed, i);
    if (seconds > PAUSE_SECONDS || reading.power === null) continue;
    const from = Math.floor((timed.at[i - 1]! - timed.at[0]!) / 1000);
    const to = Math.min(span, Math.floor((timed.at[i]! - timed.at[0]!) / 1000));
    for (let s = from; s < to; s++) grid[s] = reading.power;
  }
  const prefix = new Float64Array(span + 1);
  for (let s = 0; s < span; s++) prefix[s + 1] = prefix[s]! + grid[s]!;
  return POWER_EFFORT_SECONDS.filter((seconds) => seconds <= span).map((seconds) => {
    let best = 0;
    let start = 0;
    for (let s = seconds; s <= span; s++) {
      if (prefix[s]! - prefix[s - seconds]! > best) {
        best = prefix[s]! - prefix[s - seconds]!;
        start = s - seconds;
      }
    }
    return { seconds, watts: Math.round(best / seconds), startOffsetMs: start * 1000 };
  });
}

/** A recorded lap's figures: what the device wrote, else what its span of points gives. */
function lapOf(timed: Timed, lap: RecordedLap, trustDevice: boolean): Lap | null {
  const stretch = new Stretch();
  let firstMs: number | null = null;
  // the points are in time order: the lap's first interval is found by halving, and its walk ends with
  // the lap, so that a file's laps cost a pass over its points, not a pass each
  let low = 1;
  let high = timed.at.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timed.at[middle]! <= lap.startMs) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < timed.at.length && timed.at[i - 1]! < lap.endMs; i++) {
    firstMs ??= timed.at[i - 1]!;
    const step = interval(timed, i);
    stretch.add(step.seconds, step.meters, step.moving, step.reading);
    const rise = (timed.elevation[i] ?? Number.NaN) - (timed.elevation[i - 1] ?? Number.NaN);
    if (rise > 0) stretch.gain += rise;
  }
  // a lap none of whose points is shown is not shown either
  if (firstMs === null && !trustDevice) return null;
  const device = trustDevice ? lap : null;
  return {
    startOffsetSeconds: round1(Math.max(0, (lap.startMs - (timed.at[0] ?? lap.startMs)) / 1000)),
    elapsedSeconds: round1(device?.elapsedSeconds ?? (device ? (lap.endMs - lap.startMs) / 1000 : stretch.elapsed)),
    movingSeconds: round1(device?.movingSeconds ?? stretch.moving),
    distanceMeters: round1(device?.distanceMeters ?? stretch.meters),
    averageHeartRate: device?.averageHeartRate ?? stretch.averageHeartRate,
    maxHeartRate: device?.maxHeartRate ?? stretch.maxHeartRate,
    averageCadence: device?.averageCadence ?? stretch.averageCadence,
    averagePower: device?.averagePower ?? stretch.averagePower,
    maxPower: device?.maxPower ?? stretch.maxPower,
    elevationGain: round1(device?.elevationGain ?? stretch.gain),
  };
}

/**
 * A track's analysis. `recorded` is what its file said beyond the points (null for a GPX upload);
 * `trustDevice` takes a lap's totals as the device wrote them, as its owner is shown them: anyone
 * else, when the owner hides part of the track, gets the analysis of the points they are shown
 * (tracks/work.ts), whose laps are made of those points alone.
 */
export function analyzeTrack(
  points: readonly GpxPoint[] | (() => Iterable<GpxPoint>),
  recorded: Recorded | null,
  options: { trustDevice?: boolean; efforts?: readonly BestEffort[] } = {},
): Analysis {
  // read twice (the columns here, the efforts in records.ts, unless the caller has them): packed points
  // are iterated, never held as objects
  const read = typeof points === 'function' ? points : () => points;
  const timed = timedPoints(read());
  const efforts = options.efforts ? [...options.efforts] : trackEfforts(read()).efforts;
  const trustDevice = options.trustDevice ?? true;
  const heart = histogram(timed, 'heartRate');
  const power = histogram(timed, 'power');
  return {
    version: ANALYSIS_VERSION,
    movingSeconds: round1(heart.moving),
    laps: (recorded?.laps ?? []).flatMap((lap) => lapOf(timed, lap, trustDevice) ?? []),
    splits: { kilometers: splitsOf(timed, 1000), miles: splitsOf(timed, METERS_PER_MILE) },
    heartRate: heart.counts,
    power: power.counts,
    withoutHeartRate: heart.without,
    withoutPower: power.without,
    powerEfforts: powerEffortsOf(timed),
    bestEfforts: efforts,
    thresholds: recorded?.thresholds ?? null,
    notes: recorded?.notes ?? [],
  };
}

/**
 * A file's laps as far as they are sound: in time order, each ending after it starts and starting
 * no earlier than the one before it ended (a second's overlap is a device's rounding). What is left
 * out is said in `notes`.
 */
export function soundLaps(laps: RecordedLap[], notes: string[]): RecordedLap[] {
  const kept: RecordedLap[] = [];
  if (laps.length > MAX_LAPS) notes.push(`${laps.length - MAX_LAPS} laps after the first ${MAX_LAPS} left out`);
  laps.slice(0, MAX_LAPS).forEach((lap, index) => {
    const number = index + 1;
    if (!Number.isFinite(lap.startMs) || !Number.isFinite(lap.endMs) || lap.endMs < lap.startMs) {
      notes.push(`lap ${number} left out: it ends before it starts`);
      return;
    }
    const previous = kept.at(-1);
    if (previous && lap.startMs < previous.endMs - 1000) {
      notes.push(`lap ${number} left out: it overlaps lap ${kept.length}`);
      return;
    }
    kept.push(lap);
  });
  return kept;
}

/** A device's thresholds as far as they are sound: each within a human's range, resting below max. */
export function soundThresholds(thresholds: Thresholds, notes: string[]): Thresholds | null {
  let { maxHeartRate, restingHeartRate, thresholdPower } = thresholds;
  maxHeartRate = within(maxHeartRate, [100, 250]);
  restingHeartRate = within(restingHeartRate, [25, 120]);
  thresholdPower = within(thresholdPower, [30, 2000]);
  if (maxHeartRate !== null && restingHeartRate !== null && restingHeartRate >= maxHeartRate) {
    notes.push(
      `the device's heart-rate zones left out: its resting heart rate (${restingHeartRate}) is not below its maximum (${maxHeartRate})`,
    );
    maxHeartRate = null;
    restingHeartRate = null;
  }
  if (maxHeartRate === null && restingHeartRate === null && thresholdPower === null) return null;
  return { maxHeartRate, restingHeartRate, thresholdPower };
}
