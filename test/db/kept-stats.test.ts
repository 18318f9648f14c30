// A person's stats, records and streak are kept between views at the revision of what they count
// (db/kept-stats.ts): a view after the first reads none of them again, and every write that changes what
// they count shows on the next view, whoever made it. The writes here go straight to the database, as
// another process, the CLI or a cascade would make them: only the triggers can tell the kept answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillTrackRecords } from '../../src/db/track-records.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

const VIEW = `{ person(username: "ana") {
  stats(period: YEAR, from: "2026-01-01T12:00:00Z", to: "2026-12-31T12:00:00Z") { ... on TrainingStats { total { workouts meters } } }
  records { running { distance } longestRide { meters } }
  streak { longestDays lastWorkoutDay } } }`;
interface View {
  person: {
    stats: { total: { workouts: number; meters: number } } | null;
    records: { running: Array<{ distance: string }>; longestRide: { meters: number } | null } | null;
    streak: { longestDays: number; lastWorkoutDay: string | null } | null;
  } | null;
}

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let anaId: number;
let fredId: number;
let tokens: { fred: string; sue: string };
let trackedRun: number;

async function view(token?: string): Promise<View['person']> {
  const result = await api.graphql<View>(VIEW, {}, token);
  expect(result.errors).toBeUndefined();
  return result.data!.person;
}

/** A GPX run of `meters` north from (40, -74) at 5:00 a kilometer, a point every 10 m. */
function runGpx(meters: number, start: Date): string {
  const points = Array.from({ length: meters / 10 + 1 }, (_, i) => {
    const time = new Date(start.getTime() + i * 3_000).toISOString();
    return `<trkpt lat="${(40 + (i * 10) / 111_194.93).toFixed(7)}" lon="-74"><time>${time}</time></trkpt>`;
  });
  return `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`;
}

beforeAll(async () => {
  db = await createTestDatabase('kept_stats');
  api = testApp(db);
  const ana = await createPerson(db.prisma, { username: 'ana', units: 'kilometers' });
  const fred = await createPerson(db.prisma, { username: 'fred' });
  const sue = await createPerson(db.prisma, { username: 'sue' });
  [anaId, fredId] = [ana.id, fred.id];
  await makeFriends(db.prisma, ana.id, fred.id);
  tokens = { fred: await createToken(db.prisma, fred.id), sue: await createToken(db.prisma, sue.id) };
  const anaToken = await createToken(db.prisma, ana.id);
  const created = await api.graphql<{ createEntry: { entry: { id: number } } }>(
    'mutation { createEntry(input: { workout: { activityType: RUNNING, completedAt: "2026-03-02T10:30:00Z" } }) { entry { id: databaseId } } }',
    {},
    anaToken,
  );
  trackedRun = created.data!.createEntry.entry.id;
  const set = await api.graphql(
    'mutation ($id: ID!, $gpx: GpxDocument!) { setEntryTrack(input: { entryId: $id, gpx: $gpx }) { error { __typename } } }',
    { id: trackedRun, gpx: runGpx(5000, new Date('2026-03-02T10:05:00Z')) },
    anaToken,
  );
  expect(set.errors).toBeUndefined();
  await createEntry(db.prisma, ana.id, {
    at: new Date('2026-03-03T18:00:00Z'),
    workout: { activityType: 'cycling', distanceValue: 40, distanceUnits: 'kilometers' },
  });
});
afterAll(() => db.destroy());

