// An imported activity becomes a workout entry with its track in one transaction: a failure leaves
// nothing behind. The file's hash is kept on the entry, unique per author, so importing the same file
// again (a retry, a crash part-way through an archive, two uploads racing) answers the first entry.

import { type ActivityType, storedValue, UNIT_PREFERENCES, type UnitPreference } from '../domain/activity.ts';
import type { ImportedActivity, ImportedRow } from '../domain/activity-file.ts';
import type { Recorded } from '../domain/analysis.ts';
import { readDefaultGear } from '../domain/gear.ts';
import type { ParsedGpx } from '../domain/gpx.ts';
import { trackEfforts } from '../domain/records.ts';
import { summarizeTrack } from '../domain/track.ts';
import { defaultDistanceUnits, fromMeters } from '../domain/units.ts';
import type { Visibility } from '../domain/visibility.ts';
import { type PreparedTrack, prepareTrack } from '../tracks/prepare.ts';
import type { Prisma, Transaction } from './database.ts';
import { isUniqueViolation, refusingGoneReference } from './errors.ts';
import { recordEvent } from './outbox.ts';
import { TRACK_TRANSACTION, writeTrack } from './tracks.ts';

export interface ImportOptions {
  authorId: number;
  /** SHA-256 of what was imported (see Entry.importHash). */
  hash: string;
  message?: string | null;
  /** Default: the author's own default. */
  visibility?: Visibility | null;
  /** A title that overrides the file's (an export's activity name). */
  title?: string | null;
  /** When the entry was posted; default now. Archive imports keep the activity's own date. */
  createdAt?: Date;
  /** Announce the entry (webhooks, subscriptions), as a new post is. Archive imports stay quiet. */
  announce: boolean;
  /** The author's gear it was done in (checked by the caller); left out, their default for its activity. */
  gearId?: number | null;
}

export interface ImportOutcome {
  entryId: number;
  /** False when this person had already imported the same file. */
  created: boolean;
  authorId: number;
  visibility: string;
}

/** The entry this person imported from this hash, if any. */
export async function importedEntry(prisma: Prisma, authorId: number, hash: string): Promise<ImportOutcome | null> {
  const entry = await prisma.entry.findUnique({
    where: { authorId_importHash: { authorId, importHash: hash } },
    select: { id: true, visibility: true },
  });
  return entry ? { entryId: entry.id, created: false, authorId, visibility: entry.visibility } : null;
}

/** A workout's distance in the units a person reads it in (swims in pool units, rows in meters). */
export function distanceFor(meters: number, units: UnitPreference, activityType: ActivityType) {
  const distanceUnits = defaultDistanceUnits(units, activityType);
  return { distanceValue: Math.round(fromMeters(meters, distanceUnits) * 1000) / 1000, distanceUnits };
}

/**
 * Makes the entry, its workout and its track in one transaction, unless this author already imported
 * this hash: then that entry is the answer.
 */
export async function insertImportedEntry(
  prisma: Prisma,
  provider: 'sqlite' | 'postgresql',
  authorId: number,
  hash: string,
  row: ImportedRow,
  track: (ParsedGpx & { recorded?: Recorded | null }) | PreparedTrack | null,
  announce: boolean,
): Promise<ImportOutcome> {
  const { workout, ...fields } = row;
  // computed before the transaction, which holds SQLite's one writer (a FIT file's, on its thread)
  const prepared = track && 'data' in track ? track : track?.points.length ? prepareTrack(track) : null;
  try {
    const entryId = await prisma.$transaction(async (tx) => {
      const entry = await tx.entry.create({
        data: {
          ...fields,
          authorId,
          kind: workout ? 'workout' : 'note',
          importHash: hash,
          ...(workout ? { workout: { create: workout } } : {}),
        },
        select: { id: true },
      });
      if (prepared) await writeTrack(tx, provider, { entryId: entry.id }, prepared);
      if (announce)
        await recordEvent(tx, 'entryCreated', {
          entryId: entry.id,
          authorId,
          lat: row.lat ?? null,
          lon: row.lon ?? null,
          visibility: row.visibility,
        });
      return entry.id;
    }, TRACK_TRANSACTION);
    return { entryId, created: true, authorId, visibility: row.visibility };
  } catch (error) {
    // the same file imported twice at once: the other one's entry is the answer
    if (isUniqueViolation(error)) {
      const raced = await importedEntry(prisma, authorId, hash);
      if (raced) return raced;
    }
    // its gear (named, or the default for its activity) deleted meanwhile
    return refusingGoneReference('gearId')(error);
  }
}

