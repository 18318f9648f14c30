// Garmin's Training Center XML (TCX v2), as Garmin Connect, Strava and most watches' software export
// it: the first activity, its laps' totals and the track points with heart rate, cadence and power.
// Read through readXml, with the same bounds as a GPX upload.
import { activityTypeOf, type ImportedActivity, MAX_ACTIVITY_FILE_BYTES } from './activity-file.ts';
import { ValidationError } from './errors.ts';
import { emptyPoint, type GpxPoint } from './gpx.ts';
import { readXml } from './xml-stream.ts';

const TCX_NAMESPACE = 'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2';
const TCX_DEPTH = 32;
const TCX_ELEMENTS = 6_000_000;
const EARLIEST_TIME = Date.UTC(1970, 0, 1);
const LATEST_TIME = Date.UTC(2200, 0, 1);

const fail = (message: string): never => {
  throw ValidationError.field('file', message);
};

function number(text: string, what: string, min: number, max: number): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) fail(`${what} "${text.trim().slice(0, 40)}" is not a number`);
  if (value < min || value > max) fail(`${what} ${text.trim().slice(0, 40)} is outside ${min}..${max}`);
  return value;
}

function time(text: string, what: string): Date {
  const date = new Date(text.trim());
  if (!/^\s*\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text) || Number.isNaN(date.getTime()))
    fail(`${what} "${text.trim().slice(0, 40)}" is not an ISO 8601 time`);
  if (date.getTime() < EARLIEST_TIME || date.getTime() >= LATEST_TIME) fail(`${what} ${text.trim().slice(0, 40)} is outside 1970..2199`);
  return date;
}

type Trackpoint = GpxPoint & { hasPosition: boolean };

/** A part of a trackpoint that just closed (its time, position, elevation, heart rate, cadence, power); `at` names the point. */
function readTrackpointPart(point: Trackpoint, local: string, parent: string | undefined, text: string, at: string): void {
  if (local === 'Time' && parent === 'Trackpoint') point.time = time(text, `${at} Time`);
  else if (local === 'LatitudeDegrees') {
    point.lat = number(text, `${at} LatitudeDegrees`, -90, 90) ?? fail(`${at} has an empty LatitudeDegrees`);
    point.hasPosition = true;
  } else if (local === 'LongitudeDegrees')
    point.lon = number(text, `${at} LongitudeDegrees`, -180, 180) ?? fail(`${at} has an empty LongitudeDegrees`);
  else if (local === 'AltitudeMeters') point.elevation = number(text, `${at} AltitudeMeters`, -100_000, 100_000);
  else if (local === 'Value' && parent === 'HeartRateBpm') point.heartRate = rounded(number(text, `${at} heart rate`, 0, 1000));
  else if ((local === 'Cadence' && parent === 'Trackpoint') || local === 'RunCadence')
    point.cadence = rounded(number(text, `${at} cadence`, 0, 1000));
  else if (local === 'Watts') point.power = rounded(number(text, `${at} Watts`, 0, 10_000));
}

const emptyActivity = (): ImportedActivity => ({
  format: 'tcx',
  activityType: 'fitness',
  startedAt: null,
  distanceMeters: null,
  durationSeconds: null,
  calories: null,
  name: null,
  notes: null,
  repairs: [],
  points: [],
  waypoints: [],
});

/** Parses a TCX document (bytes as they arrive, or all of them); refusals are ValidationErrors on `file`. */
export async function parseTcx(
  source: AsyncIterable<Uint8Array> | Uint8Array | string,
  maxBytes = MAX_ACTIVITY_FILE_BYTES,
): Promise<ImportedActivity> {
  const activity = emptyActivity();
  let rooted = false;
  // 0 before the first <Activity>, 1 inside it, 2 once it closed: later activities are not read
  let phase = 0;
  let sport: string | null = null;
  let segment = -1;
  let point: Trackpoint | null = null;
  let lapDistance = 0;
  let lapSeconds = 0;
  let lapCalories = 0;
  let laps = 0;

  await readXml(
    source,
    { field: 'file', maxBytes, maxDepth: TCX_DEPTH, maxElements: TCX_ELEMENTS },
    {
      open(local, uri, tag, depth) {
        if (depth === 0) {
          if (local !== 'TrainingCenterDatabase' || uri !== TCX_NAMESPACE) fail(`the root element is <${tag.name}>, not TCX v2's`);
          rooted = true;
        }
        if (uri !== TCX_NAMESPACE) return;
        if (local === 'Activity' && phase === 0) {
          phase = 1;
          sport = tag.attributes.Sport?.value ?? null;
        }
        if (phase !== 1) return;
        if (local === 'Lap') {
          laps += 1;
          const start = tag.attributes.StartTime?.value;
          if (start && activity.startedAt === null) activity.startedAt = time(start, `lap ${laps} StartTime`);
        } else if (local === 'Track') segment += 1;
        else if (local === 'Trackpoint') point = { ...emptyPoint(Math.max(segment, 0)), hasPosition: false };
      },
      close(local, _uri, text, parent) {
        if (phase !== 1) return;
        const at = () => `trackpoint ${activity.points.length + 1}`;
        if (point) {
          if (local === 'Trackpoint') {
            // a point without a position (indoors, or no GPS fix yet) has nowhere to be drawn
            if (point.hasPosition) {
              const { hasPosition: _, ...kept } = point;
              activity.points.push(kept);
            }
            point = null;
          } else readTrackpointPart(point, local, parent, text, at());
          return;
        }
        if (parent === 'Lap') {
          if (local === 'TotalTimeSeconds') lapSeconds += number(text, `lap ${laps} TotalTimeSeconds`, 0, 1e7) ?? 0;
          else if (local === 'DistanceMeters') lapDistance += number(text, `lap ${laps} DistanceMeters`, 0, 1e8) ?? 0;
          else if (local === 'Calories') lapCalories += number(text, `lap ${laps} Calories`, 0, 1e6) ?? 0;
        } else if (parent === 'Activity') {
          if (local === 'Id' && activity.startedAt === null && text.trim()) activity.startedAt = time(text, 'the activity Id');
          else if (local === 'Notes') activity.notes = text.trim().slice(0, 5000) || null;
        }
        if (local === 'Activity') phase = 2;
      },
    },
  );
  if (!rooted) fail('is not a TCX document');
  if (phase === 0) fail('holds no <Activity>');
  activity.activityType = activityTypeOf(sport);
  if (laps > 0) {
    activity.distanceMeters = lapDistance;
    activity.durationSeconds = Math.round(lapSeconds);
    activity.calories = lapCalories > 0 ? Math.round(lapCalories) : null;
  }
  activity.startedAt ??= activity.points.find((p) => p.time)?.time ?? null;
  return activity;
}

const rounded = (value: number | null) => (value === null ? null : Math.round(value));
