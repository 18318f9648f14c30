// A person's training totals, records and workout days, as aggregate queries over their workouts:
// the database sums and groups, this process never loads the entries. Every query keeps
// to the entries the viewer may see (entry-conditions.ts's visibleCondition), so a total never counts a
// workout its reader could not open, and sums the figures its reader is told of each workout: for
// anyone but the person, the shown part of a track their privacy cuts (shown-figures.ts).
import type { CalendarPeriod } from '../domain/calendar.ts';
import { RECORD_DISTANCES, type RecordDistance } from '../domain/records.ts';
import { METERS_PER } from '../domain/units.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import { type EntryReader, visibleCondition } from './entry-conditions.ts';
import { storedDate } from './entry-rows.ts';

type Reader = Pick<Database, 'read' | 'provider'>;

/** When a workout happened: when it was completed, else when it was posted. */
const AT = 'COALESCE(w."completedAt", e."createdAt")';

/** Its distance in meters as entered, in the units entered. */
const ENTERED_METERS = `CASE w."distanceUnits" ${Object.entries(METERS_PER)
  .map(([units, factor]) => `WHEN '${units}' THEN w."distanceValue" * ${factor}`)
  .join(' ')} END`;

/**
 * Who reads a person's stats: the entries they may see, and, when they are not the person and the
 * person's privacy cuts their tracks, the version of the person's settings whose shown figures
 * (shown-figures.ts) stand in for each track's own. A track whose figures are of another version
 * counts nothing: others are never told a figure of the part cut.
 */
export interface StatsReader {
  entries: EntryReader;
  shownVersion: number | null;
}

/** The figures of a workout as the reader is told them (Workout.distance and duration follow the same rule). */
function figures({ shownVersion }: StatsReader): { meters: string; moving: string; gain: string } {
  // as entered, else its track's
  if (shownVersion === null)
    return {
      meters: `COALESCE(${ENTERED_METERS}, t."distanceMeters", 0)`,
      moving: 'COALESCE(t."movingSeconds", w."duration", 0)',
      gain: 'COALESCE(t."elevationGain", 0)',
    };
  // a workout with a track: its shown part's, once computed for these settings
  const current = `t."shownVersion" = ${Number(shownVersion)}`;
  return {
    meters: `CASE WHEN t."id" IS NULL THEN COALESCE(${ENTERED_METERS}, 0) WHEN ${current} THEN t."shownMeters" ELSE 0 END`,
    moving: `CASE WHEN t."id" IS NULL THEN COALESCE(w."duration", 0) WHEN ${current} THEN COALESCE(t."shownMovingSeconds", 0) ELSE 0 END`,
    gain: `CASE WHEN ${current} THEN t."shownGain" ELSE 0 END`,
  };
}

const FROM = Sql.raw(`FROM "Entry" e JOIN "Workout" w ON w."entryId" = e."id" LEFT JOIN "Track" t ON t."entryId" = e."id"`);

function workoutsOf(personId: number, reader: StatsReader, activityType: string | null): Sql.Sql {
  const conditions = [Sql.sql`e."authorId" = ${personId}`, visibleCondition(reader.entries)];
  if (activityType !== null) conditions.push(Sql.sql`w."activityType" = ${activityType}`);
  return Sql.join(conditions, ' AND ');
}

export interface PeriodTotals {
  /** Index of the period in the list asked for. */
  period: number;
  activityType: string;
  workouts: number;
  meters: number;
  movingSeconds: number;
  elevationGain: number;
}

/**
 * Totals per period and activity type, one row per pair that has workouts: one statement. Each
 * workout falls in the period whose bounds hold it; the bounds travel as parameters.
 */
