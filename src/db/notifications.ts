// Notifications, written in the transaction of the act they tell of (a comment, a like, a friend
// request, a mention): an act that commits is heard of exactly once, one that fails never. Unread ones
// of a kind about one thing are one row whose count grows, so a burst of 500 likes is one notification
// ("Jo and 499 others liked your entry"), not 500. Nobody hears of their own acts, of a kind they turned
// off, or of an entry they may not see (its visibility, a block). An act's notifications are written
// together: a few statements whoever hears of it (one recipient at a time cost a comment up to 45).
import { groupKey, MENTIONS_MAX, type NotificationKind } from '../domain/notifications.ts';
import { maySee } from '../domain/visibility.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
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

/** What the people an act reaches chose: the kinds they turned off in the app, and where mail goes. */
export type Choices = { off: Set<string>; mailTo: Map<number, string>; unmailed: Set<string> };

/**
 * Reads, in one statement, what the people of `personIds` chose: kinds heard of in the app, kinds
 * mailed, and the verified address of those mailed each notification as it comes.
 */
async function choicesOf(tx: Transaction, personIds: readonly number[]): Promise<Choices> {
  const rows = await tx.$queryRaw<
    ChoiceRow[]
  >`SELECT p."id", p."email", (p."emailFrequency" = 'immediate' AND p."emailVerifiedAt" IS NOT NULL) AS "mailed",
           np."kind", np."inApp", np."email" AS "byMail"
    FROM "Person" p LEFT JOIN "NotificationPreference" np ON np."personId" = p."id"
    WHERE p."id" IN (${Sql.join(personIds)})`;
  return foldedChoices(rows);
}

/** A person's row of choices: one per kind they chose for (none: all null), as both reads give them. */
interface ChoiceRow {
  id: number;
  email: string | null;
  mailed: number | boolean;
  kind: string | null;
  inApp: number | boolean | null;
  byMail: number | boolean | null;
}

function foldedChoices(rows: readonly ChoiceRow[]): Choices {
  const choices: Choices = { off: new Set(), mailTo: new Map(), unmailed: new Set() };
  for (const row of rows) {
    if (flag(row.mailed) && row.email) choices.mailTo.set(Number(row.id), row.email);
    if (row.kind === null) continue;
    if (!flag(row.inApp)) choices.off.add(`${row.id} ${row.kind}`);
    if (!flag(row.byMail)) choices.unmailed.add(`${row.id} ${row.kind}`);
  }
  return choices;
}

/** A truth value as either database gives it back: a boolean (PostgreSQL), 0 or 1 (SQLite), or null. */
const flag = (value: number | bigint | boolean | null) => value !== null && Number(value) !== 0;

/**
 * Writes (or adds to) the notifications of one act, by one actor: who hears of it and in which
 * notification. Each person hears once, of the first kind listed for them. An unread notification of
 * the same group grows (one statement for all: an insert that, meeting the person's unread row of the
 * group, adds to it instead; so concurrent acts never split a group), and a new one is mailed to whoever
 * asked for each as it comes (src/mail/outbox.ts sends it after the commit).
 */
export async function notifyAll(tx: Transaction, list: readonly Notify[]): Promise<Heard[]> {
  const wanted = onceEach(list);
  if (wanted.length === 0) return [];
  const people = wanted.map((n) => n.personId);
  return written(tx, wanted, await choicesOf(tx, people), await blockedWith(tx, wanted[0]!.actorId, people));
}

/** Of `list`, each person once (the first kind listed for them), never the actor. */
function onceEach(list: readonly Notify[]): Notify[] {
  const seen = new Set<number>();
  return list.filter((n) => n.personId !== n.actorId && !seen.has(n.personId) && seen.add(n.personId));
}

/** Writes the notifications of `wanted` that their people hear of (their choices, no block with the actor). */
async function written(tx: Transaction, wanted: readonly Notify[], choices: Choices, blocked: ReadonlySet<number>): Promise<Heard[]> {
  const audience: Audience = { heard: heardOf(wanted, choices, blocked), choices };
  if (audience.heard.length === 0) return [];
  return mailed(tx, audience, await tx.$queryRaw<WrittenNotification[]>`${notificationsUpsert(audience.heard)}`);
}

