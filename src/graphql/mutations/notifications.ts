// Marking notifications read, and choosing which kinds are heard of.
import { NotAuthorizedError, ValidationError } from '../../domain/errors.ts';
import { requireViewer } from '../context.ts';
import { databaseIdOf, namesObject } from '../global-ids.ts';
import { NotificationKindEnum } from '../types/notification.ts';
import { payloadMutation } from './payload.ts';

/** Notifications one mark may name. */
const MARK_MAX = 100;

payloadMutation('markNotificationsRead', {
  description: `Marks the viewer's notifications read: those of \`ids\` (at most ${MARK_MAX}), or all of them with \`all: true\`. Marking one twice, or someone else's, changes nothing.`,
  input: {
    description: 'Which notifications: `ids`, or `all`.',
    fields: (t) => ({
      ids: t.idList({ description: `${namesObject('Notification')} At most ${MARK_MAX}.` }),
      all: t.boolean({ description: 'Every unread notification of the viewer.' }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    if (!input.all && !input.ids?.length) throw ValidationError.field('ids', 'name a notification, or mark `all`');
    if ((input.ids?.length ?? 0) > MARK_MAX) throw ValidationError.field('ids', `must be at most ${MARK_MAX}`);
    const ids = (input.ids ?? []).map((id) => databaseIdOf(String(id), 'Notification')).filter((id): id is number => id !== null);
    await context.prisma.notification.updateMany({
      where: { personId: viewer.id, readAt: null, ...(input.all ? {} : { id: { in: ids } }) },
      data: { readAt: new Date(), unreadKey: null },
    });
    return { personId: viewer.id };
  },
  payload: {
    description: 'How many are unread now.',
    fields: (t) => ({
      unreadCount: t.int({
        nullable: true,
        description: 'Unread notifications left; null when the mutation failed.',
        resolve: (payload, _args, context) =>
          payload.result && context.prisma.notification.count({ where: { personId: payload.result.personId, readAt: null } }),
      }),
    }),
  },
});

payloadMutation('setNotificationPreference', {
  description:
    'Chooses, for one kind of notification, whether the viewer hears of it in the app (`inApp`) and whether it is mailed (`email`, to a verified address, as often as `setEmailFrequency` says), from now on; what was written stays. A choice left out is kept.',
  input: {
    description: 'The kind, and what to change.',
    fields: (t) => ({
      kind: t.field({ type: NotificationKindEnum, required: true, description: 'The kind.' }),
      inApp: t.boolean({ description: 'Whether to hear of it in the app (written as a notification). Off: it is not mailed either.' }),
      email: t.boolean({ description: 'Whether it is mailed too.' }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    if (input.inApp == null && input.email == null) throw ValidationError.field('inApp', 'choose `inApp`, `email`, or both');
    const key = { personId: viewer.id, kind: input.kind };
    const chosen = { ...(input.inApp != null ? { inApp: input.inApp } : {}), ...(input.email != null ? { email: input.email } : {}) };
    return context.prisma.notificationPreference.upsert({
      where: { personId_kind: key },
      create: { ...key, ...chosen },
      update: chosen,
      select: { kind: true, inApp: true, email: true },
    });
  },
  payload: {
    description: 'The choice as it is now.',
    fields: (t) => ({
      inApp: t.boolean({
        nullable: true,
        description: 'Whether the viewer hears of the kind in the app now; null when the mutation failed.',
        resolve: (p) => p.result?.inApp ?? null,
      }),
      email: t.boolean({
        nullable: true,
        description: 'Whether the kind is mailed now; null when the mutation failed.',
        resolve: (p) => p.result?.email ?? null,
      }),
    }),
  },
});
