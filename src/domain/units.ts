// Distance units: conversions and the default units of a workout.
import type { ActivityType, DistanceUnits, UnitPreference } from './activity.ts';

export const METERS_PER: Record<DistanceUnits, number> = {
  meters: 1,
  kilometers: 1000,
  yards: 0.9144,
  miles: 1609.344,
};

export const METERS_PER_MILE = METERS_PER.miles;

export function toMeters(value: number, units: DistanceUnits): number {
  return value * METERS_PER[units];
}

export function fromMeters(meters: number, units: DistanceUnits): number {
  return meters / METERS_PER[units];
}

/**
 * Units a distance is in when the client sends none (SPEC 2.3): swims are measured in pool
 * lengths, so they default to yards for people who prefer miles and meters otherwise; rowing is
 * measured in meters everywhere (ergometers and race courses); every other activity in the
 * person's preference.
 */
export function defaultDistanceUnits(preference: UnitPreference, activity: ActivityType): DistanceUnits {
  if (activity === 'swimming') return preference === 'miles' ? 'yards' : 'meters';
  if (activity === 'rowing') return 'meters';
  return preference;
}

/** Where people count road distances in miles: the United States, Liberia and Myanmar. */
const MILE_REGIONS = new Set(['US', 'LR', 'MM']);

/**
 * The units a browser's first language (an Accept-Language header) suggests for a new account: miles
 * for `en-US` and the other mile regions, kilometres for any other region or none. The athlete may
 * choose otherwise in their settings.
 */
export function unitsForLanguage(acceptLanguage: string | null | undefined): UnitPreference {
  const first = (acceptLanguage ?? '').split(',')[0]!.split(';')[0]!.trim();
  const region = /^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?-([A-Za-z]{2})\b/.exec(first)?.[1]?.toUpperCase();
  return region && MILE_REGIONS.has(region) ? 'miles' : 'kilometers';
}
