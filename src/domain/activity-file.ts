// An activity file as a watch or another service writes it (FIT, TCX, GPX), reduced to what a workout
// entry holds: its type, start, distance, moving time, calories and the track. The format is told by
// the bytes, never by the file's name; parsing is in fit.ts, tcx.ts and gpx.ts.
import type { ActivityType } from './activity.ts';
import type { Recorded } from './analysis.ts';
import { ValidationError } from './errors.ts';
import type { GpxPoint, GpxWaypoint } from './gpx.ts';

export type ActivityFormat = 'fit' | 'tcx' | 'gpx';

export interface ImportedActivity {
  format: ActivityFormat;
  activityType: ActivityType;
  /** When the activity began: the workout's `completedAt`, as the original service stored it. */
  startedAt: Date | null;
  distanceMeters: number | null;
  /** Moving (timer) seconds: pauses left out. */
  durationSeconds: number | null;
  calories: number | null;
  /** A title the file gives the activity, if any. */
  name: string | null;
  /** Notes the athlete wrote in the file (TCX `<Notes>`). */
  notes: string | null;
  points: GpxPoint[];
  waypoints: GpxWaypoint[];
  /** What was salvaged or dropped to read the file, one sentence each (empty for a clean one). */
  repairs: string[];
  /** The laps and thresholds the file recorded, as far as they are sound; null for a GPX. */
  recorded: Recorded | null;
}

/** An entry as an import makes it: every column but its author, hash and id. */
export interface ImportedRow {
  message: string | null;
  lat?: number | null;
  lon?: number | null;
  placeName?: string | null;
  mediaType?: string | null;
  mediaUrl?: string | null;
  mediaPreviewUrl?: string | null;
  visibility: string;
  createdAt?: Date;
  workout: {
    activityType: string;
    completedAt: Date | null;
    distanceValue?: number | null;
    distanceUnits?: string | null;
    duration: number | null;
    felt?: string | null;
    calories: number | null;
    title: string | null;
    gearId?: number | null;
  } | null;
}

/** An activity file, once uncompressed, may be this large (the GPX upload's limit). */
export const MAX_ACTIVITY_FILE_BYTES = 20 * 1024 * 1024;

export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The format of an (uncompressed) activity file, from its first bytes; null when it is none of them. */
export function detectFormat(bytes: Uint8Array): ActivityFormat | null {
  // FIT: a 12- or 14-byte header whose bytes 8-11 spell ".FIT"
  if (bytes.length >= 12 && (bytes[0] === 12 || bytes[0] === 14) && String.fromCharCode(...bytes.subarray(8, 12)) === '.FIT') return 'fit';
  // XML: the root element's name, past any declaration, comments and byte-order mark (UTF-16's zero
  // bytes dropped so that its ASCII reads the same)
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1').replaceAll('\0', '');
  const root = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(head.replace(/<!--[\s\S]*?-->/g, ''))?.[1];
  if (root === 'TrainingCenterDatabase') return 'tcx';
  if (root === 'gpx') return 'gpx';
  return null;
}

const fileError = (message: string) => ValidationError.field('file', message);

/** Refuses an activity that holds nothing a workout could be made of. */
export function requireUsable<A extends ImportedActivity>(activity: A, pointCount = activity.points.length): A {
  const usable = pointCount > 0 || (activity.distanceMeters ?? 0) > 0 || (activity.durationSeconds ?? 0) > 0 || activity.startedAt !== null;
  if (!usable) throw fileError(`holds no usable data: no track points, distance, duration or start time`);
  return activity;
}

/** Activity types by the names FIT, TCX, GPX and Strava's exports give them, lower case without separators. */
const TYPES: Record<string, ActivityType> = {
  running: 'running',
  run: 'running',
  trailrun: 'running',
  trailrunning: 'running',
  virtualrun: 'running',
  treadmill: 'running',
  cycling: 'cycling',
  biking: 'cycling',
  ride: 'cycling',
  bike: 'cycling',
  virtualride: 'cycling',
  mountainbikeride: 'cycling',
  gravelride: 'cycling',
  ebikeride: 'cycling',
  ebiking: 'cycling',
  gravelcycling: 'cycling',
  indoorcycling: 'spinning',
  spinning: 'spinning',
  swimming: 'swimming',
  swim: 'swimming',
  lapswimming: 'swimming',
  openwater: 'swimming',
  walking: 'walking',
  walk: 'walking',
  hiking: 'hiking',
  hike: 'hiking',
  crosscountryskiing: 'cc_skiing',
  nordicski: 'cc_skiing',
  backcountryski: 'cc_skiing',
  inlineskating: 'inline_skating',
  inlineskate: 'inline_skating',
  rockclimbing: 'rock_climbing',
  climbing: 'rock_climbing',
  rowing: 'rowing',
  indoorrowing: 'rowing',
  elliptical: 'elliptical',
  yoga: 'yoga',
  strengthtraining: 'weights',
  weighttraining: 'weights',
  crossfit: 'crossfit',
  crosstraining: 'cross_training',
  cardiotraining: 'cross_training',
  training: 'fitness',
  fitnessequipment: 'fitness',
  workout: 'fitness',
};

/**
 * Our activity type for what a file or an export calls it (`Running`, `trail_running`, `VirtualRide`,
 * FIT's `cycling` with sub-sport `indoorCycling`); a sport Milepost has no type for is `fitness`.
 */
export function activityTypeOf(...names: Array<string | null | undefined>): ActivityType {
  for (const name of names) {
    const key = name?.toLowerCase().replace(/[^a-z]/g, '');
    if (key && key !== 'generic' && key !== 'all' && key !== 'other' && TYPES[key]) return TYPES[key];
  }
  return 'fitness';
}
