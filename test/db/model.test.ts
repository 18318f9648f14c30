// The data model's rules that the database itself enforces, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedDate } from '../../src/db/entry-rows.ts';
import { Prisma as Sql } from '../../src/generated/prisma-sqlite/client.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('model');
});
afterAll(() => db.destroy());

describe('people', () => {
  it('keeps usernames unique regardless of case', async () => {
    await createPerson(db.prisma, { username: 'RunnerBen' });
    await expect(createPerson(db.prisma, { username: 'runnerben' })).rejects.toMatchObject({ code: 'P2002' });
  });
});

describe('likes', () => {
  it('allows one like per person and entry', async () => {
    const author = await createPerson(db.prisma);
    const fan = await createPerson(db.prisma);
    const entry = await createEntry(db.prisma, author.id);
    await db.prisma.like.create({ data: { entryId: entry.id, personId: fan.id } });
    await expect(db.prisma.like.create({ data: { entryId: entry.id, personId: fan.id } })).rejects.toMatchObject({ code: 'P2002' });
    expect(await db.prisma.like.count({ where: { entryId: entry.id } })).toBe(1);
  });
});

describe('friendships', () => {
  it('are stored once per direction', async () => {
    const a = await createPerson(db.prisma);
    const b = await createPerson(db.prisma);
    await makeFriends(db.prisma, a.id, b.id);
    await expect(db.prisma.friendship.create({ data: { personId: a.id, friendId: b.id } })).rejects.toMatchObject({ code: 'P2002' });
    await expect(db.prisma.friendRequest.create({ data: { fromId: a.id, toId: b.id } })).resolves.toBeTruthy();
    await expect(db.prisma.friendRequest.create({ data: { fromId: a.id, toId: b.id } })).rejects.toMatchObject({ code: 'P2002' });
  });
});

describe('deleting an entry', () => {
  it('removes its workout, comments, likes and track with its waypoints, and nothing else', async () => {
    const author = await createPerson(db.prisma);
    const entry = await createEntry(db.prisma, author.id, {
      workout: { activityType: 'running', distanceValue: 5, distanceUnits: 'kilometers' },
    });
    const keep = await createEntry(db.prisma, author.id);
    await db.prisma.comment.create({ data: { entryId: entry.id, authorId: author.id, body: 'gone' } });
    await db.prisma.comment.create({ data: { entryId: keep.id, authorId: author.id, body: 'stays' } });
    await db.prisma.like.create({ data: { entryId: entry.id, personId: author.id } });
    const track = await db.prisma.track.create({
      data: { entryId: entry.id, waypoints: { create: [{ seq: 0, lat: 1, lon: 2, name: 'start' }] } },
    });

    await db.prisma.entry.delete({ where: { id: entry.id } });

    expect(await db.prisma.workout.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await db.prisma.comment.findMany({ where: { authorId: author.id }, select: { body: true } })).toEqual([{ body: 'stays' }]);
    expect(await db.prisma.like.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await db.prisma.track.count({ where: { id: track.id } })).toBe(0);
    expect(await db.prisma.trackWaypoint.count({ where: { trackId: track.id } })).toBe(0);
  });
});

describe('routes', () => {
  it('survive as workouts lose them: deleting a route unlinks its workouts', async () => {
    const owner = await createPerson(db.prisma);
    const route = await db.prisma.route.create({ data: { ownerId: owner.id, name: 'Lake loop', activityType: 'running' } });
    const entry = await createEntry(db.prisma, owner.id, { workout: { activityType: 'running' } });
    await db.prisma.workout.update({ where: { entryId: entry.id }, data: { routeId: route.id } });
    await db.prisma.route.delete({ where: { id: route.id } });
    expect(await db.prisma.workout.findUnique({ where: { entryId: entry.id }, select: { routeId: true } })).toEqual({ routeId: null });
  });

  it('have at most one track', async () => {
    const owner = await createPerson(db.prisma);
    const route = await db.prisma.route.create({ data: { ownerId: owner.id } });
    await db.prisma.track.create({ data: { routeId: route.id } });
    await expect(db.prisma.track.create({ data: { routeId: route.id } })).rejects.toMatchObject({ code: 'P2002' });
  });
});

describe('OAuth', () => {
  it('keeps client ids and token hashes unique', async () => {
    const person = await createPerson(db.prisma);
    const client = await db.prisma.oAuthClient.create({ data: { clientId: 'dup-app', name: 'App' } });
    await expect(db.prisma.oAuthClient.create({ data: { clientId: 'dup-app', name: 'App 2' } })).rejects.toMatchObject({ code: 'P2002' });
    await db.prisma.oAuthAccessToken.create({ data: { tokenHash: 'h1', clientId: client.id, personId: person.id } });
    await expect(
      db.prisma.oAuthAccessToken.create({ data: { tokenHash: 'h1', clientId: client.id, personId: person.id } }),
    ).rejects.toMatchObject({
      code: 'P2002',
    });
  });
});

describe('the hot read path (Database.read)', () => {
  it('reads timestamps as the UTC moments Prisma wrote, whatever the process time zone', async () => {
    const author = await createPerson(db.prisma);
    const at = new Date('2024-07-01T23:30:15.250Z');
    const entry = await createEntry(db.prisma, author.id, { at });
    const zone = process.env.TZ;
    // a zone far from UTC, with summer time on that day: a reading as local time would be 7 hours off
    process.env.TZ = 'America/Los_Angeles';
    try {
      const [row] = await db.read<{ createdAt: Date | string }>(Sql.sql`SELECT "createdAt" FROM "Entry" WHERE "id" = ${entry.id}`);
      // PostgreSQL's driver gives a Date, SQLite the text Prisma wrote
      const read = row!.createdAt instanceof Date ? row!.createdAt : storedDate(row!.createdAt);
      expect(read.toISOString()).toBe(at.toISOString());
      // a Date as a parameter is the same moment too: the entry is found by it
      const found = await db.read<{ id: number }>(Sql.sql`SELECT "id" FROM "Entry" WHERE "createdAt" = ${at}`);
      expect(found.map((r) => Number(r.id))).toEqual([entry.id]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
