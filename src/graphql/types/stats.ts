// A person's training: totals per week, month or year on their own calendar, records and streaks.
// The sums and the records come from aggregate queries (db/stats.ts), kept per revision of what they
// count (db/kept-stats.ts); who may read them is the person's `statsVisibility`, and each total counts
// only the workouts its reader may see.

import { shownFiguresVersion } from '../../db/shown-figures.ts';
import {
  type BiggestRow,
  type BiggestWanted,
  type PeriodTotals,
  type PowerRecordRow,
  readBiggest,
  readPeriodTotals,
  readPowerRecords,
  readRunningRecords,
  readWorkoutMinutes,
  type StatsReader,
} from '../../db/stats.ts';
import { ACTIVITY_TYPES, type ActivityType, storedValue, UNIT_PREFERENCES } from '../../domain/activity.ts';
import {
  calendarPeriods,
  calendarZone,
  defaultRange,
  localDay,
  type StatsPeriod,
  type Streaks,
  streaks,
  type Weekday,
} from '../../domain/calendar.ts';
import { ValidationError } from '../../domain/errors.ts';
import { hidesAnything } from '../../domain/privacy-zones.ts';
import { RECORD_DISTANCES, type RecordDistance } from '../../domain/records.ts';
import { fromMeters } from '../../domain/units.ts';
import { VISIBILITIES } from '../../domain/visibility.ts';
import { builder } from '../builder.ts';
import { type Context, readerOf, readsAsOwner } from '../context.ts';
import { entryById, ownColumn } from '../loaders.ts';
import { viewerMaySee } from '../lookups.ts';
import { privacyFor } from '../privacy.ts';
import { EntryRef } from './entry.ts';
import { ActivityTypeEnum, VisibilityEnum } from './enums.ts';
import { type Distance, DistanceRef } from './workout.ts';

const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

export const WeekdayEnum = builder.enumType('Weekday', {
  description: 'A day of the week; a person chooses the one their weeks begin on (Monday unless they choose).',
  values: Object.fromEntries(
    WEEKDAYS.map((day, i) => [
      day,
      { value: (i + 1) as Weekday, description: `${day[0]}${day.slice(1).toLowerCase()} (ISO day ${i + 1}).` },
    ]),
  ) as Record<(typeof WEEKDAYS)[number], { value: Weekday; description: string }>,
});

const StatsPeriodEnum = builder.enumType('StatsPeriod', {
  description: "A calendar period of the person's own time zone.",
  values: {
    WEEK: { value: 'week' as const, description: 'A week, from the first day of the person’s week.' },
    MONTH: { value: 'month' as const, description: 'A calendar month.' },
    YEAR: { value: 'year' as const, description: 'A calendar year.' },
  },
});

export const RecordDistanceEnum = builder.enumType('RecordDistance', {
  description: 'A distance running records are kept for.',
  values: {
    ONE_K: { value: '1k' as const, description: '1 kilometer.' },
    ONE_MILE: { value: '1mi' as const, description: '1 mile (1,609.344 m).' },
    FIVE_K: { value: '5k' as const, description: '5 kilometers.' },
    TEN_K: { value: '10k' as const, description: '10 kilometers.' },
    HALF_MARATHON: { value: 'half' as const, description: '21,097.5 m.' },
    MARATHON: { value: 'marathon' as const, description: '42,195 m.' },
  },
});

/** What a person's figures are shown in: their units, and who they are. */
interface Owner {
  id: number;
  units: string;
}

interface Totals {
  owner: Owner;
  workouts: number;
  meters: number;
  movingSeconds: number;
  elevationGain: number;
}

const personDistance = (owner: Owner, meters: number): Distance => {
  const units = storedValue(UNIT_PREFERENCES, owner.units, 'Person.units');
  return { value: Math.round(fromMeters(meters, units) * 1000) / 1000, units };
};

const TotalsFields = builder.interfaceRef<Totals>('TrainingTotals').implement({
  description:
    "Sums over workouts. To anyone but the person, a track their privacy zones or hidden ends cut counts its shown part only (as the workout's own `distance` and `duration` answer them).",
  fields: (t) => ({
    workouts: t.exposeInt('workouts', { description: 'How many workouts.' }),
    distance: t.field({
      type: DistanceRef,
      description: "Distance, in the person's units (miles or kilometers).",
      resolve: (totals) => personDistance(totals.owner, totals.meters),
    }),
    meters: t.float({ description: 'Distance in meters.', resolve: (totals) => Math.round(totals.meters * 10) / 10 }),
    movingSeconds: t.exposeInt('movingSeconds', {
      description: "Seconds spent moving: a track's moving time (stops left out), else the duration entered.",
    }),
    elevationGainMeters: t.float({
      description: 'Meters climbed, from the tracks.',
      resolve: (totals) => Math.round(totals.elevationGain * 10) / 10,
    }),
  }),
});

