// Enumerations of SPEC.md 2.3, shared by validation, the GraphQL enums and the REST shapes.

/** The five activity types SPEC 2.3 lists (the seed's workouts are of these). */
export const SPEC_ACTIVITY_TYPES = ['running', 'cycling', 'swimming', 'walking', 'fitness'] as const;

/**
 * Every activity type the original service's clients send and expect: SPEC's five, then the rest of
 * the original's list. Stored in snake case (`cc_skiing`); answered in its display form (`Cc Skiing`).
 */
export const ACTIVITY_TYPES = [
  ...SPEC_ACTIVITY_TYPES,
  'cc_skiing',
  'commute',
  'core_fitness',
  'crossfit',
  'cross_training',
  'elliptical',
  'hiking',
  'inline_skating',
  'rock_climbing',
  'rowing',
  'spinning',
  'weights',
  'yoga',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const FEELINGS = ['great', 'good', 'alright', 'blah', 'tired', 'injured'] as const;
export type Felt = (typeof FEELINGS)[number];

export const DISTANCE_UNITS = ['miles', 'kilometers', 'yards', 'meters'] as const;
export type DistanceUnits = (typeof DISTANCE_UNITS)[number];

export const UNIT_PREFERENCES = ['miles', 'kilometers'] as const;
export type UnitPreference = (typeof UNIT_PREFERENCES)[number];

export const ENTRY_KINDS = ['note', 'workout'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/**
 * An activity type in the original service's display form, from its stored or GraphQL spelling:
 * `running` → `Running`, `CC_SKIING` → `Cc Skiing` (COMPAT.md: responses capitalize it).
 */
export function displayActivityType(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * An activity type as clients send it, in any case, with spaces or underscores (`Cc Skiing`,
 * `cc_skiing`, `CC SKIING`), in GraphQL's spelling (`CC_SKIING`); null when it cannot be one.
 */
export function activityTypeName(text: string): string | null {
  const trimmed = text.trim();
  return /^[a-z]+(?:[ _]+[a-z]+)*$/i.test(trimmed) ? trimmed.replace(/[ _]+/g, '_').toUpperCase() : null;
}

/** Narrows a stored string to its enumeration; a value outside it means the data is corrupt. */
export function storedValue<const T extends readonly string[]>(values: T, value: string, column: string): T[number] {
  if ((values as readonly string[]).includes(value)) return value as T[number];
  throw new Error(`stored ${column} "${value}" is not one of ${values.join(', ')}`);
}
