// Field rules of an entry (SPEC 2.3, 4.3), on input GraphQL has already typed. Issue paths use the
// GraphQL input's names (`workout.distance.value`); the REST layer renames them to its brackets.

import { z } from 'zod';
import type { ActivityType, DistanceUnits, Felt, UnitPreference } from './activity.ts';
import { ValidationError } from './errors.ts';
import { checked, countOrNone, distanceValue, latitude, longitude, optionalText, refuse } from './field-rules.ts';
import { defaultDistanceUnits } from './units.ts';

export const MESSAGE_MAX = 5000;
export const TITLE_MAX = 200;
export const PLACE_MAX = 100;
export const URL_MAX = 2000;

export interface WorkoutInput {
  activityType?: ActivityType | null;
  completedAt?: Date | null;
  distance?: { value?: number | null; units?: DistanceUnits | null } | null;
  duration?: number | null;
  felt?: Felt | null;
  calories?: number | null;
  title?: string | null;
  routeId?: number | null;
  /** One of the athlete's gear; left out, the gear they chose for the activity (Person.defaultGear). */
  gearId?: number | null;
}

export interface CreateEntryInput {
  message?: string | null;
  lat?: number | null;
  lon?: number | null;
  placeName?: string | null;
  workout?: WorkoutInput | null;
  /** A photo by URL, or uploaded (`data`, processed by src/media after these rules passed). */
  media?: { type?: 'image' | null; url?: string | null; previewUrl?: string | null; data?: Blob | null } | null;
}

export interface ValidEntry {
  kind: 'note' | 'workout';
  message: string | null;
  lat: number | null;
  lon: number | null;
  placeName: string | null;
  mediaType: 'image' | null;
  mediaUrl: string | null;
  mediaPreviewUrl: string | null;
  workout: {
    activityType: ActivityType;
    completedAt: Date | null;
    distanceValue: number | null;
    distanceUnits: DistanceUnits | null;
    duration: number | null;
    felt: Felt | null;
    calories: number | null;
    title: string | null;
    routeId: number | null;
    gearId: number | null;
  } | null;
}

/** An absolute http(s) URL, or the reason it is not one. */
export function httpUrlProblem(value: string): string | null {
  if (value.length > URL_MAX) return `must be at most ${URL_MAX} characters`;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http or https URL';
  } catch {
    return 'must be an absolute http or https URL';
  }
}

/** The media of an entry: an image by URL, or uploaded as `data` (checked and stored by src/media). */
const mediaInput = z
  .object({
    type: z.string().nullish(),
    url: z.string().nullish(),
    previewUrl: z.string().nullish(),
    data: z.instanceof(Blob).nullish(),
  })
  .superRefine((media, context) => {
    if (media.type !== 'image') refuse(context, ['type'], 'is required when sharing an image and must be image');
    const url = media.url?.trim() ?? '';
    const uploaded = media.data != null;
    if (uploaded && url) refuse(context, ['url'], 'cannot be given with an uploaded photo (data): send one of them');
    else if (!url && !uploaded) refuse(context, ['url'], 'is required when sharing an image, unless the photo is uploaded as data');
    else if (url) {
      const problem = httpUrlProblem(url);
      if (problem) refuse(context, ['url'], problem);
    }
    const preview = media.previewUrl?.trim() || null;
    if (preview && uploaded) refuse(context, ['previewUrl'], 'is made by the server for an uploaded photo');
    const previewProblem = preview && !uploaded ? httpUrlProblem(preview) : null;
    if (previewProblem) refuse(context, ['previewUrl'], previewProblem);
  })
  .transform((media) => {
    const uploaded = media.data != null;
    return {
      mediaType: 'image' as const,
      mediaUrl: media.url?.trim() || null,
      mediaPreviewUrl: uploaded ? null : media.previewUrl?.trim() || null,
      uploaded,
    };
  });

/** A workout as posted: its activity is required; a distance needs its number. */
const workoutInput = z
  .object({
    activityType: z.custom<ActivityType>((value) => typeof value === 'string').nullish(),
    completedAt: z.date().nullish(),
    distance: z.object({ value: distanceValue.nullish(), units: z.custom<DistanceUnits>().nullish() }).nullish(),
    duration: countOrNone,
    felt: z.custom<Felt>().nullish(),
    calories: countOrNone,
    title: optionalText(TITLE_MAX),
    routeId: z.number().nullish(),
    gearId: z.number().nullish(),
  })
  .superRefine((workout, context) => {
    if (workout.activityType == null) refuse(context, ['activityType'], 'is required when posting a workout');
    if (workout.distance && workout.distance.value == null) refuse(context, ['distance', 'value'], 'is required with distance units');
  });

const entryInput = z
  .object({
    message: optionalText(MESSAGE_MAX),
    placeName: optionalText(PLACE_MAX),
    lat: latitude.nullish().transform((value) => value ?? null),
    lon: longitude.nullish().transform((value) => value ?? null),
    media: mediaInput.nullish(),
    workout: workoutInput.nullish(),
  })
  .superRefine((entry, context) => {
    // a place is both of its coordinates
    if ((entry.lat == null) !== (entry.lon == null))
      refuse(context, [entry.lat == null ? 'lat' : 'lon'], `is required together with ${entry.lat == null ? 'lon' : 'lat'}`);
  });