/** Who hears of an act (their notifications to write), and what they chose for mail. */
export interface Audience {
  heard: Notify[];
  choices: Choices;
}

/** Of `wanted`, those their choices and blocks let hear of the act. */
function heardOf(wanted: readonly Notify[], choices: Choices, blocked: ReadonlySet<number>): Notify[] {
  return wanted.filter((n) => !choices.off.has(`${n.personId} ${n.kind}`) && !blocked.has(n.personId));
}

/** A notification as its upsert returns it. */
export interface WrittenNotification {
  id: number;
  personId: number;
  actorCount: number;
}

/**
 * The one statement that writes `heard`'s notifications (each an insert that, meeting its person's
 * unread row of the group, adds to it instead) and returns them; a part of a larger statement too,
 * whose `entryIdOf` then gives their entry's id (an expression that reads what that statement wrote).
 */
export function notificationsUpsert(heard: readonly Notify[], now = new Date(), entryIdOf?: Sql.Sql): Sql.Sql {
  const rows = heard.map((n) => {
    const key = groupKey(n.kind, n.entryId, n.actorId);
    return Sql.sql`(${n.personId}, ${n.kind}, ${n.actorId}, 1, ${entryIdOf ?? n.entryId}, ${key}, ${key}, ${now}, ${now})`;
  });
  return Sql.sql`INSERT INTO "Notification" ("personId", "kind", "actorId", "actorCount", "entryId", "groupKey", "unreadKey", "createdAt", "updatedAt")
    VALUES ${Sql.join(rows)}
    ON CONFLICT ("personId", "unreadKey") DO UPDATE
      SET "actorId" = excluded."actorId", "actorCount" = "Notification"."actorCount" + 1, "updatedAt" = excluded."updatedAt"
    RETURNING "id", "personId", "actorCount"`;
}

/**
 * After the notifications of `audience` were written: mails the new ones to whoever asked for each as
 * it comes (a notification is mailed once, when it is new: the likes that grow it later are in the
 * mail's text), and tells who heard of the act in which notification.
 */
export async function mailed(tx: Transaction, audience: Audience, rowsWritten: readonly WrittenNotification[]): Promise<Heard[]> {
  const addresses = mailedTo(audience);
  const mails = rowsWritten.flatMap((row) => {
    const personId = Number(row.personId);
    const to = addresses.get(personId);
    return Number(row.actorCount) === 1 && to ? [{ personId, kind: 'notification', to, notificationId: Number(row.id) }] : [];
  });
  if (mails.length > 0) await tx.mail.createMany({ data: mails });
  return heardIn(rowsWritten);
}

/** Who of `audience` gets a new notification mailed as it comes, and where to (they asked for it, for its kind). */
export function mailedTo(audience: Audience): Map<number, string> {
  const { choices } = audience;
  return new Map(
    audience.heard.flatMap((n) => {
      const to = choices.mailTo.get(n.personId);
      return to && !choices.unmailed.has(`${n.personId} ${n.kind}`) ? [[n.personId, to] as const] : [];
    }),
  );
}

/** Who heard of an act, in which notification, as the upsert wrote them. */
export const heardIn = (rowsWritten: readonly WrittenNotification[]): Heard[] =>
  rowsWritten.map((row) => ({ personId: Number(row.personId), notificationId: Number(row.id) }));

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

/** Earlier commenters a reply reaches, at most: the first by person id. */
const REPLIED_MAX = 50;

/** A person a comment reaches, with their choices, as the one read of a comment gives it. */
interface ReachedRow extends ChoiceRow {
  reachedAs: 'comment' | 'reply' | 'mention';
  blocksActor: number | bigint | boolean;
  blocksAuthor: number | bigint | boolean;
  friend: number | bigint | boolean;
}

/**
 * A new comment: its entry's author (comment), earlier commenters who may still see the entry (reply),
 * and whom it mentions who may see it (mention). The entry is the one the comment was checked against
 * (read before the transaction: not read again). All it needs is read in one statement: who it
 * reaches, what each chose, the blocks between them and the commenter or the entry's author, and the
 * author's friends among them; notifyAll's rules then say who hears of it (db/comments.ts writes it).
 *
 * The earlier commenters are found one by one along the index of the entry's comments by author (a
 * loose index scan: each step is one index seek past the last person found), so a comment on an entry
 * with thousands, however many by the commenter, costs at most 52 seeks, not a read of them all.
 */
