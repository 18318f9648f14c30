// Reports and moderation: anyone reports an entry or a comment they can see; the instance's moderators
// (Person.role, given by the operator: `milepost users promote`) read the open reports and hide the
// content (an entry becomes only its author's, for good; a comment is removed), suspend its author (their
// tokens and sessions stop working at once), or dismiss the report.
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Report } from '../../generated/prisma-sqlite/client.ts';
import { builder } from '../builder.ts';
import { type Context, requireViewer } from '../context.ts';
import { databaseIdOf, namesObject } from '../global-ids.ts';
import { blockedByPerson, requireEntry } from '../lookups.ts';
import { countedConnection } from '../types/lists.ts';
import { PersonRef } from '../types/person.ts';
import { refusingAsErrors, streamField } from '../types/stream-args.ts';
import { payloadMutation } from './payload.ts';

export const REASON_MAX = 500;
const EXCERPT_MAX = 500;

/** The viewer, when a moderator; NotAuthorizedError otherwise. */
async function requireModerator(context: Context): Promise<number> {
  const viewer = requireViewer(context);
  const person = await context.prisma.person.findUnique({ where: { id: viewer.id }, select: { role: true } });
  if (person?.role !== 'moderator') throw new NotAuthorizedError('only the instance’s moderators may');
  return viewer.id;
}

/** What a report names, as the viewer may see it: its kind, id, text and author. */
async function reportedContent(
  context: Context,
  input: { entryId?: string | number | null; commentId?: string | number | null; personId?: string | number | null },
) {
  if ([input.entryId, input.commentId, input.personId].filter((id) => id != null).length !== 1)
    throw ValidationError.field('entryId', 'name an entry, a comment or a person (one of entryId, commentId and personId)');
  if (input.personId != null) {
    const id = databaseIdOf(input.personId, 'Person');
    const person =
      id === null
        ? null
        : await context.prisma.person.findUnique({
            where: { id },
            select: { id: true, username: true, displayName: true, location: true, goal: true },
          });
    // someone who blocked the viewer is missing to them, here as everywhere
    if (!person || (await blockedByPerson(context, person.id))) throw new NotFoundError('person', String(input.personId));
    const text = [`${person.displayName} (@${person.username})`, person.location, person.goal].filter(Boolean).join(' — ');
    return { kind: 'person', id: person.id, authorId: person.id, text };
  }
  if (input.entryId != null) {
    const id = databaseIdOf(input.entryId, 'Entry');
    if (id === null) throw new NotFoundError('entry', String(input.entryId));
    await requireEntry(context, id, input.entryId);
    const entry = await context.prisma.entry.findUniqueOrThrow({
      where: { id },
      select: { authorId: true, message: true, workout: { select: { title: true } } },
    });
    return { kind: 'entry', id, authorId: entry.authorId, text: [entry.workout?.title, entry.message].filter(Boolean).join(' — ') };
  }
  const id = databaseIdOf(input.commentId!, 'Comment');
  const comment =
    id === null ? null : await context.prisma.comment.findUnique({ where: { id }, select: { entryId: true, authorId: true, body: true } });
  if (!comment) throw new NotFoundError('comment', String(input.commentId));
  await requireEntry(context, comment.entryId).catch(() => {
    throw new NotFoundError('comment', String(input.commentId));
  });
  return { kind: 'comment', id: id!, authorId: comment.authorId, text: comment.body };
}

