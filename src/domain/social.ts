// Field rules of comments, routes and profiles.
import { displayNameProblem } from './accounts.ts';
import type { ActivityType, UnitPreference } from './activity.ts';
import { httpUrlProblem } from './entry-input.ts';
import { type FieldIssue, ValidationError } from './errors.ts';
import { MAX_HIDDEN_ENDS_METERS, MAX_ZONE_RADIUS_METERS, MIN_ZONE_RADIUS_METERS, type Zone } from './privacy-zones.ts';
import type { Visibility } from './visibility.ts';

export const COMMENT_MAX = 510;

/** SPEC 4.4: required, at most 510 characters, counted after trimming (and in characters, not bytes). */
export function validateCommentBody(body: string | null | undefined): string {
  const text = (body ?? '').trim();
  if (!text) throw ValidationError.field('body', 'is required');
  if ([...text].length > COMMENT_MAX)
    throw ValidationError.field('body', `must be at most ${COMMENT_MAX} characters (got ${[...text].length})`);
  return text;
}

export function validateRouteInput(input: { name?: string | null; activityType?: ActivityType | null }) {
  const name = input.name?.trim() || null;
  if (name && name.length > 100) throw ValidationError.field('name', 'must be at most 100 characters');
  return { name, activityType: input.activityType ?? null };
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
}

/** Only the fields given change; an empty string clears an optional field. */
export function validateProfile(input: ProfileInput) {
  const issues: FieldIssue[] = [];
  const data: Record<string, string | number | null> = {};
  if (input.displayName !== undefined) {
    const name = input.displayName?.trim() ?? '';
    const problem = displayNameProblem(name);
    if (problem) issues.push({ path: 'displayName', message: problem });
    data.displayName = name;
  }
  for (const [field, max] of [
    ['location', 100],
    ['timeZone', 100],
    ['goal', 200],
  ] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const text = value?.trim() ?? '';
    if (text.length > max) issues.push({ path: field, message: `must be at most ${max} characters` });
    data[field] = text || null;
  }
  if (input.photo && input.photoUrl?.trim())
    issues.push({ path: 'photo', message: 'cannot be given with photoUrl: upload a picture or name one' });
  if (input.photoUrl !== undefined) {
    const url = input.photoUrl?.trim() || null;
    const problem = url ? httpUrlProblem(url) : null;
    if (problem) issues.push({ path: 'photoUrl', message: problem });
    data.photoUrl = url;
  }
  if (input.units !== undefined && input.units !== null) data.units = input.units;
  if (input.defaultVisibility !== undefined && input.defaultVisibility !== null) data.defaultVisibility = input.defaultVisibility;
  if (input.hiddenEndsMeters !== undefined && input.hiddenEndsMeters !== null) {
    const ends = input.hiddenEndsMeters;
    if (!Number.isInteger(ends) || ends < 0 || ends > MAX_HIDDEN_ENDS_METERS)
      issues.push({ path: 'hiddenEndsMeters', message: `must be a whole number of meters from 0 to ${MAX_HIDDEN_ENDS_METERS}` });
    else data.hiddenEndsMeters = ends;
  }
  if (input.statsVisibility !== undefined && input.statsVisibility !== null) data.statsVisibility = input.statsVisibility;
  if (input.weekStart !== undefined && input.weekStart !== null) {
    if (!Number.isInteger(input.weekStart) || input.weekStart < 1 || input.weekStart > 7)
      issues.push({ path: 'weekStart', message: 'must be a weekday from 1 (Monday) to 7 (Sunday)' });
    else data.weekStart = input.weekStart;
  }
  if (issues.length) throw new ValidationError(issues);
  return data;
}

/** A privacy zone a person asks for: a place on Earth and a radius in meters. */
export function validateZone(input: { lat: number; lon: number; radiusMeters: number }): Zone {
  const issues: FieldIssue[] = [];
  if (!Number.isFinite(input.lat) || input.lat < -90 || input.lat > 90)
    issues.push({ path: 'lat', message: 'must be a latitude between -90 and 90' });
  if (!Number.isFinite(input.lon) || input.lon < -180 || input.lon > 180)
    issues.push({ path: 'lon', message: 'must be a longitude between -180 and 180' });
  if (!Number.isFinite(input.radiusMeters) || input.radiusMeters < MIN_ZONE_RADIUS_METERS || input.radiusMeters > MAX_ZONE_RADIUS_METERS)
    issues.push({ path: 'radiusMeters', message: `must be ${MIN_ZONE_RADIUS_METERS} to ${MAX_ZONE_RADIUS_METERS} meters` });
  if (issues.length) throw new ValidationError(issues);
  return { lat: input.lat, lon: input.lon, radiusMeters: input.radiusMeters };
}
