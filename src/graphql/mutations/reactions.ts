// Comments and likes on entries.

import { type CommentRow, writeComment } from '../../db/comments.ts';
import { isMissingRow, isUniqueViolation } from '../../db/errors.ts';
import { notifyLike } from '../../db/notifications.ts';
import { withOutboxEvent } from '../../db/outbox.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { mentionedUsernames } from '../../domain/notifications.ts';
import { validateCommentBody } from '../../domain/social.ts';
import { announce, type Context, requireViewer } from '../context.ts';
import { namesObject, requireDatabaseId } from '../global-ids.ts';
import { recordsTransactions } from '../idempotency.ts';
import { requireEntry } from '../lookups.ts';
import { CommentEdge, LikeEdge } from '../types/comment.ts';
import { listCursor } from '../types/lists.ts';
import { entryField } from './entries.ts';
import { type PayloadTypes, payloadMutation, readAfter } from './payload.ts';

/** A write that lost a race with the entry's deletion hits its foreign key: the entry is gone. */
function entryGone(error: unknown, sent: string | number): never {
  if (isMissingRow(error)) throw new NotFoundError('entry', String(sent));
  throw error;
}

/**
 * A new comment's or like's edge: its cursor names it (graphql/types/lists.ts), so a client appending it
 * (Relay's `@appendEdge`) pages on from it as from any other.
 */
const edgeOf = <Node extends { createdAt: Date; id: number }>(node: Node | null) =>
  node && { cursor: listCursor([node.createdAt.getTime(), node.id]), node };

const entryIdField = (t: PothosSchemaTypes.InputFieldBuilder<PayloadTypes, 'InputObject'>) =>
  t.id({ required: true, description: namesObject('Entry') });

/** The comment a createComment wrote: as it was written, or read when a replayed retry did not write it. */
async function writtenComment(
  context: Context,
  result: { commentId: number; row: CommentRow | null },
  selection: object,
): Promise<CommentRow | null> {
  return result.row ?? context.prisma.comment.findUnique({ ...selection, where: { id: result.commentId } });
}