export async function readPeriodTotals(
  database: Reader,
  personId: number,
  reader: StatsReader,
  periods: readonly CalendarPeriod[],
  activityType: string | null,
): Promise<PeriodTotals[]> {
  if (periods.length === 0) return [];
  const at = Sql.raw(AT);
  const bounds = periods.map((p) => new Date(p.end));
  // the last bound is the range's end: an instant past it falls in no period
  const index = Sql.join(
    bounds.map((end, i) => Sql.sql`WHEN ${at} < ${end} THEN ${Sql.raw(String(i))}`),
    ' ',
  );
  const { meters, moving, gain } = figures(reader);
  const rows = await database.read<{
    period: number | bigint;
    activityType: string;
    workouts: number | bigint;
    meters: number | null;
    moving: number | bigint | null;
    gain: number | null;
  }>(Sql.sql`SELECT p."period", p."activityType", count(*) AS "workouts", sum(p."meters") AS "meters",
      sum(p."moving") AS "moving", sum(p."gain") AS "gain"
    FROM (SELECT CASE ${index} END AS "period", w."activityType" AS "activityType", ${Sql.raw(meters)} AS "meters",
        ${Sql.raw(moving)} AS "moving", ${Sql.raw(gain)} AS "gain"
      ${FROM}
      WHERE ${workoutsOf(personId, reader, activityType)}
        AND ${at} >= ${new Date(periods[0]!.start)} AND ${at} < ${bounds.at(-1)!}) p
    GROUP BY p."period", p."activityType"`);
  return rows.map((row) => ({
    period: Number(row.period),
    activityType: row.activityType,
    workouts: Number(row.workouts),
    meters: Number(row.meters ?? 0),
    movingSeconds: Number(row.moving ?? 0),
    elevationGain: Number(row.gain ?? 0),
  }));
}

/** For a reader told the shown part: only an effort inside it counts (its start and end in the shown part's times). */
function shownEffort({ shownVersion }: StatsReader): Sql.Sql {
  if (shownVersion === null) return Sql.empty;
  return Sql.sql` AND t."shownVersion" = ${shownVersion} AND b."startOffsetMs" >= t."shownFromMs"
    AND b."startOffsetMs" + b."seconds" * 1000 <= t."shownToMs"`;
}

export interface RecordRow {
  distance: RecordDistance;
  seconds: number;
  entryId: number;
  at: Date;
}

/** The fastest effort at each record distance over the person's runs, with its entry: one statement. */
export async function readRunningRecords(database: Reader, personId: number, reader: StatsReader): Promise<RecordRow[]> {
  const rows = await database.read<{ distance: string; seconds: number; entryId: number | bigint; at: Date | string }>(
    Sql.sql`SELECT r."distance", r."seconds", r."entryId", r."at" FROM (
      SELECT b."distance", b."seconds", e."id" AS "entryId", ${Sql.raw(AT)} AS "at",
        row_number() OVER (PARTITION BY b."distance" ORDER BY b."seconds", e."id") AS "rank"
      FROM "BestEffort" b JOIN "Track" t ON t."id" = b."trackId" JOIN "Entry" e ON e."id" = t."entryId"
        JOIN "Workout" w ON w."entryId" = e."id"
      WHERE ${workoutsOf(personId, reader, 'running')}${shownEffort(reader)}) r
    WHERE r."rank" = 1`,
  );
  const order = Object.keys(RECORD_DISTANCES);
  return rows
    .map((row) => ({
      distance: row.distance as RecordDistance,
      seconds: Number(row.seconds),
      entryId: Number(row.entryId),
      at: row.at instanceof Date ? row.at : storedDate(row.at),
    }))
    .sort((a, b) => order.indexOf(a.distance) - order.indexOf(b.distance));
}

/** A power record: the best average watts over a span of seconds, with its entry. */
export interface PowerRecordRow {
  seconds: number;
  watts: number;
  entryId: number;
  at: Date;
}

/**
 * The best average power over each span (1, 5, 20 minutes) across the person's rides, with its entry:
 * one statement. To anyone their privacy cuts tracks for, only efforts inside the shown part.
 */
export async function readPowerRecords(database: Reader, personId: number, reader: StatsReader): Promise<PowerRecordRow[]> {
  const shown =
    reader.shownVersion === null
      ? Sql.empty
      : Sql.sql` AND t."shownVersion" = ${reader.shownVersion} AND b."startOffsetMs" >= t."shownFromMs"
    AND b."startOffsetMs" + b."seconds" * 1000 <= t."shownToMs"`;
  const rows = await database.read<{ seconds: number | bigint; watts: number | bigint; entryId: number | bigint; at: Date | string }>(
    Sql.sql`SELECT r."seconds", r."watts", r."entryId", r."at" FROM (
      SELECT b."seconds", b."watts", e."id" AS "entryId", ${Sql.raw(AT)} AS "at",
        row_number() OVER (PARTITION BY b."seconds" ORDER BY b."watts" DESC, e."id") AS "rank"
      FROM "PowerEffort" b JOIN "Track" t ON t."id" = b."trackId" JOIN "Entry" e ON e."id" = t."entryId"
        JOIN "Workout" w ON w."entryId" = e."id"
      WHERE ${workoutsOf(personId, reader, 'cycling')}${shown}) r
    WHERE r."rank" = 1 ORDER BY r."seconds"`,
  );
  return rows.map((row) => ({
    seconds: Number(row.seconds),
    watts: Number(row.watts),
    entryId: Number(row.entryId),
    at: row.at instanceof Date ? row.at : storedDate(row.at),
  }));
}

