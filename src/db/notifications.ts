// Notifications, written in the transaction of the act they tell of (a comment, a like, a friend
// request, a mention): an act that commits is heard of exactly once, one that fails never. Unread ones
// of a kind about one thing are one row whose count grows, so a burst of 500 likes is one notification
// ("Jo and 499 others liked your entry"), not 500. Nobody hears of their own acts, of a kind they turned
// off, or of an entry they may not see (its visibility, a block).
import { groupKey, MENTIONS_MAX, type NotificationKind } from '../domain/notifications.ts';
import { maySee } from '../domain/visibility.ts';
import type { Transaction } from './database.ts';

export interface Notify {
  personId: number;
  kind: NotificationKind;
  actorId: number;
  entryId: number | null;
}

/** Writes (or adds to) `n`'s notification: who hears of it and its id, or null when nobody is to. */
export async function notify(tx: Transaction, n: Notify): Promise<Heard | null> {
  if (n.personId === n.actorId) return null;
  const preference = await tx.notificationPreference.findUnique({
    where: { personId_kind: { personId: n.personId, kind: n.kind } },
    select: { inApp: true },
  });
  if (preference && !preference.inApp) return null;
  if (await blockedBetween(tx, n.personId, n.actorId)) return null;
  const key = groupKey(n.kind, n.entryId, n.actorId);
  const unread = await tx.notification.findFirst({ where: { personId: n.personId, groupKey: key, readAt: null }, select: { id: true } });
  if (unread) {
    await tx.notification.update({
      where: { id: unread.id },
      data: { actorId: n.actorId, actorCount: { increment: 1 }, updatedAt: new Date() },
      select: { id: true },
    });
    return { personId: n.personId, notificationId: unread.id };
  }
  const created = await tx.notification.create({
    data: { personId: n.personId, kind: n.kind, actorId: n.actorId, entryId: n.entryId, groupKey: key },
    select: { id: true },
  });
  return { personId: n.personId, notificationId: created.id };
}

async function blockedBetween(tx: Transaction, a: number, b: number): Promise<boolean> {
  const blocks = await tx.block.count({
    where: {
      OR: [
        { blockerId: a, blockedId: b },
        { blockerId: b, blockedId: a },
      ],
    },
  });
  return blocks > 0;
}

/** Whether `personId` may see the entry (domain/visibility.ts, with the friendship and blocks read here). */
export async function personMaySee(tx: Transaction, entry: { authorId: number; visibility: string }, personId: number): Promise<boolean> {
  if (personId === entry.authorId) return true;
  const friends = entry.visibility === 'friends' && (await tx.friendship.count({ where: { personId, friendId: entry.authorId } })) > 0;
  return maySee(entry, personId, friends, true, await blockedBetween(tx, personId, entry.authorId));
}

/** The people `usernames` names who may see the entry: those a mention reaches. */
export async function mentionable(
  tx: Transaction,
  entry: { authorId: number; visibility: string },
  usernames: readonly string[],
): Promise<number[]> {
  if (usernames.length === 0) return [];
  const people = await tx.person.findMany({ where: { usernameKey: { in: usernames.slice(0, MENTIONS_MAX) } }, select: { id: true } });
  const reached: number[] = [];
  for (const person of people) if (await personMaySee(tx, entry, person.id)) reached.push(person.id);
  return reached;
}

/** Commenters on an entry before `actorId` (not its author), who still may see it: those a reply reaches. At most 50. */
export async function earlierCommenters(
  tx: Transaction,
  entry: { id: number; authorId: number; visibility: string },
  actorId: number,
): Promise<number[]> {
  const rows = await tx.comment.findMany({
    where: { entryId: entry.id, authorId: { notIn: [actorId, entry.authorId] } },
    distinct: ['authorId'],
    select: { authorId: true },
    take: 50,
  });
  const reached: number[] = [];
  for (const row of rows) if (await personMaySee(tx, entry, row.authorId)) reached.push(row.authorId);
  return reached;
}

/** Who heard of an act, and in which notification: announced (`notified`) once the act commits. */
export type Heard = { personId: number; notificationId: number };
type Notified = Heard[];
const written = (heard: ReadonlyArray<Heard | null>): Notified => heard.filter((h): h is Heard => h !== null);

/** A new comment: its entry's author (comment), earlier commenters (reply), and whom it mentions. */
export async function notifyComment(
  tx: Transaction,
  act: { entryId: number; actorId: number; body: string },
  mentioned: readonly string[],
): Promise<Notified> {
  const entry = await tx.entry.findUnique({ where: { id: act.entryId }, select: { id: true, authorId: true, visibility: true } });
  if (!entry) return [];
  const base = { actorId: act.actorId, entryId: entry.id };
  const ids = [await notify(tx, { ...base, personId: entry.authorId, kind: 'comment' })];
  const told = new Set([entry.authorId, act.actorId]);
  for (const personId of await earlierCommenters(tx, entry, act.actorId)) {
    told.add(personId);
    ids.push(await notify(tx, { ...base, personId, kind: 'reply' }));
  }
  for (const personId of await mentionable(tx, entry, mentioned))
    if (!told.has(personId)) ids.push(await notify(tx, { ...base, personId, kind: 'mention' }));
  return written(ids);
}

/** A new entry's (or its message's) mentions. */
export async function notifyEntryMentions(
  tx: Transaction,
  act: { entryId: number; actorId: number },
  mentioned: readonly string[],
): Promise<Notified> {
  if (mentioned.length === 0) return [];
  const entry = await tx.entry.findUnique({ where: { id: act.entryId }, select: { authorId: true, visibility: true } });
  if (!entry) return [];
  const ids: Array<Heard | null> = [];
  for (const personId of await mentionable(tx, entry, mentioned))
    ids.push(await notify(tx, { personId, kind: 'mention', actorId: act.actorId, entryId: act.entryId }));
  return written(ids);
}

/** A new like: its entry's author. */
export async function notifyLike(tx: Transaction, act: { entryId: number; actorId: number }): Promise<Notified> {
  const entry = await tx.entry.findUnique({ where: { id: act.entryId }, select: { authorId: true } });
  return entry ? written([await notify(tx, { personId: entry.authorId, kind: 'like', actorId: act.actorId, entryId: act.entryId })]) : [];
}
