// Batched look-ups shared by every field of one operation. People appear all over a stream page
// (authors, commenters, likers); one loader fetches all of them in one query, once the page's
// entries, comments and likes are known. A stream page arrives with its parts already (see
// db/entry-pages.ts); an entry from anywhere else (`entry(id)`, a mutation, a subscription event)
// gets them from one batched statement for all such entries of the operation.
import DataLoader from 'dataloader';
import { readEntriesById } from '../db/entry-pages.ts';
import { ALL_PARTS, type LoadedEntry } from '../db/entry-rows.ts';
import { type FriendshipStatus, friendshipStatuses } from '../db/friendships.ts';
import { readPrivacy, readTrackOwners, readTrackPoints } from '../db/privacy.ts';
import { readTrackSummaries, type TrackSummary } from '../db/tracks.ts';
import { NO_PRIVACY, type PrivacySettings } from '../domain/privacy-zones.ts';
import type { Entry } from '../generated/prisma-sqlite/client.ts';
import { type Context, readerOf } from './context.ts';

type PersonRow = Awaited<ReturnType<Context['prisma']['person']['findUniqueOrThrow']>>;

// a subscription keeps its context for every event: nothing is remembered between batches, so a
// renamed person shows their new name, and a new comment shows, in the next event
const FRESH = { cache: false, maxBatchSize: 500 } as const;

export function perContext<K, V>(load: (context: Context, keys: readonly K[]) => Promise<Array<V | Error>>) {
  const loaders = new WeakMap<Context, DataLoader<K, V>>();
  return (context: Context, key: K): Promise<V> => {
    let loader = loaders.get(context);
    if (!loader) loaders.set(context, (loader = new DataLoader<K, V>((keys) => load(context, keys), FRESH)));
    return loader.load(key);
  };
}

/** The person with this id, fetched with every other person asked for in the same tick. */
export const personById = perContext<number, PersonRow>(async (context, ids) => {
  const rows = await context.prisma.person.findMany({ where: { id: { in: [...new Set(ids)] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? new Error(`person ${id} does not exist`));
});

const entryWithParts = perContext<number, LoadedEntry>(async (context, ids) => {
  const byId = await readEntriesById(context, ids, ALL_PARTS, readerOf(context));
  return ids.map((id) => byId.get(id) ?? new Error(`entry ${id} does not exist`));
});

/**
 * A column of a person that only they read (their settings): null for anyone else. From the person
 * as the query loaded them, else from their whole row, read once for all such columns of the
 * operation. No `select` on such fields: that would load the column for every person a page shows
 * (authors, commenters) to answer null for all of them but the viewer.
 */
export async function ownColumn<K extends keyof PersonRow>(
  context: Context,
  person: { id: number },
  column: K,
): Promise<PersonRow[K] | null> {
  if (context.viewer?.id !== person.id) return null;
  const carried = (person as Partial<PersonRow>)[column];
  return carried !== undefined ? (carried as PersonRow[K]) : (await personById(context, person.id))[column];
}

/** An entry by id with all its parts, batched with the operation's other entries; the viewer must be allowed to see it. */
export const entryById = (context: Context, id: number): Promise<LoadedEntry> => entryWithParts(context, id);

/** A part of an entry: from the entry itself when its page carried it, else batched with the operation's other entries. */
export async function entryPart<K extends 'workout' | 'comments' | 'likes' | 'commentCount' | 'likeCount'>(
  context: Context,
  entry: Entry,
  part: K,
): Promise<Exclude<LoadedEntry[K], undefined>> {
  const carried = (entry as LoadedEntry)[part];
  if (carried !== undefined) return carried as Exclude<LoadedEntry[K], undefined>;
  return (await entryWithParts(context, entry.id))[part] as Exclude<LoadedEntry[K], undefined>;
}

/** An entry's track (without its packed points), fetched with the other tracks the operation asks for. */
export const trackOfEntry = perContext<number, TrackSummary | null>(async (context, ids) => {
  const byEntry = new Map((await readTrackSummaries(context, ids)).map((track) => [track.entryId, track]));
  return ids.map((id) => byEntry.get(id) ?? null);
});

/** A route's track (without its packed points), fetched with the other routes' tracks the operation asks for. */
export const trackOfRoute = perContext<number, TrackSummary | null>(async (context, ids) => {
  const byRoute = new Map((await readTrackSummaries(context, ids, 'routeId')).map((track) => [track.routeId, track]));
  return ids.map((id) => byRoute.get(id) ?? null);
});

/** A person's privacy settings (domain/privacy-zones.ts), fetched with every other person's the operation asks for. */
export const privacyOf = perContext<number, PrivacySettings>(async (context, ids) => {
  const settings = await readPrivacy(context, ids);
  return ids.map((id) => settings.get(id) ?? NO_PRIVACY);
});

/** A track's owner and point count (read only for tracks someone else views). */
export const trackOwner = perContext<number, { ownerId: number; pointCount: number }>(async (context, ids) => {
  const owners = await readTrackOwners(context, ids);
  return ids.map((id) => owners.get(id) ?? new Error(`track ${id} does not exist`));
});

/** A track's packed points and planned route, read only when they are decoded. */
export const trackPoints = perContext<number, { pointData: Uint8Array | null; routePointData: Uint8Array | null }>(async (context, ids) => {
  const points = await readTrackPoints(context, ids);
  return ids.map((id) => points.get(id) ?? new Error(`track ${id} does not exist`));
});

/** Where the viewer stands with a person, read with every other person the operation asks this of. */
export const viewerFriendship = perContext<number, FriendshipStatus>(async (context, ids) => {
  const statuses = await friendshipStatuses(context.prisma, context.viewer!.id, ids);
  return ids.map((id) => statuses.get(id) ?? 'none');
});

/**
 * The latest comment of a person on an entry (`entryId:authorId`), with those of the operation's other
 * notifications in one statement: what a notification of a comment quotes.
 */
export const latestCommentBy = perContext<string, { body: string } | null>(async (context, keys) => {
  const pairs = [...new Set(keys)].map((key) => key.split(':').map(Number) as [number, number]);
  const rows = await context.prisma.comment.findMany({
    where: { OR: pairs.map(([entryId, authorId]) => ({ entryId, authorId })) },
    orderBy: { id: 'desc' },
    select: { entryId: true, authorId: true, body: true },
  });
  const latest = new Map<string, { body: string }>();
  for (const row of rows) if (!latest.has(`${row.entryId}:${row.authorId}`)) latest.set(`${row.entryId}:${row.authorId}`, row);
  return keys.map((key) => latest.get(key) ?? null);
});

type GearRow = Awaited<ReturnType<Context['prisma']['gear']['findUniqueOrThrow']>>;

/** Gear by id, fetched with every other gear the operation asks for (the workouts of a page). */
export const gearById = perContext<number, GearRow | null>(async (context, ids) => {
  const rows = await context.prisma.gear.findMany({ where: { id: { in: [...new Set(ids)] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
});