interface ActivityTotals extends Totals {
  activityType: ActivityType;
}

const ActivityTotalsRef = builder.objectRef<ActivityTotals>('ActivityTotals').implement({
  description: 'Sums over the workouts of one activity type.',
  interfaces: [TotalsFields],
  fields: (t) => ({
    activityType: t.expose('activityType', { type: ActivityTypeEnum, description: 'The activity these sums are of.' }),
  }),
});

interface PeriodTotalsShape extends Totals {
  start: Date;
  end: Date;
  firstDay: string;
  byActivity: ActivityTotals[];
}

const PeriodTotalsRef = builder.objectRef<PeriodTotalsShape>('PeriodTotals').implement({
  description: 'The sums of one week, month or year, with each activity type apart.',
  interfaces: [TotalsFields],
  fields: (t) => ({
    start: t.expose('start', { type: 'DateTime', description: 'The instant the period begins (inclusive).' }),
    end: t.expose('end', { type: 'DateTime', description: 'The instant the next period begins (exclusive).' }),
    firstDay: t.exposeString('firstDay', { description: "The period's first day on the person's calendar, `YYYY-MM-DD`." }),
    byActivity: t.field({
      type: [ActivityTotalsRef],
      description: 'The same sums for each activity type that has workouts in the period, most workouts first.',
      resolve: (period) => period.byActivity,
    }),
  }),
});

interface TrainingStatsShape {
  period: StatsPeriod;
  timeZone: string;
  weekStart: Weekday;
  from: Date;
  to: Date;
  activityType: ActivityType | null;
  periods: PeriodTotalsShape[];
  total: Totals;
}

const TotalsRef = builder.objectRef<Totals>('Totals').implement({
  description: 'Sums over every period of an answer.',
  interfaces: [TotalsFields],
});

const TrainingStatsRef = builder.objectRef<TrainingStatsShape>('TrainingStats').implement({
  description: "A person's training totals, period by period.",
  fields: (t) => ({
    period: t.expose('period', { type: StatsPeriodEnum, description: 'What each entry of `periods` is: a week, a month or a year.' }),
    timeZone: t.exposeString('timeZone', {
      description: "The zone of the calendar: the person's `timeZone` when it names an IANA zone, else UTC.",
    }),
    weekStart: t.expose('weekStart', { type: WeekdayEnum, description: 'The day the weeks begin on (the person’s `weekStart`).' }),
    from: t.expose('from', { type: 'DateTime', description: 'The start of the range asked for; the first period holds it.' }),
    to: t.expose('to', { type: 'DateTime', description: 'The end of the range asked for; the last period holds it.' }),
    activityType: t.expose('activityType', {
      type: ActivityTypeEnum,
      nullable: true,
      description: 'The activity the sums keep to; null for every activity.',
    }),
    periods: t.field({
      type: [PeriodTotalsRef],
      description: 'Every period from the one holding `from` to the one holding `to`, oldest first; a period without workouts has zeros.',
      resolve: (stats) => stats.periods,
    }),
    total: t.field({ type: TotalsRef, description: 'The sums over every period of the answer.', resolve: (stats) => stats.total }),
  }),
});

const RecordFields = builder.interfaceRef<{ entryId: number; at: Date }>('TrainingRecord').implement({
  description: 'A record, and the workout it came from.',
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime', description: 'When the workout happened.' }),
    entry: t.field({
      type: EntryRef,
      description: 'The entry of the workout the record comes from.',
      resolve: (record, _args, context) => entryById(context, record.entryId),
    }),
  }),
});

interface RunningRecordShape {
  owner: Owner;
  distance: RecordDistance;
  seconds: number;
  entryId: number;
  at: Date;
}

