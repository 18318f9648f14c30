// FIT activity files (Garmin, Wahoo, Coros, Suunto, Zwift…) through Garmin's official FIT SDK: the
// session's sport and totals, and the record messages as track points with heart rate, cadence and
// power. Decoding is synchronous CPU work (about 8 µs a record), so the server runs it off the event
// loop (imports/fit-pool.ts); this module itself does no I/O.
import { Decoder, Stream } from '@garmin/fitsdk';
import { activityTypeOf, type ImportedActivity, MAX_ACTIVITY_FILE_BYTES } from './activity-file.ts';
import { type Recorded, type RecordedLap, soundLaps, soundThresholds } from './analysis.ts';
import { ValidationError } from './errors.ts';
import { normalizeFit } from './fit-records.ts';
import type { GpxPoint } from './gpx.ts';

const SEMICIRCLES_TO_DEGREES = 180 / 2 ** 31;
const EARLIEST_TIME = Date.UTC(1989, 11, 31);
const LATEST_TIME = Date.UTC(2200, 0, 1);

const fail = (message: string): never => {
  throw ValidationError.field('file', message);
};

type Message = Record<string, unknown>;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const date = (value: unknown): Date | null =>
  value instanceof Date && value.getTime() >= EARLIEST_TIME && value.getTime() < LATEST_TIME ? value : null;
const sum = (messages: Message[], field: string): number | null => {
  const values = messages.map((m) => num(m[field])).filter((v) => v !== null);
  return values.length ? values.reduce((a, b) => a + b, 0) : null;
};
const optionalRounded = (value: unknown, max: number) => {
  const n = num(value);
  return n === null || n < 0 || n > max ? null : Math.round(n);
};

/** A lap message as a RecordedLap: its span from its start to its timestamp, and the totals it wrote. */
function recordedLap(lap: Message): RecordedLap | null {
  const start = date(lap.startTime);
  const end = date(lap.timestamp);
  if (!start || !end) return null;
  const positive = (value: unknown, max: number) => {
    const n = num(value);
    return n === null || n < 0 || n > max ? null : n;
  };
  return {
    startMs: start.getTime(),
    endMs: end.getTime(),
    elapsedSeconds: positive(lap.totalElapsedTime, 1e7),
    movingSeconds: positive(lap.totalMovingTime, 1e7) ?? positive(lap.totalTimerTime, 1e7),
    distanceMeters: positive(lap.totalDistance, 1e8),
    averageHeartRate: optionalRounded(lap.avgHeartRate, 260),
    maxHeartRate: optionalRounded(lap.maxHeartRate, 260),
    averageCadence: optionalRounded(lap.avgCadence ?? lap.avgRunningCadence, 300),
    averagePower: optionalRounded(lap.avgPower, 3000),
    maxPower: optionalRounded(lap.maxPower, 5000),
    elevationGain: positive(lap.totalAscent, 1e5),
  };
}

/** The laps and the athlete's thresholds a FIT file recorded (zones target and user profile messages). */
function recordedOf(messages: Record<string, Message[] | undefined>): Recorded {
  const notes: string[] = [];
  const laps: RecordedLap[] = [];
  (messages.lapMesgs ?? []).forEach((message, index) => {
    const lap = recordedLap(message);
    if (lap) laps.push(lap);
    else notes.push(`lap ${index + 1} left out: it has no start or end time`);
  });
  const zones = messages.zonesTargetMesgs?.[0];
  const profile = messages.userProfileMesgs?.[0];
  const thresholds = soundThresholds(
    {
      maxHeartRate: num(zones?.maxHeartRate),
      restingHeartRate: num(profile?.restingHeartRate),
      thresholdPower: num(zones?.functionalThresholdPower),
    },
    notes,
  );
  return { laps: soundLaps(laps, notes), thresholds, notes };
}

