// What a track gives a person's records: the fastest time over each record distance anywhere inside
// it, and its moving time. Computed once when a track is stored (db/tracks.ts), kept beside it, and
// read back by aggregate queries: a person's records never decode a track. No I/O.
import { stepMeters } from './geo.ts';
import type { TrackPointInput } from './track.ts';
import { METERS_PER_MILE } from './units.ts';

/** The distances records are kept for, by key, in meters. */
export const RECORD_DISTANCES = {
  '1k': 1000,
  '1mi': METERS_PER_MILE,
  '5k': 5000,
  '10k': 10_000,
  half: 21_097.5,
  marathon: 42_195,
} as const;
export type RecordDistance = keyof typeof RECORD_DISTANCES;

/**
 * Which rules computed a track's efforts and its analysis (analysis.ts): raise it when they change,
 * and start-up recomputes them. 2: the analysis.
 */
export const RECORDS_VERSION = 2;

/** Longest moving time a track is credited with: no workout lasts 68 years, and a stored one fits 32 bits. */
export const MAX_MOVING_SECONDS = 2 ** 31 - 1;

/** Slower than this between two points is standing still: the time does not count as moving. */
export const MOVING_METERS_PER_SECOND = 0.5;

export interface BestEffort {
  distance: RecordDistance;
  /** Seconds, to the millisecond. */
  seconds: number;
  /** Milliseconds since the track's first timed point where the effort began. */
  startOffsetMs: number;
}

export interface TrackEfforts {
  efforts: BestEffort[];
  /** Null when the track has fewer than two timed points. */
  movingSeconds: number | null;
}

/**
 * The fastest stretch of each record distance inside the track, by a sliding window over its timed
 * points (points without a time are left out; a track with fewer than two has no efforts). Distance
 * is only counted inside a segment (a gap between segments is not distance travelled), while the
 * clock keeps running across it. The window's start is placed on the line between two points by
 * linear interpolation, so a record is the time for exactly its distance.
 */
export function trackEfforts(points: Iterable<TrackPointInput>): TrackEfforts {
  // one pass, keeping two numbers a timed point, not the points: an upload's may be packed (track-codec.ts)
  const at: number[] = [];
  const along: number[] = [];
  let moving = 0;
  let previous: TrackPointInput | null = null;
  for (const point of points) {
    const time = point.time === null ? Number.NaN : point.time.getTime();
    if (!Number.isFinite(time)) continue;
    if (previous === null) {
      at.push(time);
      along.push(0);
    } else {
      const step = stepMeters(previous, point);
      const seconds = (time - at[at.length - 1]!) / 1000;
      at.push(time);
      along.push(along[along.length - 1]! + step);
      if (seconds > 0 && step / seconds >= MOVING_METERS_PER_SECOND) moving += seconds;
    }
    previous = point;
  }
  const n = at.length;
  if (n < 2) return { efforts: [], movingSeconds: null };
  const efforts: BestEffort[] = [];
  for (const [distance, meters] of Object.entries(RECORD_DISTANCES) as Array<[RecordDistance, number]>) {
    if (along[n - 1]! < meters) continue;
    let best = Number.POSITIVE_INFINITY;
    let bestStart = 0;
    let start = 0;
    for (let end = 1; end < n; end++) {
      // the latest start that still leaves `meters` before `end`
      while (start + 1 < end && along[end]! - along[start + 1]! >= meters) start++;
      if (along[end]! - along[start]! < meters) continue;
      const spare = along[end]! - along[start]! - meters;
      const stretch = along[start + 1]! - along[start]!;
      const begun = stretch > 0 ? at[start]! + ((at[start + 1]! - at[start]!) * spare) / stretch : at[start]!;
      const elapsed = at[end]! - begun;
      if (elapsed >= 0 && elapsed < best) {
        best = elapsed;
        bestStart = begun;
      }
    }
    if (Number.isFinite(best)) {
      efforts.push({ distance, seconds: Math.round(best) / 1000, startOffsetMs: Math.round(bestStart - at[0]!) });
    }
  }
  return { efforts, movingSeconds: Math.min(Math.round(moving), MAX_MOVING_SECONDS) };
}
