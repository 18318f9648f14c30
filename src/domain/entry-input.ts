// Field rules of an entry (SPEC 2.3, 4.3), on input GraphQL has already typed. Issue paths use the
// GraphQL input's names (`workout.distance.value`); the REST layer renames them to its brackets.

import type { ActivityType, DistanceUnits, Felt, UnitPreference } from './activity.ts';
import { type FieldIssue, ValidationError } from './errors.ts';
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

function optionalText(issues: FieldIssue[], path: string, value: string | null | undefined, max: number): string | null {
  const text = value?.trim() ?? '';
  if (text.length > max) issues.push({ path, message: `must be at most ${max} characters` });
  return text || null;
}

function nonNegativeInteger(issues: FieldIssue[], path: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < 0) issues.push({ path, message: 'must be a whole number, 0 or more' });
  return value;
}

export function validateCreateEntry(input: CreateEntryInput, preference: UnitPreference): ValidEntry {
  const issues: FieldIssue[] = [];
  const message = optionalText(issues, 'message', input.message, MESSAGE_MAX);
  const placeName = optionalText(issues, 'placeName', input.placeName, PLACE_MAX);

  const lat = input.lat ?? null;
  const lon = input.lon ?? null;
  if ((lat === null) !== (lon === null))
    issues.push({ path: lat === null ? 'lat' : 'lon', message: `is required together with ${lat === null ? 'lon' : 'lat'}` });
  if (lat !== null && (!Number.isFinite(lat) || lat < -90 || lat > 90))
    issues.push({ path: 'lat', message: 'must be a latitude between -90 and 90' });
  if (lon !== null && (!Number.isFinite(lon) || lon < -180 || lon > 180))
    issues.push({ path: 'lon', message: 'must be a longitude between -180 and 180' });

  let media: Pick<ValidEntry, 'mediaType' | 'mediaUrl' | 'mediaPreviewUrl'> = { mediaType: null, mediaUrl: null, mediaPreviewUrl: null };
  let uploaded = false;
  if (input.media) {
    if (input.media.type !== 'image') issues.push({ path: 'media.type', message: 'is required when sharing an image and must be image' });
    const url = input.media.url?.trim() ?? '';
    uploaded = input.media.data != null;
    if (uploaded && url) issues.push({ path: 'media.url', message: 'cannot be given with an uploaded photo (data): send one of them' });
    else if (!url && !uploaded)
      issues.push({ path: 'media.url', message: 'is required when sharing an image, unless the photo is uploaded as data' });
    else if (url) {
      const problem = httpUrlProblem(url);
      if (problem) issues.push({ path: 'media.url', message: problem });
    }
    const preview = input.media.previewUrl?.trim() || null;
    if (preview && uploaded) issues.push({ path: 'media.previewUrl', message: 'is made by the server for an uploaded photo' });
    const previewProblem = preview && !uploaded ? httpUrlProblem(preview) : null;
    if (previewProblem) issues.push({ path: 'media.previewUrl', message: previewProblem });
    media = { mediaType: 'image', mediaUrl: url || null, mediaPreviewUrl: uploaded ? null : preview };
  }

  let workout: ValidEntry['workout'] = null;
  if (input.workout) {
    const w = input.workout;
    if (!w.activityType) issues.push({ path: 'workout.activityType', message: 'is required when posting a workout' });
    const value = w.distance?.value ?? null;
    if (w.distance && value === null) issues.push({ path: 'workout.distance.value', message: 'is required with distance units' });
    if (value !== null && (!Number.isFinite(value) || value < 0))
      issues.push({ path: 'workout.distance.value', message: 'must be a number, 0 or more' });
    const activity = w.activityType ?? 'running';
    workout = {
      activityType: activity,
      completedAt: w.completedAt ?? null,
      distanceValue: value,
      distanceUnits: value === null ? null : (w.distance?.units ?? defaultDistanceUnits(preference, activity)),
      duration: nonNegativeInteger(issues, 'workout.duration', w.duration),
      felt: w.felt ?? null,
      calories: nonNegativeInteger(issues, 'workout.calories', w.calories),
      title: optionalText(issues, 'workout.title', w.title, TITLE_MAX),
      routeId: w.routeId ?? null,
    };
  }

  if (!message && !workout && !media.mediaUrl && !uploaded && lat === null && issues.length === 0) {
    issues.push({ path: 'message', message: 'an entry needs a message, a workout, an image or a location' });
  }
  if (issues.length) throw new ValidationError(issues);
  return { kind: workout ? 'workout' : 'note', message, lat, lon, placeName, ...media, workout };
}

/** What may change of an entry after it was posted: its message (`null` clears it) and its workout's title. */
export interface EntryEdit {
  message?: string | null;
  workoutTitle?: string | null;
}

/**
 * The edit's fields as they will be stored (a field left out stays as it is). `entry` is what the entry
 * holds besides: an entry left with nothing at all is refused, as at posting.
 */
export function validateEntryEdit(
  input: EntryEdit,
  entry: { hasWorkout: boolean; hasMedia: boolean; hasPlace: boolean },
): { message?: string | null; workoutTitle?: string | null } {
  const issues: FieldIssue[] = [];
  const edit: { message?: string | null; workoutTitle?: string | null } = {};
  if (input.message !== undefined) edit.message = optionalText(issues, 'message', input.message, MESSAGE_MAX);
  if (input.workoutTitle !== undefined) {
    if (!entry.hasWorkout) issues.push({ path: 'workoutTitle', message: 'can only be given for a workout' });
    edit.workoutTitle = optionalText(issues, 'workoutTitle', input.workoutTitle, TITLE_MAX);
  }
  if (edit.message === null && !entry.hasWorkout && !entry.hasMedia && !entry.hasPlace && issues.length === 0)
    issues.push({ path: 'message', message: 'an entry needs a message, a workout, an image or a location' });
  if (issues.length) throw new ValidationError(issues);
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
}

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
  const issues: FieldIssue[] = [];
  const changes: WorkoutChanges = {};
  if (input.activityType === null) issues.push({ path: 'workout.activityType', message: 'cannot be cleared: a workout has an activity' });
  else if (input.activityType !== undefined) changes.activityType = input.activityType;
  if (input.completedAt !== undefined) changes.completedAt = input.completedAt;
  if (input.distance === null) {
    changes.distanceValue = null;
    changes.distanceUnits = null;
  } else if (input.distance !== undefined) {
    const value = input.distance.value ?? null;
    if (value === null)
      issues.push({ path: 'workout.distance.value', message: 'is required with a distance; send distance: null to clear it' });
    else if (!Number.isFinite(value) || value < 0) issues.push({ path: 'workout.distance.value', message: 'must be a number, 0 or more' });
    changes.distanceValue = value;
    changes.distanceUnits =
      input.distance.units ?? stored.distanceUnits ?? defaultDistanceUnits(preference, changes.activityType ?? stored.activityType);
  }
  if (input.duration !== undefined) changes.duration = nonNegativeInteger(issues, 'workout.duration', input.duration);
  if (input.calories !== undefined) changes.calories = nonNegativeInteger(issues, 'workout.calories', input.calories);
  if (input.felt !== undefined) changes.felt = input.felt;
  if (input.routeId !== undefined) changes.routeId = input.routeId;
  if (issues.length) throw new ValidationError(issues);
  return changes;
}
