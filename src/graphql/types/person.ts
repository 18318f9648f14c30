import { usernameKey } from '../../domain/accounts.ts';
import { storedValue, UNIT_PREFERENCES } from '../../domain/activity.ts';
import { VISIBILITIES } from '../../domain/visibility.ts';
import type { Person } from '../../generated/prisma-sqlite/client.ts';
import { MEDIA_PATH } from '../../media/store.ts';
import { builder } from '../builder.ts';
import { type Context, requireViewer } from '../context.ts';
import { ownColumn, personById, viewerFriendship } from '../loaders.ts';
import { blockedByPerson, requirePersonId } from '../lookups.ts';
import { entryStream } from '../streams.ts';
import { EntryConnection, EntryRef } from './entry.ts';
import { FriendshipStatusEnum, UnitPreferenceEnum, VisibilityEnum } from './enums.ts';
import {
  countedConnection,
  keyedConnection,
  keyedQuery,
  type ListArgs,
  listConnection,
  listDescription,
  nonEmpty,
  pageExtensions,
  REQUESTS_PAGE,
} from './lists.ts';
import { refusingAsErrors, streamArgs, streamField } from './stream-args.ts';

export const PersonRef = builder.prismaNode('Person', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'An athlete (SPEC 2.1).',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST paths and the original API name it.' }),
    username: t.exposeString('username', { description: 'The handle used in paths; unique regardless of case.' }),
    displayName: t.exposeString('displayName', { description: 'The name shown to people.' }),
    url: t.string({
      description: "Absolute URL of the person's profile page.",
      resolve: (person, _args, context) => `${context.baseUrl}/people/${encodeURIComponent(person.username)}`,
    }),
    location: t.exposeString('location', { nullable: true, description: 'Free-text location.' }),
    timeZone: t.exposeString('timeZone', {
      nullable: true,
      description: 'An IANA time zone (`Europe/Paris`); their calendar periods follow it.',
    }),
    photoUrl: t.string({
      description: 'URL of the avatar picture: the one the person uploaded or named, or one generated from their initials.',
      resolve: (person, _args, context) => {
        // an uploaded one is kept as its path on this service: absolute here, at whichever origin is asked
        if (person.photoUrl?.startsWith(MEDIA_PATH)) return `${context.baseUrl}${person.photoUrl}`;
        return person.photoUrl ?? `${context.baseUrl}/people/${encodeURIComponent(person.username)}/avatar.svg`;
      },
    }),
    goal: t.exposeString('goal', { nullable: true, description: 'What they are training for, in their words.' }),
    units: t.field({
      type: UnitPreferenceEnum,
      description: 'The units their distances are shown in.',
      resolve: (p) => storedValue(UNIT_PREFERENCES, p.units, 'Person.units'),
    }),
    entries: t.connection(
      {
        type: EntryRef,
        description: "This person's stream: their entries, newest first.",
        args: streamArgs,
        select: { id: true },
        resolve: (person, args, context, info) => entryStream(context, info, { kind: 'authorId', authorId: person.id }, args),
      },
      EntryConnection,
    ),
  }),
});

/** Friends per page: a list of every friend of every friend multiplied without bound. */
export const FRIENDS_PAGE = { defaultSize: 20, maxSize: 50 } as const;

/** A friendship's place in the list: when it began, then the friend's id. */
const friendshipKey = (friendship: { createdAt: Date; friendId: number }) => [friendship.createdAt.getTime(), friendship.friendId] as const;

export const { connection: PersonConnection, edge: PersonEdge } = countedConnection(PersonRef, 'Person', 'people');

/** Friendships whose friend has not blocked the viewer (every friendship for an anonymous reader). */
const notBlockingViewer = (context: { viewer: { id: number } | null }) =>
  context.viewer ? { friend: { blocks: { none: { blockedId: context.viewer.id } } } } : {};

