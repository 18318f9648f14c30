// Summary figures of a GPS track, computed once when a track is stored.
import { distanceMiles, type Point } from './geo.ts';

export interface TrackPointInput extends Point {
  elevation: number | null;
  time: Date | null;
}

export interface TrackSummary {
  pointCount: number;
  distanceMeters: number;
  minLat: number | null;
  minLon: number | null;
  maxLat: number | null;
  maxLon: number | null;
  startedAt: Date | null;
  endedAt: Date | null;
}

const METERS_PER_MILE = 1609.344;

export function summarizeTrack(points: readonly TrackPointInput[]): TrackSummary {
  let distance = 0;
  let minLat = Infinity;
  let minLon = Infinity;
  let maxLat = -Infinity;
  let maxLon = -Infinity;
  let startedAt: Date | null = null;
  let endedAt: Date | null = null;
  points.forEach((p, i) => {
    if (i > 0) distance += distanceMiles(points[i - 1]!, p) * METERS_PER_MILE;
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
    minLon = Math.min(minLon, p.lon);
    maxLon = Math.max(maxLon, p.lon);
    if (p.time) {
      if (!startedAt || p.time < startedAt) startedAt = p.time;
      if (!endedAt || p.time > endedAt) endedAt = p.time;
    }
  });
  const empty = points.length === 0;
  return {
    pointCount: points.length,
    distanceMeters: distance,
    minLat: empty ? null : minLat,
    minLon: empty ? null : minLon,
    maxLat: empty ? null : maxLat,
    maxLon: empty ? null : maxLon,
    startedAt,
    endedAt,
  };
}
