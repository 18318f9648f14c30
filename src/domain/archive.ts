// The rules of an archive import, without I/O: what a zip may hold before it is refused,
// how a Strava export's CSV row and a Milepost export's entry become entries. Archives are hostile
// input like any other: every value read from them is checked here.
import { ACTIVITY_TYPES, type ActivityType, DISTANCE_UNITS, FEELINGS } from './activity.ts';
import type { ImportedRow } from './activity-file.ts';
import { MAX_LAPS, type Recorded, type RecordedLap, soundLaps, soundThresholds } from './analysis.ts';
import { ValidationError } from './errors.ts';
import { GEAR_KINDS, type GearKind, MAX_GEAR } from './gear.ts';
import { VISIBILITIES } from './visibility.ts';

/** Files an archive may list: a decade of daily activities with photos is under 10,000. */
export const MAX_ARCHIVE_FILES = 200_000;
/** What all the files of an archive may add up to, uncompressed. */
export const MAX_ARCHIVE_UNCOMPRESSED = 16 * 1024 ** 3;
/** A file that inflates more than this many times over is a zip bomb: real activity files stay under 20×. */
export const MAX_COMPRESSION_RATIO = 200;
/** The CSV or the entries list may be this large; each activity, track or photo file is bounded by its reader. */
export const MAX_LIST_BYTES = 512 * 1024 * 1024;
/** A line of entries.json holds one entry without its track or photo (those are files of their own). */
export const MAX_LINE_BYTES = 1024 * 1024;
/**
 * What a whole archive may inflate to, over its own size: a zip of 2,000 files of 1 MiB of spaces each
 * (2.3 MB) inflated to 2 GB, within the bound of each file. Real exports hold compressed activity
 * files (gzip, FIT, photos) and stay far under it.
 */
export const MAX_ARCHIVE_RATIO = 50;
/** ...besides this much, whatever the archive's size (a small export of plain GPX files). */
export const ARCHIVE_INFLATION_ALLOWANCE = 256 * 1024 * 1024;
/** An imported entry may be dated at most this long after the import (clocks differ). */
export const FUTURE_SLACK_MS = 24 * 3600 * 1000;

const refuse = (message: string): never => {
  throw ValidationError.field('file', message);
};

/** Refuses an archive for one of its files: a path that would escape a folder, or a bomb. */
export function checkArchiveFile(name: string, compressedSize: number, uncompressedSize: number): void {
  if (name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..'))
    refuse(`holds a path that escapes the archive ("${name.slice(0, 100)}"): it is refused`);
  if (uncompressedSize > 1024 * 1024 && uncompressedSize > compressedSize * MAX_COMPRESSION_RATIO)
    refuse(
      `"${name.slice(0, 100)}" inflates ${Math.round(uncompressedSize / Math.max(compressedSize, 1))} times over: a zip bomb is refused`,
    );
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Strava's "Activity Date" (`Jan 5, 2020, 5:03:21 PM`, UTC), or ISO 8601; null when it is neither. */
export function parseExportDate(text: string | undefined): Date | null {
  if (!text) return null;
  const strava = /^([A-Za-z]{3})\w* (\d{1,2}), (\d{4}),? (\d{1,2}):(\d\d):(\d\d) ?([AP]M)?$/i.exec(text.trim());
  if (strava) {
    const month = MONTHS.indexOf(strava[1]!.toLowerCase());
    let hour = Number(strava[4]) % 12;
    if (strava[7]?.toUpperCase() === 'PM') hour += 12;
    else if (!strava[7]) hour = Number(strava[4]);
    const date = new Date(Date.UTC(Number(strava[3]), month, Number(strava[2]), hour, Number(strava[5]), Number(strava[6])));
    return month < 0 || Number.isNaN(date.getTime()) ? null : date;
  }
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text.trim())) return null;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) || date.getFullYear() < 1970 || date.getFullYear() >= 2200 ? null : date;
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) || null : null);
const finite = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? value : null;
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | null =>
  typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : null;
const when = (value: unknown) => (typeof value === 'string' ? parseExportDate(value) : null);

/**
 * An entry of a Milepost export (entries.json) as the entry to make again: every value checked, what
 * is out of range left out; `track` and `photo` name the files that go with it. Null when the value
 * is not an entry at all.
 */
