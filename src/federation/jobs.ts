// The service's own jobs in the fediverse's queue, each queued in the transaction of the change it
// follows from: an entry to send (Create, Update or Delete to the author's followers), a follower
// accepted or removed, a remote account followed or unfollowed.
import type { Context as FedifyContext } from '@fedify/fedify';
import { Accept, Delete, Follow, PUBLIC_COLLECTION, type Recipient, Reject, Tombstone, Undo, Update } from '@fedify/vocab';
import { actorOf } from './dispatchers.ts';
import { type FediverseKit, FOLLOW_ROW, recipient } from './kit.ts';
import { createOf, noteOf } from './notes.ts';

export type OwnJob =
  | { milepost: 'publish'; entryId: number; authorId: number }
  | { milepost: 'accept'; followerId: number }
  | { milepost: 'reject' | 'unfollow'; personId: number; followId: string; actorUri: string; inbox: string }
  | { milepost: 'follow'; followingId: number }
  | { milepost: 'profile'; personId: number };

export const isOwnJob = (message: unknown): message is OwnJob =>
  typeof message === 'object' && message !== null && 'milepost' in message && typeof (message as OwnJob).milepost === 'string';

/** Accepts the Follow `followId` of `follower` for `username`, sent to `to`. */
export async function sendAccept(ctx: FedifyContext<void>, username: string, followId: URL, follower: URL, to: Recipient) {
  const me = ctx.getActorUri(username);
  await ctx.sendActivity(
    { identifier: username },
    to,
    new Accept({
      id: new URL(`${me.href}#accepts/${crypto.randomUUID()}`),
      actor: me,
      object: new Follow({ id: followId, actor: follower, object: me }),
    }),
  );
}

async function usernameOf(kit: FediverseKit, personId: number): Promise<string | null> {
  return (await kit.prisma.person.findUnique({ where: { id: personId }, select: { username: true } }))?.username ?? null;
}

/** Sends what changed of an entry to the author's followers: Create, Update, or Delete. */
async function publish(kit: FediverseKit, ctx: FedifyContext<void>, entryId: number, authorId: number) {
  const entry = await kit.read().entry(entryId);
  const sent = await kit.prisma.federatedEntry.findUnique({ where: { entryId } });
  if (entry) {
    const username = entry.author.username;
    const note = noteOf(ctx, entry);
    const id = new URL(`${entry.url}#updates/${Date.now()}`);
    const followers = ctx.getFollowersUri(username);
    const activity = sent
      ? new Update({ id, actor: ctx.getActorUri(username), object: note, to: PUBLIC_COLLECTION, cc: followers })
      : createOf(ctx, entry, note);
    // queued first, remembered after: a process that dies between the two sends the Create again (its id
    // is the same, receivers keep one), never an Update of a Note nobody had
    await ctx.sendActivity({ identifier: username }, 'followers', activity, { preferSharedInbox: true });
    if (!sent) await kit.prisma.federatedEntry.upsert({ where: { entryId }, create: { entryId, personId: authorId }, update: {} });
    return;
  }
  if (!sent) return;
  // deleted, no longer public, or its author left the fediverse: those who had it are told (queued
  // first, forgotten after, as above)
  const username = await usernameOf(kit, sent.personId);
  if (!username) return void (await kit.prisma.federatedEntry.deleteMany({ where: { entryId } }));
  const url = new URL(`/entries/${entryId}`, kit.origin);
  const deletion = new Delete({
    id: new URL(`${url.href}#delete/${Date.now()}`),
    actor: ctx.getActorUri(username),
    object: new Tombstone({ id: url }),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(username),
  });
  await ctx.sendActivity({ identifier: username }, 'followers', deletion, { preferSharedInbox: true });
  await kit.prisma.federatedEntry.deleteMany({ where: { entryId } });
}

/** Tells a remote account that a follow ended: a Reject of theirs, or an Undo of ours. */
async function sendEnded(kit: FediverseKit, ctx: FedifyContext<void>, job: Extract<OwnJob, { milepost: 'reject' | 'unfollow' }>) {
  const username = await usernameOf(kit, job.personId);
  if (!username) return;
  const me = ctx.getActorUri(username);
  const them = new URL(job.actorUri);
  const follow = new Follow({
    id: new URL(job.followId),
    ...(job.milepost === 'reject' ? { actor: them, object: me } : { actor: me, object: them }),
  });
  const id = new URL(`${me.href}#${job.milepost}/${crypto.randomUUID()}`);
  const activity = job.milepost === 'reject' ? new Reject({ id, actor: me, object: follow }) : new Undo({ id, actor: me, object: follow });
  await ctx.sendActivity({ identifier: username }, recipient(job.actorUri, job.inbox), activity);
}

export async function runOwnJob(kit: FediverseKit, ctx: FedifyContext<void>, job: OwnJob): Promise<void> {
  switch (job.milepost) {
    case 'publish':
      return publish(kit, ctx, job.entryId, job.authorId);
    case 'accept': {
      const row = await kit.prisma.remoteFollower.findUnique({ where: { id: job.followerId }, select: FOLLOW_ROW });
      if (row)
        await sendAccept(
          ctx,
          row.person.username,
          new URL(row.followId),
          new URL(row.actor.uri),
          recipient(row.actor.uri, row.actor.inbox),
        );
      return;
    }
    case 'reject':
    case 'unfollow':
      return sendEnded(kit, ctx, job);
    case 'profile': {
      // their followers' copies of them: an Update of the actor as anyone sees it now
      const username = await usernameOf(kit, job.personId);
      const actor = username && (await actorOf(ctx, kit, username));
      if (!username || !actor) return;
      const update = new Update({
        id: new URL(`${actor.id!.href}#updates/${Date.now()}`),
        actor: actor.id,
        object: actor,
        to: PUBLIC_COLLECTION,
      });
      await ctx.sendActivity({ identifier: username }, 'followers', update, { preferSharedInbox: true });
      return;
    }
    case 'follow': {
      const row = await kit.prisma.remoteFollowing.findUnique({ where: { id: job.followingId }, select: FOLLOW_ROW });
      if (!row) return;
      const me = ctx.getActorUri(row.person.username);
      const follow = new Follow({ id: new URL(row.followId), actor: me, object: new URL(row.actor.uri) });
      await ctx.sendActivity({ identifier: row.person.username }, recipient(row.actor.uri, row.actor.inbox), follow);
      return;
    }
  }
}
