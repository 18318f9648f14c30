// A new comment as one act: the comment, the notifications of those it reaches, the mails of new ones
// and its outbox event, all or nothing, so that a comment acknowledged is heard of and relayed exactly
// once.
//
// Who hears of it is read first, in one statement (db/notifications.ts: commentAudience); then
// everything is written at once. On PostgreSQL that is one statement, atomic by itself: the comment's
// insert moves its entry's revision (a trigger: db/entry-pages.ts's versions), which holds the entry's
// row, and the notifications' upsert holds their rows, until it commits; written one statement after
// another, every comment on a busy entry waited for the round trips of the one before it. On SQLite,
// where a statement is no round trip and one writer has the file, they are three statements in one
// transaction.

import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Prisma, Transaction } from './database.ts';
import {
  type Audience,
  commentAudience,
  type Heard,
  heardIn,
  mailed,
  mailedTo,
  notificationsUpsert,
  type WrittenNotification,
} from './notifications.ts';
import { recordEvent } from './outbox.ts';

export interface NewComment {
  entry: { id: number; authorId: number; visibility: string };
  authorId: number;
  body: string;
  /** The usernames (keys) it mentions. */
  mentioned: readonly string[];
}

/** The comment as stored, when this call wrote it (not when a retry's earlier attempt did). */
export interface CommentRow {
  id: number;
  entryId: number;
  authorId: number;
  body: string;
  createdAt: Date;
}

/**
 * Writes `comment` and all it sets off; answers its id and who heard of it, or null when its entry is
 * gone. `row` is the comment as stored when this call wrote it, so that the answer needs no read of it;
 * null when the transaction was replayed from a retry's earlier attempt (graphql/idempotency.ts), whose
 * comment is then read.
 *
 * `recorded`: the client records each write transaction's result for a retry (a mutation sent with an
 * Idempotency-Key), so the write must be a transaction even where one statement would do. Otherwise
 * PostgreSQL's one statement commits on its own: no BEGIN and no COMMIT travel, and the entry's row,
 * which every comment on it takes, is held for the statement alone, not for the round trip of a COMMIT
 * too. Who hears of it is read first either way; in a transaction of READ COMMITTED that read saw no
 * more than it does before one.
 */
export async function writeComment(
  prisma: Prisma,
  provider: 'sqlite' | 'postgresql',
  comment: NewComment,
  options: { recorded: boolean },
): Promise<{ id: number; heard: Heard[]; row: CommentRow | null } | null> {
  const act = { entry: comment.entry, actorId: comment.authorId };
  const at = new Date();
  let wrote = false;
  const write = async (tx: Transaction) => {
    wrote = true;
    const audience = await commentAudience(tx, act, comment.mentioned);
    if (provider === 'postgresql') return inOneStatement(tx, comment, audience, at);
    const { id, notifications } = await inTurn(tx, comment, audience, at);
    return { id, heard: await mailed(tx, audience, notifications) };
  };
  const written = provider === 'postgresql' && !options.recorded ? await write(prisma) : await prisma.$transaction(write);
  if (!written) return null;
  const row = wrote ? { id: written.id, entryId: comment.entry.id, authorId: comment.authorId, body: comment.body, createdAt: at } : null;
  return { ...written, row };
}

interface Written {
  id: number;
  notifications: WrittenNotification[];
}

/**
 * PostgreSQL: the comment, its event (the relay's payload, as recordEvent writes it), the notifications
 * and the mails of new ones, in one statement. It locks the entry's row first, as the comment's revision
 * trigger would at the end: every statement that writes beside the entry then takes its locks in one
 * order (the entry, then the notifications), where a lock taken late met an entry's deletion, which
 * holds the entry and deletes its notifications, in a deadlock. An entry deleted meanwhile has no row
 * to lock: nothing is written, and the act answers that it is gone.
 */
async function inOneStatement(
  tx: Transaction,
  comment: NewComment,
  audience: Audience,
  now: Date,
): Promise<{ id: number; heard: Heard[] } | null> {
  const { heard } = audience;
  const mails = [...mailedTo(audience)].map(([personId, to]) => Sql.sql`(CAST(${personId} AS INTEGER), CAST(${to} AS TEXT))`);
  const rows = await tx.$queryRaw<Array<{ part: string; id: number; personId: number | null; actorCount: number | null }>>`
    WITH "e" AS (
      SELECT "id" FROM "Entry" WHERE "id" = ${comment.entry.id} FOR NO KEY UPDATE
    ), "c" AS (
      INSERT INTO "Comment" ("entryId", "authorId", "body", "createdAt")
      SELECT "e"."id", ${comment.authorId}, ${comment.body}, ${now} FROM "e"
      RETURNING "id", "entryId", "authorId"
    ), "o" AS (
      INSERT INTO "OutboxEvent" ("name", "payload", "createdAt")
      SELECT 'commentAdded', json_build_object('entryId', "c"."entryId", 'commentId', "c"."id", 'authorId', "c"."authorId")::text, ${now}
      FROM "c"
    )${heard.length > 0 ? Sql.sql`, "n" AS (${notificationsUpsert(heard, now, Sql.sql`(SELECT "entryId" FROM "c")`)})` : Sql.empty}${
      heard.length > 0 && mails.length > 0
        ? Sql.sql`, "m" AS (
      INSERT INTO "Mail" ("personId", "kind", "to", "notificationId", "nextAttemptAt", "createdAt")
      SELECT "n"."personId", 'notification', "v"."to", "n"."id", ${now}, ${now}
      FROM "n" JOIN (VALUES ${Sql.join(mails)}) AS "v"("personId", "to") ON "v"."personId" = "n"."personId"
      WHERE "n"."actorCount" = 1
    )`
        : Sql.empty
    }
    SELECT 'comment' AS "part", "id", NULL AS "personId", NULL AS "actorCount" FROM "c"
    ${heard.length > 0 ? Sql.sql`UNION ALL SELECT 'notification', "id", "personId", "actorCount" FROM "n"` : Sql.empty}`;
  const written = rows.find((row) => row.part === 'comment');
  if (!written) return null;
  return { id: Number(written.id), heard: heardIn(rows.filter((row) => row.part === 'notification') as WrittenNotification[]) };
}

/** SQLite: the same writes, one statement after another on the one writer. */
async function inTurn(tx: Transaction, comment: NewComment, audience: Audience, createdAt: Date): Promise<Written> {
  const entryId = comment.entry.id;
  const { id } = await tx.comment.create({
    data: { entryId, authorId: comment.authorId, body: comment.body, createdAt },
    select: { id: true },
  });
  await recordEvent(tx, 'commentAdded', { entryId, commentId: id, authorId: comment.authorId });
  const notifications = audience.heard.length > 0 ? await tx.$queryRaw<WrittenNotification[]>`${notificationsUpsert(audience.heard)}` : [];
  return { id, notifications };
}
