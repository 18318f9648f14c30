// Training stats, records and streaks, through GraphQL on both databases: totals on the
// person's own calendar, records found inside longer tracks and kept up to date when a track is
// replaced or an entry deleted, the backfill of tracks stored before records existed, and who may
// read what.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backfillTrackRecords } from '../../src/db/track-records.ts';
import { testApp } from '../support/app.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

const DAY = 86_400_000;
const METERS_PER_DEGREE = 111_194.93;

/**
 * A GPX run north from (40, -74), a point every 10 m, `pace(meter)` seconds a kilometer; `timed`
 * false leaves the times out.
 */
function runGpx(meters: number, pace: (meter: number) => number, start: Date, timed = true): string {
  let time = start.getTime();
  const points: string[] = [];
  for (let m = 0; m <= meters; m += 10) {
    if (m > 0) time += pace(m - 10) * 10;
    const when = timed ? `<time>${new Date(time).toISOString()}</time>` : '';
    points.push(
      `<trkpt lat="${(40 + m / METERS_PER_DEGREE).toFixed(7)}" lon="-74"><ele>${10 + (m % 200 < 100 ? m % 100 : 100 - (m % 100))}</ele>${when}</trkpt>`,
    );
  }
  return `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`;
}

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let ana: string;
let friend: string;
let stranger: string;

