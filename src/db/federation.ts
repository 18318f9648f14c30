// What the fediverse (src/federation/) keeps: athletes' key pairs, the remote accounts they meet, who
// follows whom across servers, the posts of followed accounts, remote likes and replies, which entries
// went out, and the servers the operator blocked. What an entry or a person shows is never read here:
// that goes through the GraphQL schema, as anyone may see it (federation/reader.ts).
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database, Prisma, Transaction } from './database.ts';
import { storedDate } from './entry-rows.ts';
import { isUniqueViolation } from './errors.ts';

export interface StoredKey {
  algorithm: string;
  publicKey: string;
  privateKey: string;
}

/** The person's stored key pairs as JWK text (none yet: an empty list). */
export function readKeys(prisma: Prisma, personId: number): Promise<StoredKey[]> {
  return prisma.federationKey.findMany({
    where: { personId },
    select: { algorithm: true, publicKey: true, privateKey: true },
    orderBy: { id: 'asc' },
  });
}

/** Stores new key pairs unless another request stored theirs first; answers the ones that stand. */
export async function storeKeys(prisma: Prisma, personId: number, keys: StoredKey[]): Promise<StoredKey[]> {
  try {
    await prisma.federationKey.createMany({ data: keys.map((key) => ({ ...key, personId })) });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return readKeys(prisma, personId);
}

/** Who a username is, with their fediverse settings; null for nobody. */
export function readPersonSettings(prisma: Prisma, username: string) {
  return prisma.person.findUnique({
    where: { usernameKey: username.toLowerCase() },
    select: { id: true, username: true, fediverseOptOut: true, fediverseAutoAccept: true, suspendedAt: true },
  });
}

export interface RemoteActorFacts {
  uri: string;
  handle: string;
  host: string;
  name: string | null;
  url: string | null;
  inbox: string;
  sharedInbox: string | null;
}

/** Keeps what a remote server says of one of its people (newest wins); answers the row's id. */
export async function keepRemoteActor(prisma: Pick<Transaction, 'remoteActor'>, facts: RemoteActorFacts): Promise<number> {
  const { id } = await prisma.remoteActor.upsert({ where: { uri: facts.uri }, create: facts, update: facts, select: { id: true } });
  return id;
}

/** Whether the operator blocked the server of `host` (case-insensitive, and its subdomains). */
export async function isBlockedHost(prisma: Prisma, host: string): Promise<boolean> {
  // a server is blocked by its name, whatever port it answers on
  const name = host.toLowerCase().replace(/:\d+$/, '');
  const parts = name.split('.');
  const candidates = parts.map((_, i) => parts.slice(i).join('.')).filter((candidate) => candidate.includes('.') || candidate === name);
  return (await prisma.blockedInstance.count({ where: { host: { in: candidates } } })) > 0;
}

/** Blocks a server: its followers are removed, its posts and reactions forgotten. */
export async function blockHost(prisma: Prisma, host: string): Promise<void> {
  const name = host.toLowerCase();
  await prisma.$transaction(async (tx) => {
    await tx.blockedInstance.upsert({ where: { host: name }, create: { host: name }, update: {} });
    await tx.remoteActor.deleteMany({
      where: {
        OR: [{ host: name }, { host: { startsWith: `${name}:` } }, { host: { endsWith: `.${name}` } }, { host: { contains: `.${name}:` } }],
      },
    });
  });
}

export async function unblockHost(prisma: Prisma, host: string): Promise<boolean> {
  const { count } = await prisma.blockedInstance.deleteMany({ where: { host: host.toLowerCase() } });
  return count > 0;
}

export function listBlockedHosts(prisma: Prisma) {
  return prisma.blockedInstance.findMany({ orderBy: { host: 'asc' } });
}

/** The accepted followers of a person, as recipients (one page of `limit` after the row `after`). */
export function readFollowerInboxes(prisma: Prisma, personId: number, limit: number, after = 0) {
  return prisma.remoteFollower.findMany({
    where: { personId, status: 'accepted', id: { gt: after } },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true, actor: { select: { uri: true, inbox: true, sharedInbox: true, host: true } } },
  });
}