const RunningRecordRef = builder.objectRef<RunningRecordShape>('RunningRecord').implement({
  description: 'The fastest time over a distance found anywhere inside one of the person’s timed running tracks.',
  interfaces: [RecordFields],
  fields: (t) => ({
    distance: t.expose('distance', { type: RecordDistanceEnum, description: 'The distance the record is for.' }),
    meters: t.float({ description: 'The same distance in meters.', resolve: (record) => RECORD_DISTANCES[record.distance] }),
    seconds: t.exposeFloat('seconds', { description: 'Elapsed seconds, to the millisecond.' }),
  }),
});

const PowerRecordRef = builder.objectRef<PowerRecordRow & { owner: Owner }>('PowerRecord').implement({
  description: 'The best average power held over a span inside one of the person’s rides.',
  interfaces: [RecordFields],
  fields: (t) => ({
    seconds: t.exposeInt('seconds', { description: 'The span: 60, 300 or 1200 seconds.' }),
    watts: t.exposeInt('watts', { description: 'Average watts over it.' }),
  }),
});

interface MeasureShape {
  owner: Owner;
  entryId: number;
  meters: number;
  at: Date;
}

const MeasureRecordRef = builder.objectRef<MeasureShape>('MeasureRecord').implement({
  description: 'The workout with the most of something: the longest, or the one that climbed most.',
  interfaces: [RecordFields],
  fields: (t) => ({
    meters: t.float({
      description: 'The measure in meters: the distance, or for `biggestClimb` the meters climbed.',
      resolve: (record) => Math.round(record.meters * 10) / 10,
    }),
    distance: t.field({
      type: DistanceRef,
      description: "The same in the person's units.",
      resolve: (record) => personDistance(record.owner, record.meters),
    }),
  }),
});

interface RecordsShape {
  owner: Owner;
  reader: StatsReader;
  /** The person's `statsRevision`: what is kept of their records is kept at it (db/kept-stats.ts). */
  revision: number;
  /** The longest ride, the biggest climb and the longest swim, read together by the first of them asked. */
  biggest?: Promise<Array<BiggestRow | null>>;
}

/** The "biggest" records, in the order `biggestOf` reads them. */
const BIGGEST: readonly BiggestWanted[] = [
  { activityType: 'cycling', measure: 'distance' },
  { activityType: 'cycling', measure: 'climb' },
  { activityType: 'swimming', measure: 'distance' },
];

/** One of the "biggest" records of `records` (one statement reads the three). */
async function biggestOf(context: Context, records: RecordsShape, index: number) {
  const { owner, reader, revision } = records;
  records.biggest ??= context.stats.keep(owner.id, revision, reader, 'biggest', () => readBiggest(context, owner.id, reader, BIGGEST));
  const row = (await records.biggest)[index];
  return row ? { owner: records.owner, ...row } : null;
}

const RecordsRef = builder.objectRef<RecordsShape>('PersonRecords').implement({
  description: "A person's records, from the workouts the viewer may see.",
  fields: (t) => ({
    running: t.field({
      type: [RunningRecordRef],
      description:
        'For each record distance covered by a timed running track, the fastest time, shortest distance first. To anyone but the person, only efforts inside the shown part of a track their privacy cuts.',
      resolve: async ({ owner, reader, revision }, _args, context) =>
        (await context.stats.keep(owner.id, revision, reader, 'running', () => readRunningRecords(context, owner.id, reader))).map(
          (record) => ({ owner, ...record }),
        ),
    }),
    power: t.field({
      type: [PowerRecordRef],
      description:
        'For each span (1, 5 and 20 minutes) a ride with power lasted, the best average power, shortest span first. To anyone but the person, only efforts inside the shown part of a track their privacy cuts.',
      resolve: async ({ owner, reader, revision }, _args, context) =>
        (await context.stats.keep(owner.id, revision, reader, 'power', () => readPowerRecords(context, owner.id, reader))).map(
          (record) => ({
            owner,
            ...record,
          }),
        ),
    }),
    longestRide: t.field({
      type: MeasureRecordRef,
      nullable: true,
      description: 'The cycling workout with the longest distance; null without one.',
      resolve: (records, _args, context) => biggestOf(context, records, 0),
    }),
    biggestClimb: t.field({
      type: MeasureRecordRef,
      nullable: true,
      description: 'The ride that climbed most (`meters` is the climb, from its track); null without one.',
      resolve: (records, _args, context) => biggestOf(context, records, 1),
    }),
    longestSwim: t.field({
      type: MeasureRecordRef,
      nullable: true,
      description: 'The swimming workout with the longest distance; null without one.',
      resolve: (records, _args, context) => biggestOf(context, records, 2),
    }),
  }),
});

