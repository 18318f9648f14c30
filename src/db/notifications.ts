// Notifications, written in the transaction of the act they tell of (a comment, a like, a friend
// request, a mention): an act that commits is heard of exactly once, one that fails never. Unread ones
// of a kind about one thing are one row whose count grows, so a burst of 500 likes is one notification
// ("Jo and 499 others liked your entry"), not 500. Nobody hears of their own acts, of a kind they turned
// off, or of an entry they may not see (its visibility, a block). An act's notifications are written
// together: a few statements whoever hears of it (one recipient at a time cost a comment up to 45).
import { groupKey, MENTIONS_MAX, type NotificationKind } from '../domain/notifications.ts';
import type { Transaction } from './database.ts';

export interface Notify {
  personId: number;
  kind: NotificationKind;
  actorId: number;
  entryId: number | null;
}

/** Who heard of an act, and in which notification: announced (`notified`) once the act commits. */
export type Heard = { personId: number; notificationId: number };

/** The people of `personIds` on either side of a block with `otherId`. */
async function blockedWith(tx: Transaction, otherId: number, personIds: readonly number[]): Promise<Set<number>> {
  if (personIds.length === 0) return new Set();
  const rows = await tx.block.findMany({
    where: {
      OR: [
        { blockerId: otherId, blockedId: { in: [...personIds] } },
        { blockerId: { in: [...personIds] }, blockedId: otherId },
      ],
    },
    select: { blockerId: true, blockedId: true },
  });
  return new Set(rows.map((row) => (row.blockerId === otherId ? row.blockedId : row.blockerId)));
}

/**
 * Writes (or adds to) the notifications of one act, by one actor: who hears of it and in which
 * notification. Each person hears once, of the first kind listed for them.
 */
export async function notifyAll(tx: Transaction, list: readonly Notify[]): Promise<Heard[]> {
  const seen = new Set<number>();
  const wanted = list.filter((n) => n.personId !== n.actorId && !seen.has(n.personId) && seen.add(n.personId));
  if (wanted.length === 0) return [];
  const actorId = wanted[0]!.actorId;
  const people = wanted.map((n) => n.personId);
  const off = await tx.notificationPreference.findMany({
    where: { personId: { in: people }, inApp: false },
    select: { personId: true, kind: true },
  });
  const turnedOff = new Set(off.map((row) => `${row.personId} ${row.kind}`));
  const blocked = await blockedWith(tx, actorId, people);
  const heard = wanted
    .filter((n) => !turnedOff.has(`${n.personId} ${n.kind}`) && !blocked.has(n.personId))
    .map((n) => ({ ...n, groupKey: groupKey(n.kind, n.entryId, n.actorId) }));
  if (heard.length === 0) return [];
  const unread = await tx.notification.findMany({
    where: { personId: { in: heard.map((n) => n.personId) }, groupKey: { in: [...new Set(heard.map((n) => n.groupKey))] }, readAt: null },
    select: { id: true, personId: true, groupKey: true },
  });
  const growing = new Map(unread.map((row) => [`${row.personId} ${row.groupKey}`, row.id]));
  const grown = heard.flatMap((n) => {
    const id = growing.get(`${n.personId} ${n.groupKey}`);
    return id === undefined ? [] : [{ personId: n.personId, notificationId: id }];
  });
  if (grown.length > 0)
    await tx.notification.updateMany({
      where: { id: { in: grown.map((g) => g.notificationId) } },
      data: { actorId, actorCount: { increment: 1 }, updatedAt: new Date() },
    });
  const fresh = heard.filter((n) => !growing.has(`${n.personId} ${n.groupKey}`));
  const created =
    fresh.length > 0
      ? await tx.notification.createManyAndReturn({
          data: fresh.map((n) => ({ personId: n.personId, kind: n.kind, actorId: n.actorId, entryId: n.entryId, groupKey: n.groupKey })),
          select: { id: true, personId: true },
        })
      : [];
  return [...grown, ...created.map((row) => ({ personId: row.personId, notificationId: row.id }))];
}

/** Writes (or adds to) one notification: who hears of it and its id, or null when nobody is to. */
export async function notify(tx: Transaction, n: Notify): Promise<Heard | null> {
  return (await notifyAll(tx, [n]))[0] ?? null;
}