async function as<T>(token: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await api.graphql<T>(query, variables, token);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

async function workout(workoutFields: string, options: { gpx?: string; visibility?: string } = {}): Promise<number> {
  const created = await as<{ createEntry: { entry: { id: number } } }>(
    ana,
    `mutation { createEntry(input: { ${options.visibility ? `visibility: ${options.visibility}, ` : ''}workout: { ${workoutFields} } }) { entry { id: databaseId } } }`,
  );
  const id = created.createEntry.entry.id;
  if (options.gpx) {
    await as(
      ana,
      'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
      {
        id,
        gpx: options.gpx,
      },
    );
  }
  return id;
}

const RECORDS = `{ person(username: "ana") { records {
  running { distance seconds at entry { id: databaseId } }
  longestRide { meters distance { value units } entry { id: databaseId } }
  biggestClimb { meters entry { id: databaseId } }
  longestSwim { meters entry { id: databaseId } } } } }`;
type Records = {
  person: {
    records: {
      running: Array<{ distance: string; seconds: number; entry: { id: number } }>;
      longestRide: { meters: number; distance: { value: number; units: string }; entry: { id: number } } | null;
      biggestClimb: { meters: number; entry: { id: number } } | null;
      longestSwim: { meters: number; entry: { id: number } } | null;
    } | null;
  };
};
const running = (data: Records, distance: string) => data.person.records!.running.find((r) => r.distance === distance);

let fastKm: number;
let evenRun: number;
let untimed: number;
let ride: number;
let hiddenFast: number;

beforeAll(async () => {
  db = await createTestDatabase('training');
  api = testApp(db);
  const person = await createPerson(db.prisma, { username: 'ana', units: 'kilometers' });
  await db.prisma.person.update({ where: { id: person.id }, data: { timeZone: 'America/New_York' } });
  const friendRow = await createPerson(db.prisma, { username: 'fred' });
  const strangerRow = await createPerson(db.prisma, { username: 'sue' });
  await makeFriends(db.prisma, person.id, friendRow.id);
  ana = await createToken(db.prisma, person.id);
  friend = await createToken(db.prisma, friendRow.id);
  stranger = await createToken(db.prisma, strangerRow.id);

  // 6 km at 6:00 a km with a 4:00 kilometer from 2 to 3 km: the fastest kilometer is inside it
  fastKm = await workout('activityType: RUNNING, completedAt: "2026-10-05T11:00:00Z", duration: 2040', {
    gpx: runGpx(6000, (m) => (m >= 2000 && m < 3000 ? 240 : 360), new Date('2026-10-05T10:26:00Z')),
  });
  // 5 km at 5:00 a km, even: the best 5 km, slower kilometers
  evenRun = await workout('activityType: RUNNING, completedAt: "2026-10-07T11:00:00Z"', {
    gpx: runGpx(5000, () => 300, new Date('2026-10-07T10:35:00Z')),
  });
  // a fast run without times: no record can come from it
  untimed = await workout('activityType: RUNNING, completedAt: "2026-10-08T11:00:00Z", duration: 600', {
    gpx: runGpx(5000, () => 100, new Date('2026-10-08T10:00:00Z'), false),
  });
  ride = await workout(
    'activityType: CYCLING, completedAt: "2026-10-06T15:00:00Z", distance: { value: 42.5, units: KILOMETERS }, duration: 5400',
  );
  await workout('activityType: CYCLING, completedAt: "2026-10-09T15:00:00Z", distance: { value: 10, units: MILES }', {
    gpx: runGpx(3000, () => 120, new Date('2026-10-09T14:00:00Z')),
  });
  await workout('activityType: SWIMMING, completedAt: "2026-10-10T07:00:00Z", distance: { value: 1500, units: METERS }, duration: 1800');
  // friends only: a 3:20 kilometer that strangers must not see
  hiddenFast = await workout('activityType: RUNNING, completedAt: "2026-10-11T11:00:00Z"', {
    gpx: runGpx(2000, () => 200, new Date('2026-10-11T10:50:00Z')),
    visibility: 'FRIENDS',
  });
});
afterAll(() => db.destroy());

describe('records', () => {
  it('finds the fastest kilometer inside a longer run, and each distance in the run that holds it best', async () => {
    const data = await as<Records>(stranger, RECORDS);
    expect(running(data, 'ONE_K')).toMatchObject({ seconds: expect.closeTo(240, 0), entry: { id: fastKm } });
    expect(running(data, 'FIVE_K')).toMatchObject({ seconds: expect.closeTo(1500, 0), entry: { id: evenRun } });
    expect(running(data, 'ONE_MILE')!.seconds).toBeGreaterThan(400);
    // nobody ran 10 km
    expect(running(data, 'TEN_K')).toBeUndefined();
    expect(data.person.records!.running.map((r) => r.distance)).toEqual(['ONE_K', 'ONE_MILE', 'FIVE_K']);
    // the untimed run was 3x faster, and counts for nothing
    expect(data.person.records!.running.every((r) => r.entry.id !== untimed)).toBe(true);
  });

  it('gives the longest ride, the biggest climb and the longest swim', async () => {
    const data = await as<Records>(stranger, RECORDS);
    expect(data.person.records!.longestRide).toMatchObject({
      meters: 42_500,
      distance: { value: 42.5, units: 'KILOMETERS' },
      entry: { id: ride },
    });
    expect(data.person.records!.biggestClimb!.meters).toBeGreaterThan(0);
    expect(data.person.records!.longestSwim).toMatchObject({ meters: 1500 });
  });

  it('reads the longest ride, the biggest climb and the longest swim in one statement', async () => {
    const statementsOf = async (query: string) => {
      let statements = 0;
      const stop = db.onQuery(() => {
        statements += 1;
      });
      await as(stranger, query);
      stop();
      return statements;
    };
    const one = await statementsOf('{ person(username: "ana") { records { longestRide { meters } } } }');
    const three = await statementsOf(
      '{ person(username: "ana") { records { longestRide { meters } biggestClimb { meters } longestSwim { meters } } } }',
    );
    expect(three).toBe(one);
  });

  it('counts a friends-only run for friends and the athlete, never for strangers', async () => {
    expect(running(await as<Records>(friend, RECORDS), 'ONE_K')).toMatchObject({
      seconds: expect.closeTo(200, 0),
      entry: { id: hiddenFast },
    });
    expect(running(await as<Records>(ana, RECORDS), 'ONE_K')!.entry.id).toBe(hiddenFast);
    expect(running(await as<Records>(stranger, RECORDS), 'ONE_K')!.entry.id).toBe(fastKm);
    expect(running(await as<Records>(undefined, RECORDS), 'ONE_K')!.entry.id).toBe(fastKm);
  });

  it('recomputes when a track is replaced, and forgets a deleted entry', async () => {
    const id = await workout('activityType: RUNNING, completedAt: "2026-10-12T11:00:00Z"', {
      gpx: runGpx(1500, () => 180, new Date('2026-10-12T10:55:00Z')),
    });
    expect(running(await as<Records>(stranger, RECORDS), 'ONE_K')).toMatchObject({ seconds: expect.closeTo(180, 0), entry: { id } });
    // the same entry, a slower track: the record goes back to the 4:00 kilometer
    await as(
      ana,
      'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
      {
        id,
        gpx: runGpx(1500, () => 420, new Date('2026-10-12T10:50:00Z')),
      },
    );
    expect(running(await as<Records>(stranger, RECORDS), 'ONE_K')!.entry.id).toBe(fastKm);
    await as(ana, `mutation { deleteEntry(input: { id: ${fastKm} }) { error { __typename } } }`);
    const after = await as<Records>(stranger, RECORDS);
    expect(running(after, 'ONE_K')).toMatchObject({ seconds: expect.closeTo(300, 0), entry: { id: evenRun } });
    expect(await db.prisma.bestEffort.count({ where: { track: { entryId: fastKm } } })).toBe(0);
  });

  it('fills in the tracks stored before records existed', async () => {
    const track = await db.prisma.track.findFirstOrThrow({ where: { entryId: evenRun }, select: { id: true } });
    // as the training_records migration leaves a track: no moving time, no efforts, version 0
    await db.prisma.bestEffort.deleteMany({ where: { trackId: track.id } });
    await db.prisma.track.update({ where: { id: track.id }, data: { recordsVersion: 0, movingSeconds: null } });
    expect(running(await as<Records>(stranger, RECORDS), 'FIVE_K')).toBeUndefined();
    expect(await backfillTrackRecords(db.prisma)).toBe(1);
    expect(running(await as<Records>(stranger, RECORDS), 'FIVE_K')).toMatchObject({
      seconds: expect.closeTo(1500, 0),
      entry: { id: evenRun },
    });
    expect((await db.prisma.track.findUniqueOrThrow({ where: { id: track.id } })).movingSeconds).toBeCloseTo(1500, -1);
    expect(await backfillTrackRecords(db.prisma)).toBe(0);
  });

  it('leaves a track another process has claimed to it, and takes it up once that lease has run out', async () => {
    const tracks = await db.prisma.track.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    expect(tracks.length).toBeGreaterThan(1);
    await db.prisma.track.updateMany({ data: { recordsVersion: 0 } });
    const claimedElsewhere = tracks[0]!.id;
    await db.prisma.track.update({ where: { id: claimedElsewhere }, data: { recordsClaimedUntil: new Date(Date.now() + 60_000) } });
    // two processes at once share the rest: each track computed by one of them
    const [a, b] = await Promise.all([backfillTrackRecords(db.prisma), backfillTrackRecords(db.prisma)]);
    expect(a + b).toBe(tracks.length - 1);
    expect((await db.prisma.track.findUniqueOrThrow({ where: { id: claimedElsewhere } })).recordsVersion).toBe(0);
    // that process stopped: its lease runs out, and the next run computes the track
    await db.prisma.track.update({ where: { id: claimedElsewhere }, data: { recordsClaimedUntil: new Date(Date.now() - 1000) } });
    expect(await backfillTrackRecords(db.prisma)).toBe(1);
    expect(await db.prisma.track.count({ where: { recordsVersion: 0 } })).toBe(0);
  });

  it('fills them in with `milepost migrate` too (a server does it in the background once it listens)', async () => {
    const track = await db.prisma.track.findFirstOrThrow({ where: { entryId: evenRun }, select: { id: true } });
    await db.prisma.bestEffort.deleteMany({ where: { trackId: track.id } });
    await db.prisma.track.update({ where: { id: track.id }, data: { recordsVersion: 0, movingSeconds: null } });
    const result = await runCli(['migrate'], { DATABASE_URL: db.config.url });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('computed the records of 1 stored tracks');
    expect(running(await as<Records>(stranger, RECORDS), 'FIVE_K')).toMatchObject({ entry: { id: evenRun } });
  });
});

const STATS = `query ($period: StatsPeriod!, $from: DateTime, $to: DateTime, $activityType: ActivityType) {
  person(username: "ana") { stats(period: $period, from: $from, to: $to, activityType: $activityType) {
    __typename
    ... on TrainingStats { timeZone weekStart periods { start end firstDay workouts meters distance { value units } movingSeconds elevationGainMeters
      byActivity { activityType workouts meters } }
      total { workouts meters } }
    ... on ValidationError { issues { path message } } } } }`;
type Period = {
  start: string;
  firstDay: string;
  workouts: number;
  meters: number;
  distance: { value: number; units: string };
  movingSeconds: number;
  byActivity: Array<{ activityType: string; workouts: number; meters: number }>;
};
type Stats = {
  person: {
    stats: {
      __typename: string;
      timeZone?: string;
      periods?: Period[];
      total?: { workouts: number; meters: number };
      issues?: Array<{ path: string }>;
    } | null;
  };
};

describe('stats', () => {
  it('sums each week of the athlete’s calendar, with each activity apart', async () => {
    const data = await as<Stats>(ana, STATS, { period: 'WEEK', from: '2026-10-05T12:00:00Z', to: '2026-10-12T12:00:00Z' });
    const stats = data.person.stats!;
    expect(stats.timeZone).toBe('America/New_York');
    // Monday weeks in New York: 5 October begins at 04:00 UTC
    expect(stats.periods!.map((p) => p.firstDay)).toEqual(['2026-10-05', '2026-10-12']);
    expect(stats.periods![0]!.start).toBe('2026-10-05T04:00:00Z');
    const week = stats.periods![0]!;
    // the 6 km run was deleted above: 5 km + untimed 5 km + friends-only 2 km, two rides, a swim
    expect(week.workouts).toBe(6);
    const runs = week.byActivity.find((a) => a.activityType === 'RUNNING')!;
    expect(runs.workouts).toBe(3);
    expect(runs.meters).toBeCloseTo(12_000, -1);
    expect(week.byActivity.find((a) => a.activityType === 'CYCLING')).toMatchObject({
      workouts: 2,
      meters: expect.closeTo(42_500 + 16_093.4, 0),
    });
    // kilometers, the athlete's units
    expect(week.distance.units).toBe('KILOMETERS');
    expect(week.distance.value).toBeCloseTo(week.meters / 1000, 2);
    // a track's moving time where there is one, else the duration entered
    expect(week.movingSeconds).toBeGreaterThan(1500 + 600 + 5400 + 1800);
  });

  it('counts only the workouts the reader may see', async () => {
    const range = { period: 'MONTH', from: '2026-10-01T12:00:00Z', to: '2026-10-31T12:00:00Z' };
    const own = (await as<Stats>(ana, STATS, range)).person.stats!.total!;
    const other = (await as<Stats>(stranger, STATS, range)).person.stats!.total!;
    expect(own.workouts - other.workouts).toBe(1);
    expect(own.meters - other.meters).toBeCloseTo(2000, -1);
  });

  it('places a late-evening workout on the local day, and filters by activity', async () => {
    // Sunday 1 November, 22:30 in New York, is Monday in UTC: it belongs to the week of 26 October
    await workout('activityType: WALKING, completedAt: "2026-11-02T03:30:00Z", distance: { value: 3, units: KILOMETERS }');
    const data = await as<Stats>(ana, STATS, {
      period: 'WEEK',
      from: '2026-10-27T12:00:00Z',
      to: '2026-11-03T12:00:00Z',
      activityType: 'WALKING',
    });
    const weeks = data.person.stats!.periods!;
    expect(weeks.map((w) => [w.firstDay, w.workouts])).toEqual([
      ['2026-10-26', 1],
      ['2026-11-02', 0],
    ]);
  });

  it('gives the 53 weeks of 2026, the last one spanning the year end, and the 169-hour week of the autumn DST change', async () => {
    const data = await as<Stats>(ana, STATS, { period: 'WEEK', from: '2026-01-01T12:00:00Z', to: '2026-12-31T12:00:00Z' });
    const weeks = data.person.stats!.periods! as Array<Period & { end: string }>;
    expect(weeks).toHaveLength(53);
    expect(weeks.at(-1)!.firstDay).toBe('2026-12-28');
    // New York leaves DST on 1 November: the week of 26 October ends an hour later in UTC than it began
    const autumn = weeks.find((w) => w.firstDay === '2026-10-26')!;
    expect([autumn.start, autumn.end]).toEqual(['2026-10-26T04:00:00Z', '2026-11-02T05:00:00Z']);
  });

  it('takes the range as literals too, and refuses a malformed one', async () => {
    const printed = vi.spyOn(console, 'error');
    const query =
      '{ person(username: "ana") { stats(period: WEEK, from: "2026-10-05T12:00:00Z", to: "2026-10-12T12:00:00Z") { ... on TrainingStats { periods { firstDay } } } } }';
    // twice: a document seen again is compiled (graphql-jit), which complained of a DateTime literal on
    // every request while the scalar's literal parser also took the variables
    for (let i = 0; i < 2; i++) {
      const literal = await as<Stats>(ana, query);
      expect(literal.person.stats!.periods!.map((p) => p.firstDay)).toEqual(['2026-10-05', '2026-10-12']);
    }
    expect(printed).not.toHaveBeenCalled();
    printed.mockRestore();
    const bad = await api.graphql('{ person(username: "ana") { stats(period: WEEK, from: "last Tuesday") { __typename } } }', {}, ana);
    expect(bad.errors?.[0]?.message).toContain('DateTime must be an ISO 8601 timestamp');
  });

  it('refuses a range too long to answer, naming the field', async () => {
    const data = await as<Stats>(ana, STATS, { period: 'WEEK', from: '2000-01-01T00:00:00Z' });
    expect(data.person.stats).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'from' }] });
  });
});

