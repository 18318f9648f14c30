// Field rules of comments, routes and profiles.

import { z } from 'zod';
import { displayNameProblem } from './accounts.ts';
import type { ActivityType, UnitPreference } from './activity.ts';
import { httpUrlProblem } from './entry-input.ts';
import type { FieldIssue } from './errors.ts';
import { checked, latitude, longitude, optionalText, refuse } from './field-rules.ts';
import { MAX_HIDDEN_ENDS_METERS, MAX_ZONE_RADIUS_METERS, MIN_ZONE_RADIUS_METERS, type Zone } from './privacy-zones.ts';
import type { Visibility } from './visibility.ts';

export const COMMENT_MAX = 510;

/** SPEC 4.4: required, at most 510 characters, counted after trimming (and in characters, not bytes). */
const commentBody = z
  .string()
  .nullish()
  .transform((body) => (body ?? '').trim())
  .pipe(
    z
      .string()
      .min(1, { error: 'is required' })
      .superRefine((text, context) => {
        const characters = [...text].length;
        if (characters > COMMENT_MAX) refuse(context, [], `must be at most ${COMMENT_MAX} characters (got ${characters})`);
      }),
  );

export function validateCommentBody(body: string | null | undefined): string {
  return checked(z.object({ body: commentBody }), { body }).body;
}

const routeInput = z.object({ name: optionalText(100), activityType: z.custom<ActivityType>().nullish() });

export function validateRouteInput(input: { name?: string | null; activityType?: ActivityType | null }) {
  const route = checked(routeInput, input);
  return { name: route.name, activityType: route.activityType ?? null };
}

export interface ProfileInput {
  displayName?: string | null;
  location?: string | null;
  timeZone?: string | null;
  photoUrl?: string | null;
  /** Whether a picture is uploaded as well (`photo`): it takes the place of `photoUrl`, so not both. */
  photo?: boolean;
  goal?: string | null;
  units?: UnitPreference | null;
  defaultVisibility?: Visibility | null;
  hiddenEndsMeters?: number | null;
  statsVisibility?: Visibility | null;
  /** ISO weekday, 1 (Monday) to 7 (Sunday) */
  weekStart?: number | null;
  /** Beats a minute and watts for zones (domain/zones.ts); 0 clears one. */
  maxHeartRate?: number | null;
  restingHeartRate?: number | null;
  thresholdPower?: number | null;
}

/** A field given as text: trimmed, and checked by `problem` (the reason it is refused, or null). */
const checkedText = (problem: (text: string) => string | null) =>
  z
    .string()
    .nullish()
    .transform((value) => value?.trim() ?? '')
    .superRefine((text, context) => {
      const reason = problem(text);
      if (reason) refuse(context, [], reason);
    });

const wholeNumberIn = (min: number, max: number, message: string) =>
  z.number().refine((value) => Number.isInteger(value) && value >= min && value <= max, { error: message });

/** The bounds of the thresholds zones are made of: a human's, as a device would also record them. */
export const THRESHOLD_BOUNDS = {
  maxHeartRate: [100, 250],
  restingHeartRate: [25, 120],
  thresholdPower: [30, 2000],
} as const;

/** A threshold within its bounds; 0 clears it (stored as null). */
const threshold = ([min, max]: readonly [number, number], unit: string) =>
  z
    .number()
    .refine((value) => value === 0 || (Number.isInteger(value) && value >= min && value <= max), {
      error: `must be a whole number of ${unit} from ${min} to ${max}, or 0 for none`,
    })
    .transform((value) => (value === 0 ? null : value));

/** A resting heart rate must stay below the maximum, whichever of them changes (`stored` is what stays). */
export function thresholdsProblem(
  changed: { maxHeartRate?: number | null; restingHeartRate?: number | null },
  stored: { maxHeartRate: number | null; restingHeartRate: number | null },
): FieldIssue | null {
  const max = changed.maxHeartRate === undefined ? stored.maxHeartRate : changed.maxHeartRate;
  const rest = changed.restingHeartRate === undefined ? stored.restingHeartRate : changed.restingHeartRate;
  if (max === null || rest === null || rest < max) return null;
  const path = changed.restingHeartRate !== undefined ? 'restingHeartRate' : 'maxHeartRate';
  return { path, message: `must leave the resting heart rate (${rest}) below the maximum (${max})` };
}

const profileInput = z
  .object({
    displayName: checkedText(displayNameProblem).optional(),
    location: optionalText(100).optional(),
    timeZone: optionalText(100).optional(),
    goal: optionalText(200).optional(),
    photoUrl: checkedText((url) => (url ? httpUrlProblem(url) : null))
      .transform((url) => url || null)
      .optional(),
    photo: z.boolean().optional(),
    units: z.custom<UnitPreference>().nullish(),
    defaultVisibility: z.custom<Visibility>().nullish(),
    hiddenEndsMeters: wholeNumberIn(
      0,
      MAX_HIDDEN_ENDS_METERS,
      `must be a whole number of meters from 0 to ${MAX_HIDDEN_ENDS_METERS}`,
    ).nullish(),
    statsVisibility: z.custom<Visibility>().nullish(),
    weekStart: wholeNumberIn(1, 7, 'must be a weekday from 1 (Monday) to 7 (Sunday)').nullish(),
    maxHeartRate: threshold(THRESHOLD_BOUNDS.maxHeartRate, 'beats a minute').nullish(),
    restingHeartRate: threshold(THRESHOLD_BOUNDS.restingHeartRate, 'beats a minute').nullish(),
    thresholdPower: threshold(THRESHOLD_BOUNDS.thresholdPower, 'watts').nullish(),
  })
  .superRefine((profile, context) => {
    if (profile.photo && profile.photoUrl) refuse(context, ['photo'], 'cannot be given with photoUrl: upload a picture or name one');
  });

/** Only the fields given change; an empty string clears an optional field. */
export function validateProfile(input: ProfileInput) {
  const { photo: _photo, ...profile } = checked(profileInput, input);
  // a text sent empty (or null) clears it, a threshold sent as 0 too; a choice or number sent as null leaves what is stored
  const clearable = new Set(['location', 'timeZone', 'goal', 'photoUrl']);
  for (const field of ['maxHeartRate', 'restingHeartRate', 'thresholdPower'] as const) if (input[field] != null) clearable.add(field);
  return Object.fromEntries(
    Object.entries(profile).filter(([field, value]) => value !== undefined && (value !== null || clearable.has(field))),
  ) as Record<string, string | number | null>;
}

/** A privacy zone a person asks for: a place on Earth and a radius in meters. */
const zoneInput = z.object({
  lat: latitude,
  lon: longitude,
  radiusMeters: z
    .number()
    .refine((radius) => Number.isFinite(radius) && radius >= MIN_ZONE_RADIUS_METERS && radius <= MAX_ZONE_RADIUS_METERS, {
      error: `must be ${MIN_ZONE_RADIUS_METERS} to ${MAX_ZONE_RADIUS_METERS} meters`,
    }),
});

export function validateZone(input: { lat: number; lon: number; radiusMeters: number }): Zone {
  const { lat, lon, radiusMeters } = checked(zoneInput, input);
  return { lat, lon, radiusMeters };
}
