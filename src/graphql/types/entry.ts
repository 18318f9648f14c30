import type { LoadedEntry } from '../../db/entry-rows.ts';
import { ENTRY_KINDS, storedValue } from '../../domain/activity.ts';
import { NotAuthorizedError } from '../../domain/errors.ts';
import { POPULAR_DAYS } from '../../domain/paging.ts';
import { VISIBILITIES } from '../../domain/visibility.ts';
import { MEDIA_PATH } from '../../media/store.ts';
import { builder } from '../builder.ts';
import { databaseIdOf, namesObject } from '../global-ids.ts';
import { entryPart, trackOfEntry } from '../loaders.ts';
import { viewerMaySee } from '../lookups.ts';
import { entryPlaceHidden, entryPrivacy } from '../privacy.ts';
import { DEFAULT_NEARBY_RADIUS_MILES, entryStream, nearbyStream, popularStream } from '../streams.ts';
import { CommentConnection, CommentRef, LikeConnection, LikeRef } from './comment.ts';
import { EntryKindEnum, VisibilityEnum } from './enums.ts';
import { GeoPointRef } from './geo.ts';
import { listConnection, listDescription, pageExtensions, REACTIONS_PAGE, timeAndId } from './lists.ts';
import { TrackRef } from './route.ts';
import { refusingAsErrors, streamArgs, streamField } from './stream-args.ts';
import { WorkoutRef } from './workout.ts';

interface Location {
  name: string;
}
interface MediaItem {
  content: { type: string; url: string };
  preview: { type: string; url: string } | null;
}

const LocationRef = builder.objectRef<Location>('Location').implement({
  description: 'Where an entry was posted, as a place name.',
  fields: (t) => ({ name: t.exposeString('name', { description: 'The place’s name, as the author gave it.' }) }),
});

const MediaObjectRef = builder.objectRef<{ type: string; url: string }>('MediaObject').implement({
  description: 'One file of an attached image.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Always `image` for now.' }),
    url: t.exposeString('url', { description: 'Where to fetch it.' }),
  }),
});

const MediaRef = builder.objectRef<MediaItem>('Media').implement({
  description: 'An attached image and its optional preview.',
  fields: (t) => ({
    content: t.field({ type: MediaObjectRef, description: 'The image.', resolve: (m) => m.content }),
    preview: t.field({
      type: MediaObjectRef,
      nullable: true,
      description: 'A 320-pixel preview; null when there is none.',
      resolve: (m) => m.preview,
    }),
  }),
});

export const EntryRef = builder.prismaNode('Entry', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'A note or a workout, optionally with an image and a location (SPEC 2.2).',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST paths and the original API name it.' }),
    visibility: t.field({
      type: VisibilityEnum,
      description: 'Who sees this entry.',
      resolve: (entry) => storedValue(VISIBILITIES, entry.visibility, 'Entry.visibility'),
    }),
    url: t.string({
      description: "Absolute URL of the entry's page.",
      resolve: (entry, _args, context) => `${context.baseUrl}/entries/${entry.id}`,
    }),
    at: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the entry was posted; whole seconds of it are the UNIX time `since` and `until` compare with.',
    }),
    kind: t.field({
      type: EntryKindEnum,
      description: 'A note or a workout.',
      resolve: (entry) => storedValue(ENTRY_KINDS, entry.kind, 'Entry.kind'),
    }),
    message: t.exposeString('message', { nullable: true, description: 'What the author wrote; null for none.' }),
    // the parts of an entry come with its stream page (one statement, db/entry-pages.ts), or else
    // batched for all entries of the operation (graphql/loaders.ts)
    workout: t.field({
      type: WorkoutRef,
      nullable: true,
      description: 'The workout, for an entry of that kind; null for a note.',
      // the workout carries its author: what its figures show anyone else depends on their privacy (workout.ts)
      resolve: async (entry, _args, context) => {
        const workout = await entryPart(context, entry, 'workout');
        return workout && { ...workout, authorId: entry.authorId, authorPrivacy: (entry as LoadedEntry).authorPrivacy };
      },
    }),
    comments: t.connection(
      {
        type: CommentRef,
        description: listDescription('Comments, oldest first.', REACTIONS_PAGE),
        extensions: pageExtensions(REACTIONS_PAGE),
        resolve: async (entry, args, context) =>
          listConnection(await entryPart(context, entry, 'comments'), args, { key: timeAndId, ...REACTIONS_PAGE }),
      },
      CommentConnection,
    ),
    likes: t.connection(
      {
        type: LikeRef,
        description: listDescription('Likes, oldest first.', REACTIONS_PAGE),
        extensions: pageExtensions(REACTIONS_PAGE),
        resolve: async (entry, args, context) =>
          listConnection(await entryPart(context, entry, 'likes'), args, { key: timeAndId, ...REACTIONS_PAGE }),
      },
      LikeConnection,
    ),
    commentCount: t.int({
      description: 'How many comments it has.',
      resolve: (entry, _args, context) => entryPart(context, entry, 'commentCount'),
    }),
    likeCount: t.int({
      description: 'How many people like it.',
      resolve: (entry, _args, context) => entryPart(context, entry, 'likeCount'),
    }),
    viewerHasLiked: t.boolean({
      description: 'Whether the viewer likes it (a page of `likes` may not reach their like); false without a viewer.',
      resolve: async (entry, _args, context) => {
        const viewer = context.viewer;
        return viewer !== null && (await entryPart(context, entry, 'likes')).some((like) => like.personId === viewer.id);
      },
    }),
  }),
});

