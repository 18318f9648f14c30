// Great-circle distances and the bounding boxes that make nearby search index-backed.
import { METERS_PER_MILE } from './units.ts';

export const EARTH_RADIUS_MILES = 3958.7613;
const DEG = Math.PI / 180;

export interface Point {
  lat: number;
  lon: number;
}

/** Haversine distance in miles. */
export function distanceMiles(a: Point, b: Point): number {
  const dLat = (b.lat - a.lat) * DEG;
  const dLon = (b.lon - a.lon) * DEG;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * DEG) * Math.cos(b.lat * DEG) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Haversine distance in metres. */
export function distanceMeters(a: Point, b: Point): number {
  return distanceMiles(a, b) * METERS_PER_MILE;
}

/**
 * How far a track moved from `previous` to `point`, in metres: nothing from no point, nor across a
 * break between segments (a pause, a gap the device did not record).
 */
export function stepMeters(previous: (Point & { segment?: number | null }) | null, point: Point & { segment?: number | null }): number {
  return previous !== null && (previous.segment ?? 0) === (point.segment ?? 0) ? distanceMeters(previous, point) : 0;
}

/** Inclusive longitude ranges: two when the box crosses the antimeridian. */
export interface BoundingBox {
  minLat: number;
  maxLat: number;
  lonRanges: Array<[number, number]>;
}

/**
 * The smallest lat/lon box that contains every point within `radiusMiles` of `center`.
 * Near a pole the circle contains every longitude.
 */
export function boundingBox(center: Point, radiusMiles: number): BoundingBox {
  const angular = radiusMiles / EARTH_RADIUS_MILES / DEG; // degrees of arc
  const minLat = center.lat - angular;
  const maxLat = center.lat + angular;
  if (minLat <= -90 || maxLat >= 90) {
    return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), lonRanges: [[-180, 180]] };
  }
  // widest longitude span of the circle, reached at the latitude of the tangent points
  const dLon = Math.asin(Math.min(1, Math.sin(angular * DEG) / Math.cos(center.lat * DEG))) / DEG;
  if (dLon >= 180) return { minLat, maxLat, lonRanges: [[-180, 180]] };
  const west = center.lon - dLon;
  const east = center.lon + dLon;
  if (west < -180)
    return {
      minLat,
      maxLat,
      lonRanges: [
        [west + 360, 180],
        [-180, east],
      ],
    };
  if (east > 180)
    return {
      minLat,
      maxLat,
      lonRanges: [
        [west, 180],
        [-180, east - 360],
      ],
    };
  return { minLat, maxLat, lonRanges: [[west, east]] };
}
