// Comments and likes on entries.
import { namesObject, requireDatabaseId } from '../global-ids.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { validateCommentBody } from '../../domain/social.ts';
import { isMissingRow, isUniqueViolation } from '../../db/errors.ts';
import { withOutboxEvent } from '../../db/outbox.ts';
import { builder } from '../builder.ts';
import { requireViewer } from '../context.ts';
import { requireEntry } from '../lookups.ts';

/** A write that lost a race with the entry's deletion hits its foreign key: the entry is gone. */
function entryGone(error: unknown, entryId: number): never {
  if (isMissingRow(error)) throw new NotFoundError('entry', String(entryId));
  throw error;
}

builder.mutationFields((t) => ({
  createComment: t.prismaField({
    type: 'Comment',
    description: 'Comments on an entry as the viewer (SPEC 4.4): 1 to 510 characters after trimming.',
    errors: { types: [ValidationError, NotFoundError, NotAuthorizedError] },
    args: {
      entryId: t.arg.id({ required: true, description: namesObject('Entry') }),
      body: t.arg.string({ required: true, description: 'The text: 1 to 510 characters after trimming.' }),
    },
    resolve: async (query, _root, args, context) => {
      const { body } = args;
      const viewer = requireViewer(context);
      const entryId = requireDatabaseId(args.entryId, 'Entry', 'entry');
      const text = validateCommentBody(body);
      await requireEntry(context, entryId);
      // the write returns only the id (what a retry under an Idempotency-Key replays); the answer is read after
      const { id } = await withOutboxEvent(
        context.prisma,
        (tx) => tx.comment.create({ data: { entryId, authorId: viewer.id, body: text }, select: { id: true } }),
        (row) => ({ name: 'commentAdded', payload: { entryId, commentId: row.id, authorId: viewer.id } }),
      ).catch((e) => entryGone(e, entryId));
      context.events.publish('commentAdded', { entryId, commentId: id, authorId: viewer.id });
      // the entry deleted since (its comments with it): gone, as a write racing the deletion is told
      return context.prisma.comment.findUniqueOrThrow({ ...query, where: { id } }).catch((e) => entryGone(e, entryId));
    },
  }),

  likeEntry: t.prismaField({
    type: 'Like',
    description: 'Likes an entry as the viewer. Liking twice is not an error: the first like stands.',
    errors: { types: [NotFoundError, NotAuthorizedError] },
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    resolve: async (query, _root, args, context) => {
      const viewer = requireViewer(context);
      const entryId = requireDatabaseId(args.entryId, 'Entry', 'entry');
      await requireEntry(context, entryId);
      const where = { entryId_personId: { entryId, personId: viewer.id } };
      const existing = await context.prisma.like.findUnique({ ...query, where });
      if (existing) return existing;
      try {
        const { id } = await withOutboxEvent(
          context.prisma,
          (tx) => tx.like.create({ data: { entryId, personId: viewer.id }, select: { id: true } }),
          (row) => ({ name: 'likeAdded', payload: { entryId, likeId: row.id, personId: viewer.id } }),
        );
        context.events.publish('likeAdded', { entryId, likeId: id, personId: viewer.id });
        return context.prisma.like.findUniqueOrThrow({ ...query, where: { id } }).catch((e) => entryGone(e, entryId));
      } catch (error) {
        // two likes at once: the unique index lets one in, and the other returns it
        if (isUniqueViolation(error)) return context.prisma.like.findUniqueOrThrow({ ...query, where });
        return entryGone(error, entryId);
      }
    },
  }),

  unlikeEntry: t.prismaField({
    type: 'Entry',
    description: "Takes back the viewer's like; not having liked is not an error.",
    errors: { types: [NotFoundError, NotAuthorizedError] },
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    resolve: async (query, _root, args, context) => {
      const viewer = requireViewer(context);
      const entryId = requireDatabaseId(args.entryId, 'Entry', 'entry');
      await requireEntry(context, entryId);
      await context.prisma.like.deleteMany({ where: { entryId, personId: viewer.id } });
      const entry = await context.prisma.entry.findUnique({ ...query, where: { id: entryId } });
      if (!entry) throw new NotFoundError('entry', String(entryId));
      return entry;
    },
  }),
}));
