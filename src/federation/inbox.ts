// What remote servers send: follows (asked, undone), answers to this server's follows, likes and replies
// of public entries, posts of followed accounts, their edits and deletions. Fedify has verified the
// signature of each before it arrives here, and hands each activity id once.
import type { Federation, InboxContext } from '@fedify/fedify';
import {
  Accept,
  type Object as APObject,
  Create,
  Delete,
  Follow,
  isActor,
  Like,
  Note,
  type Recipient,
  Reject,
  Undo,
  Update,
} from '@fedify/vocab';
import { isBlockedBy, isFollowedHere, keepRemoteActor } from '../db/federation.ts';
import { plainText } from '../domain/fediverse.ts';
import { sendAccept } from './jobs.ts';
import { actorFacts, type FediverseKit } from './kit.ts';

/** Keeps the sender of an activity; null when it is no actor, or its server is blocked. */
async function senderOf(kit: FediverseKit, ctx: InboxContext<void>, activity: { getActor(options?: object): Promise<APObject | null> }) {
  const actor = await activity.getActor(ctx);
  const facts = await actorFacts(kit.prisma, actor);
  return facts && { facts, id: await keepRemoteActor(kit.prisma, facts), actor: actor as APObject & Recipient };
}

/** The entry a URL of this server names (`/entries/42`), if it is public now and its author does not block `senderId`. */
async function localEntryOf(kit: FediverseKit, uri: URL | null, senderId: number) {
  if (!uri || uri.origin !== kit.origin.origin) return null;
  const match = /^\/entries\/(\d{1,15})$/.exec(uri.pathname);
  const entry = match ? await kit.read().entry(Number(match[1])) : null;
  const author = entry && (await kit.federatedPerson(entry.author.username));
  return author && !(await isBlockedBy(kit.prisma, author.id, senderId)) ? entry : null;
}

/** A follow of an athlete here: waits for them, or is accepted at once when they chose so. */
async function onFollow(kit: FediverseKit, ctx: InboxContext<void>, follow: Follow) {
  if (!follow.id || !follow.objectId) return;
  const target = ctx.parseUri(follow.objectId);
  if (target?.type !== 'actor') return;
  const person = await kit.federatedPerson(target.identifier);
  const sender = person && (await senderOf(kit, ctx, follow));
  if (!person || !sender || (await isBlockedBy(kit.prisma, person.id, sender.id))) return;
  const status = person.fediverseAutoAccept ? 'accepted' : 'pending';
  const row = await kit.prisma.remoteFollower.upsert({
    where: { personId_actorId: { personId: person.id, actorId: sender.id } },
    create: { personId: person.id, actorId: sender.id, followId: follow.id.href, status },
    update: { followId: follow.id.href },
    select: { status: true },
  });
  if (row.status === 'accepted') await sendAccept(ctx, person.username, follow.id, new URL(sender.facts.uri), sender.actor);
}

/** A Create: a reply to a public entry here, or a post of an account someone here follows. */
async function onCreate(kit: FediverseKit, ctx: InboxContext<void>, create: Create) {
  const object = await create.getObject(ctx);
  if (!(object instanceof Note) || !object.id || object.attributionId?.href !== create.actorId?.href) return;
  const text = plainText(object.content?.toString() ?? '');
  const sender = await senderOf(kit, ctx, create);
  if (!sender) return;
  const entry = await localEntryOf(kit, object.replyTargetId, sender.id);
  if (entry) {
    await kit.prisma.remoteReaction.upsert({
      where: { activityId: object.id.href },
      create: { entryId: entry.id, actorId: sender.id, kind: 'reply', activityId: object.id.href, text },
      update: { text },
    });
  } else if (await isFollowedHere(kit.prisma, sender.id)) {
    const publishedAt = object.published ? new Date(object.published.epochMilliseconds) : new Date();
    const data = { text, url: object.url instanceof URL ? object.url.href : null, publishedAt };
    await kit.prisma.remotePost.upsert({
      where: { uri: object.id.href },
      create: { ...data, actorId: sender.id, uri: object.id.href },
      update: data,
    });
  }
}

