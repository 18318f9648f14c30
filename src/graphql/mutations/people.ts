// The viewer's profile and friendships: request, accept, decline, remove.
import { namesObject, requireDatabaseId } from '../global-ids.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { validateProfile, validateZone } from '../../domain/social.ts';
import { randomInt } from 'node:crypto';
import {
  MAX_HIDDEN_ENDS_METERS,
  MAX_ZONE_RADIUS_METERS,
  MAX_ZONES,
  MIN_ZONE_RADIUS_METERS,
  randomShift,
} from '../../domain/privacy-zones.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { befriend } from '../../db/friendships.ts';
import { builder } from '../builder.ts';
import { requireViewer, type Context } from '../context.ts';
import { requirePersonId } from '../lookups.ts';
import { FriendshipStatusEnum, UnitPreferenceEnum, VisibilityEnum } from '../types/enums.ts';
import { WeekdayEnum } from '../types/stats.ts';

type Status = 'none' | 'requested' | 'incoming' | 'friends';

const FriendshipState = builder.objectRef<{ personId: number; status: Status }>('FriendshipState').implement({
  description: 'Where the viewer stands with a person after a friendship mutation.',
  fields: (t) => ({
    status: t.field({
      type: FriendshipStatusEnum,
      description: 'Where the viewer stands with them now.',
      resolve: (state) => state.status,
    }),
    person: t.prismaField({
      type: 'Person',
      description: 'The other person.',
      resolve: (query, state, _args, context) => context.prisma.person.findUniqueOrThrow({ ...query, where: { id: state.personId } }),
    }),
  }),
});

async function other(context: Context, username: string): Promise<{ viewerId: number; personId: number }> {
  const viewer = requireViewer(context);
  const personId = await requirePersonId(context, username);
  if (personId === viewer.id) throw ValidationError.field('username', 'is you; friendships are with other people');
  return { viewerId: viewer.id, personId };
}

const errors = { types: [ValidationError, NotFoundError, NotAuthorizedError] };

builder.mutationFields((t) => ({
  requestFriend: t.field({
    type: FriendshipState,
    description: 'Asks a person to be friends. If they already asked the viewer, the two become friends at once.',
    errors,
    args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }) },
    resolve: async (_root, { username }, context) => {
      const { viewerId, personId } = await other(context, username);
      const friends = await context.prisma.friendship.findUnique({
        where: { personId_friendId: { personId: viewerId, friendId: personId } },
      });
      if (friends) return { personId, status: 'friends' as const };
      const incoming = await context.prisma.friendRequest.findUnique({ where: { fromId_toId: { fromId: personId, toId: viewerId } } });
      if (incoming) {
        await befriend(context.prisma, viewerId, personId);
        return { personId, status: 'friends' as const };
      }
      const created = await context.prisma.friendRequest.create({ data: { fromId: viewerId, toId: personId } }).then(
        () => true,
        (error) => {
          if (!isUniqueViolation(error)) throw error;
          return false; // asked twice: the first request stands
        },
      );
      // asked each other at the same moment: each request was written before the other was seen.
      // Looking again after our own commit, at least one of the two sees the other's request.
      const crossed = await context.prisma.friendRequest.findUnique({ where: { fromId_toId: { fromId: personId, toId: viewerId } } });
      if (crossed) {
        await befriend(context.prisma, viewerId, personId);
        return { personId, status: 'friends' as const };
      }
      if (created) context.events.publish('friendRequested', { fromId: viewerId, toId: personId });
      return { personId, status: 'requested' as const };
    },
  }),

  acceptFriend: t.field({
    type: FriendshipState,
    description: "Accepts a person's pending request.",
    errors,
    args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }) },
    resolve: async (_root, { username }, context) => {
      const { viewerId, personId } = await other(context, username);
      const request = await context.prisma.friendRequest.findUnique({ where: { fromId_toId: { fromId: personId, toId: viewerId } } });
      if (!request) throw new NotFoundError('friend request from', username);
      await befriend(context.prisma, viewerId, personId);
      return { personId, status: 'friends' as const };
    },
  }),

  declineFriend: t.field({
    type: FriendshipState,
    description: "Declines a person's pending request.",
    errors,
    args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }) },
    resolve: async (_root, { username }, context) => {
      const { viewerId, personId } = await other(context, username);
      const { count } = await context.prisma.friendRequest.deleteMany({ where: { fromId: personId, toId: viewerId } });
      if (count === 0) throw new NotFoundError('friend request from', username);
      return { personId, status: 'none' as const };
    },
  }),

  removeFriend: t.field({
    type: FriendshipState,
    description: "Ends a friendship, or withdraws the viewer's own request. Not being friends is not an error.",
    errors,
    args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }) },
    resolve: async (_root, { username }, context) => {
      const { viewerId, personId } = await other(context, username);
      await context.prisma.$transaction(async (tx) => {
        await tx.friendship.deleteMany({
          where: {
            OR: [
              { personId: viewerId, friendId: personId },
              { personId, friendId: viewerId },
            ],
          },
        });
        await tx.friendRequest.deleteMany({ where: { fromId: viewerId, toId: personId } });
      });
      context.events.publish('friendshipEnded', { personId: viewerId, friendId: personId });
      return { personId, status: 'none' as const };
    },
  }),
}));

