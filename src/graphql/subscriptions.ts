// Live updates: the events of events.ts, filtered to what the matching query would show the viewer,
// then loaded through plugin-prisma like any query result.
import { filter, pipe } from 'graphql-yoga';
import { distanceMiles } from '../domain/geo.ts';
import { insideZone } from '../domain/privacy-zones.ts';
import { privacyFor } from './privacy.ts';
import { builder } from './builder.ts';
import { requireViewer, type Context } from './context.ts';
import { requireEntry, requirePersonId, viewerMaySee } from './lookups.ts';
import type { EventName, EventPayloads } from '../events/bus.ts';
import { DEFAULT_NEARBY_RADIUS_MILES, validateNearby } from './streams.ts';
import { DeletedEntry } from './mutations/entries.ts';

function only<K extends EventName>(context: Context, name: K, keep: (payload: EventPayloads[K]) => boolean | Promise<boolean>) {
  return pipe(context.events.subscribe(name) as AsyncIterable<EventPayloads[K]> & AsyncIterator<EventPayloads[K]>, filter(keep));
}

/** New entries the subscriber may see (their visibility, asked per event) that also pass `keep`. */
function newEntries(context: Context, keep: (payload: EventPayloads['entryCreated']) => boolean | Promise<boolean> = () => true) {
  return only(
    context,
    'entryCreated',
    async (p) => (await keep(p)) && viewerMaySee(context, { authorId: p.authorId, visibility: p.visibility }),
  );
}

/** Whether the entry is still one the subscriber may see: its visibility may change while a subscription lives. */
const stillVisible = (context: Context, entryId: number) =>
  requireEntry(context, entryId).then(
    () => true,
    () => false,
  );

/** Loads the entry an event names, through the subscriber's selection. */
const entryOf = (query: object, payload: { entryId: number }, context: Context) =>
  context.prisma.entry.findUniqueOrThrow({ ...query, where: { id: payload.entryId } });

builder.subscriptionFields((t) => ({
  publicEntries: t.prismaField({
    type: 'Entry',
    description: 'Every new entry, as the public stream would show it.',
    subscribe: (_root, _args, context) => newEntries(context),
    resolve: (query, payload, _args, context) => entryOf(query, payload, context),
  }),

  personEntries: t.prismaField({
    type: 'Entry',
    description: "A person's new entries.",
    args: { username: t.arg.string({ required: true }) },
    subscribe: async (_root, { username }, context) => {
      const id = await requirePersonId(context, username);
      return newEntries(context, (p) => p.authorId === id);
    },
    resolve: (query, payload, _args, context) => entryOf(query, payload, context),
  }),

  friendsEntries: t.prismaField({
    type: 'Entry',
    description: 'New entries by the viewer and their friends, as the friends stream would show them. Needs an access token.',
    subscribe: (_root, _args, context) => {
      const viewer = requireViewer(context);
      // asked per event: friendships change while a subscription lives
      return newEntries(
        context,
        async (p) =>
          p.authorId === viewer.id || (await context.prisma.friendship.count({ where: { personId: viewer.id, friendId: p.authorId } })) > 0,
      );
    },
    resolve: (query, payload, _args, context) => entryOf(query, payload, context),
  }),

  nearbyEntries: t.prismaField({
    type: 'Entry',
    description: 'New entries posted within `radius` miles (default 50) of a point.',
    args: { lat: t.arg.float({ required: true }), lon: t.arg.float({ required: true }), radius: t.arg.float() },
    subscribe: (_root, args, context) => {
      const center = { lat: args.lat, lon: args.lon };
      const radius = args.radius ?? DEFAULT_NEARBY_RADIUS_MILES;
      validateNearby(center, radius);
      // a place inside its author's privacy zones matches no one else's search
      return newEntries(
        context,
        async (p) =>
          p.lat !== null &&
          p.lon !== null &&
          distanceMiles(center, { lat: p.lat, lon: p.lon }) <= radius &&
          !insideZone({ lat: p.lat, lon: p.lon }, (await privacyFor(context, p.authorId)).zones),
      );
    },
    resolve: (query, payload, _args, context) => entryOf(query, payload, context),
  }),

  entryComments: t.prismaField({
    type: 'Comment',
    description: 'New comments on an entry.',
    args: { entryId: t.arg.int({ required: true }) },
    subscribe: async (_root, { entryId }, context) => {
      await requireEntry(context, entryId);
      return only(context, 'commentAdded', (p) => p.entryId === entryId && stillVisible(context, entryId));
    },
    resolve: (query, payload, _args, context) => context.prisma.comment.findUniqueOrThrow({ ...query, where: { id: payload.commentId } }),
  }),

  entryLikes: t.prismaField({
    type: 'Like',
    description: 'New likes on an entry.',
    args: { entryId: t.arg.int({ required: true }) },
    subscribe: async (_root, { entryId }, context) => {
      await requireEntry(context, entryId);
      return only(context, 'likeAdded', (p) => p.entryId === entryId && stillVisible(context, entryId));
    },
    resolve: (query, payload, _args, context) => context.prisma.like.findUniqueOrThrow({ ...query, where: { id: payload.likeId } }),
  }),

  entryDeleted: t.field({
    type: DeletedEntry,
    description: 'Ids of deleted entries, so that clients can drop them from what they show.',
    subscribe: (_root, _args, context) => context.events.subscribe('entryDeleted'),
    resolve: (payload) => ({ id: payload.entryId }),
  }),

  friendRequests: t.prismaField({
    type: 'Person',
    description: 'People asking the viewer to be friends. Needs an access token.',
    subscribe: (_root, _args, context) => {
      const viewer = requireViewer(context);
      return only(context, 'friendRequested', (p) => p.toId === viewer.id);
    },
    resolve: (query, payload, _args, context) => context.prisma.person.findUniqueOrThrow({ ...query, where: { id: payload.fromId } }),
  }),
}));
