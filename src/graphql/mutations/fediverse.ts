// An athlete's part in the fediverse: accepting or removing the remote accounts that follow them,
// following remote accounts, and their settings. What is to be sent (an Accept, a Follow, an Undo) is
// queued as a job in the transaction of the change itself (federation/store.ts), so that no change is
// without its message, even if the process dies right after it.
import type { Transaction } from '../../db/database.ts';
import { enqueueJob, keepRemoteActor } from '../../db/federation.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { parseAccount, parseHandle } from '../../domain/fediverse.ts';
import { type Context, type FediverseService, requireViewer } from '../context.ts';
import { type PayloadFieldBuilder, type PayloadTypes, payloadMutation, readAfter } from './payload.ts';

/** At most this many remote accounts followed by one athlete. */
export const MAX_FEDIVERSE_FOLLOWING = 2_000;

function federated(context: Context): FediverseService {
  const fediverse = context.fediverse;
  if (!fediverse) throw ValidationError.field('handle', 'this server is not federated (its operator has not turned FEDERATION on)');
  return fediverse;
}

const handleInput = (what: string) => ({
  description: `The remote account ${what}.`,
  fields: (t: PothosSchemaTypes.InputFieldBuilder<PayloadTypes, 'InputObject'>) => ({
    handle: t.string({ required: true, description: 'Its handle: `@ann@example.social` or `ann@example.social`.' }),
  }),
});

type Outcome = { personId: number };

const personPayload = (description: string) => ({
  description,
  fields: (t: PayloadFieldBuilder<Outcome>) => ({
    person: t.prismaField({
      type: 'Person',
      nullable: true,
      description: 'The viewer, after the change; null when the mutation failed.',
      resolve: (query, result, _args, context) =>
        readAfter(result, query, (outcome, selection) =>
          context.prisma.person.findUnique({ ...selection, where: { id: outcome.personId } }),
        ),
    }),
  }),
});

/** Queues telling the remote account that a follow ended: a Reject of theirs, or an Undo of ours. */
function tellEnded(
  tx: Transaction,
  milepost: 'reject' | 'unfollow',
  personId: number,
  row: { followId: string; actor: { uri: string; inbox: string } },
) {
  return enqueueJob(tx, { milepost, personId, followId: row.followId, actorUri: row.actor.uri, inbox: row.actor.inbox });
}

/** A handle as the input gives it (`@ann@Example.Social`), as remote accounts are kept (`ann@example.social`). */
function storedHandle(handle: string): string {
  const { user, host } = parseHandle(handle, 'handle');
  return `${user}@${host}`;
}

/** The viewer's follower of that handle, or NotFound naming the handle. */
async function followerOf(context: Context, handle: string) {
  const viewer = requireViewer(context);
  const stored = storedHandle(handle);
  const row = await context.prisma.remoteFollower.findFirst({
    where: { personId: viewer.id, actor: { handle: stored } },
    select: { id: true, status: true, followId: true, actor: { select: { uri: true, inbox: true } } },
  });
  if (!row) throw new NotFoundError('FediverseFollower', handle);
  return { viewer, row };
}

payloadMutation('acceptFediverseFollower', {
  description: 'Accepts a remote account’s request to follow the viewer: their public entries go to it from now on.',
  input: handleInput('whose request to accept'),
  scope: 'profile:write',
  errors: [ValidationError, NotFoundError],
  resolve: async ({ handle }, context) => {
    const fediverse = federated(context);
    const { viewer, row } = await followerOf(context, handle);
    if (row.status !== 'accepted')
      await context.prisma.$transaction(async (tx) => {
        await tx.remoteFollower.update({ where: { id: row.id }, data: { status: 'accepted' } });
        await enqueueJob(tx, { milepost: 'accept', followerId: row.id });
      });
    fediverse.wake();
    return { personId: viewer.id };
  },
  payload: personPayload('The follower accepted.'),
});