describe('streaks and who may read them', () => {
  it('counts the current run of days and weeks', async () => {
    const now = Date.now();
    for (const daysAgo of [0, 1, 2]) {
      await workout(`activityType: RUNNING, completedAt: "${new Date(now - daysAgo * DAY).toISOString().slice(0, 19)}Z", duration: 1200`);
    }
    const data = await as<{
      person: { streak: { currentDays: number; longestDays: number; currentWeeks: number; lastWorkoutDay: string } };
    }>(ana, '{ person(username: "ana") { streak { currentDays longestDays currentWeeks lastWorkoutDay } } }');
    expect(data.person.streak.currentDays).toBeGreaterThanOrEqual(3);
    expect(data.person.streak.longestDays).toBeGreaterThanOrEqual(data.person.streak.currentDays);
    expect(data.person.streak.currentWeeks).toBeGreaterThanOrEqual(1);
  });

  it('refuses asking every author of a page for their stats at once: each sums a person’s every workout', async () => {
    const everyAuthor =
      '{ publicStream(first: 20) { ... on EntryConnection { edges { node { author { stats(period: WEEK) { __typename } records { __typename } streak { __typename } } } } } } }';
    const refused = await api.graphql(everyAuthor, {}, stranger);
    expect(refused.errors?.[0]?.message).toMatch(/^Query cost \d+ is over the limit/);
    // one person's, all three with their figures, is well inside it
    const one = await api.graphql(
      '{ person(username: "ana") { stats(period: WEEK) { __typename } records { running { seconds entry { id: databaseId } } longestRide { meters } } streak { currentDays } } }',
      {},
      stranger,
    );
    expect(one.errors).toBeUndefined();
  });

  it('keeps stats, records and streaks to whom the athlete chooses', async () => {
    const query =
      '{ person(username: "ana") { statsVisibility weekStart records { __typename } streak { __typename } stats(period: YEAR) { __typename } } }';
    await as(ana, 'mutation { updateProfile(input: { statsVisibility: FRIENDS, weekStart: SUNDAY }) { error { __typename } } }');
    const hidden = { statsVisibility: null, weekStart: null, records: null, streak: null, stats: null };
    expect((await as<{ person: unknown }>(stranger, query)).person).toEqual(hidden);
    expect((await as<{ person: unknown }>(undefined, query)).person).toEqual(hidden);
    expect((await as<{ person: { records: unknown } }>(friend, query)).person.records).toEqual({ __typename: 'PersonRecords' });
    const own = await as<{ person: { statsVisibility: string } }>(ana, query);
    expect(own.person.statsVisibility).toBe('FRIENDS');
    const weeks = await as<Stats>(ana, STATS, { period: 'WEEK', from: '2026-11-25T12:00:00Z', to: '2026-11-25T12:00:00Z' });
    expect(weeks.person.stats!.periods![0]!.firstDay).toBe('2026-11-22');
    await as(ana, 'mutation { updateProfile(input: { statsVisibility: ONLY_ME }) { error { __typename } } }');
    expect((await as<{ person: unknown }>(friend, query)).person).toEqual(hidden);
    await as(ana, 'mutation { updateProfile(input: { statsVisibility: EVERYONE, weekStart: MONDAY }) { error { __typename } } }');
  });
});