describe('kept stats', () => {
  it('reads a person’s stats, records and streak once, and none of them again on the next view', async () => {
    const statementsOf = async (token?: string) => {
      const statements: string[] = [];
      const stop = db.onQuery((_ms, sql) => statements.push(sql));
      const seen = await view(token);
      stop();
      return { seen, reads: statements.filter((sql) => sql.includes('"Workout"')).length };
    };
    const first = await statementsOf();
    expect(first.reads).toBe(4);
    expect(first.seen).toMatchObject({ stats: { total: { workouts: 2 } }, streak: { longestDays: 2, lastWorkoutDay: '2026-03-03' } });
    const again = await statementsOf();
    expect(again.reads).toBe(0);
    expect(again.seen).toEqual(first.seen);
    // another reader has answers of their own (a friend, a block differ)
    expect((await statementsOf(tokens.sue)).reads).toBe(4);
  });

  it('shows a workout added, changed, hidden and deleted, whoever wrote it', async () => {
    const before = (await view())!.stats!.total;
    const added = await createEntry(db.prisma, anaId, {
      at: new Date('2026-03-05T07:00:00Z'),
      workout: { activityType: 'running', distanceValue: 10, distanceUnits: 'kilometers' },
    });
    expect((await view())!.stats!.total).toEqual({ workouts: before.workouts + 1, meters: before.meters + 10_000 });
    expect((await view())!.streak!.lastWorkoutDay).toBe('2026-03-05');

    await db.prisma.workout.update({ where: { entryId: added.id }, data: { distanceValue: 12 } });
    expect((await view())!.stats!.total.meters).toBe(before.meters + 12_000);

    // friends only: gone for anyone and a stranger, still there for a friend
    await view(tokens.fred);
    await db.prisma.entry.update({ where: { id: added.id }, data: { visibility: 'friends' } });
    expect((await view())!.stats!.total).toEqual(before);
    expect((await view(tokens.sue))!.stats!.total).toEqual(before);
    expect((await view(tokens.fred))!.stats!.total.workouts).toBe(before.workouts + 1);

    // no longer friends: the friend sees what anyone does
    await db.prisma.friendship.deleteMany({ where: { OR: [{ personId: fredId }, { friendId: fredId }] } });
    expect((await view(tokens.fred))!.stats!.total).toEqual(before);

    await db.prisma.entry.update({ where: { id: added.id }, data: { visibility: 'everyone' } });
    expect((await view())!.stats!.total.workouts).toBe(before.workouts + 1);
    await db.prisma.entry.delete({ where: { id: added.id } });
    expect((await view())!.stats!.total).toEqual(before);
    expect((await view())!.streak!.lastWorkoutDay).toBe('2026-03-03');
  });

  it('shows a track’s records when they arrive after the track, and a ride moved to another day', async () => {
    expect((await view())!.records!.running.map((r) => r.distance)).toEqual(['ONE_K', 'ONE_MILE', 'FIVE_K']);
    // as a track stored before records existed: none, until the backfill computes them
    const track = await db.prisma.track.findFirstOrThrow({ where: { entryId: trackedRun }, select: { id: true } });
    await db.prisma.bestEffort.deleteMany({ where: { trackId: track.id } });
    await db.prisma.track.update({ where: { id: track.id }, data: { recordsVersion: 0 } });
    expect((await view())!.records!.running).toEqual([]);
    expect(await backfillTrackRecords(db.prisma)).toBe(1);
    expect((await view())!.records!.running.map((r) => r.distance)).toEqual(['ONE_K', 'ONE_MILE', 'FIVE_K']);

    const ride = await db.prisma.workout.findFirstOrThrow({ where: { activityType: 'cycling', entry: { authorId: anaId } } });
    expect((await view())!.records!.longestRide).toEqual({ meters: 40_000 });
    await db.prisma.workout.update({ where: { entryId: ride.entryId }, data: { completedAt: new Date('2026-03-10T18:00:00Z') } });
    expect((await view())!.streak).toEqual({ longestDays: 1, lastWorkoutDay: '2026-03-10' });
  });

  it('hides them from a reader as soon as either blocks the other', async () => {
    expect((await view(tokens.sue))!.stats).not.toBeNull();
    const sue = await db.prisma.person.findUniqueOrThrow({ where: { usernameKey: 'sue' } });
    await db.prisma.block.create({ data: { blockerId: anaId, blockedId: sue.id } });
    const blocked = await view(tokens.sue);
    expect(blocked?.stats ?? null).toBeNull();
    await db.prisma.block.deleteMany({ where: { blockerId: anaId } });
    expect((await view(tokens.sue))!.stats!.total.workouts).toBe(2);
  });
});