payloadMutation('createComment', {
  description: 'Comments on an entry as the viewer (SPEC 4.4): 1 to 510 characters after trimming.',
  input: {
    description: 'The entry, and what to say.',
    fields: (t) => ({
      entryId: entryIdField(t),
      body: t.string({ required: true, description: 'The text: 1 to 510 characters after trimming.' }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const entryId = requireDatabaseId(input.entryId, 'Entry', 'entry');
    const text = validateCommentBody(input.body);
    const entry = await requireEntry(context, entryId, input.entryId);
    // the write returns only the id (what a retry under an Idempotency-Key replays); the answer is read after
    // the comment, who hears of it (its entry's author, earlier commenters, whom it mentions) and its event:
    // one transaction (db/comments.ts)
    const written = await writeComment(
      context.prisma,
      context.provider,
      {
        entry,
        authorId: viewer.id,
        body: text,
        mentioned: mentionedUsernames(text),
      },
      { recorded: recordsTransactions(context.prisma) },
    ).catch((e) => entryGone(e, input.entryId));
    if (!written) throw new NotFoundError('entry', String(input.entryId));
    const { id, heard, row } = written;
    context.events.publish('commentAdded', { entryId, commentId: id, authorId: viewer.id });
    context.events.publish('commentChanged', { entryId, commentId: id, kind: 'ADDED' });
    announce(context, heard);
    return { entryId, commentId: id, row };
  },
  payload: {
    description: 'The new comment, its edge, and the entry it is on.',
    fields: (t) => ({
      comment: t.prismaField({
        type: 'Comment',
        nullable: true,
        description:
          'The new comment; null when the mutation failed, or when a retry (`Idempotency-Key`) finds it deleted since its first attempt.',
        // as written, with nothing read again; a replayed retry reads what its first attempt wrote
        resolve: (query, payload, _args, context) =>
          readAfter(payload, query, (result, selection) => writtenComment(context, result, selection)),
      }),
      commentEdge: t.field({
        type: CommentEdge,
        nullable: true,
        description: 'The new comment as an edge of `Entry.comments` (oldest first): for Relay’s `@appendEdge`. Null when `comment` is.',
        resolve: async (payload, _args, context) => payload.result && edgeOf(await writtenComment(context, payload.result, {})),
      }),
      entry: entryField(t, (result) => result.entryId, 'The entry commented on, with its new `commentCount`.'),
    }),
  },
});

payloadMutation('likeEntry', {
  description: 'Likes an entry as the viewer. Liking twice is not an error: the first like stands.',
  input: { description: 'The entry to like.', fields: (t) => ({ entryId: entryIdField(t) }) },
  scope: 'entries:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const entryId = requireDatabaseId(input.entryId, 'Entry', 'entry');
    const entry = await requireEntry(context, entryId, input.entryId);
    const where = { entryId_personId: { entryId, personId: viewer.id } };
    const existing = await context.prisma.like.findUnique({ where, select: { id: true } });
    if (existing) return { entryId, likeId: existing.id };
    try {
      const { id, heard } = await withOutboxEvent(
        context.prisma,
        async (tx) => {
          const row = await tx.like.create({ data: { entryId, personId: viewer.id }, select: { id: true } });
          return { id: row.id, heard: await notifyLike(tx, { entry, actorId: viewer.id }) };
        },
        (row) => ({ name: 'likeAdded', payload: { entryId, likeId: row.id, personId: viewer.id } }),
      );
      context.events.publish('likeAdded', { entryId, likeId: id, personId: viewer.id });
      context.events.publish('likeChanged', { entryId, likeId: id, kind: 'ADDED' });
      announce(context, heard);
      return { entryId, likeId: id };
    } catch (error) {
      // two likes at once: the unique index lets one in, and the other returns it
      if (isUniqueViolation(error))
        return { entryId, likeId: (await context.prisma.like.findUniqueOrThrow({ where, select: { id: true } })).id };
      return entryGone(error, input.entryId);
    }
  },
  payload: {
    description: 'The like (the first one, when the viewer had liked the entry already), its edge, and the entry.',
    fields: (t) => ({
      like: t.prismaField({
        type: 'Like',
        nullable: true,
        description: 'The like; null when the mutation failed, or when the entry was deleted since (its likes with it).',
        resolve: (query, payload, _args, context) =>
          readAfter(payload, query, (result, selection) => context.prisma.like.findUnique({ ...selection, where: { id: result.likeId } })),
      }),
      likeEdge: t.field({
        type: LikeEdge,
        nullable: true,
        description: 'The like as an edge of `Entry.likes` (oldest first): for Relay’s `@appendEdge`. Null when `like` is.',
        resolve: async (payload, _args, context) =>
          payload.result && edgeOf(await context.prisma.like.findUnique({ where: { id: payload.result.likeId } })),
      }),
      entry: entryField(t, (result) => result.entryId, 'The entry liked, with its new `likeCount`.'),
    }),
  },
});

payloadMutation('unlikeEntry', {
  description: "Takes back the viewer's like; not having liked is not an error.",
  input: { description: 'The entry to stop liking.', fields: (t) => ({ entryId: entryIdField(t) }) },
  scope: 'entries:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const entryId = requireDatabaseId(input.entryId, 'Entry', 'entry');
    await requireEntry(context, entryId, input.entryId);
    const like = await context.prisma.like.findUnique({
      where: { entryId_personId: { entryId, personId: viewer.id } },
      select: { id: true },
    });
    const { count } = await context.prisma.like.deleteMany({ where: { entryId, personId: viewer.id } });
    if (!(await context.prisma.entry.findUnique({ where: { id: entryId }, select: { id: true } })))
      throw new NotFoundError('entry', String(input.entryId));
    if (count > 0 && like) context.events.publish('likeChanged', { entryId, likeId: like.id, kind: 'REMOVED' });
    return { entryId, likeId: count > 0 && like ? like.id : null };
  },
  payload: {
    description: 'The entry without the viewer’s like, and which like went.',
    fields: (t) => ({
      entry: entryField(t, (result) => result.entryId, 'The entry, with its new `likeCount`.'),
      deletedLikeId: t.globalID({
        nullable: true,
        description:
          'The global id of the like taken back, for Relay’s `@deleteEdge`/`@deleteRecord`; null when there was none, or when the mutation failed.',
        resolve: (payload) => (payload.result?.likeId == null ? null : { type: 'Like', id: payload.result.likeId }),
      }),
    }),
  },
});

payloadMutation('deleteComment', {
  description:
    'Deletes a comment: its author may, and so may the author of the entry it is on. A comment on an entry the viewer may not see does not exist for them.',
  input: { description: 'The comment to delete.', fields: (t) => ({ id: t.id({ required: true, description: namesObject('Comment') }) }) },
  scope: 'entries:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const commentId = requireDatabaseId(input.id, 'Comment', 'comment');
    const comment = await context.prisma.comment.findUnique({
      where: { id: commentId },
      select: { entryId: true, authorId: true, entry: { select: { authorId: true } } },
    });
    if (!comment) throw new NotFoundError('comment', String(input.id));
    // hidden as its entry is: the same answer as for a comment that never was
    await requireEntry(context, comment.entryId).catch(() => {
      throw new NotFoundError('comment', String(input.id));
    });
    if (comment.authorId !== viewer.id && comment.entry.authorId !== viewer.id)
      throw new NotAuthorizedError('only the comment’s author, or the author of its entry, may delete it');
    const { count } = await context.prisma.comment.deleteMany({ where: { id: commentId } });
    if (count > 0) context.events.publish('commentChanged', { entryId: comment.entryId, commentId, kind: 'REMOVED' });
    return { entryId: comment.entryId, commentId };
  },
  payload: {
    description: 'The entry without the comment, and which comment went.',
    fields: (t) => ({
      entry: entryField(t, (result) => result.entryId, 'The entry, with its new `commentCount`.'),
      deletedCommentId: t.globalID({
        nullable: true,
        description: 'The global id of the deleted comment, for Relay’s `@deleteEdge`/`@deleteRecord`; null when the mutation failed.',
        resolve: (payload) => (payload.result ? { type: 'Comment', id: payload.result.commentId } : null),
      }),
    }),
  },
});

