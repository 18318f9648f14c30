// The fediverse in the schema (src/federation/ does the protocol): an athlete's handle, the remote
// accounts that follow them or that they follow, remote likes and replies on an entry, and the posts of
// the accounts they follow.
import { type ReactionRow, readReactions } from '../../db/federation.ts';
import { builder } from '../builder.ts';
import { type Context, requireViewer } from '../context.ts';
import { ownColumn, perContext, personById } from '../loaders.ts';
import { sizeArgument } from './errors.ts';

/** How many rows a fediverse list answers at most. */
export const FEDIVERSE_LIST_MAX = 200;

interface AccountRow {
  uri: string;
  handle: string;
  name: string | null;
  url: string | null;
}

const ACCOUNT = { select: { uri: true, handle: true, name: true, url: true } } as const;

export const FediverseAccountRef = builder.objectRef<AccountRow>('FediverseAccount').implement({
  description: 'Someone on another fediverse server (Mastodon and the like), as their server describes them.',
  fields: (t) => ({
    handle: t.exposeString('handle', { description: 'Their handle without the leading @: `ann@example.social`.' }),
    name: t.exposeString('name', { nullable: true, description: 'The name they show; null when they set none.' }),
    url: t.exposeString('url', { nullable: true, description: 'Their profile page on their server.' }),
    uri: t.exposeString('uri', { description: 'Their ActivityPub actor id.' }),
  }),
});

export const FediverseFollowStatusEnum = builder.enumType('FediverseFollowStatus', {
  description: 'Where a follow across servers stands.',
  values: {
    PENDING: { value: 'pending', description: 'Asked, not yet accepted.' },
    ACCEPTED: { value: 'accepted', description: 'Accepted: public entries (or posts) go to the follower.' },
  } as const,
});

interface FollowRow {
  status: string;
  createdAt: Date;
  actor: AccountRow;
}

const followType = (name: string, description: string) =>
  builder.objectRef<FollowRow>(name).implement({
    description,
    fields: (t) => ({
      account: t.field({ type: FediverseAccountRef, description: 'The remote account.', resolve: (row) => row.actor }),
      status: t.field({
        type: FediverseFollowStatusEnum,
        description: 'Whether it was accepted.',
        resolve: (row) => row.status as 'pending' | 'accepted',
      }),
      since: t.field({ type: 'DateTime', description: 'When it was asked.', resolve: (row) => row.createdAt }),
    }),
  });

export const FediverseFollowerRef = followType('FediverseFollower', 'A remote account that follows an athlete, or asked to.');
export const FediverseFollowingRef = followType('FediverseFollowing', 'A remote account an athlete follows, or asked to.');

export const FediverseReactionKindEnum = builder.enumType('FediverseReactionKind', {
  description: 'What a remote account did with an entry.',
  values: {
    LIKE: { value: 'like', description: 'Liked (favourited) it.' },
    REPLY: { value: 'reply', description: 'Replied to it.' },
  } as const,
});

export const FediverseReactionRef = builder.objectRef<ReactionRow>('FediverseReaction').implement({
  description: 'A like or a reply from the fediverse on a public entry.',
  fields: (t) => ({
    kind: t.field({ type: FediverseReactionKindEnum, description: 'A like or a reply.', resolve: (row) => row.kind as 'like' | 'reply' }),
    account: t.field({ type: FediverseAccountRef, description: 'Who.', resolve: (row) => row.actor }),
    text: t.exposeString('text', { nullable: true, description: 'A reply’s text, as plain text; null for a like.' }),
    at: t.field({ type: 'DateTime', description: 'When it arrived.', resolve: (row) => row.createdAt }),
  }),
});

interface PostRow {
  uri: string;
  url: string | null;
  text: string;
  publishedAt: Date;
  actor: AccountRow;
}

export const FediversePostRef = builder.objectRef<PostRow>('FediversePost').implement({
  description: 'A post of a remote account the viewer follows.',
  fields: (t) => ({
    account: t.field({ type: FediverseAccountRef, description: 'Whose.', resolve: (row) => row.actor }),
    uri: t.exposeString('uri', { description: 'Its ActivityPub id.' }),
    url: t.exposeString('url', { nullable: true, description: 'Its page on its server.' }),
    text: t.exposeString('text', { description: 'Its text, as plain text.' }),
    publishedAt: t.field({ type: 'DateTime', description: 'When it was published.', resolve: (row) => row.publishedAt }),
  }),
});

const FIRST = `How many: 1 to ${FEDIVERSE_LIST_MAX}, 50 by default.`;

/** `first` checked: 1 to FEDIVERSE_LIST_MAX, 50 when left out. */
const sizeOf = (first: number | null | undefined) => sizeArgument('first', first ?? 50, 1, FEDIVERSE_LIST_MAX);

export const FediverseInstanceRef = builder.objectRef<{ host: string | null }>('FediverseInstance').implement({
  description: 'This server in the fediverse (ActivityPub), as its operator set it (FEDERATION, PUBLIC_URL).',
  fields: (t) => ({
    enabled: t.boolean({
      description: 'Whether it speaks ActivityPub: Mastodon users can follow its athletes.',
      resolve: (instance) => instance.host !== null,
    }),
    host: t.exposeString('host', {
      nullable: true,
      description: 'Its host in handles (`ann@<host>`); null when it is not federated.',
    }),
  }),
});

/** `ann@host` for a person in the fediverse here; null when it is off or they keep out of it. */
async function handleOf(context: Context, person: { id: number; username: string; fediverseOptOut?: boolean }): Promise<string | null> {
  if (!context.fediverse) return null;
  const optOut = person.fediverseOptOut ?? (await personById(context, person.id)).fediverseOptOut;
  return optOut ? null : `${person.username}@${context.fediverse.host}`;
}