const StreakRef = builder.objectRef<Streaks & { lastDay: string | null }>('Streak').implement({
  description: "Runs of consecutive days, and of consecutive weeks, with at least one workout, on the person's calendar.",
  fields: (t) => ({
    currentDays: t.exposeInt('currentDays', { description: 'Days in the run that ends today or yesterday; 0 when there is none.' }),
    longestDays: t.exposeInt('longestDays', { description: 'Days in the longest run ever.' }),
    currentWeeks: t.exposeInt('currentWeeks', { description: 'Weeks in the run that ends this week or last week; 0 when there is none.' }),
    longestWeeks: t.exposeInt('longestWeeks', { description: 'Weeks in the longest run ever.' }),
    lastWorkoutDay: t.string({
      nullable: true,
      description: 'The last day with a workout, `YYYY-MM-DD`.',
      resolve: (streak) => streak.lastDay,
    }),
  }),
});

/** The columns of a person these fields read. */
const SETTINGS = { id: true, units: true, timeZone: true, statsVisibility: true, weekStart: true, statsRevision: true } as const;
interface Settings {
  id: number;
  units: string;
  timeZone: string | null;
  statsVisibility: string;
  weekStart: number;
  statsRevision: number;
}

/**
 * Who reads, when they may read this person's stats (their `statsVisibility`); undefined when not.
 * Anyone but the person is told the shown part of each track their privacy cuts (db/shown-figures.ts).
 */
function statsReader(context: Context, person: Settings): Promise<StatsReader | undefined> {
  // one decision a person and request: `stats`, `records` and `streak` of one page ask it each
  let asked = statsReaders.get(context);
  if (!asked) statsReaders.set(context, (asked = new Map()));
  let reader = asked.get(person.id);
  if (!reader) asked.set(person.id, (reader = decideStatsReader(context, person)));
  return reader;
}

const statsReaders = new WeakMap<Context, Map<number, Promise<StatsReader | undefined>>>();

async function decideStatsReader(context: Context, person: Settings): Promise<StatsReader | undefined> {
  if (!(await viewerMaySee(context, { authorId: person.id, visibility: person.statsVisibility }))) return undefined;
  return figuresReader(context, person.id);
}

/**
 * Who sums a person's workouts (their stats, their gear's totals): the entries the viewer may see, each
 * with the figures the viewer is told of it (the shown part of a track the person's privacy cuts).
 */
export async function figuresReader(context: Context, personId: number): Promise<StatsReader> {
  // most people hide nothing: then the settings the request reads anyway decide it, without a statement
  const cut = !readsAsOwner(context, personId) && hidesAnything(await privacyFor(context, personId));
  const shownVersion = cut ? await shownFiguresVersion(context, personId) : null;
  return { entries: readerOf(context), shownVersion };
}

const weekStartOf = (person: Pick<Settings, 'weekStart'>) =>
  (person.weekStart >= 1 && person.weekStart <= 7 ? person.weekStart : 1) as Weekday;
