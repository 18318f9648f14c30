// Summary figures of a GPS track, computed once when a track is stored, and the encoded polyline
// that lists draw maps from.
import { type Point, stepMeters } from './geo.ts';

export interface TrackPointInput extends Point {
  elevation: number | null;
  time: Date | null;
  /** Points of different segments are not joined: the gap is not distance travelled. */
  segment?: number;
}

export interface TrackSummary {
  pointCount: number;
  distanceMeters: number;
  elevationGain: number;
  minLat: number | null;
  minLon: number | null;
  maxLat: number | null;
  maxLon: number | null;
  startedAt: Date | null;
  endedAt: Date | null;
}

export function summarizeTrack(points: Iterable<TrackPointInput>): TrackSummary {
  let distance = 0;
  let gain = 0;
  let minLat = Infinity;
  let minLon = Infinity;
  let maxLat = -Infinity;
  let maxLon = -Infinity;
  let startedAt: Date | null = null;
  let endedAt: Date | null = null;
  let count = 0;
  let previous: TrackPointInput | null = null;
  for (const p of points) {
    if (previous && (previous.segment ?? 0) === (p.segment ?? 0)) {
      distance += stepMeters(previous, p);
      if (previous.elevation !== null && p.elevation !== null && p.elevation > previous.elevation) gain += p.elevation - previous.elevation;
    }
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
    minLon = Math.min(minLon, p.lon);
    maxLon = Math.max(maxLon, p.lon);
    if (p.time) {
      if (!startedAt || p.time < startedAt) startedAt = p.time;
      if (!endedAt || p.time > endedAt) endedAt = p.time;
    }
    previous = p;
    count += 1;
  }
  const empty = count === 0;
  return {
    pointCount: count,
    distanceMeters: distance,
    elevationGain: Math.round(gain * 10) / 10,
    minLat: empty ? null : minLat,
    minLon: empty ? null : minLon,
    maxLat: empty ? null : maxLat,
    maxLon: empty ? null : maxLon,
    startedAt,
    endedAt,
  };
}

/** Google's encoded polyline algorithm (precision 5). */
export function encodePolyline(points: readonly Point[]): string {
  let out = '';
  let lastLat = 0;
  let lastLon = 0;
  const encode = (delta: number) => {
    let value = delta < 0 ? ~(delta << 1) : delta << 1;
    while (value >= 0x20) {
      out += String.fromCharCode((0x20 | (value & 0x1f)) + 63);
      value >>>= 5;
    }
    out += String.fromCharCode(value + 63);
  };
  for (const p of points) {
    const lat = Math.round(p.lat * 1e5);
    const lon = Math.round(p.lon * 1e5);
    encode(lat - lastLat);
    encode(lon - lastLon);
    lastLat = lat;
    lastLon = lon;
  }
  return out;
}

export function decodePolyline(encoded: string): Point[] {
  const points: Point[] = [];
  let index = 0;
  let lat = 0;
  let lon = 0;
  const next = () => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = encoded.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    lat += next();
    lon += next();
    points.push({ lat: lat / 1e5, lon: lon / 1e5 });
  }
  return points;
}

/** At most `max` points, evenly spaced along the list, always keeping the first and the last. */
export function thin<T>(points: readonly T[], max = 500): T[] {
  return thinIndexes(points.length, max).map((i) => points[i]!);
}

/** The indexes `thin` keeps of `count` points. */
export function thinIndexes(count: number, max = 500): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  const step = (count - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => Math.round(i * step));
}

/** A point as the track formats (GPX, FIT, TCX) give it, before it is stored. */
export interface GpxPoint {
  lat: number;
  lon: number;
  elevation: number | null;
  time: Date | null;
  heartRate: number | null;
  cadence: number | null;
  segment: number;
  /** Watts; from FIT and TCX imports, and GPX `<power>` extensions (as Strava writes them). */
  power?: number | null;
}