export async function commentAudience(
  tx: Transaction,
  act: { entry: Entry & { id: number }; actorId: number },
  mentioned: readonly string[],
): Promise<Audience> {
  const { entry, actorId } = act;
  const author = entry.authorId;
  const mentions = mentioned.slice(0, MENTIONS_MAX);
  const rows = await tx.$queryRaw<ReachedRow[]>`
    WITH RECURSIVE "commenters"("personId", "n") AS (
      SELECT (SELECT MIN("authorId") FROM "Comment" WHERE "entryId" = ${entry.id}), 1
      UNION ALL
      SELECT (SELECT MIN(c."authorId") FROM "Comment" c WHERE c."entryId" = ${entry.id} AND c."authorId" > k."personId"), k."n" + 1
      FROM "commenters" k WHERE k."personId" IS NOT NULL AND k."n" < ${REPLIED_MAX + 2}
    ),
    "reached"("personId", "reachedAs") AS (
      SELECT CAST(${author} AS INTEGER), 'comment'
      UNION ALL SELECT "personId", 'reply' FROM "commenters" WHERE "personId" IS NOT NULL AND "personId" NOT IN (${actorId}, ${author})
      ${mentions.length > 0 ? Sql.sql`UNION ALL SELECT "id", 'mention' FROM "Person" WHERE "usernameKey" IN (${Sql.join(mentions)})` : Sql.empty}
    )
    SELECT p."id", r."reachedAs", p."email", (p."emailFrequency" = 'immediate' AND p."emailVerifiedAt" IS NOT NULL) AS "mailed",
      np."kind", np."inApp", np."email" AS "byMail",
      EXISTS (SELECT 1 FROM "Block" b WHERE (b."blockerId" = ${actorId} AND b."blockedId" = p."id")
                                         OR (b."blockerId" = p."id" AND b."blockedId" = ${actorId})) AS "blocksActor",
      EXISTS (SELECT 1 FROM "Block" b WHERE (b."blockerId" = ${author} AND b."blockedId" = p."id")
                                         OR (b."blockerId" = p."id" AND b."blockedId" = ${author})) AS "blocksAuthor",
      EXISTS (SELECT 1 FROM "Friendship" f WHERE f."personId" = ${author} AND f."friendId" = p."id") AS "friend"
    FROM "reached" r JOIN "Person" p ON p."id" = r."personId"
    LEFT JOIN "NotificationPreference" np ON np."personId" = p."id"`;
  // a reply or a mention reaches only those who may see the entry: the one rule (domain/visibility.ts)
  const mayRead = (row: ReachedRow) => maySee(entry, Number(row.id), flag(row.friend), true, flag(row.blocksAuthor));
  const base = { actorId, entryId: entry.id };
  const order = ['comment', 'reply', 'mention'] as const;
  const reached = (kind: (typeof order)[number]) => [
    ...new Set(rows.filter((row) => row.reachedAs === kind && mayRead(row)).map((row) => Number(row.id))),
  ];
  const wanted = onceEach(
    order.flatMap((kind) =>
      (kind === 'reply'
        ? reached(kind)
            .sort((a, b) => a - b)
            .slice(0, REPLIED_MAX)
        : reached(kind)
      ).map((personId) => ({ ...base, personId, kind })),
    ),
  );
  const blocked = new Set(rows.filter((row) => flag(row.blocksActor)).map((row) => Number(row.id)));
  const choices = foldedChoices(rows);
  return { heard: heardOf(wanted, choices, blocked), choices };
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

/** A new like: its entry's author (the entry the like was checked against). */
export function notifyLike(tx: Transaction, act: { entry: Entry & { id: number }; actorId: number }): Promise<Heard[]> {
  return notifyAll(tx, [{ personId: act.entry.authorId, kind: 'like', actorId: act.actorId, entryId: act.entry.id }]);
}
