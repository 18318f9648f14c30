// The viewer's profile and friendships: request, accept, decline, remove.

import { randomInt } from 'node:crypto';
import { unusedMedia } from '../../db/accounts.ts';
import type { Transaction } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { befriend } from '../../db/friendships.ts';
import { type Notify, notify } from '../../db/notifications.ts';
import { withOutboxEvent } from '../../db/outbox.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import {
  MAX_HIDDEN_ENDS_METERS,
  MAX_ZONE_RADIUS_METERS,
  MAX_ZONES,
  MIN_ZONE_RADIUS_METERS,
  randomShift,
} from '../../domain/privacy-zones.ts';
import { THRESHOLD_BOUNDS, thresholdsProblem, validateProfile, validateZone } from '../../domain/social.ts';
import { processImage } from '../../media/images.ts';
import { mediaName } from '../../media/store.ts';
import { builder } from '../builder.ts';
import { announce, type Context, readsAsOwner, requireViewer } from '../context.ts';
import { namesObject, requireDatabaseId } from '../global-ids.ts';
import { blocksOf, requirePersonId } from '../lookups.ts';
import { FriendshipStatusEnum, UnitPreferenceEnum, VisibilityEnum } from '../types/enums.ts';
import { listCursor } from '../types/lists.ts';
import { PersonEdge } from '../types/person.ts';
import { WeekdayEnum } from '../types/stats.ts';
import { ofResult, type PayloadFieldBuilder, type PayloadTypes, payloadMutation, readAfter } from './payload.ts';

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

const errors = [ValidationError, NotFoundError, NotAuthorizedError];

/** A friendship's notification, written just after the friendship's own write (its own transaction). */
async function tell(context: Context, n: Notify): Promise<void> {
  const heard = await context.prisma.$transaction((tx) => notify(tx, n));
  if (heard) announce(context, [heard]);
}

type FriendshipResult = { viewerId: number; personId: number; status: Status };

const usernameInput = (what: string) => ({
  description: `The person ${what}.`,
  fields: (t: PothosSchemaTypes.InputFieldBuilder<PayloadTypes, 'InputObject'>) => ({
    username: t.string({ required: true, description: 'A username, in any letter case.' }),
  }),
});

/** Where the viewer stands with the person now; with `friendEdge` where the person joins the viewer's friends. */
function friendshipPayload(description: string, joins: boolean) {
  return {
    description,
    fields: (t: PayloadFieldBuilder<FriendshipResult>) => ({
      friendship: t.field({
        type: FriendshipState,
        nullable: true,
        description: 'Where the viewer stands with the person now. Null when the mutation failed.',
        resolve: ofResult((result: FriendshipResult) => result),
      }),
      ...(joins
        ? {
            friendEdge: t.field({
              type: PersonEdge,
              nullable: true,
              description:
                'The person as an edge of the viewer’s `friends` (oldest friendship first), when they are friends now: for Relay’s `@appendEdge`. Null otherwise.',
              resolve: async (payload, _args, context) => {
                const result = payload.result;
                if (result?.status !== 'friends') return null;
                const friendship = await context.prisma.friendship.findUnique({
                  where: { personId_friendId: { personId: result.viewerId, friendId: result.personId } },
                  include: { friend: true },
                });
                if (!friendship) return null;
                // its cursor names it (graphql/types/lists.ts)
                return { cursor: listCursor([friendship.createdAt.getTime(), friendship.friendId]), node: friendship.friend };
              },
            }),
          }
        : {}),
    }),
  };
}

payloadMutation('requestFriend', {
  description: 'Asks a person to be friends. If they already asked the viewer, the two become friends at once.',
  input: usernameInput('to ask'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context): Promise<FriendshipResult> => {
    const { viewerId, personId } = await other(context, username);
    // (someone who blocked the viewer is not found: requirePersonId)
    if ((await blocksOf(context)).with.has(personId)) throw ValidationError.field('username', 'is someone you blocked: unblock them first');
    const state = (status: Status) => ({ viewerId, personId, status });
    const friends = await context.prisma.friendship.findUnique({
      where: { personId_friendId: { personId: viewerId, friendId: personId } },
    });
    if (friends) return state('friends');
    const incoming = await context.prisma.friendRequest.findUnique({ where: { fromId_toId: { fromId: personId, toId: viewerId } } });
    if (incoming) {
      await befriend(context.prisma, viewerId, personId);
      await tell(context, { personId, kind: 'friend_accepted', actorId: viewerId, entryId: null });
      return state('friends');
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
      return state('friends');
    }
    if (created) await tell(context, { personId, kind: 'friend_request', actorId: viewerId, entryId: null });
    if (created) context.events.publish('friendRequested', { fromId: viewerId, toId: personId });
    return state('requested');
  },
  payload: friendshipPayload('Where the viewer stands with the person asked: `REQUESTED`, or `FRIENDS` when they had asked too.', true),
});