export function validateCreateEntry(input: CreateEntryInput, preference: UnitPreference): ValidEntry {
  const entry = checked(entryInput, input);
  const { message, placeName, lat, lon } = entry;
  const media = entry.media ?? { mediaType: null, mediaUrl: null, mediaPreviewUrl: null, uploaded: false };
  const posted = entry.workout;
  let workout: ValidEntry['workout'] = null;
  if (posted) {
    const activity = posted.activityType ?? 'running';
    const value = posted.distance?.value ?? null;
    workout = {
      activityType: activity,
      completedAt: posted.completedAt ?? null,
      distanceValue: value,
      distanceUnits: value === null ? null : (posted.distance?.units ?? defaultDistanceUnits(preference, activity)),
      duration: posted.duration,
      felt: posted.felt ?? null,
      calories: posted.calories,
      title: posted.title,
      routeId: posted.routeId ?? null,
      gearId: posted.gearId ?? null,
    };
  }
  if (!message && !workout && !media.mediaUrl && !media.uploaded && lat === null)
    throw ValidationError.field('message', 'an entry needs a message, a workout, an image or a location');
  const { mediaType, mediaUrl, mediaPreviewUrl } = media;
  return { kind: workout ? 'workout' : 'note', message, lat, lon, placeName, mediaType, mediaUrl, mediaPreviewUrl, workout };
}

/** What may change of an entry after it was posted: its message (`null` clears it) and its workout's title. */
export interface EntryEdit {
  message?: string | null;
  workoutTitle?: string | null;
}

/** An entry's edit: each field given is trimmed (blank clears it); a field left out stays as it is. */
const entryEdit = z.object({ message: optionalText(MESSAGE_MAX).optional(), workoutTitle: optionalText(TITLE_MAX).optional() });

/**
 * The edit's fields as they will be stored (a field left out stays as it is). `entry` is what the entry
 * holds besides: an entry left with nothing at all is refused, as at posting.
 */
export function validateEntryEdit(
  input: EntryEdit,
  entry: { hasWorkout: boolean; hasMedia: boolean; hasPlace: boolean },
): { message?: string | null; workoutTitle?: string | null } {
  const schema = entryEdit.superRefine((edit, context) => {
    if (edit.workoutTitle !== undefined && !entry.hasWorkout) refuse(context, ['workoutTitle'], 'can only be given for a workout');
  });
  const edit = checked(schema, input);
  if (edit.message === null && !entry.hasWorkout && !entry.hasMedia && !entry.hasPlace)
    throw ValidationError.field('message', 'an entry needs a message, a workout, an image or a location');
  return edit;
}

/** What may be corrected of a workout after it was posted: each field given replaces the stored one; `null` clears it. */
export type WorkoutEdit = Omit<WorkoutInput, 'title'>;

/** A workout's columns as an edit leaves them: only those the edit names. */
export interface WorkoutChanges {
  activityType?: ActivityType;
  completedAt?: Date | null;
  distanceValue?: number | null;
  distanceUnits?: DistanceUnits | null;
  duration?: number | null;
  felt?: Felt | null;
  calories?: number | null;
  routeId?: number | null;
  gearId?: number | null;
}

/** A workout's correction: the activity may change but not be cleared; a distance needs its number. */
const workoutEdit = z.object({
  activityType: z
    .custom<ActivityType>((value) => value === null || typeof value === 'string')
    .refine((value) => value !== null, { error: 'cannot be cleared: a workout has an activity' })
    .optional(),
  completedAt: z.date().nullable().optional(),
  distance: z
    .object({ value: distanceValue.nullish(), units: z.custom<DistanceUnits>().nullish() })
    .superRefine((distance, context) => {
      if (distance.value == null) refuse(context, ['value'], 'is required with a distance; send distance: null to clear it');
    })
    .nullable()
    .optional(),
  duration: countOrNone.optional(),
  calories: countOrNone.optional(),
  felt: z.custom<Felt>().nullable().optional(),
  routeId: z.number().nullable().optional(),
  gearId: z.number().nullable().optional(),
});

/**
 * The columns a workout edit writes (paths as the GraphQL input names them, under `workout.`). The
 * activity cannot be cleared, only changed; a distance without units keeps the stored units, or takes
 * the person's default for the activity.
 */
export function validateWorkoutEdit(
  input: WorkoutEdit,
  stored: { activityType: ActivityType; distanceUnits: DistanceUnits | null },
  preference: UnitPreference,
): WorkoutChanges {
  const edit = checked(z.object({ workout: workoutEdit }), { workout: input }).workout;
  const changes: WorkoutChanges = {};
  if (edit.activityType != null) changes.activityType = edit.activityType;
  if (edit.completedAt !== undefined) changes.completedAt = edit.completedAt;
  if (edit.distance === null) {
    changes.distanceValue = null;
    changes.distanceUnits = null;
  } else if (edit.distance !== undefined) {
    changes.distanceValue = edit.distance.value ?? null;
    changes.distanceUnits =
      edit.distance.units ?? stored.distanceUnits ?? defaultDistanceUnits(preference, changes.activityType ?? stored.activityType);
  }
  if (edit.duration !== undefined) changes.duration = edit.duration;
  if (edit.calories !== undefined) changes.calories = edit.calories;
  if (edit.felt !== undefined) changes.felt = edit.felt;
  if (edit.routeId !== undefined) changes.routeId = edit.routeId;
  if (edit.gearId !== undefined) changes.gearId = edit.gearId;
  return changes;
}