export function exportedEntry(
  value: unknown,
  fallbackVisibility: string,
): { row: ImportedRow; track: string | null; photo: string | null; gear: number | null; recorded: Recorded | null } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entry = value as Record<string, unknown>;
  const workout = typeof entry.workout === 'object' && entry.workout !== null ? (entry.workout as Record<string, unknown>) : null;
  const lat = finite(entry.lat, -90, 90);
  const lon = finite(entry.lon, -180, 180);
  const distanceValue = finite(workout?.distanceValue, 0, 1e7);
  const distanceUnits = oneOf(DISTANCE_UNITS, workout?.distanceUnits);
  const row: ImportedRow = {
    message: text(entry.message, 5000),
    lat: lat !== null && lon !== null ? lat : null,
    lon: lat !== null && lon !== null ? lon : null,
    placeName: text(entry.placeName, 200),
    visibility: oneOf(VISIBILITIES, entry.visibility) ?? fallbackVisibility,
    createdAt: when(entry.createdAt) ?? new Date(),
    workout: workout
      ? {
          activityType: oneOf(ACTIVITY_TYPES, workout.activityType) ?? 'fitness',
          completedAt: when(workout.completedAt),
          ...(distanceValue !== null && distanceUnits ? { distanceValue, distanceUnits } : {}),
          duration: finite(workout.duration, 0, 1e7),
          felt: oneOf(FEELINGS, workout.felt),
          calories: finite(workout.calories, 0, 1e6),
          title: text(workout.title, 200),
        }
      : null,
  };
  if (row.workout?.duration != null) row.workout.duration = Math.round(row.workout.duration);
  if (row.workout?.calories != null) row.workout.calories = Math.round(row.workout.calories);
  const track = text(entry.track, 300);
  const photo = text(entry.photo, 300);
  const gear = finite(workout?.gearId, 1, Number.MAX_SAFE_INTEGER);
  return {
    row,
    track: track?.startsWith('tracks/') ? track : null,
    photo: photo?.startsWith('photos/') ? photo : null,
    gear: gear !== null && Number.isInteger(gear) ? gear : null,
    recorded: exportedRecorded(entry.recorded),
  };
}

const LAP_FIGURES = [
  'elapsedSeconds',
  'movingSeconds',
  'distanceMeters',
  'averageHeartRate',
  'maxHeartRate',
  'averageCadence',
  'averagePower',
  'maxPower',
  'elevationGain',
] as const;

/**
 * What a Milepost export's entry says its device recorded beyond the track (`recorded`: laps and
 * thresholds), as sound as a file's own (analysis.ts soundLaps and soundThresholds); null when it says
 * nothing usable.
 */
export function exportedRecorded(value: unknown): Recorded | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const recorded = value as Record<string, unknown>;
  const notes = Array.isArray(recorded.notes) ? recorded.notes.slice(0, 20).flatMap((note) => text(note, 300) ?? []) : [];
  const laps: RecordedLap[] = [];
  for (const item of Array.isArray(recorded.laps) ? recorded.laps.slice(0, MAX_LAPS + 1) : []) {
    if (typeof item !== 'object' || item === null) continue;
    const lap = item as Record<string, unknown>;
    const startMs = finite(lap.startMs, 0, 8.64e15);
    const endMs = finite(lap.endMs, 0, 8.64e15);
    if (startMs === null || endMs === null) continue;
    const figures = Object.fromEntries(LAP_FIGURES.map((name) => [name, finite(lap[name], 0, 1e9)])) as Record<
      (typeof LAP_FIGURES)[number],
      number | null
    >;
    laps.push({ startMs, endMs, ...figures });
  }
  const given =
    typeof recorded.thresholds === 'object' && recorded.thresholds !== null ? (recorded.thresholds as Record<string, unknown>) : null;
  const thresholds = given
    ? soundThresholds(
        {
          maxHeartRate: finite(given.maxHeartRate, 0, 1e4),
          restingHeartRate: finite(given.restingHeartRate, 0, 1e4),
          thresholdPower: finite(given.thresholdPower, 0, 1e5),
        },
        notes,
      )
    : null;
  const sound = soundLaps(laps, notes);
  return sound.length > 0 || thresholds !== null ? { laps: sound, thresholds, notes } : null;
}

/** Gear of a Milepost export (gear.json) as it is made again, under the id the export's workouts name it by. */
export interface ExportedGear {
  id: number;
  name: string;
  brand: string | null;
  model: string | null;
  kind: GearKind;
  retired: boolean;
  defaultFor: ActivityType[];
}

/** The gear of a Milepost export's gear.json: every value checked, what is not gear left out, at most MAX_GEAR. */
export function exportedGear(value: unknown): ExportedGear[] {
  if (!Array.isArray(value)) return [];
  const gear: ExportedGear[] = [];
  for (const item of value.slice(0, MAX_GEAR)) {
    if (typeof item !== 'object' || item === null) continue;
    const row = item as Record<string, unknown>;
    const id = finite(row.id, 1, Number.MAX_SAFE_INTEGER);
    const name = text(row.name, 100);
    if (id === null || !Number.isInteger(id) || name === null) continue;
    const types = Array.isArray(row.defaultFor) ? row.defaultFor : [];
    gear.push({
      id,
      name,
      brand: text(row.brand, 100),
      model: text(row.model, 100),
      kind: oneOf(GEAR_KINDS, row.kind) ?? 'other',
      retired: row.retired === true,
      defaultFor: row.retired === true ? [] : types.flatMap((type) => oneOf(ACTIVITY_TYPES, type) ?? []),
    });
  }
  return gear;
}