payloadMutation('acceptFriend', {
  description: "Accepts a person's pending request.",
  input: usernameInput('whose request to accept'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context): Promise<FriendshipResult> => {
    const { viewerId, personId } = await other(context, username);
    const request = await context.prisma.friendRequest.findUnique({ where: { fromId_toId: { fromId: personId, toId: viewerId } } });
    if (!request) throw new NotFoundError('friend request from', username);
    await befriend(context.prisma, viewerId, personId);
    await tell(context, { personId, kind: 'friend_accepted', actorId: viewerId, entryId: null });
    return { viewerId, personId, status: 'friends' };
  },
  payload: friendshipPayload('The new friendship.', true),
});

payloadMutation('declineFriend', {
  description: "Declines a person's pending request.",
  input: usernameInput('whose request to decline'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context): Promise<FriendshipResult> => {
    const { viewerId, personId } = await other(context, username);
    const { count } = await context.prisma.friendRequest.deleteMany({ where: { fromId: personId, toId: viewerId } });
    if (count === 0) throw new NotFoundError('friend request from', username);
    return { viewerId, personId, status: 'none' };
  },
  payload: friendshipPayload('Where the viewer stands with the person: `NONE`.', false),
});

payloadMutation('removeFriend', {
  description: "Ends a friendship, or withdraws the viewer's own request. Not being friends is not an error.",
  input: usernameInput('to stop being friends with, or whose request to withdraw'),
  scope: 'profile:write',
  errors,
  resolve: async ({ username }, context): Promise<FriendshipResult> => {
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
    return { viewerId, personId, status: 'none' };
  },
  payload: friendshipPayload('Where the viewer stands with the person: `NONE`.', false),
});

payloadMutation('updateProfile', {
  description: "Changes the viewer's profile.",
  input: {
    description: 'Only the fields given change; an empty string clears an optional one.',
    fields: (t) => ({
      displayName: t.string({ description: '1 to 60 characters, on one line (no line breaks or control characters).' }),
      location: t.string({ description: 'Free text, at most 100 characters.' }),
      timeZone: t.string({ description: 'A time zone name, at most 100 characters.' }),
      photoUrl: t.string({ description: 'An http(s) URL of the avatar picture; empty for one made of the initials.' }),
      photo: t.field({
        type: 'ImageFile',
        description:
          'The avatar picture itself, instead of `photoUrl` (JPEG, PNG, WebP or GIF, at most 10 MB): stored and served by Milepost, 320 pixels wide, upright and without EXIF data.',
      }),
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
      maxHeartRate: t.int({
        description: `Beats a minute (${THRESHOLD_BOUNDS.maxHeartRate.join(' to ')}; 0 for none) that the heart-rate zones of every workout are made of (\`Track.heartRateZones\`); without it, the one a workout's file gave.`,
      }),
      restingHeartRate: t.int({
        description: `Beats a minute (${THRESHOLD_BOUNDS.restingHeartRate.join(' to ')}; 0 for none), below \`maxHeartRate\`: with it, heart-rate zones are of the reserve between the two (Karvonen), without it of the maximum.`,
      }),
      thresholdPower: t.int({
        description: `Functional threshold power in watts (${THRESHOLD_BOUNDS.thresholdPower.join(' to ')}; 0 for none) that the power zones are made of (\`Track.powerZones\`).`,
      }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const { photo, ...fields } = input;
    const data = validateProfile({ ...fields, photo: photo != null });
    if (data.maxHeartRate !== undefined || data.restingHeartRate !== undefined) {
      const stored = await context.prisma.person.findUniqueOrThrow({
        where: { id: viewer.id },
        select: { maxHeartRate: true, restingHeartRate: true },
      });
      const problem = thresholdsProblem(data as { maxHeartRate?: number | null; restingHeartRate?: number | null }, stored);
      if (problem) throw new ValidationError([problem]);
    }
    if (photo) {
      // stored before the profile points at it (a failed update leaves an orphan file, never a broken link);
      // the preview is the avatar: pages show it at 48 pixels
      const image = await processImage(photo).catch((error: unknown) => {
        // named as this input names it
        if (error instanceof ValidationError) throw new ValidationError(error.issues.map((issue) => ({ ...issue, path: 'photo' })));
        throw error;
      });
      data.photoUrl = await context.media.savePreview(image);
    }
    const before =
      data.photoUrl === undefined ? null : await context.prisma.person.findUnique({ where: { id: viewer.id }, select: { photoUrl: true } });
    // a change of hidden ends makes every track's shown figures stale (db/shown-figures.ts)
    const privacy = data.hiddenEndsMeters === undefined ? {} : { privacyVersion: { increment: 1 } };
    // what others see of the person changed: the outbox carries it to the fediverse (federation/jobs.ts)
    const shown = data.displayName !== undefined || data.goal !== undefined || data.photoUrl !== undefined;
    const update = (tx: Pick<Transaction, 'person'>) =>
      tx.person.update({ where: { id: viewer.id }, data: { ...data, ...privacy }, select: { id: true } });
    if (shown) await withOutboxEvent(context.prisma, update, () => ({ name: 'profileChanged', payload: { personId: viewer.id } }));
    else await update(context.prisma);
    // the avatar it replaced, if it was an uploaded one nothing else shows, is removed from the media store
    const replaced = before?.photoUrl && before.photoUrl !== data.photoUrl && mediaName(before.photoUrl) ? [before.photoUrl] : [];
    await context.media.remove(await unusedMedia(context.prisma, replaced));
    return { personId: viewer.id };
  },
  payload: {
    description: 'The viewer’s profile as it is now.',
    fields: (t) => ({
      person: t.prismaField({
        type: 'Person',
        nullable: true,
        description: 'The viewer, as they are now. Null when the mutation failed.',
        resolve: (query, payload, _args, context) =>
          readAfter(payload, query, (result, selection) =>
            context.prisma.person.findUnique({ ...selection, where: { id: result.personId } }),
          ),
      }),
    }),
  },
});

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
    resolve: (person, _args, context) => (readsAsOwner(context, person.id) ? person.privacyZones : null),
  }),
);