export function countFollowers(prisma: Prisma, personId: number): Promise<number> {
  return prisma.remoteFollower.count({ where: { personId, status: 'accepted' } });
}

export function readFollowingUris(prisma: Prisma, personId: number, limit: number, after = 0) {
  return prisma.remoteFollowing.findMany({
    where: { personId, status: 'accepted', id: { gt: after } },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true, actor: { select: { uri: true } } },
  });
}

/** Whether the athlete blocks the remote account (then nothing of it is taken for them). */
export async function isBlockedBy(prisma: Prisma, personId: number, actorId: number): Promise<boolean> {
  return (await prisma.remoteKeptAway.count({ where: { personId, actorId, kind: 'block' } })) > 0;
}

/** Whether anyone here follows the remote account (asked or accepted): only then are its posts kept. */
export async function isFollowedHere(prisma: Prisma, actorId: number): Promise<boolean> {
  return (await prisma.remoteFollowing.count({ where: { actorId } })) > 0;
}

/** Counts for NodeInfo: people in the fediverse, and their public entries. */
export async function instanceUsage(prisma: Prisma): Promise<{ users: number; posts: number }> {
  const [users, posts] = await Promise.all([
    prisma.person.count({ where: { fediverseOptOut: false, suspendedAt: null } }),
    prisma.entry.count({ where: { visibility: 'everyone', author: { fediverseOptOut: false, suspendedAt: null } } }),
  ]);
  return { users, posts };
}

/**
 * Queues a job of the fediverse's queue (federation/store.ts) inside the transaction `tx` of the write it
 * follows from, so that no change is without its message, even if the process dies right after it.
 */
export async function enqueueJob(tx: Pick<Transaction, 'federationJob'>, message: unknown, delayMs = 0): Promise<void> {
  await tx.federationJob.create({ data: { payload: JSON.stringify(message), nextAttemptAt: new Date(Date.now() + delayMs) } });
}

export interface ReactionRow {
  entryId: number;
  kind: string;
  text: string | null;
  createdAt: Date;
  actor: { uri: string; handle: string; name: string | null; url: string | null };
}

/**
 * The first `size` remote reactions of each of `entryIds`, oldest first, in one statement for a whole
 * page of entries (a window per entry: a popular entry's thousands are never read to show 50).
 */
export async function readReactions(database: Pick<Database, 'read'>, entryIds: readonly number[], size: number): Promise<ReactionRow[]> {
  if (entryIds.length === 0) return [];
  const rows = await database.read<{
    entryId: number | bigint;
    kind: string;
    text: string | null;
    createdAt: Date | string;
    uri: string;
    handle: string;
    name: string | null;
    url: string | null;
  }>(Sql.sql`SELECT r."entryId" AS "entryId", r."kind" AS "kind", r."text" AS "text", r."createdAt" AS "createdAt",
      a."uri" AS "uri", a."handle" AS "handle", a."name" AS "name", a."url" AS "url"
    FROM (SELECT "id", "entryId", "actorId", "kind", "text", "createdAt",
            ROW_NUMBER() OVER (PARTITION BY "entryId" ORDER BY "id") AS "place"
          FROM "RemoteReaction" WHERE "entryId" IN (${Sql.join([...entryIds])})) r
    JOIN "RemoteActor" a ON a."id" = r."actorId"
    WHERE r."place" <= ${size}
    ORDER BY r."entryId", r."id"`);
  return rows.map((row) => ({
    entryId: Number(row.entryId),
    kind: row.kind,
    text: row.text,
    createdAt: row.createdAt instanceof Date ? row.createdAt : storedDate(String(row.createdAt)),
    actor: { uri: row.uri, handle: row.handle, name: row.name, url: row.url },
  }));
}
