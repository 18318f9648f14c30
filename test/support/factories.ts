// Real rows in a real database, with only what a test cares about spelled out.
import { generateToken, hashToken } from '../../src/auth/tokens.ts';
import type { Prisma } from '../../src/db/database.ts';

let sequence = 0;
const next = () => ++sequence;

export async function createPerson(prisma: Prisma, fields: { username?: string; units?: string; displayName?: string } = {}) {
  const username = fields.username ?? `athlete${next()}`;
  return prisma.person.create({
    data: {
      username,
      usernameKey: username.toLowerCase(),
      displayName: fields.displayName ?? `Athlete ${username}`,
      units: fields.units ?? 'miles',
    },
  });
}

export interface EntryFields {
  at?: Date;
  message?: string;
  lat?: number;
  lon?: number;
  placeName?: string;
  /** "everyone" (the default), "friends" or "only_me" */
  visibility?: string;
  workout?: { activityType: string; distanceValue?: number; distanceUnits?: string; duration?: number };
}

export async function createEntry(prisma: Prisma, authorId: number, fields: EntryFields = {}) {
  return prisma.entry.create({
    data: {
      authorId,
      kind: fields.workout ? 'workout' : 'note',
      message: fields.message ?? `entry ${next()}`,
      lat: fields.lat ?? null,
      lon: fields.lon ?? null,
      placeName: fields.placeName ?? null,
      ...(fields.visibility ? { visibility: fields.visibility } : {}),
      createdAt: fields.at ?? new Date(),
      ...(fields.workout ? { workout: { create: fields.workout } } : {}),
    },
  });
}

/** A workout posted at a place (Boulder, CO): an entry with every part a page may show of it. */
export function createPlacedWorkout(prisma: Prisma, authorId: number) {
  return createEntry(prisma, authorId, {
    lat: 40.0,
    lon: -105.0,
    placeName: 'Boulder, CO',
    workout: { activityType: 'running', duration: 1800 },
  });
}

/** An author and a reader who are friends, each with a token; the reader has posted three entries. */
export async function authorAndReader(prisma: Prisma) {
  const author = await createPerson(prisma);
  const reader = await createPerson(prisma);
  await makeFriends(prisma, author.id, reader.id);
  const tokens = { author: await createToken(prisma, author.id), reader: await createToken(prisma, reader.id) };
  for (let i = 0; i < 3; i++) await createEntry(prisma, reader.id, { message: `older ${i}` });
  return { author, reader, tokens };
}

/** A placed workout by `authorId`, commented ('first!') by `commenterId` and liked by its author; its id. */
export async function commentedWorkout(prisma: Prisma, authorId: number, commenterId: number): Promise<number> {
  const entryId = (await createPlacedWorkout(prisma, authorId)).id;
  await prisma.comment.create({ data: { entryId, authorId: commenterId, body: 'first!' } });
  await prisma.like.create({ data: { entryId, personId: authorId } });
  return entryId;
}

/** `count` entries by `authorId`, one a minute going back from `newest`; returned newest first. */
export async function createEntries(prisma: Prisma, authorId: number, count: number, newest = new Date('2024-06-01T12:00:00Z')) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push(await createEntry(prisma, authorId, { at: new Date(newest.getTime() - i * 60_000), message: `entry #${i}` }));
  }
  return rows;
}

export async function makeFriends(prisma: Prisma, a: number, b: number) {
  await prisma.friendship.createMany({
    data: [
      { personId: a, friendId: b },
      { personId: b, friendId: a },
    ],
  });
}

/** An app and an access token it holds for `personId`; returns the token as a client would send it. */
/**
 * A token of a new app for `personId`. By default it has every scope, as the person's own token would;
 * `scope: null` stores none, as every token granted before scopes existed (the legacy default).
 */
export async function createToken(
  prisma: Prisma,
  personId: number,
  { scope = 'read read_all entries:write profile:write' }: { scope?: string | null } = {},
): Promise<string> {
  const client = await prisma.oAuthClient.create({
    data: { clientId: `client-${next()}`, name: 'Test app', secretHash: hashToken('secret') },
  });
  const token = generateToken();
  await prisma.oAuthAccessToken.create({ data: { tokenHash: hashToken(token), clientId: client.id, personId, scope } });
  return token;
}