type Entry = { authorId: number; visibility: string };

/**
 * Of `personIds`, those who may see the entry (domain/visibility.ts's rule, for many at once): anyone
 * for everyone's, the author's friends for friends-only, the author alone for only-me; never anyone on
 * either side of a block with the author.
 */
export async function mayAllSee(tx: Transaction, entry: Entry, personIds: readonly number[]): Promise<number[]> {
  const others = [...new Set(personIds)].filter((id) => id !== entry.authorId);
  const author = personIds.includes(entry.authorId) ? [entry.authorId] : [];
  if (others.length === 0 || (entry.visibility !== 'everyone' && entry.visibility !== 'friends')) return author;
  const blocked = await blockedWith(tx, entry.authorId, others);
  let allowed = others.filter((id) => !blocked.has(id));
  if (entry.visibility === 'friends' && allowed.length > 0) {
    const friends = await tx.friendship.findMany({
      where: { personId: entry.authorId, friendId: { in: allowed } },
      select: { friendId: true },
    });
    const friendIds = new Set(friends.map((row) => row.friendId));
    allowed = allowed.filter((id) => friendIds.has(id));
  }
  return [...author, ...allowed];
}

/** The people `usernames` names who may see the entry: those a mention reaches. */
export async function mentionable(tx: Transaction, entry: Entry, usernames: readonly string[]): Promise<number[]> {
  if (usernames.length === 0) return [];
  const people = await tx.person.findMany({ where: { usernameKey: { in: usernames.slice(0, MENTIONS_MAX) } }, select: { id: true } });
  return mayAllSee(
    tx,
    entry,
    people.map((person) => person.id),
  );
}

/** Commenters on an entry before `actorId` (not its author), who still may see it: those a reply reaches. At most 50. */
export async function earlierCommenters(tx: Transaction, entry: Entry & { id: number }, actorId: number): Promise<number[]> {
  const rows = await tx.comment.findMany({
    where: { entryId: entry.id, authorId: { notIn: [actorId, entry.authorId] } },
    distinct: ['authorId'],
    select: { authorId: true },
    take: 50,
  });
  return mayAllSee(
    tx,
    entry,
    rows.map((row) => row.authorId),
  );
}

/** A new comment: its entry's author (comment), earlier commenters (reply), and whom it mentions. */
export async function notifyComment(
  tx: Transaction,
  act: { entryId: number; actorId: number; body: string },
  mentioned: readonly string[],
): Promise<Heard[]> {
  const entry = await tx.entry.findUnique({ where: { id: act.entryId }, select: { id: true, authorId: true, visibility: true } });
  if (!entry) return [];
  const base = { actorId: act.actorId, entryId: entry.id };
  // each person hears once: the author of the comment, an earlier commenter of the reply, before a mention
  return notifyAll(tx, [
    { ...base, personId: entry.authorId, kind: 'comment' },
    ...(await earlierCommenters(tx, entry, act.actorId)).map((personId) => ({ ...base, personId, kind: 'reply' as const })),
    ...(await mentionable(tx, entry, mentioned)).map((personId) => ({ ...base, personId, kind: 'mention' as const })),
  ]);
}

/** A new entry's (or its message's) mentions. */
export async function notifyEntryMentions(
  tx: Transaction,
  act: { entryId: number; actorId: number },
  mentioned: readonly string[],
): Promise<Heard[]> {
  if (mentioned.length === 0) return [];
  const entry = await tx.entry.findUnique({ where: { id: act.entryId }, select: { authorId: true, visibility: true } });
  if (!entry) return [];
  const reached = await mentionable(tx, entry, mentioned);
  return notifyAll(
    tx,
    reached.map((personId) => ({ personId, kind: 'mention' as const, actorId: act.actorId, entryId: act.entryId })),
  );
}

/** A new like: its entry's author. */
export async function notifyLike(tx: Transaction, act: { entryId: number; actorId: number }): Promise<Heard[]> {
  const entry = await tx.entry.findUnique({ where: { id: act.entryId }, select: { authorId: true } });
  return entry ? notifyAll(tx, [{ personId: entry.authorId, kind: 'like', actorId: act.actorId, entryId: act.entryId }]) : [];
}
