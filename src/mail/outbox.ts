// The mail outbox: a mail is a row queued in the transaction of what it tells of (a notification, an
// address to verify), or by the digest scheduler; the worker (mail/worker.ts) claims due rows, composes
// each from the database as it is then, and sends it. A commit's mail is never lost to a crash: the row
// commits with it. It is not doubled either: a claim is a conditional update (one process sends it), a
// sent row is marked at once, and the one case left (a crash between the SMTP server's "accepted" and
// that mark) sends it again with the same Message-ID, which mail systems take for the same message.
import type { Prisma, Transaction } from '../db/database.ts';
import { seenBy } from '../db/entry-conditions.ts';
import { storedDate } from '../db/entry-rows.ts';
import { claimLeased } from '../db/leased-rows.ts';
import { type NotificationKind, notificationText } from '../domain/notifications.ts';
import type { Told } from './compose.ts';

/** How many verification mails a person may have sent a day: setEmail answers ValidationError beyond. */
export const VERIFICATIONS_A_DAY = 5;
/** How long a claim lasts: a sending mail not marked by then was cut off, and is tried again. */
export const CLAIM_MS = 60_000;
/** Attempts before a mail is given up ("failed"): 1, 4, 16, 64 minutes… apart. */
export const MAIL_ATTEMPTS = 6;
/** Days a sent, dropped or failed mail is kept (what was mailed to whom), then removed. */
export const KEPT_DAYS = 30;
/** The most notifications a digest lists; it says how many more there were. */
export const DIGEST_LISTS = 20;
const DAY_MS = 86_400_000;

/** A time a raw statement answered: a Date (PostgreSQL), or stored text (SQLite). */
const asDate = (value: Date | string): Date => (value instanceof Date ? value : storedDate(value));

/** Queues the mail that verifies `address` as the person's, in `tx` (setEmail's transaction). */
export async function queueVerification(tx: Transaction, personId: number, address: string): Promise<void> {
  await tx.mail.create({ data: { personId, kind: 'verify', to: address } });
}

/** How many verification mails the person had queued in the last day. */
export function verificationsToday(prisma: Pick<Prisma, 'mail'>, personId: number, now = new Date()): Promise<number> {
  return prisma.mail.count({ where: { personId, kind: 'verify', createdAt: { gt: new Date(now.getTime() - DAY_MS) } } });
}

/**
 * Queues a digest for each person who chose daily mail, whose last digest is a day old, and who has unread
 * notifications that grew since: at most `limit` a call. The claim (moving digestQueuedAt) is a conditional
 * update, so two processes never queue the same digest.
 */
export async function queueDigests(prisma: Prisma, now = new Date(), limit = 50): Promise<number> {
  const due = await prisma.$queryRaw<Array<{ id: number; email: string; since: Date | string; queued: Date | string | null }>>`
    SELECT p."id", p."email", COALESCE(p."digestQueuedAt", p."emailVerifiedAt") AS "since", p."digestQueuedAt" AS "queued"
    FROM "Person" p
    WHERE p."emailFrequency" = 'daily' AND p."emailVerifiedAt" IS NOT NULL AND p."email" IS NOT NULL
      AND (p."digestQueuedAt" IS NULL OR p."digestQueuedAt" <= ${new Date(now.getTime() - DAY_MS)})
      AND EXISTS (SELECT 1 FROM "Notification" n WHERE n."personId" = p."id" AND n."readAt" IS NULL
                  AND n."updatedAt" > COALESCE(p."digestQueuedAt", p."emailVerifiedAt"))
    LIMIT ${limit}`;
  let queued = 0;
  for (const person of due) {
    const claimed = await prisma.$transaction(async (tx) => {
      const { count } = await tx.person.updateMany({
        where: { id: Number(person.id), digestQueuedAt: person.queued === null ? null : asDate(person.queued) },
        data: { digestQueuedAt: now },
      });
      if (count === 1)
        await tx.mail.create({ data: { personId: Number(person.id), kind: 'digest', to: person.email, since: asDate(person.since) } });
      return count;
    });
    queued += claimed;
  }
  return queued;
}

/** Claims due mails (each claim a conditional update, so processes never share one). */
export function claimDueMails(prisma: Prisma, limit: number, now = new Date()): Promise<number[]> {
  return claimLeased(prisma.mail, limit, CLAIM_MS, now);
}

/** Gives claimed mails back, untried: pending again, due at once. */
export async function releaseMails(prisma: Prisma, ids: readonly number[]): Promise<void> {
  if (ids.length > 0)
    await prisma.mail.updateMany({ where: { id: { in: [...ids] }, status: 'sending' }, data: { status: 'pending', lockedUntil: null } });
}

/** What a claimed mail is to say, read as the database is now; null when there is nothing left to tell. */
/** What every draft holds: whose, to where, and when it was queued (part of its Message-ID). */
interface DraftBase {
  personId: number;
  to: string;
  displayName: string;
  queuedAt: Date;
}

