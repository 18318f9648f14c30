// An athlete's gear (shoes, bikes, anything else they wear out): its field rules, and the defaults that
// choose it for a workout that names none. Pure: no I/O.
import { z } from 'zod';
import { ACTIVITY_TYPES, type ActivityType } from './activity.ts';
import { ValidationError } from './errors.ts';
import { checked, optionalText } from './field-rules.ts';

export const GEAR_KINDS = ['shoes', 'bike', 'other'] as const;
export type GearKind = (typeof GEAR_KINDS)[number];

/** Gear one person may keep, retired included: a settings page and a picker list them whole. */
export const MAX_GEAR = 100;

const NAME_MAX = 100;

const requiredName = optionalText(NAME_MAX).pipe(z.string({ error: 'is required' }));

export interface GearInput {
  name?: string | null;
  brand?: string | null;
  model?: string | null;
  kind?: GearKind | null;
  retired?: boolean | null;
}

/** New gear's fields: a name and a kind are required, brand and model at most 100 characters. */
export function validateNewGear(input: GearInput): { name: string; brand: string | null; model: string | null; kind: GearKind } {
  const gear = checked(
    z.object({
      name: requiredName,
      brand: optionalText(NAME_MAX),
      model: optionalText(NAME_MAX),
      kind: z.enum(GEAR_KINDS, { error: `must be one of ${GEAR_KINDS.join(', ')}` }),
    }),
    input,
  );
  return gear;
}

/** The fields a change of gear writes: only those given; the name cannot be cleared, nor the kind. */
export function validateGearChanges(input: GearInput): Partial<{
  name: string;
  brand: string | null;
  model: string | null;
  kind: GearKind;
  retired: boolean;
}> {
  if (input.name === null) throw ValidationError.field('name', 'cannot be cleared');
  if (input.kind === null) throw ValidationError.field('kind', 'cannot be cleared');
  if (input.retired === null) throw ValidationError.field('retired', 'cannot be cleared');
  const shape = z.object({
    name: requiredName.optional(),
    brand: optionalText(NAME_MAX).optional(),
    model: optionalText(NAME_MAX).optional(),
    kind: z.enum(GEAR_KINDS, { error: `must be one of ${GEAR_KINDS.join(', ')}` }).optional(),
    retired: z.boolean().optional(),
  });
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return checked(shape, given) as ReturnType<typeof validateGearChanges>;
}

/** Which gear each activity type defaults to (Person.defaultGear). */
export type DefaultGear = Partial<Record<ActivityType, number>>;

const TYPES = new Set<string>(ACTIVITY_TYPES);

/** Person.defaultGear read back: whatever is not an activity type naming a gear id is left out. */
export function readDefaultGear(json: string | null | undefined): DefaultGear {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '{}');
  } catch {
    return {};
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const defaults: DefaultGear = {};
  for (const [type, id] of Object.entries(parsed)) {
    if (TYPES.has(type) && Number.isSafeInteger(id) && (id as number) > 0) defaults[type as ActivityType] = id as number;
  }
  return defaults;
}

/** The activity types `gearId` is the default of. */
export function defaultsOf(defaults: DefaultGear, gearId: number): ActivityType[] {
  return ACTIVITY_TYPES.filter((type) => defaults[type] === gearId);
}

/**
 * The defaults once `gearId` is the default of exactly `types` (null: as it was): each type another
 * gear was the default of moves to it, and a type left out stops naming it.
 */
export function withDefaults(defaults: DefaultGear, gearId: number, types: readonly ActivityType[] | null): DefaultGear {
  if (types === null) return defaults;
  const next: DefaultGear = {};
  for (const type of ACTIVITY_TYPES) {
    if (types.includes(type)) next[type] = gearId;
    else if (defaults[type] !== undefined && defaults[type] !== gearId) next[type] = defaults[type];
  }
  return next;
}

/** The defaults without `gearIds` (retired or deleted gear is never chosen). */
export function withoutGear(defaults: DefaultGear, gearIds: readonly number[]): DefaultGear {
  return Object.fromEntries(Object.entries(defaults).filter(([, id]) => !gearIds.includes(id))) as DefaultGear;
}
