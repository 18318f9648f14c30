// Writes the demo community (community.ts) in batches: one transaction per batch keeps SQLite fast
// (one commit per few thousand rows) and memory flat at any scale.
import { type BulkTarget, bulkInsert } from '../db/bulk.ts';
import type { Database, Prisma } from '../db/database.ts';
import { encodePolyline, summarizeTrack, thin } from '../domain/track.ts';
import { encodePoints } from '../domain/track-codec.ts';
import {
  CITIES,
  createRandom,
  type EntryPlan,
  generateEntryBatch,
  generateFriendships,
  generateLoop,
  generatePeople,
  generateRoutes,
  MAX_TRACKED_ROUTES,
  PER_SCALE,
} from './community.ts';

export interface SeedOptions {
  /** Multiplies PER_SCALE: 1 is the demo community, 100 is the benchmark's 100k entries. */
  scale?: number;
  /** PRNG seed; the same value gives the same community. */
  seed?: number;
  now?: Date;
  /** Called as work completes: `done` of `total` rows of the stage named. */
  onProgress?: (stage: string, done: number, total: number) => void;
}

export interface SeedResult {
  people: number;
  friendships: number;
  routes: number;
  entries: number;
  comments: number;
  likes: number;
}

const ENTRY_BATCH = 2_000;
const PEOPLE_BATCH = 5_000;
const ROWS_BATCH = 10_000;
/** Entries of the demo are spread over this many days; larger communities post more often, not longer. */
const SPAN_DAYS = 120;

async function nextIds(prisma: Prisma) {
  const [person, entry, comment, like, route] = await Promise.all([
    prisma.person.aggregate({ _max: { id: true } }),
    prisma.entry.aggregate({ _max: { id: true } }),
    prisma.comment.aggregate({ _max: { id: true } }),
    prisma.like.aggregate({ _max: { id: true } }),
    prisma.route.aggregate({ _max: { id: true } }),
  ]);
  return {
    person: (person._max.id ?? 0) + 1,
    entry: (entry._max.id ?? 0) + 1,
    comment: (comment._max.id ?? 0) + 1,
    like: (like._max.id ?? 0) + 1,
    route: (route._max.id ?? 0) + 1,
  };
}

async function inChunks<T>(rows: T[], size: number, write: (chunk: T[]) => Promise<unknown>, progress?: (done: number) => void) {
  for (let i = 0; i < rows.length; i += size) {
    await write(rows.slice(i, i + size));
    progress?.(Math.min(rows.length, i + size));
  }
}

/** GPS loops for the first routes, around their owners' cities. */
async function seedRouteTracks(
  prisma: Database['prisma'],
  random: ReturnType<typeof createRandom>,
  routes: ReturnType<typeof generateRoutes>,
  people: ReturnType<typeof generatePeople>,
  firstPersonId: number,
  report: (done: number, of: number) => void,
): Promise<void> {
  const tracked = routes.slice(0, MAX_TRACKED_ROUTES);
  for (const [i, route] of tracked.entries()) {
    const owner = people[route.ownerId - firstPersonId]!;
    const city = CITIES.find((c) => c.name === owner.location)!;
    const points = generateLoop(random, city, route.activityType, route.createdAt);
    const full = points.map((p) => ({ ...p, heartRate: null, cadence: null, segment: 0 }));
    await prisma.track.create({
      data: {
        routeId: route.id,
        ...summarizeTrack(points),
        polyline: encodePolyline(thin(points)),
        pointData: encodePoints(full) as Uint8Array<ArrayBuffer>,
      },
    });
    report(i + 1, tracked.length);
  }
}

export async function seed(database: Database, options: SeedOptions = {}): Promise<SeedResult> {
  const { prisma } = database;
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1) throw new RangeError(`scale must be a positive integer, got ${scale}`);
  const random = createRandom(options.seed ?? 20131116);
  const now = options.now ?? new Date(Math.floor(Date.now() / 1000) * 1000);
  const report = options.onProgress ?? (() => {});
  const ids = await nextIds(prisma);
  const target: BulkTarget = { provider: database.provider, client: prisma };
  const inTransaction = <T>(fn: (t: BulkTarget) => Promise<T>) =>
    prisma.$transaction((tx) => fn({ provider: database.provider, client: tx }), { timeout: 120_000, maxWait: 30_000 });

  const existing = await prisma.person.findMany({ select: { usernameKey: true } });
  const taken = new Set(existing.map((p) => p.usernameKey));
  const people = generatePeople(random, ids.person, PER_SCALE.people * scale, taken, now);
  await inChunks(
    people,
    PEOPLE_BATCH,
    (chunk) => bulkInsert(target, 'Person', chunk),
    (n) => report('people', n, people.length),
  );

  const personIds = people.map((p) => p.id);
  const friendships = generateFriendships(random, personIds, PER_SCALE.friendsEach, now);
  await inChunks(
    friendships,
    ROWS_BATCH,
    (chunk) => bulkInsert(target, 'Friendship', chunk),
    (n) => report('friendships', n, friendships.length),
  );

  const routes = generateRoutes(random, ids.route, PER_SCALE.routes * scale, personIds, now);
  await bulkInsert(target, 'Route', routes);
  await seedRouteTracks(prisma, random, routes, people, ids.person, (n, of) => report('routes', n, of));

  const routesByOwner = new Map<number, number[]>();
  for (const route of routes) routesByOwner.set(route.ownerId, [...(routesByOwner.get(route.ownerId) ?? []), route.id]);
  const plan: EntryPlan = {
    people: people.map((p) => ({ id: p.id, units: p.units, cityIndex: CITIES.findIndex((c) => c.name === p.location) })),
    routesByOwner,
    now,
    spanMs: SPAN_DAYS * 86_400_000,
    total: PER_SCALE.entries * scale,
    commentsPerEntry: PER_SCALE.comments / PER_SCALE.entries,
    likesPerEntry: PER_SCALE.likes / PER_SCALE.entries,
  };
  const counters = { entry: ids.entry, comment: ids.comment, like: ids.like };
  let comments = 0;
  let likes = 0;
  for (let from = 0; from < plan.total; from += ENTRY_BATCH) {
    const batch = generateEntryBatch(random, plan, from, Math.min(plan.total, from + ENTRY_BATCH), counters);
    await inTransaction(async (t) => {
      await bulkInsert(t, 'Entry', batch.entries);
      await bulkInsert(t, 'Workout', batch.workouts);
      await bulkInsert(t, 'Comment', batch.comments);
      await bulkInsert(t, 'Like', batch.likes);
    });
    comments += batch.comments.length;
    likes += batch.likes.length;
    report('entries', Math.min(plan.total, from + ENTRY_BATCH), plan.total);
  }
  // rows were written with explicit ids; PostgreSQL's sequences must learn about them
  await database.syncSequences();
  await database.analyze();
  return { people: people.length, friendships: friendships.length / 2, routes: routes.length, entries: plan.total, comments, likes };
}

/** Seeds the demo community when the database holds nobody yet; returns null when it did nothing. */
export async function seedIfEmpty(database: Database, options: SeedOptions = {}): Promise<SeedResult | null> {
  const anyone = await database.prisma.person.findFirst({ select: { id: true } });
  return anyone ? null : seed(database, options);
}