export interface BiggestRow {
  entryId: number;
  meters: number;
  at: Date;
}

/** What a "biggest" record measures: a workout's distance, or its track's climb. */
export interface BiggestWanted {
  activityType: string;
  measure: 'distance' | 'climb';
}

/**
 * For each of `wanted`, the workout of that activity with the most of that measure, or null: one
 * statement for all of them (a UNION ALL of one short ordered read each).
 */
export async function readBiggest(
  database: Reader,
  personId: number,
  reader: StatsReader,
  wanted: readonly BiggestWanted[],
): Promise<Array<BiggestRow | null>> {
  if (wanted.length === 0) return [];
  const arms = wanted.map(({ activityType, measure }, i) => {
    const { meters, gain } = figures(reader);
    const value = Sql.raw(measure === 'distance' ? meters : gain);
    return Sql.sql`SELECT * FROM (SELECT ${Sql.raw(String(i))} AS "arm", e."id" AS "entryId", ${value} AS "meters", ${Sql.raw(AT)} AS "at" ${FROM}
      WHERE ${workoutsOf(personId, reader, activityType)} AND ${value} > 0
      ORDER BY 3 DESC, e."id" LIMIT 1) ${Sql.raw(`b${i}`)}`;
  });
  const rows = await database.read<{ arm: number | bigint; entryId: number | bigint; meters: number; at: Date | string }>(
    Sql.join(arms, ' UNION ALL '),
  );
  const found = new Map(
    rows.map((row) => [
      Number(row.arm),
      { entryId: Number(row.entryId), meters: Number(row.meters), at: row.at instanceof Date ? row.at : storedDate(row.at) },
    ]),
  );
  return wanted.map((_, i) => found.get(i) ?? null);
}

/**
 * The distinct minutes (since 1970, UTC) in which the person worked out: what streaks are counted
 * from, after each is placed on the person's calendar. One small number per workout at most.
 */
export async function readWorkoutMinutes(database: Reader, personId: number, reader: StatsReader): Promise<number[]> {
  const minute =
    database.provider === 'postgresql' ? `floor(extract(epoch from ${AT}) / 60)::bigint` : `CAST(unixepoch(${AT}) / 60 AS INTEGER)`;
  const rows = await database.read<{ minute: number | bigint }>(
    Sql.sql`SELECT DISTINCT ${Sql.raw(minute)} AS "minute" ${FROM} WHERE ${workoutsOf(personId, reader, null)}`,
  );
  return rows.map((row) => Number(row.minute));
}

export interface GearTotalsRow {
  gearId: number;
  workouts: number;
  meters: number;
  movingSeconds: number;
  firstAt: Date;
  lastAt: Date;
}

/**
 * Each of a person's gear's totals over the workouts done in it that the reader may see, as the reader
 * is told each workout's figures (the same rule as the stats): one statement for all of `gearIds`.
 * Gear without such a workout has no row.
 */
export async function readGearTotals(
  database: Reader,
  personId: number,
  reader: StatsReader,
  gearIds: readonly number[],
): Promise<GearTotalsRow[]> {
  if (gearIds.length === 0) return [];
  const { meters, moving } = figures(reader);
  const rows = await database.read<{
    gearId: number | bigint;
    workouts: number | bigint;
    meters: number | null;
    moving: number | bigint | null;
    firstAt: Date | string;
    lastAt: Date | string;
  }>(Sql.sql`SELECT w."gearId" AS "gearId", count(*) AS "workouts", sum(${Sql.raw(meters)}) AS "meters",
      sum(${Sql.raw(moving)}) AS "moving", min(${Sql.raw(AT)}) AS "firstAt", max(${Sql.raw(AT)}) AS "lastAt"
    ${FROM}
    WHERE ${workoutsOf(personId, reader, null)} AND w."gearId" IN (${Sql.join(gearIds)})
    GROUP BY w."gearId"`);
  const date = (value: Date | string) => (value instanceof Date ? value : storedDate(value));
  return rows.map((row) => ({
    gearId: Number(row.gearId),
    workouts: Number(row.workouts),
    meters: Number(row.meters ?? 0),
    movingSeconds: Number(row.moving ?? 0),
    firstAt: date(row.firstAt),
    lastAt: date(row.lastAt),
  }));
}