/**
 * Reads a FIT file's bytes. A file cut short or damaged is salvaged, as Strava and Garmin Connect do:
 * the records before the damage are read, and `repairs` says so (fit-records.ts). A file with nothing
 * to salvage, or one that is not FIT, is a ValidationError on `file`.
 */
export function parseFit(bytes: Uint8Array): ImportedActivity {
  if (!new Decoder(Stream.fromByteArray(bytes)).isFIT()) fail('is not a FIT file');
  let normalized: ReturnType<typeof normalizeFit>;
  try {
    normalized = normalizeFit(bytes, 2 * MAX_ACTIVITY_FILE_BYTES);
  } catch {
    return fail('is a FIT file too damaged to read');
  }
  const repairs = [...normalized.repairs];
  const { messages, errors } = new Decoder(Stream.fromByteArray(normalized.bytes)).read({ mergeHeartRates: true });
  if (errors.length) {
    // the SDK stopped midway: what it decoded before stands, if it holds an activity
    if (!messages.recordMesgs?.length) fail(`is a corrupt FIT file: ${String(errors[0]?.message ?? errors[0]).slice(0, 200)}`);
    repairs.push(`decoding stopped early (${String(errors[0]?.message ?? errors[0]).slice(0, 120)}): the records before it were read`);
  }
  const fileType = str(messages.fileIdMesgs?.[0]?.type);
  if (fileType !== null && fileType !== 'activity') fail(`is a FIT ${fileType} file, not an activity`);

  const sessions = messages.sessionMesgs ?? [];
  const first = sessions[0];
  const sport = messages.sportMesgs?.[0];
  const points: GpxPoint[] = [];
  for (const record of messages.recordMesgs ?? []) {
    const lat = num(record.positionLat);
    const lon = num(record.positionLong);
    // a record without a position (indoors, or before the GPS fix) has nowhere to be drawn
    if (lat === null || lon === null) continue;
    const latitude = lat * SEMICIRCLES_TO_DEGREES;
    const longitude = lon * SEMICIRCLES_TO_DEGREES;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
    const elevation = num(record.enhancedAltitude) ?? num(record.altitude);
    points.push({
      lat: Math.round(latitude * 1e7) / 1e7,
      lon: Math.round(longitude * 1e7) / 1e7,
      elevation: elevation === null ? null : Math.round(elevation * 100) / 100,
      time: date(record.timestamp),
      heartRate: optionalRounded(record.heartRate, 1000),
      cadence: optionalRounded(record.cadence, 1000),
      segment: 0,
      power: optionalRounded(record.power, 10_000),
    });
  }
  const records = messages.recordMesgs ?? [];
  const startedAt = date(first?.startTime) ?? date(records[0]?.timestamp);
  // without a session (some head units), the last record's distance is the activity's
  const lastDistance = num(records.findLast((r) => num(r.distance) !== null)?.distance);
  const firstTime = date(records[0]?.timestamp);
  const lastTime = date(records.at(-1)?.timestamp);
  const elapsed = firstTime && lastTime && lastTime > firstTime ? (lastTime.getTime() - firstTime.getTime()) / 1000 : null;
  const moving = sum(sessions, 'totalMovingTime') ?? sum(sessions, 'totalTimerTime') ?? elapsed;
  return {
    format: 'fit',
    activityType: activityTypeOf(str(first?.subSport), str(first?.sport), str(sport?.subSport), str(sport?.sport)),
    startedAt,
    distanceMeters: sum(sessions, 'totalDistance') ?? lastDistance,
    durationSeconds: moving === null ? null : Math.round(moving),
    calories: optionalRounded(sum(sessions, 'totalCalories'), 1e6),
    name: str(sport?.name)?.slice(0, 200) || null,
    notes: null,
    points,
    waypoints: [],
    repairs:
      repairs.length && sessions.length === 0 ? [...repairs, 'it has no session: the totals are computed from its records'] : repairs,
    recorded: recordedOf(messages as Record<string, Message[] | undefined>),
  };
}
