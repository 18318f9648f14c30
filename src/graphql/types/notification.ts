// What the viewer hears of (db/notifications.ts writes them with the acts they tell of): a connection of
// their notifications, newest first, the unread count, marking read, choosing the kinds, and a
// subscription for new ones.
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { NOTIFICATION_KINDS, type NotificationKind, notificationText } from '../../domain/notifications.ts';
import { firstWords } from '../../domain/words.ts';
import { builder } from '../builder.ts';
import { requireViewer } from '../context.ts';
import { latestCommentBy } from '../loaders.ts';
import { blocksOf, viewerMaySee } from '../lookups.ts';
import { EntryRef } from './entry.ts';
import { countedConnection } from './lists.ts';
import { refusingAsErrors, streamField } from './stream-args.ts';

const KIND_NAMES: Record<NotificationKind, { name: string; description: string }> = {
  comment: { name: 'COMMENT', description: 'Someone commented on your entry.' },
  reply: { name: 'REPLY', description: 'Someone commented on an entry you commented on.' },
  like: { name: 'LIKE', description: 'Someone liked your entry.' },
  friend_request: { name: 'FRIEND_REQUEST', description: 'Someone asked to be your friend.' },
  friend_accepted: { name: 'FRIEND_ACCEPTED', description: 'Someone accepted your friend request (or you theirs, when you both asked).' },
  mention: { name: 'MENTION', description: 'Someone mentioned you (`@username`) in an entry or a comment you may see.' },
};

export const NotificationKindEnum = builder.enumType('NotificationKind', {
  description: 'What a notification tells of.',
  values: Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [KIND_NAMES[kind].name, { value: kind, description: KIND_NAMES[kind].description }]),
  ) as Record<string, { value: NotificationKind; description: string }>,
});

export const NotificationRef = builder.prismaNode('Notification', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description:
    'Something the viewer hears of. Unread ones of a kind about one entry are one notification: a burst of likes is "Jo and 499 others liked your entry".',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database.' }),
    kind: t.field({ type: NotificationKindEnum, description: 'What it tells of.', resolve: (n) => n.kind as NotificationKind }),
    read: t.boolean({ description: 'Whether the viewer marked it read.', resolve: (n) => n.readAt !== null }),
    at: t.expose('updatedAt', { type: 'DateTime', description: 'When it last grew: its latest act.' }),
    actor: t.relation('actor', { description: 'The latest to act.' }),
    othersCount: t.int({ description: 'How many others acted too while it was unread.', resolve: (n) => n.actorCount - 1 }),
    entry: t.field({
      type: EntryRef,
      nullable: true,
      description: 'The entry it is about, while the viewer may see it; null for a friendship, or an entry hidden since.',
      select: { entry: true },
      resolve: async (n, _args, context) => (n.entry && (await viewerMaySee(context, n.entry)) ? n.entry : null),
    }),
    said: t.string({
      nullable: true,
      description:
        'What was said, its first 200 characters: the latest comment of `actor` on the entry (COMMENT, REPLY, and a MENTION in a ' +
        "comment), or the entry's message (a MENTION in it). Null for likes and friendships, while the entry is hidden from the viewer, " +
        'and when the viewer and `actor` are on either side of a block.',
      select: { entry: true },
      resolve: async (n, _args, context) => {
        if (!['comment', 'reply', 'mention'].includes(n.kind) || !n.entry || !(await viewerMaySee(context, n.entry))) return null;
        // nothing of someone on either side of a block with the viewer is quoted (their words are theirs to withhold)
        if ((await blocksOf(context)).with.has(n.actorId)) return null;
        const comment = await latestCommentBy(context, `${n.entry.id}:${n.actorId}`);
        const text = comment?.body ?? (n.kind === 'mention' ? n.entry.message : null);
        return text ? firstWords(text, 200) : null;
      },
    }),
    text: t.string({
      description: 'What it says, in English: "Jo and 4 others liked your entry".',
      select: { actor: { select: { displayName: true } } },
      resolve: (n) => notificationText(n.kind as NotificationKind, n.actor.displayName, n.actorCount),
    }),
  }),
});

export const { connection: NotificationConnection } = countedConnection(NotificationRef, 'Notification', 'notifications');

const PAGE = { defaultSize: 20, maxSize: 50 };

builder.queryFields((t) => ({
  notifications: t.connection(
    {
      type: NotificationRef,
      ...streamField(
        `The viewer's notifications, newest first (by their latest act), ${PAGE.defaultSize} a page, \`first\` at most ${PAGE.maxSize}; \`unread: true\` for the unread ones. \`totalCount\` counts them. Needs an access token.`,
        ['ValidationError', 'NotAuthorizedError'],
      ),
      args: { unread: t.arg.boolean({ description: 'Only the unread ones.' }) },
      resolve: refusingAsErrors(async (_root, args, context) => {
        const viewer = requireViewer(context);
        const where = { personId: viewer.id, ...(args.unread ? { readAt: null } : {}) };
        const page = await resolveOffsetConnection({ args, ...PAGE }, ({ limit, offset }) =>
          context.prisma.notification.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: limit, skip: offset }),
        );
        return { ...page, totalCount: () => context.prisma.notification.count({ where }) };
      }),
    },
    NotificationConnection,
  ),
  unreadNotificationCount: t.int({
    ...streamField('How many of the viewer’s notifications are unread (the bell’s number). Needs an access token.', ['NotAuthorizedError']),
    resolve: refusingAsErrors(async (_root, _args, context) =>
      context.prisma.notification.count({ where: { personId: requireViewer(context).id, readAt: null } }),
    ),
  }),
}));

const NotificationPreferenceRef = builder
  .objectRef<{ kind: NotificationKind; inApp: boolean; email: boolean }>('NotificationPreference')
  .implement({
    description: 'Whether the viewer hears of one kind of notification.',
    fields: (t) => ({
      kind: t.field({ type: NotificationKindEnum, description: 'The kind.', resolve: (p) => p.kind }),
      inApp: t.exposeBoolean('inApp', { description: 'Whether notifications of this kind are written (true unless turned off).' }),
      email: t.exposeBoolean('email', {
        description:
          'Whether notifications of this kind are mailed too (true unless turned off), to a verified address, as often as `emailSettings.frequency` says.',
      }),
    }),
  });

builder.queryFields((t) => ({
  notificationPreferences: t.field({
    type: [NotificationPreferenceRef],
    ...streamField('Every kind of notification, whether the viewer hears of it, and whether it is mailed. Needs an access token.', [
      'NotAuthorizedError',
    ]),
    resolve: refusingAsErrors(async (_root, _args, context) => {
      const viewer = requireViewer(context);
      const rows = await context.prisma.notificationPreference.findMany({ where: { personId: viewer.id } });
      const chosen = new Map(rows.map((row) => [row.kind, row]));
      return NOTIFICATION_KINDS.map((kind) => ({ kind, inApp: chosen.get(kind)?.inApp ?? true, email: chosen.get(kind)?.email ?? true }));
    }),
  }),
}));

export { NotificationPreferenceRef };
