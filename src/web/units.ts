// Distances and climbs as the pages show them: in one unit system per reader, whatever units each
// workout was entered in. Pure.
import type { DistanceUnits } from '../domain/activity.ts';
import { METERS_PER_MILE, toMeters } from '../domain/units.ts';

/** The reader's system: their `units` preference; kilometres for a visitor who is not logged in. */
export type UnitSystem = 'KILOMETERS' | 'MILES';

const FEET_PER_METER = 3.28084;

/** At most two decimals, without trailing zeros. */
const figure = (n: number) => String(Number(n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 2)));

/** `8.2 km`, `5.1 mi`; under a kilometre (a tenth of a mile), in metres (yards). */
export function distanceIn(meters: number, system: UnitSystem): string {
  if (system === 'MILES') {
    const miles = meters / METERS_PER_MILE;
    return miles < 0.1 ? `${Math.round(meters / 0.9144)} yd` : `${figure(miles)} mi`;
  }
  return meters < 1000 ? `${Math.round(meters)} m` : `${figure(meters / 1000)} km`;
}

/** A climb: metres, or feet for those who count in miles. */
export function climbIn(meters: number, system: UnitSystem): string {
  return system === 'MILES' ? `${Math.round(meters * FEET_PER_METER)} ft` : `${Math.round(meters)} m`;
}

/** A workout's distance (value and units as entered) in metres. */
export function metersOf(distance: { value: number; units: string }): number {
  return toMeters(distance.value, distance.units.toLowerCase() as DistanceUnits);
}

/** Minutes per kilometre (or mile), `5:30 /km`; null without both figures. */
export function paceIn(meters: number, seconds: number, system: UnitSystem): string | null {
  if (meters <= 0 || seconds <= 0) return null;
  const per = system === 'MILES' ? METERS_PER_MILE : 1000;
  const secondsPer = Math.round((seconds / meters) * per);
  if (secondsPer > 24 * 3600) return null;
  return `${Math.floor(secondsPer / 60)}:${String(secondsPer % 60).padStart(2, '0')} /${system === 'MILES' ? 'mi' : 'km'}`;
}
