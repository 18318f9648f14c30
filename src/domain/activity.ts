// Enumerations of SPEC.md 2.3, shared by validation, the GraphQL enums and the REST shapes.

export const ACTIVITY_TYPES = ['running', 'cycling', 'swimming', 'walking', 'fitness'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const FEELINGS = ['great', 'good', 'alright', 'blah', 'tired', 'injured'] as const;
export type Felt = (typeof FEELINGS)[number];

export const DISTANCE_UNITS = ['miles', 'kilometers', 'yards', 'meters'] as const;
export type DistanceUnits = (typeof DISTANCE_UNITS)[number];

export const UNIT_PREFERENCES = ['miles', 'kilometers'] as const;
export type UnitPreference = (typeof UNIT_PREFERENCES)[number];

export const ENTRY_KINDS = ['note', 'workout'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** `running` → `Running`: responses capitalize the activity type (COMPAT.md). */
export function displayActivityType(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/** Narrows a stored string to its enumeration; a value outside it means the data is corrupt. */
export function storedValue<const T extends readonly string[]>(values: T, value: string, column: string): T[number] {
  if ((values as readonly string[]).includes(value)) return value as T[number];
  throw new Error(`stored ${column} "${value}" is not one of ${values.join(', ')}`);
}