const UpdateProfileInput = builder.inputType('UpdateProfileInput', {
  description: 'Only the fields given change; an empty string clears an optional one.',
  fields: (t) => ({
    displayName: t.string({ description: '1 to 60 characters.' }),
    location: t.string({ description: 'Free text, at most 100 characters.' }),
    timeZone: t.string({ description: 'A time zone name, at most 100 characters.' }),
    photoUrl: t.string({ description: 'An http(s) URL of the avatar picture.' }),
    goal: t.string({ description: 'At most 200 characters.' }),
    units: t.field({ type: UnitPreferenceEnum, description: 'The units to show distances in.' }),
    defaultVisibility: t.field({
      type: VisibilityEnum,
      description: 'Who sees the entries posted from now on without a `visibility` of their own.',
    }),
    statsVisibility: t.field({
      type: VisibilityEnum,
      description: 'Who may read the stats, records and streak: EVERYONE (the default), FRIENDS or ONLY_ME.',
    }),
    weekStart: t.field({ type: WeekdayEnum, description: 'The day weeks begin on, in stats and streaks (Monday unless chosen).' }),
    hiddenEndsMeters: t.int({
      description: `Meters of the start and of the finish of every track that nobody else sees (0 to ${MAX_HIDDEN_ENDS_METERS}; 0 hides none). Takes effect at once, for every track.`,
    }),
  }),
});

builder.mutationFields((t) => ({
  updateProfile: t.prismaField({
    type: 'Person',
    description: "Changes the viewer's profile.",
    errors: { types: [ValidationError, NotAuthorizedError] },
    args: { input: t.arg({ type: UpdateProfileInput, required: true, description: 'The fields to write.' }) },
    resolve: async (query, _root, { input }, context) => {
      const viewer = requireViewer(context);
      return context.prisma.person.update({ ...query, where: { id: viewer.id }, data: validateProfile(input) });
    },
  }),
}));

const PrivacyZoneRef = builder.prismaNode('PrivacyZone', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'A place whose track points nobody but its person receives, and where their entries show no position.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST paths and the original API name it.' }),
    lat: t.exposeFloat('lat', { description: 'The centre’s latitude, as the person gave it.' }),
    lon: t.exposeFloat('lon', { description: 'The centre’s longitude, as the person gave it.' }),
    radiusMeters: t.exposeFloat('radiusMeters', { description: 'The radius hidden around the centre, in meters.' }),
  }),
});

builder.prismaObjectField('Person', 'privacyZones', (t) =>
  t.field({
    type: [PrivacyZoneRef],
    nullable: true,
    description: 'The places this person hides from everyone else. Only a person sees their own; null for anyone else.',
    select: { privacyZones: { orderBy: { id: 'asc' } } },
    resolve: (person, _args, context) => (context.viewer?.id === person.id ? person.privacyZones : null),
  }),
);

builder.prismaObjectField('Person', 'hiddenEndsMeters', (t) =>
  t.int({
    nullable: true,
    description:
      "Meters of the start and finish of this person's tracks that nobody else sees. Only a person sees their own; null for anyone else.",
    resolve: async (person, _args, context) => {
      if (context.viewer?.id !== person.id) return null;
      return (await context.prisma.person.findUniqueOrThrow({ where: { id: person.id }, select: { hiddenEndsMeters: true } }))
        .hiddenEndsMeters;
    },
  }),
);

builder.mutationFields((t) => ({
  addPrivacyZone: t.prismaField({
    type: 'PrivacyZone',
    description: `Hides a place (a centre and ${MIN_ZONE_RADIUS_METERS} to ${MAX_ZONE_RADIUS_METERS} meters around it) of the viewer's tracks, waypoints and entries from everyone else, at once. The circle cut is centred a stable random 20-50% of the radius away from the centre, and wider by as much, so that the whole radius stays hidden while tracks cut at its edge do not point at the centre. At most ${MAX_ZONES} places.`,
    errors: { types: [ValidationError, NotAuthorizedError] },
    args: {
      lat: t.arg.float({ required: true, description: 'The place’s latitude, -90 to 90.' }),
      lon: t.arg.float({ required: true, description: 'The place’s longitude, -180 to 180.' }),
      radiusMeters: t.arg.float({ required: true, description: 'How far around it to hide, in meters.' }),
    },
    resolve: async (query, _root, args, context) => {
      const viewer = requireViewer(context);
      const zone = validateZone(args);
      if ((await context.prisma.privacyZone.count({ where: { personId: viewer.id } })) >= MAX_ZONES)
        throw ValidationError.field('lat', `at most ${MAX_ZONES} privacy zones; remove one first`);
      // unpredictable: knowing the shift would give the centre back
      const shift = randomShift(zone.radiusMeters, () => randomInt(2 ** 32) / 2 ** 32);
      const { id } = await context.prisma.$transaction((tx) =>
        tx.privacyZone.create({ data: { ...zone, ...shift, personId: viewer.id }, select: { id: true } }),
      );
      return context.prisma.privacyZone.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  removePrivacyZone: t.prismaField({
    type: 'PrivacyZone',
    description: 'Shows a hidden place again; answers the zone that was removed.',
    errors: { types: [NotFoundError, NotAuthorizedError] },
    args: { id: t.arg.id({ required: true, description: namesObject('PrivacyZone') }) },
    resolve: async (query, _root, args, context) => {
      const viewer = requireViewer(context);
      const id = requireDatabaseId(args.id, 'PrivacyZone', 'privacy zone');
      const zone = await context.prisma.privacyZone.findFirst({ ...query, where: { id, personId: viewer.id } });
      if (!zone) throw new NotFoundError('privacy zone', String(id));
      await context.prisma.privacyZone.delete({ where: { id }, select: { id: true } });
      return zone;
    },
  }),
}));
