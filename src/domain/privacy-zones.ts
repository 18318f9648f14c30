// Privacy zones: the parts of a person's tracks, and the places, that nobody but they see.
// A person may hide the first and last stretch of every track (`endsMeters` along the track from its
// start and back from its finish) and any number of places (a centre and a radius). Applied on read:
// stored tracks never change, so a changed zone takes effect at once. The one rule for every coordinate
// that leaves the server: a point of a track is shown by `visiblePoints`, any other place (a waypoint,
// the entry's position) by `hidesPlace`, and what describes a track (its count, times, distance) is
// computed from the points shown. No I/O.
import { distanceMeters, type Point } from './geo.ts';

/** Largest stretch of a track's start and finish a person may hide, and largest zone radius. */
export const MAX_HIDDEN_ENDS_METERS = 5_000;
export const MAX_ZONE_RADIUS_METERS = 5_000;
export const MIN_ZONE_RADIUS_METERS = 50;
/** Places a person may hide. */
export const MAX_ZONES = 20;

export interface Zone extends Point {
  radiusMeters: number;
}

/** A zone as its owner set it, with the stable random shift of the circle cut from their tracks. */
export interface StoredZone extends Zone {
  shiftNorthMeters: number;
  shiftEastMeters: number;
}

/** How far a zone's cut circle is shifted from its centre, as a share of its radius. */
const SHIFT_SHARE = { min: 0.2, max: 0.5 };

/**
 * A new zone's shift: a random bearing and a random distance of 20-50% of its radius. Tracks are cut
 * exactly at a circle, so tracks leaving home in several directions draw that circle; centred on the
 * home, they would point at it. `random` gives numbers in [0, 1).
 */
export function randomShift(radiusMeters: number, random: () => number): { shiftNorthMeters: number; shiftEastMeters: number } {
  const bearing = random() * 2 * Math.PI;
  const distance = radiusMeters * (SHIFT_SHARE.min + random() * (SHIFT_SHARE.max - SHIFT_SHARE.min));
  return { shiftNorthMeters: distance * Math.cos(bearing), shiftEastMeters: distance * Math.sin(bearing) };
}

const METERS_PER_DEGREE = 111_195;

/**
 * The circle actually cut from the owner's tracks and places: centred at the shifted point, and wider
 * by the shift, so that it still covers the whole radius around the centre the owner chose.
 */
export function cutCircle(zone: StoredZone): Zone {
  const shift = Math.hypot(zone.shiftNorthMeters, zone.shiftEastMeters);
  const lat = Math.max(-90, Math.min(90, zone.lat + zone.shiftNorthMeters / METERS_PER_DEGREE));
  const cosine = Math.max(Math.cos((zone.lat * Math.PI) / 180), 1e-6);
  let lon = zone.lon + zone.shiftEastMeters / (METERS_PER_DEGREE * cosine);
  if (lon > 180) lon -= 360;
  if (lon < -180) lon += 360;
  // a hair over, so that rounding of the shifted centre never leaves the chosen radius uncovered
  return { lat, lon, radiusMeters: zone.radiusMeters + shift + 1 };
}

export interface PrivacySettings {
  /** Meters hidden from the start and from the finish of every track; 0 hides none. */
  endsMeters: number;
  zones: readonly Zone[];
}

export const NO_PRIVACY: PrivacySettings = { endsMeters: 0, zones: [] };

export function hidesAnything(settings: PrivacySettings): boolean {
  return settings.endsMeters > 0 || settings.zones.length > 0;
}

const meters = distanceMeters;

/** Whether a place lies inside one of the zones (on its edge counts as inside). */
export function insideZone(point: Point, zones: readonly Zone[]): boolean {
  return zones.some((zone) => meters(point, zone) <= zone.radiusMeters);
}

/** Which points of a track anyone but its owner may receive (true) and which are hidden (false). */
export function visibleMask(points: readonly Point[], settings: PrivacySettings): boolean[] {
  const mask = points.map((point) => !insideZone(point, settings.zones));
  if (settings.endsMeters <= 0 || points.length === 0) return mask;
  // distance along the track from its start, and back from its finish
  const along = [0];
  for (let i = 1; i < points.length; i++) along.push(along[i - 1]! + meters(points[i - 1]!, points[i]!));
  const total = along.at(-1)!;
  for (let i = 0; i < points.length; i++) {
    if (along[i]! <= settings.endsMeters || total - along[i]! <= settings.endsMeters) mask[i] = false;
  }
  return mask;
}

/**
 * The points anyone but the owner receives. Where a hidden stretch interrupts a track, the points after
 * it start a new segment (points that carry one), so that a map or a GPX file shows a gap there, not a
 * line drawn across the hidden place.
 */
export function visiblePoints<P extends Point & { segment?: number }>(points: readonly P[], settings: PrivacySettings): P[] {
  if (!hidesAnything(settings)) return [...points];
  const mask = visibleMask(points, settings);
  const shown: P[] = [];
  let segment = -1;
  let gap = true;
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    if (!mask[i]) {
      gap = true;
      continue;
    }
    if (point.segment === undefined) {
      shown.push(point);
      continue;
    }
    if (gap || point.segment !== points[i - 1]?.segment) segment += 1;
    gap = false;
    shown.push({ ...point, segment });
  }
  return shown;
}

/**
 * Whether a place that goes with a track (a waypoint, the entry's position) is hidden from anyone but
 * the owner: inside a zone, or within the hidden stretch's reach of the track's first or last point.
 * A track's hidden start lies within `endsMeters` of its first point (distance along the track is
 * never shorter than straight), so a place that near could be on it, or be the home it left from.
 */
export function hidesPlace(place: Point, settings: PrivacySettings, ends: readonly Point[]): boolean {
  if (insideZone(place, settings.zones)) return true;
  if (settings.endsMeters <= 0) return false;
  return ends.some((end) => meters(place, end) <= settings.endsMeters);
}

/** A track's first and last points (of its recorded points, else its planned route): where its hidden ends reach from. */
export function trackEnds(...tracks: ReadonlyArray<readonly Point[]>): Point[] {
  const ends: Point[] = [];
  for (const points of tracks) if (points.length) ends.push(points[0]!, points.at(-1)!);
  return ends;
}

/** What the owner is told is hidden of one track. */
export interface HiddenParts {
  /** Meters hidden from the start and back from the finish. */
  endsMeters: number;
  /** Points hidden by the start and finish, and by the zones. */
  hiddenPoints: number;
  /** How many of the person's zones this track passes through. */
  zonesCrossed: number;
}

export function hiddenParts(points: readonly Point[], settings: PrivacySettings): HiddenParts {
  const mask = visibleMask(points, settings);
  return {
    endsMeters: settings.endsMeters,
    hiddenPoints: mask.filter((visible) => !visible).length,
    zonesCrossed: settings.zones.filter((zone) => points.some((point) => insideZone(point, [zone]))).length,
  };
}
