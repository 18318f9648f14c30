// Distance units: conversions and the default units of a workout.
import type { ActivityType, DistanceUnits, UnitPreference } from './activity.ts';

export const METERS_PER: Record<DistanceUnits, number> = {
  meters: 1,
  kilometers: 1000,
  yards: 0.9144,
  miles: 1609.344,
};

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