payloadMutation('reportContent', {
  description: `Reports an entry or a comment the viewer can see, or a person, to the instance's moderators, with a reason (1 to ${REASON_MAX} characters). Reporting the same thing twice is the first report.`,
  input: {
    description: 'What is reported (one of `entryId`, `commentId` and `personId`), and why.',
    fields: (t) => ({
      entryId: t.id({ description: namesObject('Entry') }),
      commentId: t.id({ description: namesObject('Comment') }),
      personId: t.id({
        description: `${namesObject('Person')} A person is reported for who they are (a name, a profile, a pattern), not for one entry.`,
      }),
      reason: t.string({ required: true, description: `Why, 1 to ${REASON_MAX} characters.` }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const reason = input.reason.trim();
    if (reason.length < 1 || reason.length > REASON_MAX) throw ValidationError.field('reason', `must be 1 to ${REASON_MAX} characters`);
    const target = await reportedContent(context, input);
    if (target.authorId === viewer.id) throw ValidationError.field(`${target.kind}Id`, target.kind === 'person' ? 'is you' : 'is your own');
    const key = { reporterId: viewer.id, targetKind: target.kind, targetId: target.id };
    await context.prisma.report.upsert({
      where: { reporterId_targetKind_targetId: key },
      create: { ...key, reason, excerpt: target.text.slice(0, EXCERPT_MAX) },
      update: {},
      select: { id: true },
    });
    return { reported: true };
  },
  payload: {
    description: 'Whether the report was taken.',
    fields: (t) => ({
      reported: t.boolean({
        nullable: true,
        description: 'True; null when the mutation failed.',
        resolve: (p) => p.result?.reported ?? null,
      }),
    }),
  },
});

const ModerationActionEnum = builder.enumType('ModerationAction', {
  description: 'What a moderator does about a report.',
  values: {
    HIDE: {
      value: 'hidden' as const,
      description: 'Hide the content: an entry becomes only its author’s, for good; a comment is removed.',
    },
    SUSPEND: {
      value: 'suspended' as const,
      description: 'Suspend the content’s author: their tokens and sessions stop working at once, and they cannot log in.',
    },
    DISMISS: { value: 'dismissed' as const, description: 'Nothing is wrong.' },
  },
});

payloadMutation('moderate', {
  description: 'A moderator acts on a report; every open report of the same content is closed with it. Moderators only.',
  input: {
    description: 'The report, and what to do.',
    fields: (t) => ({
      reportId: t.id({ required: true, description: namesObject('Report') }),
      action: t.field({ type: ModerationActionEnum, required: true, description: 'What to do.' }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const moderator = await requireModerator(context);
    const id = databaseIdOf(input.reportId, 'Report');
    const report = id === null ? null : await context.prisma.report.findUnique({ where: { id } });
    if (!report) throw new NotFoundError('report', String(input.reportId));
    const target = { targetKind: report.targetKind, targetId: report.targetId };
    if (input.action === 'hidden' && report.targetKind === 'person')
      throw ValidationError.field('action', 'a person cannot be hidden: suspend them, or dismiss the report');
    const authorId = await authorOf(context, report);
    const previous =
      report.targetKind === 'entry'
        ? (await context.prisma.entry.findUnique({ where: { id: report.targetId }, select: { visibility: true } }))?.visibility
        : undefined;
    await context.prisma.$transaction(async (tx) => {
      if (input.action === 'hidden' && report.targetKind === 'entry')
        await tx.entry.updateMany({ where: { id: report.targetId }, data: { visibility: 'only_me', hiddenAt: new Date() } });
      if (input.action === 'hidden' && report.targetKind === 'comment') await tx.comment.deleteMany({ where: { id: report.targetId } });
      if (input.action === 'suspended' && authorId !== null)
        await tx.person.updateMany({ where: { id: authorId, suspendedAt: null }, data: { suspendedAt: new Date() } });
      await tx.report.updateMany({
        where: { ...target, resolvedAt: null },
        data: { resolvedAt: new Date(), resolution: input.action, resolvedBy: moderator },
      });
    });
    if (input.action === 'hidden' && report.targetKind === 'entry' && authorId !== null)
      context.events.publish('entryVisibilityChanged', { entryId: report.targetId, authorId, visibility: 'only_me', previous });
    if (input.action === 'suspended' && authorId !== null) context.events.publish('personSuspended', { personId: authorId });
    return { reportId: report.id };
  },
  payload: {
    description: 'The report, closed.',
    fields: (t) => ({
      report: t.field({
        type: ReportRef,
        nullable: true,
        description: 'The report as it is now; null when the mutation failed.',
        resolve: (p, _args, context) => p.result && context.prisma.report.findUnique({ where: { id: p.result.reportId } }),
      }),
    }),
  },
});

/** The node type of what each kind of report names. */
const TARGET_TYPES: Record<string, string> = { entry: 'Entry', comment: 'Comment', person: 'Person' };

/** The author of what a report names, or the person reported (null when gone). */
async function authorOf(context: Context, report: Pick<Report, 'targetKind' | 'targetId'>): Promise<number | null> {
  if (report.targetKind === 'person')
    return (await context.prisma.person.findUnique({ where: { id: report.targetId }, select: { id: true } }))?.id ?? null;
  if (report.targetKind === 'entry')
    return (await context.prisma.entry.findUnique({ where: { id: report.targetId }, select: { authorId: true } }))?.authorId ?? null;
  return (await context.prisma.comment.findUnique({ where: { id: report.targetId }, select: { authorId: true } }))?.authorId ?? null;
}

const ReportRef = builder.prismaNode('Report', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'A report of an entry, a comment or a person, as moderators read it (`node(id:)` reaches it for moderators only).',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database (what `moderate` takes).' }),
    kind: t.exposeString('targetKind', { description: '`entry`, `comment` or `person`.' }),
    targetId: t.globalID({
      description: 'The global id of the entry, the comment or the person reported.',
      resolve: (r) => ({ type: TARGET_TYPES[r.targetKind] ?? 'Comment', id: r.targetId }),
    }),
    excerpt: t.exposeString('excerpt', { description: 'The reported text, as it was when reported.' }),
    reason: t.exposeString('reason', { description: 'Why it was reported.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was reported.' }),
    resolution: t.exposeString('resolution', {
      nullable: true,
      description: '`hidden`, `suspended` or `dismissed` once dealt with; null while open.',
    }),
    filedBy: t.field({
      type: PersonRef,
      description: 'Who reported it.',
      resolve: (r, _args, context) => context.prisma.person.findUniqueOrThrow({ where: { id: r.reporterId } }),
    }),
    author: t.field({
      type: PersonRef,
      nullable: true,
      description: 'Who wrote what is reported, or the person reported; null once gone.',
      resolve: async (r, _args, context) => {
        const authorId = await authorOf(context, r);
        return authorId === null ? null : context.prisma.person.findUnique({ where: { id: authorId } });
      },
    }),
    entryId: t.globalID({
      nullable: true,
      description: 'The global id of the entry it is, or the comment is on; null once gone.',
      resolve: async (r, _args, context) => {
        if (r.targetKind === 'person') return null;
        const id =
          r.targetKind === 'entry'
            ? r.targetId
            : ((await context.prisma.comment.findUnique({ where: { id: r.targetId }, select: { entryId: true } }))?.entryId ?? null);
        return id === null ? null : { type: 'Entry', id };
      },
    }),
  }),
});

const { connection: ReportConnection } = countedConnection(ReportRef, 'Report', 'reports');
const PAGE = { defaultSize: 20, maxSize: 50 };

builder.queryFields((t) => ({
  reports: t.connection(
    {
      type: ReportRef,
      ...streamField(
        'Reports for the moderators, oldest first: the open ones, or with `open: false` the closed ones, newest first. Moderators only.',
        ['NotAuthorizedError'],
      ),
      args: { open: t.arg.boolean({ description: 'Open reports (the default), or closed ones.' }) },
      resolve: refusingAsErrors(async (_root, args, context) => {
        await requireModerator(context);
        const open = args.open ?? true;
        const where = open ? { resolvedAt: null } : { resolvedAt: { not: null } };
        const page = await resolveOffsetConnection({ args, ...PAGE }, ({ limit, offset }) =>
          context.prisma.report.findMany({
            where,
            orderBy: open ? [{ createdAt: 'asc' }, { id: 'asc' }] : [{ resolvedAt: 'desc' }, { id: 'desc' }],
            take: limit,
            skip: offset,
          }),
        );
        return { ...page, totalCount: () => context.prisma.report.count({ where }) };
      }),
    },
    ReportConnection,
  ),
}));