// where it was posted, its photos and its track
builder.prismaObjectFields(EntryRef, (t) => ({
  location: t.field({
    type: LocationRef,
    nullable: true,
    description: 'The place’s name, when the author gave one.',
    resolve: (entry) => (entry.placeName ? { name: entry.placeName } : null),
  }),
  geo: t.field({
    type: GeoPointRef,
    nullable: true,
    description:
      "Where it was posted; to anyone but its author, null inside the author's privacy zones or within reach of its track's hidden start and finish.",
    resolve: async (entry, _args, context) => {
      if (entry.lat === null || entry.lon === null) return null;
      const place = { lat: entry.lat, lon: entry.lon };
      return (await entryPlaceHidden(context, entry, place, await entryPrivacy(context, entry))) ? null : place;
    },
  }),
  media: t.field({
    type: [MediaRef],
    description: 'Attached images; empty when there are none.',
    resolve: (entry, _args, context) => {
      if (!entry.mediaType || !entry.mediaUrl) return [];
      // an uploaded photo is stored by its path on this service: absolute here, at whichever origin is asked
      const absolute = (url: string) => (url.startsWith('/') ? `${context.baseUrl}${url}` : url);
      return [
        {
          content: { type: entry.mediaType, url: absolute(entry.mediaUrl) },
          preview: entry.mediaPreviewUrl ? { type: entry.mediaType, url: absolute(entry.mediaPreviewUrl) } : null,
        },
      ];
    },
  }),
  // one statement for the tracks of a page, without their packed points (`points`, `outline` and
  // `gpx` read those for themselves)
  track: t.field({
    type: TrackRef,
    nullable: true,
    description: 'The GPS track of a workout, when one was uploaded.',
    // the track carries its owner: what it shows anyone else depends on the author's privacy zones
    resolve: async (entry, _args, context) => {
      const track = await trackOfEntry(context, entry.id);
      return track && { ...track, ownerId: entry.authorId, ownerPrivacy: (entry as LoadedEntry).authorPrivacy };
    },
  }),
}));

interface Photo {
  name: string;
  public: boolean;
}

const PhotoRef = builder.objectRef<Photo>('Photo').implement({
  description: 'An uploaded photo (`/media/{name}`), as the viewer may see it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Its file name under `/media/`.' }),
    url: t.string({
      description: 'Where it is served.',
      resolve: (photo, _args, context) => `${context.baseUrl}${MEDIA_PATH}${photo.name}`,
    }),
    public: t.exposeBoolean('public', {
      description:
        'Whether an entry for everyone shows it: then anyone, and any cache, may have it; else only those who may see an entry that shows it.',
    }),
  }),
});

/** Entries that show one photo read to decide who may have it (a photo is stored once, by its bytes). */
const PHOTO_ENTRIES = 100;

export const EntryEdge = builder.edgeObject({
  type: EntryRef,
  name: 'EntryEdge',
  description: 'An entry of a page of a stream, with the cursor to page from it.',
});

