// The demo community: believable, complete, deterministic, and safe to extend afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_ACTIVITY_TYPES } from '../../src/domain/activity.ts';
import { distanceMiles } from '../../src/domain/geo.ts';
import { decodePoints } from '../../src/domain/track-codec.ts';
import { CITIES, PER_SCALE } from '../../src/seed/community.ts';
import { type SeedResult, seed, seedIfEmpty } from '../../src/seed/seed.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let result: SeedResult | null;
const stages = new Set<string>();

beforeAll(async () => {
  db = await createTestDatabase('seed');
  result = await seedIfEmpty(db, { onProgress: (stage) => stages.add(stage) });
});
afterAll(() => db.destroy());

describe('npx milepost seed', () => {
  it('builds one scale unit of people, entries, comments, likes and routes', async () => {
    expect(result).toMatchObject({ people: PER_SCALE.people, entries: PER_SCALE.entries, routes: PER_SCALE.routes });
    expect(await db.prisma.person.count()).toBe(PER_SCALE.people);
    expect(await db.prisma.entry.count()).toBe(PER_SCALE.entries);
    // counts vary around their averages
    expect(result!.comments).toBeGreaterThan(PER_SCALE.comments * 0.8);
    expect(result!.likes).toBeGreaterThan(PER_SCALE.likes * 0.8);
    expect(await db.prisma.comment.count()).toBe(result!.comments);
    expect(await db.prisma.like.count()).toBe(result!.likes);
    expect(await db.prisma.friendship.count()).toBe(result!.friendships * 2);
    expect([...stages]).toEqual(['people', 'friendships', 'routes', 'entries']);
  });

  it('posts notes and workouts of each of SPEC’s activity types', async () => {
    const kinds = await db.prisma.entry.groupBy({ by: ['kind'], _count: true });
    expect(kinds.map((k) => k.kind).sort()).toEqual(['note', 'workout']);
    const activities = await db.prisma.workout.groupBy({ by: ['activityType'], _count: true });
    expect(activities.map((a) => a.activityType).sort()).toEqual([...SPEC_ACTIVITY_TYPES].sort());
  });

  it('places located entries near a real city', async () => {
    const located = await db.prisma.entry.findMany({
      where: { lat: { not: null } },
      select: { lat: true, lon: true, placeName: true },
      take: 200,
    });
    expect(located.length).toBeGreaterThan(100);
    for (const entry of located) {
      const city = CITIES.find((c) => c.name === entry.placeName)!;
      expect(distanceMiles(city, { lat: entry.lat!, lon: entry.lon! })).toBeLessThanOrEqual(12.01);
    }
  });

  it("links workouts only to their author's routes, and gives routes GPS tracks", async () => {
    const linked = await db.prisma.workout.findMany({
      where: { routeId: { not: null } },
      select: { entry: { select: { authorId: true } }, route: { select: { ownerId: true } } },
    });
    expect(linked.length).toBeGreaterThan(0);
    for (const w of linked) expect(w.route!.ownerId).toBe(w.entry.authorId);
    const tracks = await db.prisma.track.findMany({ select: { pointCount: true, distanceMeters: true, pointData: true, polyline: true } });
    expect(tracks).toHaveLength(PER_SCALE.routes);
    for (const t of tracks) {
      expect(decodePoints(t.pointData)).toHaveLength(t.pointCount);
      expect(t.polyline.length).toBeGreaterThan(100);
      expect(t.distanceMeters).toBeGreaterThan(1000);
    }
  });

  it('is served at once: the public stream shows the newest entries with whole-second times', async () => {
    const api = testApp(db);
    const response = await api.graphql<{ publicStream: { edges: Array<{ node: { at: string; author: { username: string } } }> } }>(
      '{ publicStream { ... on EntryConnection { edges { node { at author { username } } } } } }',
    );
    const ats = response.data!.publicStream.edges.map((e) => e.node.at);
    expect(ats).toHaveLength(20);
    expect([...ats].sort().reverse()).toEqual(ats);
    for (const at of ats) expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('does nothing on a database that already has people', async () => {
    expect(await seedIfEmpty(db)).toBeNull();
    expect(await db.prisma.person.count()).toBe(PER_SCALE.people);
  });

  it('adds a second community after the first, and the database keeps numbering after both', async () => {
    await seed(db, { seed: 7 });
    expect(await db.prisma.person.count()).toBe(2 * PER_SCALE.people);
    const usernames = await db.prisma.person.findMany({ select: { usernameKey: true } });
    expect(new Set(usernames.map((u) => u.usernameKey)).size).toBe(usernames.length);
    const max = await db.prisma.entry.aggregate({ _max: { id: true } });
    const created = await db.prisma.entry.create({ data: { authorId: 1, message: 'after the seed' } });
    expect(created.id).toBe(max._max.id! + 1);
  });
});