export type Draft =
  | ({ kind: 'verify' } & DraftBase)
  | ({ kind: 'notification'; told: Told } & DraftBase)
  | ({ kind: 'digest'; listed: Told[]; total: number } & DraftBase);

const toldOf = (
  origin: string,
  n: { kind: string; actorCount: number; entryId: number | null; actor: { displayName: string; username: string } },
): Told => ({
  text: notificationText(n.kind as NotificationKind, n.actor.displayName, n.actorCount),
  url: n.entryId !== null ? `${origin}/entries/${n.entryId}` : `${origin}/people/${encodeURIComponent(n.actor.username)}`,
});

/**
 * The notifications a person may be told of by mail at the moment it goes: about an entry they may see
 * now (entry-conditions.ts, seenBy), or about no entry, and by someone in no block with them. A mail
 * naming an entry hidden from them since, or the person who blocked them, would tell what the pages
 * keep from them.
 */
function mayBeTold(personId: number) {
  return {
    OR: [{ entryId: null }, { entry: seenBy(personId) }],
    actor: { blocks: { none: { blockedId: personId } }, blockedBy: { none: { blockerId: personId } } },
  };
}

/**
 * The draft of a claimed mail, or why it is dropped: the address is no longer the person's (or, but for a
 * verification, no longer verified or mailed), the notification was read (or removed) before it went,
 * a digest's notifications were all read, or what it tells of is hidden from them now.
 */
export async function draftOf(prisma: Prisma, id: number, origin: string): Promise<Draft | { dropped: string }> {
  const mail = await prisma.mail.findUniqueOrThrow({
    where: { id },
    select: {
      kind: true,
      to: true,
      since: true,
      notificationId: true,
      createdAt: true,
      person: { select: { id: true, displayName: true, email: true, emailVerifiedAt: true, emailFrequency: true } },
    },
  });
  const { person } = mail;
  const base = { personId: person.id, to: mail.to, displayName: person.displayName, queuedAt: mail.createdAt };
  if (person.email?.toLowerCase() !== mail.to.toLowerCase()) return { dropped: 'the address is no longer theirs' };
  if (mail.kind === 'verify') return person.emailVerifiedAt ? { dropped: 'the address was verified since' } : { kind: 'verify', ...base };
  if (!person.emailVerifiedAt || person.emailFrequency === 'off') return { dropped: 'they no longer want mail' };
  const select = { kind: true, actorCount: true, entryId: true, readAt: true, actor: { select: { displayName: true, username: true } } };
  if (mail.kind === 'notification') {
    const n = mail.notificationId === null ? null : await prisma.notification.findUnique({ where: { id: mail.notificationId }, select });
    if (!n || n.readAt) return { dropped: 'the notification was read before it was mailed' };
    const told = await prisma.notification.count({ where: { id: mail.notificationId!, ...mayBeTold(person.id) } });
    if (told === 0) return { dropped: 'what it tells of is hidden from them now' };
    return { kind: 'notification', ...base, told: toldOf(origin, n) };
  }
  const where = { personId: person.id, readAt: null, updatedAt: { gt: mail.since ?? new Date(0) }, ...mayBeTold(person.id) };
  const [rows, total] = await Promise.all([
    prisma.notification.findMany({ where, select, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: DIGEST_LISTS }),
    prisma.notification.count({ where }),
  ]);
  if (total === 0) return { dropped: 'every notification was read before the digest went' };
  return { kind: 'digest', ...base, listed: rows.map((n) => toldOf(origin, n)), total };
}

/** Marks a claimed mail sent (or dropped, with why). */
export async function markMail(prisma: Prisma, id: number, outcome: { sent: true } | { dropped: string }): Promise<void> {
  await prisma.mail.update({
    where: { id },
    data:
      'sent' in outcome
        ? { status: 'sent', sentAt: new Date(), lockedUntil: null, lastError: null }
        : { status: 'dropped', lockedUntil: null, lastError: outcome.dropped },
  });
}

/** A claimed mail that could not be sent: again after a while, or given up (a permanent refusal, or too many tries). */
export async function failMail(prisma: Prisma, id: number, error: string, permanent: boolean, now = new Date()): Promise<void> {
  const { attempts } = await prisma.mail.findUniqueOrThrow({ where: { id }, select: { attempts: true } });
  const giveUp = permanent || attempts + 1 >= MAIL_ATTEMPTS;
  await prisma.mail.update({
    where: { id },
    data: {
      status: giveUp ? 'failed' : 'pending',
      attempts: attempts + 1,
      lastError: error.slice(0, 500),
      lockedUntil: null,
      nextAttemptAt: new Date(now.getTime() + 60_000 * 4 ** attempts),
    },
  });
}

/** Removes mails finished more than KEPT_DAYS ago. */
export async function forgetOldMails(prisma: Prisma, now = new Date()): Promise<number> {
  const { count } = await prisma.mail.deleteMany({
    where: { status: { in: ['sent', 'dropped', 'failed'] }, nextAttemptAt: { lt: new Date(now.getTime() - KEPT_DAYS * DAY_MS) } },
  });
  return count;
}