const dayText = (date: { year: number; month: number; day: number }) =>
  `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

function sumOf(owner: Owner, rows: readonly PeriodTotals[]): Totals {
  const totals: Totals = { owner, workouts: 0, meters: 0, movingSeconds: 0, elevationGain: 0 };
  for (const row of rows) {
    totals.workouts += row.workouts;
    totals.meters += row.meters;
    totals.movingSeconds += row.movingSeconds;
    totals.elevationGain += row.elevationGain;
  }
  return totals;
}

function byActivity(owner: Owner, rows: readonly PeriodTotals[]): ActivityTotals[] {
  return rows
    .map((row) => ({ ...sumOf(owner, [row]), activityType: storedValue(ACTIVITY_TYPES, row.activityType, 'Workout.activityType') }))
    .sort((a, b) => b.workouts - a.workouts || a.activityType.localeCompare(b.activityType));
}

builder.prismaObjectFields('Person', (t) => ({
  stats: t.field({
    type: TrainingStatsRef,
    nullable: true,
    description:
      "Training totals per week, month or year of the person's calendar (their time zone; weeks begin on their `weekStart`), " +
      'with each activity type apart. Without `from`, a year of weeks or of months, or five years; without `to`, up to now. ' +
      'At most 210 periods. Null when the person keeps their stats from the viewer (`statsVisibility`). ' +
      'Only the workouts the viewer may see are counted.',
    errors: { types: [ValidationError] },
    args: {
      period: t.arg({ type: StatsPeriodEnum, required: true, description: 'The length of each period.' }),
      from: t.arg({ type: 'DateTime', description: 'The first period is the one holding this moment.' }),
      to: t.arg({ type: 'DateTime', description: 'The last period is the one holding this moment; default now.' }),
      activityType: t.arg({ type: ActivityTypeEnum, description: 'Only workouts of this kind.' }),
    },
    select: SETTINGS,
    resolve: async (person, args, context) => {
      const reader = await statsReader(context, person);
      if (reader === undefined) return null;
      const now = Date.now();
      const to = args.to?.getTime() ?? now;
      const from = args.from?.getTime() ?? defaultRange(args.period, to).from;
      const timeZone = calendarZone(person.timeZone);
      const weekStart = weekStartOf(person);
      const periods = calendarPeriods(timeZone, args.period, weekStart, from, to);
      // the periods follow from the zone, their length, the week's first day, the first one's start and how many
      const question = `totals|${timeZone}|${args.period}|${weekStart}|${periods[0]?.start}|${periods.length}|${args.activityType}`;
      const rows = await context.stats.keep(person.id, person.statsRevision, reader, question, () =>
        readPeriodTotals(context, person.id, reader, periods, args.activityType ?? null),
      );
      const owner = { id: person.id, units: person.units };
      return {
        period: args.period,
        timeZone,
        weekStart,
        from: new Date(from),
        to: new Date(to),
        activityType: args.activityType ?? null,
        periods: periods.map((period, i) => {
          const inPeriod = rows.filter((row) => row.period === i);
          return {
            ...sumOf(owner, inPeriod),
            start: new Date(period.start),
            end: new Date(period.end),
            firstDay: dayText(period.firstDay),
            byActivity: byActivity(owner, inPeriod),
          };
        }),
        total: sumOf(owner, rows),
      };
    },
  }),
}));

// records and streak, and who may read them
builder.prismaObjectFields('Person', (t) => ({
  records: t.field({
    type: RecordsRef,
    nullable: true,
    description: 'Running records at each distance, the longest ride, the biggest climb and the longest swim. Null as `stats` is.',
    select: SETTINGS,
    resolve: async (person, _args, context) => {
      const reader = await statsReader(context, person);
      return reader === undefined ? null : { owner: { id: person.id, units: person.units }, reader, revision: person.statsRevision };
    },
  }),
  streak: t.field({
    type: StreakRef,
    nullable: true,
    description: 'Runs of days and of weeks with a workout. Null as `stats` is.',
    select: SETTINGS,
    resolve: async (person, _args, context) => {
      const reader = await statsReader(context, person);
      if (reader === undefined) return null;
      const timeZone = calendarZone(person.timeZone);
      const today = localDay(timeZone, Date.now());
      const weekStart = weekStartOf(person);
      return context.stats.keep(person.id, person.statsRevision, reader, `streak|${timeZone}|${weekStart}|${today}`, async () => {
        const minutes = await readWorkoutMinutes(context, person.id, reader);
        const days = minutes.map((minute) => localDay(timeZone, minute * 60_000));
        const last = days.length ? days.reduce((a, b) => Math.max(a, b)) : null;
        return {
          ...streaks(days, today, weekStart),
          lastDay: last === null ? null : new Date(last * 86_400_000).toISOString().slice(0, 10),
        };
      });
    },
  }),
  statsVisibility: t.field({
    type: VisibilityEnum,
    nullable: true,
    description: "Who may read this person's `stats`, `records` and `streak`. Only a person sees their own; null for anyone else.",
    resolve: async (person, _args, context) => {
      const stored = await ownColumn(context, person, 'statsVisibility');
      return stored === null ? null : storedValue(VISIBILITIES, stored, 'Person.statsVisibility');
    },
  }),
  weekStart: t.field({
    type: WeekdayEnum,
    nullable: true,
    description: 'The day this person’s weeks begin on, in stats and streaks. Only a person sees their own; null for anyone else.',
    resolve: async (person, _args, context) => {
      const stored = await ownColumn(context, person, 'weekStart');
      return stored === null ? null : weekStartOf({ weekStart: stored });
    },
  }),
}));