builder.prismaObjectField('Person', 'hiddenEndsMeters', (t) =>
  t.int({
    nullable: true,
    description:
      "Meters of the start and finish of this person's tracks that nobody else sees. Only a person sees their own; null for anyone else.",
    resolve: async (person, _args, context) => {
      if (!readsAsOwner(context, person.id)) return null;
      return (await context.prisma.person.findUniqueOrThrow({ where: { id: person.id }, select: { hiddenEndsMeters: true } }))
        .hiddenEndsMeters;
    },
  }),
);

/** What a change of a person's zones writes beside it: their tracks' shown figures are stale (db/shown-figures.ts). */
const NEW_PRIVACY = { privacyVersion: { increment: 1 } };

payloadMutation('addPrivacyZone', {
  description: `Hides a place (a centre and ${MIN_ZONE_RADIUS_METERS} to ${MAX_ZONE_RADIUS_METERS} meters around it) of the viewer's tracks, waypoints and entries from everyone else, at once. The circle cut is centred a stable random 20-50% of the radius away from the centre, and wider by as much, so that the whole radius stays hidden while tracks cut at its edge do not point at the centre. At most ${MAX_ZONES} places.`,
  input: {
    description: 'The place to hide.',
    fields: (t) => ({
      lat: t.float({ required: true, description: 'The place’s latitude, -90 to 90.' }),
      lon: t.float({ required: true, description: 'The place’s longitude, -180 to 180.' }),
      radiusMeters: t.float({ required: true, description: 'How far around it to hide, in meters.' }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const zone = validateZone(input);
    if ((await context.prisma.privacyZone.count({ where: { personId: viewer.id } })) >= MAX_ZONES)
      throw ValidationError.field('lat', `at most ${MAX_ZONES} privacy zones; remove one first`);
    // unpredictable: knowing the shift would give the centre back
    const shift = randomShift(zone.radiusMeters, () => randomInt(2 ** 32) / 2 ** 32);
    return context.prisma.$transaction(async (tx) => {
      await tx.person.update({ where: { id: viewer.id }, data: NEW_PRIVACY, select: { id: true } });
      return tx.privacyZone.create({ data: { ...zone, ...shift, personId: viewer.id } });
    });
  },
  payload: {
    description: 'The new privacy zone.',
    fields: (t) => ({
      privacyZone: t.field({
        type: PrivacyZoneRef,
        nullable: true,
        description: 'The new zone. Null when the mutation failed.',
        resolve: ofResult((zone) => zone),
      }),
    }),
  },
});

payloadMutation('removePrivacyZone', {
  description: 'Shows a hidden place again; answers the zone that was removed.',
  input: {
    description: 'The zone to remove.',
    fields: (t) => ({ id: t.id({ required: true, description: namesObject('PrivacyZone') }) }),
  },
  scope: 'profile:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const id = requireDatabaseId(input.id, 'PrivacyZone', 'privacy zone');
    const zone = await context.prisma.privacyZone.findFirst({ where: { id, personId: viewer.id } });
    if (!zone) throw new NotFoundError('privacy zone', String(input.id));
    await context.prisma.$transaction([
      context.prisma.privacyZone.delete({ where: { id }, select: { id: true } }),
      context.prisma.person.update({ where: { id: viewer.id }, data: NEW_PRIVACY, select: { id: true } }),
    ]);
    return zone;
  },
  payload: {
    description: 'The zone removed, as it was.',
    fields: (t) => ({
      privacyZone: t.field({
        type: PrivacyZoneRef,
        nullable: true,
        description: 'The removed zone, as it was. Null when the mutation failed.',
        resolve: ofResult((zone) => zone),
      }),
      deletedPrivacyZoneId: t.globalID({
        nullable: true,
        description: 'The removed zone’s global id, for Relay’s `@deleteRecord`. Null when the mutation failed.',
        resolve: ofResult((zone) => ({ type: 'PrivacyZone', id: zone.id })),
      }),
    }),
  },
});