/**
 * What a workout's new track tells that the workout leaves blank: its distance (in its author's units)
 * and moving time. What the athlete gave stays: a track never overwrites a figure. Its date stays the
 * workout's (a client posting a workout says when it was).
 */
export async function fillWorkoutFromTrack(tx: Transaction, entryId: number, track: PreparedTrack['data']): Promise<void> {
  const workout = await tx.workout.findUnique({
    where: { entryId },
    select: {
      activityType: true,
      distanceValue: true,
      duration: true,
      completedAt: true,
      entry: { select: { author: { select: { units: true } } } },
    },
  });
  if (!workout) return;
  const activityType = workout.activityType as ActivityType;
  const units = storedValue(UNIT_PREFERENCES, workout.entry.author.units, 'Person.units');
  const data = {
    ...(workout.distanceValue === null && track.distanceMeters > 0 && distanceFor(track.distanceMeters, units, activityType)),
    ...(workout.duration === null && track.movingSeconds !== null && { duration: Math.round(track.movingSeconds) }),
  };
  if (Object.keys(data).length > 0) await tx.workout.update({ where: { entryId }, data, select: { entryId: true } });
}

export async function createImportedEntry(
  prisma: Prisma,
  provider: 'sqlite' | 'postgresql',
  activity: ImportedActivity & { prepared?: PreparedTrack | null },
  options: ImportOptions,
): Promise<ImportOutcome> {
  // callers look the hash up before they parse the file; a race between two imports ends at the unique key
  const person = await prisma.person.findUniqueOrThrow({
    where: { id: options.authorId },
    select: { units: true, defaultVisibility: true, defaultGear: true },
  });
  const units = storedValue(UNIT_PREFERENCES, person.units, 'Person.units');
  const { prepared } = activity;
  const gearId = options.gearId !== undefined ? options.gearId : (readDefaultGear(person.defaultGear)[activity.activityType] ?? null);
  const timed = prepared ? prepared.data.startedAt !== null : activity.points.some((p) => p.time);
  // totals the file did not give come from its track, as a GPX upload's do
  const meters =
    activity.distanceMeters ??
    (prepared ? prepared.data.distanceMeters : activity.points.length ? summarizeTrack(activity.points).distanceMeters : null);
  const seconds =
    activity.durationSeconds ?? (timed ? (prepared ? prepared.data.movingSeconds : trackEfforts(activity.points).movingSeconds) : null);
  const visibility = options.visibility ?? person.defaultVisibility;
  const row: ImportedRow = {
    message: (options.message ?? activity.notes)?.trim().slice(0, 5000) || null,
    visibility,
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    workout: {
      activityType: activity.activityType,
      completedAt: activity.startedAt,
      ...(meters !== null && meters > 0 ? distanceFor(meters, units, activity.activityType) : {}),
      duration: seconds === null ? null : Math.round(seconds),
      calories: activity.calories,
      title: (options.title ?? activity.name)?.trim().slice(0, 200) || null,
      gearId,
    },
  };
  const track = prepared ?? {
    name: activity.name,
    points: activity.points,
    routePoints: [],
    waypoints: activity.waypoints,
    repairs: activity.repairs,
    recorded: activity.recorded,
  };
  return insertImportedEntry(prisma, provider, options.authorId, options.hash, row, track, options.announce);
}

/** A person's archive imports as their account page lists them: the ten latest, what each made and skipped. */
export async function recentImports(prisma: Prisma, personId: number) {
  const jobs = await prisma.importJob.findMany({
    where: { personId },
    orderBy: { id: 'desc' },
    take: 10,
    select: {
      id: true,
      fileName: true,
      status: true,
      total: true,
      processed: true,
      created: true,
      duplicates: true,
      skippedCount: true,
      skipped: true,
      error: true,
      createdAt: true,
    },
  });
  return jobs.map((job) => ({ ...job, skipped: JSON.parse(job.skipped) as Array<{ item: string; reason: string }> }));
}

/** How many of a person's archive imports wait or run: one at a time each. */
export function unfinishedImports(prisma: Prisma, personId: number): Promise<number> {
  return prisma.importJob.count({ where: { personId, status: { in: ['queued', 'running'] } } });
}