export const EntryConnection = builder.connectionObject(
  {
    type: EntryRef,
    name: 'EntryConnection',
    description: 'A page of a stream, newest first.',
  },
  EntryEdge,
);

builder.queryFields((t) => ({
  photo: t.field({
    type: PhotoRef,
    nullable: true,
    description:
      'An uploaded photo, when the viewer may see an entry that shows it (as its image or preview), or an uploaded avatar; null otherwise, exactly as for a photo that does not exist.',
    args: { name: t.arg.string({ required: true, description: 'The file name under `/media/`.' }) },
    resolve: async (_root, { name }, context) => {
      const path = `${MEDIA_PATH}${name}`;
      const entries = await context.prisma.entry.findMany({
        where: { OR: [{ mediaUrl: path }, { mediaPreviewUrl: path }] },
        select: { authorId: true, visibility: true },
        take: PHOTO_ENTRIES,
      });
      if (entries.some((entry) => entry.visibility === 'everyone')) return { name, public: true };
      for (const entry of entries) if (await viewerMaySee(context, entry)) return { name, public: false };
      // an avatar is seen by anyone, as its person's profile is
      const avatarOf = await context.prisma.person.findFirst({ where: { photoUrl: path }, select: { id: true } });
      return avatarOf ? { name, public: true } : null;
    },
  }),
  entry: t.prismaField({
    type: 'Entry',
    nullable: true,
    description: 'An entry by id; null when there is none, or when the viewer may not see it (its `visibility`).',
    args: { id: t.arg.id({ required: true, description: namesObject('Entry') }) },
    resolve: async (query, _root, args, context) => {
      const id = databaseIdOf(args.id, 'Entry');
      if (id === null) return null;
      const entry = await context.prisma.entry.findUnique({ ...query, where: { id } });
      return entry && (await viewerMaySee(context, entry)) ? entry : null;
    },
  }),
}));

// the streams of entries
builder.queryFields((t) => ({
  publicStream: t.connection(
    {
      type: EntryRef,
      ...streamField("Everyone's entries, newest first, 20 a page (SPEC 4.2).", ['ValidationError']),
      args: streamArgs,
      resolve: refusingAsErrors((_root, args, context, info) => entryStream(context, info, { kind: 'everyone' }, args)),
    },
    EntryConnection,
  ),
  popularStream: t.connection(
    {
      type: EntryRef,
      ...streamField(
        `The most liked and commented entries of the ${POPULAR_DAYS} days before a moment, 20 a page: likes and comments count as received by that moment, ties newest first. The moment is \`until\` when given, else the start of the current hour, so pages read within the hour rank alike; a cursor keeps its moment. Ranked, not in time order: page with \`page\` or \`first\`/\`after\` (\`last\`/\`before\` are refused).`,
        ['ValidationError'],
      ),
      args: streamArgs,
      resolve: refusingAsErrors((_root, args, context, info) => popularStream(context, info, args)),
    },
    EntryConnection,
  ),
  friendsStream: t.connection(
    {
      type: EntryRef,
      ...streamField("The viewer's and their friends' entries, newest first. Needs an access token.", [
        'ValidationError',
        'NotAuthorizedError',
      ]),
      args: streamArgs,
      resolve: refusingAsErrors((_root, args, context, info) => {
        if (!context.viewer) throw new NotAuthorizedError();
        return entryStream(context, info, { kind: 'friendsOf', personId: context.viewer.id }, args);
      }),
    },
    EntryConnection,
  ),
  nearbyStream: t.connection(
    {
      type: EntryRef,
      ...streamField('Entries posted within `radius` miles of a point, newest first.', ['ValidationError']),
      args: {
        lat: t.arg.float({ required: true, description: 'Latitude, -90 to 90.' }),
        lon: t.arg.float({ required: true, description: 'Longitude, -180 to 180.' }),
        radius: t.arg.float({ required: false, description: `Miles; default ${DEFAULT_NEARBY_RADIUS_MILES}.` }),
        ...streamArgs,
      },
      resolve: refusingAsErrors((_root, args, context, info) =>
        nearbyStream(context, info, { lat: args.lat, lon: args.lon }, args.radius ?? DEFAULT_NEARBY_RADIUS_MILES, args),
      ),
    },
    EntryConnection,
  ),
}));