/** A person's remote accounts kept away one way: to them only. */
const keptAway = (kind: 'block' | 'mute') => async (person: { id: number }, args: { first?: number | null }, context: Context) => {
  if (context.viewer?.id !== person.id) return null;
  const rows = await context.prisma.remoteKeptAway.findMany({
    where: { personId: person.id, kind },
    orderBy: { id: 'desc' },
    take: sizeOf(args.first),
    select: { actor: ACCOUNT },
  });
  return rows.map((row) => row.actor);
};

builder.prismaObjectFields('Person', (t) => ({
  fediverseHandle: t.string({
    nullable: true,
    description:
      'Their handle in the fediverse (`ann@milepost.example`): Mastodon users follow them by it. Null when this server is not federated or they keep out of the fediverse.',
    resolve: (person, _args, context) => handleOf(context, person),
  }),
  fediverseOptOut: t.boolean({
    nullable: true,
    description: 'Whether they keep out of the fediverse (no handle, nothing sent). Null to anyone but them.',
    resolve: (person, _args, context) => ownColumn(context, person, 'fediverseOptOut'),
  }),
  fediverseAutoAccept: t.boolean({
    nullable: true,
    description: 'Whether a remote account’s follow is accepted at once, without asking them. Null to anyone but them.',
    resolve: (person, _args, context) => ownColumn(context, person, 'fediverseAutoAccept'),
  }),
  fediverseFollowers: t.field({
    type: [FediverseFollowerRef],
    nullable: true,
    description: 'The remote accounts that follow them or asked to, newest first. Null to anyone but them.',
    args: {
      first: t.arg.int({ description: FIRST }),
      status: t.arg({ type: FediverseFollowStatusEnum, description: 'Only these; both by default.' }),
    },
    resolve: async (person, args, context) => {
      if (context.viewer?.id !== person.id) return null;
      return context.prisma.remoteFollower.findMany({
        where: { personId: person.id, ...(args.status ? { status: args.status } : {}) },
        orderBy: { id: 'desc' },
        take: sizeOf(args.first),
        select: { status: true, createdAt: true, actor: ACCOUNT },
      });
    },
  }),
  fediverseBlocked: t.field({
    type: [FediverseAccountRef],
    nullable: true,
    description: 'The remote accounts they block, newest first. Null to anyone but them.',
    args: { first: t.arg.int({ description: FIRST }) },
    resolve: keptAway('block'),
  }),
  fediverseMuted: t.field({
    type: [FediverseAccountRef],
    nullable: true,
    description: 'The remote accounts they mute, newest first. Null to anyone but them.',
    args: { first: t.arg.int({ description: FIRST }) },
    resolve: keptAway('mute'),
  }),
  fediverseFollowing: t.field({
    type: [FediverseFollowingRef],
    nullable: true,
    description: 'The remote accounts they follow or asked to, newest first. Null to anyone but them.',
    args: { first: t.arg.int({ description: FIRST }) },
    resolve: async (person, args, context) => {
      if (context.viewer?.id !== person.id) return null;
      return context.prisma.remoteFollowing.findMany({
        where: { personId: person.id },
        orderBy: { id: 'desc' },
        take: sizeOf(args.first),
        select: { status: true, createdAt: true, actor: ACCOUNT },
      });
    },
  }),
}));

/** An entry's remote reactions, read with those of every other entry the operation shows (one statement a size asked). */
const reactionsOf = perContext<{ entryId: number; size: number }, ReactionRow[]>(async (context, keys) => {
  const bySize = new Map<number, number[]>();
  for (const key of keys) bySize.set(key.size, [...(bySize.get(key.size) ?? []), key.entryId]);
  const read = new Map<string, ReactionRow[]>();
  for (const [size, entryIds] of bySize)
    for (const row of await readReactions(context, entryIds, size)) {
      const key = `${row.entryId}:${size}`;
      read.set(key, [...(read.get(key) ?? []), row]);
    }
  return keys.map((key) => read.get(`${key.entryId}:${key.size}`) ?? []);
});

builder.prismaObjectFields('Entry', (t) => ({
  fediverseReactions: t.field({
    type: [FediverseReactionRef],
    description: 'Likes and replies from the fediverse (only a public entry goes out, so only it has any), oldest first.',
    args: { first: t.arg.int({ description: FIRST }) },
    resolve: (entry, args, context) => reactionsOf(context, { entryId: entry.id, size: sizeOf(args.first) }),
  }),
}));

builder.queryFields((t) => ({
  fediverse: t.field({
    type: FediverseInstanceRef,
    description: 'Whether this server is in the fediverse, and its host in handles.',
    resolve: (_root, _args, context) => ({ host: context.fediverse?.host ?? null }),
  }),
  fediverseStream: t.field({
    type: [FediversePostRef],
    description: 'The posts of the remote accounts the viewer follows, newest first. Needs an access token.',
    args: { first: t.arg.int({ description: FIRST }) },
    resolve: (_root, args, context) => {
      const viewer = requireViewer(context);
      return context.prisma.remotePost.findMany({
        where: {
          actor: { followedBy: { some: { personId: viewer.id, status: 'accepted' } }, keptAwayBy: { none: { personId: viewer.id } } },
        },
        orderBy: { publishedAt: 'desc' },
        take: sizeOf(args.first),
        select: { uri: true, url: true, text: true, publishedAt: true, actor: ACCOUNT },
      });
    },
  }),
}));