payloadMutation('updateComment', {
  description:
    'Changes the text of one of the viewer’s comments: 1 to 510 characters after trimming. Only its author may; a comment on an entry the viewer may not see does not exist for them.',
  input: {
    description: 'The comment, and its new text.',
    fields: (t) => ({
      id: t.id({ required: true, description: namesObject('Comment') }),
      body: t.string({ required: true, description: 'The new text: 1 to 510 characters after trimming.' }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const commentId = requireDatabaseId(input.id, 'Comment', 'comment');
    const text = validateCommentBody(input.body);
    const comment = await context.prisma.comment.findUnique({ where: { id: commentId }, select: { entryId: true, authorId: true } });
    if (!comment) throw new NotFoundError('comment', String(input.id));
    await requireEntry(context, comment.entryId).catch(() => {
      throw new NotFoundError('comment', String(input.id));
    });
    if (comment.authorId !== viewer.id) throw new NotAuthorizedError('only the comment’s author may change it');
    const { count } = await context.prisma.comment.updateMany({ where: { id: commentId }, data: { body: text } });
    if (count > 0) context.events.publish('commentChanged', { entryId: comment.entryId, commentId, kind: 'EDITED' });
    return { entryId: comment.entryId, commentId };
  },
  payload: {
    description: 'The comment as it is now.',
    fields: (t) => ({
      comment: t.prismaField({
        type: 'Comment',
        nullable: true,
        description: 'The comment as it is now; null when the mutation failed, or when it was deleted since.',
        resolve: (query, payload, _args, context) =>
          readAfter(payload, query, (result, selection) =>
            context.prisma.comment.findUnique({ ...selection, where: { id: result.commentId } }),
          ),
      }),
    }),
  },
});
