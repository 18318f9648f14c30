// Garmin's Training Center XML (TCX v2), as Garmin Connect, Strava and most watches' software export
// it: the first activity, its laps' totals and the track points with heart rate, cadence and power.
// Read through readXml, with the same bounds as a GPX upload.
import { activityTypeOf, type ImportedActivity, MAX_ACTIVITY_FILE_BYTES } from './activity-file.ts';
import { type RecordedLap, soundLaps } from './analysis.ts';
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

/** A lap's own figure (average heart rate, cadence, watts): a value out of bounds is left out, never refused. */
function lapFigure(text: string, max: number): number | null {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= max ? Math.round(value) : null;
}

/**
 * The laps of an activity as they are read: each `<Lap>`'s own figures and span (from its start to its
 * last timed point), and the activity's totals, which are its laps' sums.
 */
class Laps {
  count = 0;
  readonly totals = { meters: 0, seconds: 0, calories: 0 };
  readonly recorded: RecordedLap[] = [];
  readonly notes: string[] = [];
  private open: { startMs: number | null; from: number; lap: Omit<RecordedLap, 'startMs' | 'endMs'> } | null = null;

  begin(startedAt: Date | null, from: number): void {
    this.open = {
      startMs: startedAt?.getTime() ?? null,
      from,
      lap: {
        elapsedSeconds: null,
        movingSeconds: null,
        distanceMeters: null,
        averageHeartRate: null,
        maxHeartRate: null,
        averageCadence: null,
        averagePower: null,
        maxPower: null,
        elevationGain: null,
      },
    };
  }

  /** A part of the lap that just closed, outside its track; the lap itself when `local` is `Lap`. */
  read(local: string, parent: string | undefined, text: string, points: GpxPoint[]): void {
    const open = this.open;
    if (!open) return;
    if (local === 'Lap') {
      this.end(points);
      return;
    }
    if (parent === 'Lap' && local === 'TotalTimeSeconds') {
      open.lap.movingSeconds = number(text, `lap ${this.count} TotalTimeSeconds`, 0, 1e7) ?? 0;
      this.totals.seconds += open.lap.movingSeconds;
    } else if (parent === 'Lap' && local === 'DistanceMeters') {
      open.lap.distanceMeters = number(text, `lap ${this.count} DistanceMeters`, 0, 1e8) ?? 0;
      this.totals.meters += open.lap.distanceMeters;
    } else if (parent === 'Lap' && local === 'Calories') this.totals.calories += number(text, `lap ${this.count} Calories`, 0, 1e6) ?? 0;
    else if (local === 'Value' && parent === 'AverageHeartRateBpm') open.lap.averageHeartRate = lapFigure(text, 260);
    else if (local === 'Value' && parent === 'MaximumHeartRateBpm') open.lap.maxHeartRate = lapFigure(text, 260);
    else if ((local === 'Cadence' && parent === 'Lap') || local === 'AvgRunCadence') open.lap.averageCadence = lapFigure(text, 300);
    else if (local === 'AvgWatts') open.lap.averagePower = lapFigure(text, 3000);
    else if (local === 'MaxWatts') open.lap.maxPower = lapFigure(text, 5000);
  }

  private end(points: GpxPoint[]): void {
    const { startMs, from, lap } = this.open!;
    this.open = null;
    const first =
      startMs ??
      points
        .slice(from)
        .find((point) => point.time !== null)
        ?.time?.getTime();
    const last = points
      .slice(from)
      .findLast((point) => point.time !== null)
      ?.time?.getTime();
    const end = last ?? (first === undefined || lap.movingSeconds === null ? undefined : first + lap.movingSeconds * 1000);
    if (first === undefined || end === undefined) this.notes.push(`lap ${this.count} left out: it has no start time and no timed point`);
    else this.recorded.push({ startMs: first, endMs: end, ...lap });
  }
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
  recorded: null,
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
  const laps = new Laps();

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
          laps.count += 1;
          const start = tag.attributes.StartTime?.value;
          const startedAt = start ? time(start, `lap ${laps.count} StartTime`) : null;
          if (startedAt && activity.startedAt === null) activity.startedAt = startedAt;
          laps.begin(startedAt, activity.points.length);
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
        laps.read(local, parent, text, activity.points);
        if (parent === 'Activity') {
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
  if (laps.count > 0) {
    activity.distanceMeters = laps.totals.meters;
    activity.durationSeconds = Math.round(laps.totals.seconds);
    activity.calories = laps.totals.calories > 0 ? Math.round(laps.totals.calories) : null;
  }
  activity.startedAt ??= activity.points.find((p) => p.time)?.time ?? null;
  activity.recorded = { laps: soundLaps(laps.recorded, laps.notes), thresholds: null, notes: laps.notes };
  return activity;
}

const rounded = (value: number | null) => (value === null ? null : Math.round(value));