builder.prismaObjectField(PersonRef, 'friends', (t) =>
  t.connection(
    {
      type: PersonRef,
      description: `Accepted friends, longest-standing first: ${FRIENDS_PAGE.defaultSize} a page, \`first\` at most ${FRIENDS_PAGE.maxSize}.`,
      extensions: pageExtensions(FRIENDS_PAGE),
      // nobody who blocked the viewer is listed: to them, that person does not exist
      select: (args, context, nestedSelection) => {
        const { where, orderBy, take } = keyedQuery(args, FRIENDS_PAGE, { time: 'createdAt', id: 'friendId' });
        return {
          friendships: {
            where: { AND: [where, notBlockingViewer(context)] },
            orderBy,
            take,
            select: { createdAt: true, friendId: true, friend: nonEmpty(nestedSelection(true, ['edges', 'node'])) },
          },
        };
      },
      resolve: async (person, args, context) => {
        // the friends of someone who blocked the viewer: none (the blocker is not found to them)
        const friendships = (await blockedByPerson(context, person.id)) ? [] : person.friendships;
        const { page } = keyedQuery(args, FRIENDS_PAGE, { time: 'createdAt', id: 'friendId' });
        return {
          ...keyedConnection(friendships, page, friendshipKey, (friendship) => friendship.friend),
          totalCount: async () =>
            friendships.length === 0 && (await blockedByPerson(context, person.id))
              ? 0
              : context.prisma.friendship.count({ where: { personId: person.id, ...notBlockingViewer(context) } }),
        };
      },
    },
    PersonConnection,
  ),
);

/** People the viewer keeps away, per page. */
const KEPT_AWAY_PAGE = { defaultSize: 20, maxSize: 100 } as const;

/** The people the viewer blocked or muted, longest-standing first, with the count: to undo either. */
async function keptAway(context: Context, args: ListArgs, kind: 'block' | 'mute') {
  const viewer = requireViewer(context);
  const { where, orderBy, take, page } = keyedQuery(args, KEPT_AWAY_PAGE, {
    time: 'createdAt',
    id: kind === 'block' ? 'blockedId' : 'mutedId',
  });
  const rows =
    kind === 'block'
      ? (
          await context.prisma.block.findMany({
            where: { AND: [where, { blockerId: viewer.id }] },
            orderBy,
            take,
            select: { createdAt: true, blocked: true },
          })
        ).map((row) => ({ createdAt: row.createdAt, person: row.blocked }))
      : (
          await context.prisma.mute.findMany({
            where: { AND: [where, { muterId: viewer.id }] },
            orderBy,
            take,
            select: { createdAt: true, muted: true },
          })
        ).map((row) => ({ createdAt: row.createdAt, person: row.muted }));
  return {
    ...keyedConnection(
      rows,
      page,
      (row) => [row.createdAt.getTime(), row.person.id] as const,
      (row) => row.person,
    ),
    totalCount: () =>
      kind === 'block'
        ? context.prisma.block.count({ where: { blockerId: viewer.id } })
        : context.prisma.mute.count({ where: { muterId: viewer.id } }),
  };
}

const keptAwayDescription = (words: string) =>
  streamField(
    `The people the viewer ${words}, longest ${words} first, to undo it: ${KEPT_AWAY_PAGE.defaultSize} a page, \`first\` at most ${KEPT_AWAY_PAGE.maxSize}. Needs an access token.`,
    ['ValidationError', 'NotAuthorizedError'],
  );

builder.queryFields((t) => ({
  blockedPeople: t.connection(
    {
      type: PersonRef,
      ...keptAwayDescription('blocked'),
      extensions: { ...keptAwayDescription('blocked').extensions, ...pageExtensions(KEPT_AWAY_PAGE) },
      resolve: refusingAsErrors((_root: unknown, args: ListArgs, context: Context) => keptAway(context, args, 'block')),
    },
    PersonConnection,
  ),
  mutedPeople: t.connection(
    {
      type: PersonRef,
      ...keptAwayDescription('muted'),
      extensions: { ...keptAwayDescription('muted').extensions, ...pageExtensions(KEPT_AWAY_PAGE) },
      resolve: refusingAsErrors((_root: unknown, args: ListArgs, context: Context) => keptAway(context, args, 'mute')),
    },
    PersonConnection,
  ),
}));

builder.prismaObjectField(PersonRef, 'defaultVisibility', (t) =>
  t.field({
    type: VisibilityEnum,
    nullable: true,
    description:
      'Who sees the entries this person posts without a `visibility` of their own. Only a person sees their own; null for anyone else.',
    resolve: async (person, _args, context) => {
      const stored = await ownColumn(context, person, 'defaultVisibility');
      return stored === null ? null : storedValue(VISIBILITIES, stored, 'Person.defaultVisibility');
    },
  }),
);