/** What a remote account takes back: its follow or its like (Undo), or a post, a reply or itself (Delete). */
function setRetractions(listeners: ReturnType<Federation<void>['setInboxListeners']>, kit: FediverseKit) {
  return listeners
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      const sender = undo.actorId;
      if (!sender || !object?.id) return;
      if (object instanceof Follow)
        await kit.prisma.remoteFollower.deleteMany({ where: { actor: { uri: sender.href }, followId: object.id.href } });
      else if (object instanceof Like)
        await kit.prisma.remoteReaction.deleteMany({ where: { activityId: object.id.href, actor: { uri: sender.href } } });
    })
    .on(Delete, async (_ctx, deletion) => {
      const { objectId, actorId: sender } = deletion;
      if (!objectId || !sender) return;
      // the account itself is gone: with its follows, posts and reactions
      if (objectId.href === sender.href) return void (await kit.prisma.remoteActor.deleteMany({ where: { uri: sender.href } }));
      const owner = { actor: { uri: sender.href } };
      await kit.prisma.remotePost.deleteMany({ where: { uri: objectId.href, ...owner } });
      await kit.prisma.remoteReaction.deleteMany({ where: { activityId: objectId.href, ...owner } });
    });
}

export function setInbox(federation: Federation<void>, kit: FediverseKit): void {
  const listeners = federation
    .setInboxListeners('/people/{identifier}/inbox', '/inbox')
    .on(Follow, (ctx, follow) => onFollow(kit, ctx, follow))
    .on(Create, (ctx, create) => onCreate(kit, ctx, create))
    // the Follow an Accept or Reject names is ours (by its id, which this server made): only whose
    // follow it answers is read, never an embedded copy another server could forge
    .on(Accept, async (_ctx, accept) => {
      if (!accept.objectId || !accept.actorId) return;
      await kit.prisma.remoteFollowing.updateMany({
        where: { followId: accept.objectId.href, actor: { uri: accept.actorId.href } },
        data: { status: 'accepted' },
      });
    })
    .on(Reject, async (_ctx, reject) => {
      if (!reject.objectId || !reject.actorId) return;
      await kit.prisma.remoteFollowing.deleteMany({ where: { followId: reject.objectId.href, actor: { uri: reject.actorId.href } } });
    })
    .on(Like, async (ctx, like) => {
      const sender = like.id && (await senderOf(kit, ctx, like));
      const entry = sender && (await localEntryOf(kit, like.objectId, sender.id));
      if (!like.id || !sender || !entry) return;
      const activityId = like.id.href;
      await kit.prisma.remoteReaction.upsert({
        where: { activityId },
        create: { entryId: entry.id, actorId: sender.id, kind: 'like', activityId },
        update: {},
      });
    })
    .on(Update, async (ctx, update) => {
      const object = await update.getObject(ctx);
      // an account that changed its name or picture: only its own Update, of itself
      if (isActor(object) && object.id && object.id.href === update.actorId?.href) {
        const facts = await actorFacts(kit.prisma, object);
        if (facts) await kit.prisma.remoteActor.updateMany({ where: { uri: facts.uri }, data: facts });
        return;
      }
      if (!(object instanceof Note) || !object.id || !update.actorId || object.attributionId?.href !== update.actorId.href) return;
      const text = plainText(object.content?.toString() ?? '');
      const owner = { actor: { uri: update.actorId.href } };
      await kit.prisma.remotePost.updateMany({ where: { uri: object.id.href, ...owner }, data: { text } });
      await kit.prisma.remoteReaction.updateMany({ where: { activityId: object.id.href, kind: 'reply', ...owner }, data: { text } });
    });
  setRetractions(listeners, kit).onError((_ctx, error) =>
    kit.logger.warn({ err: error }, 'an activity from the fediverse could not be handled'),
  );
}