payloadMutation('removeFediverseFollower', {
  description: 'Declines a remote account’s request to follow the viewer, or ends its follow: nothing more is sent to it.',
  input: handleInput('to decline or remove'),
  scope: 'profile:write',
  errors: [ValidationError, NotFoundError],
  resolve: async ({ handle }, context) => {
    const fediverse = federated(context);
    const { viewer, row } = await followerOf(context, handle);
    await context.prisma.$transaction(async (tx) => {
      await tx.remoteFollower.delete({ where: { id: row.id } });
      await tellEnded(tx, 'reject', viewer.id, row);
    });
    fediverse.wake();
    return { personId: viewer.id };
  },
  payload: personPayload('The follower removed.'),
});

payloadMutation('followFediverseAccount', {
  description: `Follows a remote account (found by its handle): its posts come to the viewer’s \`fediverseStream\` once its server accepts. Following it again is not an error; at most ${MAX_FEDIVERSE_FOLLOWING}.`,
  input: {
    description: 'The remote account to follow.',
    fields: (t) => ({
      handle: t.string({
        required: true,
        description: 'Its handle (`@ann@example.social` or `ann@example.social`), or the URL of its profile.',
      }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError, NotFoundError],
  resolve: async ({ handle }, context) => {
    const fediverse = federated(context);
    const viewer = requireViewer(context);
    const account = parseAccount(handle, 'handle');
    if (account.host === fediverse.host.toLowerCase())
      throw ValidationError.field('handle', 'is on this server: follow them as a friend here');
    const actor = await fediverse.lookup(account.lookup);
    if (!actor) throw new NotFoundError('FediverseAccount', handle);
    await context.prisma.$transaction(async (tx) => {
      const actorId = await keepRemoteActor(tx, actor);
      if (await tx.remoteFollowing.findUnique({ where: { personId_actorId: { personId: viewer.id, actorId } }, select: { id: true } }))
        return;
      if ((await tx.remoteFollowing.count({ where: { personId: viewer.id } })) >= MAX_FEDIVERSE_FOLLOWING)
        throw ValidationError.field('handle', `you follow ${MAX_FEDIVERSE_FOLLOWING} remote accounts: unfollow one first`);
      const followId = `${fediverse.origin}/people/${encodeURIComponent(viewer.username)}#follows/${crypto.randomUUID()}`;
      const { id } = await tx.remoteFollowing.create({ data: { personId: viewer.id, actorId, followId }, select: { id: true } });
      await enqueueJob(tx, { milepost: 'follow', followingId: id });
    });
    fediverse.wake();
    return { personId: viewer.id };
  },
  payload: personPayload('The account followed.'),
});

payloadMutation('unfollowFediverseAccount', {
  description: 'Stops following a remote account (or withdraws the request); its server is told. Not following it is not an error.',
  input: handleInput('to unfollow'),
  scope: 'profile:write',
  errors: [ValidationError],
  resolve: async ({ handle }, context) => {
    const fediverse = federated(context);
    const viewer = requireViewer(context);
    const stored = storedHandle(handle);
    await context.prisma.$transaction(async (tx) => {
      const row = await tx.remoteFollowing.findFirst({
        where: { personId: viewer.id, actor: { handle: stored } },
        select: { id: true, followId: true, actor: { select: { uri: true, inbox: true } } },
      });
      if (!row) return;
      await tx.remoteFollowing.delete({ where: { id: row.id } });
      await tellEnded(tx, 'unfollow', viewer.id, row);
    });
    fediverse.wake();
    return { personId: viewer.id };
  },
  payload: personPayload('The account no longer followed.'),
});

payloadMutation('updateFediverseSettings', {
  description:
    'Changes the viewer’s part in the fediverse: keeping out of it (their actor is gone, nothing more is sent, and their followers there are removed), and accepting remote follows at once.',
  input: {
    description: 'The settings to change; those left out stay.',
    fields: (t) => ({
      optOut: t.boolean({ description: 'Keep out of the fediverse.' }),
      autoAccept: t.boolean({ description: 'Accept a remote account’s follow at once, without asking.' }),
    }),
  },
  scope: 'profile:write',
  errors: [ValidationError],
  resolve: async ({ optOut, autoAccept }, context) => {
    const viewer = requireViewer(context);
    await context.prisma.$transaction(async (tx) => {
      await tx.person.update({
        where: { id: viewer.id },
        data: {
          ...(optOut != null ? { fediverseOptOut: optOut } : {}),
          ...(autoAccept != null ? { fediverseAutoAccept: autoAccept } : {}),
        },
      });
      // out of the fediverse: nothing more goes to anyone there
      if (optOut) await tx.remoteFollower.deleteMany({ where: { personId: viewer.id } });
    });
    return { personId: viewer.id };
  },
  payload: personPayload('The viewer’s settings.'),
});

/** The row of a remote account by handle: known here already, or looked up (then kept). */
async function remoteActorId(context: Context, fediverse: FediverseService, handle: string): Promise<number> {
  const stored = storedHandle(handle);
  const known = await context.prisma.remoteActor.findFirst({ where: { handle: stored }, select: { id: true } });
  if (known) return known.id;
  const found = await fediverse.lookup(`acct:${stored}`);
  if (!found) throw new NotFoundError('FediverseAccount', handle);
  return keepRemoteActor(context.prisma, found);
}

/** What blocking a remote account ends at once: their follow (Reject), the viewer's (Undo), their likes and replies. */
async function endAllWith(tx: Transaction, personId: number, actorId: number): Promise<void> {
  const select = { id: true, followId: true, actor: { select: { uri: true, inbox: true } } } as const;
  const follower = await tx.remoteFollower.findUnique({ where: { personId_actorId: { personId, actorId } }, select });
  if (follower) {
    await tx.remoteFollower.delete({ where: { id: follower.id } });
    await tellEnded(tx, 'reject', personId, follower);
  }
  const following = await tx.remoteFollowing.findUnique({ where: { personId_actorId: { personId, actorId } }, select });
  if (following) {
    await tx.remoteFollowing.delete({ where: { id: following.id } });
    await tellEnded(tx, 'unfollow', personId, following);
  }
  await tx.remoteReaction.deleteMany({ where: { actorId, entry: { authorId: personId } } });
}

const KEEPING = {
  block: {
    does: 'Blocks a remote account: its follow of the viewer ends (its server is told), the viewer’s of it too, its likes and replies on the viewer’s entries are removed, and nothing more of it is taken for the viewer.',
    undoes: 'Ends a block of a remote account (what the block removed stays removed).',
  },
  mute: {
    does: 'Mutes a remote account: its posts leave the viewer’s fediverse stream. It is not told.',
    undoes: 'Ends a mute of a remote account.',
  },
} as const;

for (const kind of ['block', 'mute'] as const) {
  const name = `${kind}FediverseAccount`;
  payloadMutation(name, {
    description: `${KEEPING[kind].does} Doing it twice is not an error.`,
    input: handleInput(`to ${kind}`),
    scope: 'profile:write',
    errors: [ValidationError, NotFoundError],
    resolve: async ({ handle }, context) => {
      const fediverse = federated(context);
      const viewer = requireViewer(context);
      const actorId = await remoteActorId(context, fediverse, handle);
      await context.prisma.$transaction(async (tx) => {
        const key = { personId_actorId_kind: { personId: viewer.id, actorId, kind } };
        await tx.remoteKeptAway.upsert({ where: key, create: { personId: viewer.id, actorId, kind }, update: {} });
        if (kind === 'block') await endAllWith(tx, viewer.id, actorId);
      });
      fediverse.wake();
      return { personId: viewer.id };
    },
    payload: personPayload(`The viewer, who ${kind}ed the account.`),
  });
  payloadMutation(`un${kind}FediverseAccount`, {
    description: `${KEEPING[kind].undoes} Not having done it is not an error.`,
    input: handleInput(`to un${kind}`),
    scope: 'profile:write',
    errors: [ValidationError],
    resolve: async ({ handle }, context) => {
      federated(context);
      const viewer = requireViewer(context);
      const stored = storedHandle(handle);
      await context.prisma.remoteKeptAway.deleteMany({ where: { personId: viewer.id, kind, actor: { handle: stored } } });
      return { personId: viewer.id };
    },
    payload: personPayload(`The viewer, who un${kind}ed the account.`),
  });
}