builder.prismaObjectField(PersonRef, 'friendRequests', (t) =>
  t.connection(
    {
      type: PersonRef,
      nullable: true,
      description: listDescription(
        'People waiting for this person to accept their friend request, oldest first. Only a person sees their own; null for anyone else.',
        REQUESTS_PAGE,
      ),
      extensions: pageExtensions(REQUESTS_PAGE),
      select: (_args, _context, nestedSelection) => ({
        requestsReceived: {
          orderBy: [{ createdAt: 'asc' }, { fromId: 'asc' }],
          select: { createdAt: true, fromId: true, from: nonEmpty(nestedSelection(true, ['edges', 'node'])) },
        },
      }),
      resolve: (person, args, context) =>
        context.viewer?.id === person.id
          ? listConnection(person.requestsReceived, args, {
              key: (request) => [request.createdAt.getTime(), request.fromId],
              node: (request) => request.from,
              ...REQUESTS_PAGE,
            })
          : null,
    },
    PersonConnection,
  ),
);

builder.prismaObjectField(PersonRef, 'viewerFriendship', (t) =>
  t.field({
    type: FriendshipStatusEnum,
    nullable: true,
    description:
      'Where the viewer stands with this person: friends, a request either way, or none. Null without a token, and for the viewer themselves.',
    resolve: (person, _args, context) => (context.viewer && context.viewer.id !== person.id ? viewerFriendship(context, person.id) : null),
  }),
);

builder.queryFields((t) => ({
  person: t.prismaField({
    type: 'Person',
    nullable: true,
    description: 'A person by username (case-insensitive); null when there is none, or when they blocked the viewer.',
    args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }) },
    resolve: async (query, _root, args, context) => {
      const person = await context.prisma.person.findUnique({ ...query, where: { usernameKey: args.username.toLowerCase() } });
      return person && !(await blockedByPerson(context, person.id)) ? person : null;
    },
  }),
  me: t.prismaField({
    type: 'Person',
    nullable: true,
    description: 'The person who authorized the access token; null without one.',
    resolve: (query, _root, _args, context) => {
      if (!context.viewer) {
        // nothing to read without a viewer: the query is read here only so that the unused-query
        // check, which cannot tell this from a forgotten spread, stays quiet
        void { ...query };
        return null;
      }
      return context.prisma.person.findUnique({ ...query, where: { id: context.viewer.id } });
    },
  }),
  personStream: t.connection(
    {
      type: EntryRef,
      ...streamField("A person's stream (SPEC 4.2): their entries, newest first, 20 a page.", ['ValidationError', 'NotFoundError']),
      args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }), ...streamArgs },
      resolve: refusingAsErrors(async (_root, args, context, info) => {
        // the author is matched inside the page's query; only an empty page asks whether they exist
        const page = await entryStream(context, info, { kind: 'author', usernameKey: usernameKey(args.username) }, args);
        if (page.edges.length === 0) await requirePersonId(context, args.username);
        return page;
      }),
    },
    EntryConnection,
  ),
}));

// the people of an entry (author, commenters, likers) come from one batched query; these fields live
// here, beside the type they return; a stream page carries its people already (db/entry-pages.ts)
const carried = (row: object, part: 'author' | 'person') => (row as { [part]?: Person })[part];
builder.prismaObjectField('Entry', 'author', (t) =>
  t.field({
    type: PersonRef,
    description: 'Who posted it.',
    resolve: (entry, _args, context) => carried(entry, 'author') ?? personById(context, entry.authorId),
  }),
);
builder.prismaObjectField('Comment', 'author', (t) =>
  t.field({
    type: PersonRef,
    description: 'Who wrote it.',
    resolve: (comment, _args, context) => carried(comment, 'author') ?? personById(context, comment.authorId),
  }),
);
builder.prismaObjectField('Like', 'person', (t) =>
  t.field({
    type: PersonRef,
    description: 'Who liked the entry.',
    resolve: (like, _args, context) => carried(like, 'person') ?? personById(context, like.personId),
  }),
);
