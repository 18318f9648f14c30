// Privacy zones (issue 21): the parts of a person's tracks, and the places, that nobody but they see.
// A person may hide the first and last stretch of every track (`endsMeters` along the track from its
// start and back from its finish) and any number of places (a centre and a radius). Applied on read:
// stored tracks never change, so a changed zone takes effect at once. No I/O.
import { distanceMiles, type Point } from './geo.ts';

const METERS_PER_MILE = 1609.344;

/** Largest stretch of a track's start and finish a person may hide, and largest zone radius. */
export const MAX_HIDDEN_ENDS_METERS = 5_000;
export const MAX_ZONE_RADIUS_METERS = 5_000;
export const MIN_ZONE_RADIUS_METERS = 50;
/** Places a person may hide. */
export const MAX_ZONES = 20;

export interface Zone extends Point {
  radiusMeters: number;
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

const meters = (a: Point, b: Point) => distanceMiles(a, b) * METERS_PER_MILE;

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
