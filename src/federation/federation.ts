// The fediverse, on Fedify: every athlete is an ActivityPub `Person` at their page's URL (a browser
// still gets the page), found by WebFinger as `username@host`; their public entries go to their remote
// followers as Notes (Create, Update, Delete), read through the GraphQL schema as anyone sees them
// (reader.ts), so a friends-only or only-me entry, a place or a track never leaves. Remote follows,
// likes and replies come in through signed inboxes. Deliveries and received activities are jobs in the
// database (store.ts) that survive restarts; Fedify retries deliveries and keeps a circuit breaker per
// server, so one dead or slow server holds back nobody else.
import {
  createExponentialBackoffPolicy,
  createFederation,
  exportJwk,
  type Federation,
  type Context as FedifyContext,
  generateCryptoKeyPair,
  type InboxContext,
  importJwk,
} from '@fedify/fedify';
import {
  Accept,
  type Object as APObject,
  Create,
  Delete,
  Document,
  Endpoints,
  Follow,
  Image,
  isActor,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  type Recipient,
  Reject,
  Tombstone,
  Undo,
  Update,
} from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { Config } from '../config.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import {
  countFollowers,
  instanceUsage,
  isBlockedHost,
  isFollowedHere,
  keepRemoteActor,
  type RemoteActorFacts,
  readFollowerInboxes,
  readFollowingUris,
  readKeys,
  readPersonSettings,
  storeKeys,
} from '../db/federation.ts';
import type { OutboxEvent } from '../db/outbox.ts';
import { MAX_REMOTE_TEXT, plainText } from '../domain/fediverse.ts';
import { escapeMarkup } from '../domain/markup.ts';
import type { Logger } from '../log.ts';
import { formatDuration, lower } from '../web/entry-card.ts';
import type { FediverseReader, PublicActor, PublicNote } from './reader.ts';
import type { FediverseService } from './service.ts';
import { DatabaseKvStore, DatabaseMessageQueue, enqueueJob } from './store.ts';

/** The largest activity an inbox takes (Mastodon's own bound is about 1 MB). */
export const MAX_INBOX_BYTES = 256 * 1024;
const PAGE = 50;
const VERSION = '0.1.0';

/** The jobs of the service's own, beside Fedify's: what to send once a change committed. */
type OwnJob =
  | { milepost: 'publish'; entryId: number; authorId: number }
  | { milepost: 'accept'; followerId: number }
  | { milepost: 'reject' | 'unfollow'; personId: number; followId: string; actorUri: string; inbox: string }
  | { milepost: 'follow'; followingId: number };

const isOwnJob = (message: unknown): message is OwnJob =>
  typeof message === 'object' && message !== null && 'milepost' in message && typeof (message as OwnJob).milepost === 'string';

/** A follow either way as a job reads it: its id, the athlete here, the remote account. */
const FOLLOW_ROW = { followId: true, person: { select: { username: true } }, actor: { select: { uri: true, inbox: true } } } as const;

/** The events of the outbox that change what an athlete's followers were sent. */
const PUBLISHING_EVENTS = new Set(['entryCreated', 'entryEdited', 'entryVisibilityChanged', 'entryDeleted']);

export interface Fediverse extends FediverseService {
  federation: Federation<void>;
  /** Whether a request is the fediverse's to answer (its paths, or an athlete's or entry's URL asked for as ActivityPub). */
  claims(request: Request): boolean;
  /** Answers a request the fediverse claims; `fallback` answers what it does not serve (a browser's page). */
  fetch(request: Request, fallback: () => Promise<Response>): Promise<Response>;
  /** The schema's reads, once the GraphQL server exists. */
  bindReader(reader: FediverseReader): void;
  /** Queues, in the outbox relay's transaction, what its events mean for the fediverse. */
  relay(tx: Transaction, events: readonly OutboxEvent[]): Promise<void>;
  /** Starts handling the queue's jobs in this process; stop() ends it. */
  start(): { stop(): Promise<void> };
}

export interface FediverseOptions {
  prisma: Prisma;
  config: NonNullable<Config['federation']>;
  logger: Pick<Logger, 'error' | 'warn' | 'info'>;
}

const ACTIVITY_TYPES = /application\/(activity\+json|ld\+json)/i;
const FEDERATION_PATH = /^\/(\.well-known\/(webfinger|nodeinfo)|nodeinfo\/2\.1|inbox|people\/[^/]+\/(inbox|outbox|followers|following))$/;
const OBJECT_PATH = /^\/(people\/[^/.]+|entries\/\d+)$/;

export function createFediverse({ prisma, config, logger }: FediverseOptions): Fediverse {
  const origin = new URL(config.origin);
  const host = origin.host;
  let reader: FediverseReader | null = null;
  const read = () => {
    if (!reader) throw new Error('the fediverse reads before the schema is bound');
    return reader;
  };
  const kv = new DatabaseKvStore(prisma);
  const queue = new DatabaseMessageQueue(prisma, { pollMs: config.pollMs, logger, housekeeping: () => kv.sweep() });
  const federation = createFederation<void>({
    kv,
    queue,
    manuallyStartQueue: true,
    origin: config.origin,
    allowPrivateAddress: config.allowPrivate,
    outboxRetryPolicy: createExponentialBackoffPolicy({
      maxAttempts: config.retryAttempts,
      initialDelay: { seconds: config.retryBaseSeconds },
      maxDelay: { hours: 12 },
    }),
    inboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 5, initialDelay: { seconds: config.retryBaseSeconds } }),
    userAgent: { software: `Milepost/${VERSION}`, url: origin },
  });

  const actorUri = (ctx: FedifyContext<void>, username: string) => ctx.getActorUri(username);

  /** A Note of an entry: its message, the workout in words, its photo, a link to it. Never a place. */
  const noteOf = (ctx: FedifyContext<void>, entry: PublicNote) =>
    new Note({
      id: new URL(entry.url),
      attribution: actorUri(ctx, entry.author.username),
      to: PUBLIC_COLLECTION,
      cc: ctx.getFollowersUri(entry.author.username),
      url: new URL(entry.url),
      published: Temporal.Instant.from(entry.at),
      content: noteHtml(entry),
      attachments: entry.media.map((media) => new Document({ mediaType: 'image/jpeg', url: new URL(media.content.url) })),
    });

  const createOf = (ctx: FedifyContext<void>, entry: PublicNote, note = noteOf(ctx, entry)) =>
    new Create({
      id: new URL(`${entry.url}#create`),
      actor: actorUri(ctx, entry.author.username),
      object: note,
      to: PUBLIC_COLLECTION,
      cc: ctx.getFollowersUri(entry.author.username),
      published: Temporal.Instant.from(entry.at),
    });

  /** The person's key pairs, made and stored the first time they are asked for. */
  const keyPairsOf = async (personId: number) => {
    let stored = await readKeys(prisma, personId);
    if (stored.length === 0) {
      const made = await Promise.all(
        (['RSASSA-PKCS1-v1_5', 'Ed25519'] as const).map(async (algorithm) => {
          const pair = await generateCryptoKeyPair(algorithm);
          return {
            algorithm,
            publicKey: JSON.stringify(await exportJwk(pair.publicKey)),
            privateKey: JSON.stringify(await exportJwk(pair.privateKey)),
          };
        }),
      );
      stored = await storeKeys(prisma, personId, made);
    }
    return Promise.all(
      stored.map(async (key) => ({
        publicKey: await importJwk(JSON.parse(key.publicKey) as JsonWebKey, 'public'),
        privateKey: await importJwk(JSON.parse(key.privateKey) as JsonWebKey, 'private'),
      })),
    );
  };

  /** The settings of an athlete in the fediverse: null when they are nobody or keep out of it. */
  const federatedPerson = async (username: string) => {
    const person = await readPersonSettings(prisma, username);
    return person && !person.fediverseOptOut && !person.suspendedAt ? person : null;
  };

  federation
    .setActorDispatcher('/people/{identifier}', async (ctx, identifier) => {
      const person: PublicActor | null = await read().actor(identifier);
      const settings = person && (await federatedPerson(person.username));
      if (!person || !settings || person.username !== identifier) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: person.username,
        name: person.displayName,
        summary: person.goal ? escapeText(person.goal) : null,
        url: new URL(person.url),
        icon: new Image({ url: new URL(person.photoUrl) }),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        following: ctx.getFollowingUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        manuallyApprovesFollowers: !settings.fediverseAutoAccept,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    // WebFinger asks in any letter case: the identifier is the username as it was registered
    .mapHandle(async (_ctx, handle) => (await federatedPerson(handle))?.username ?? null)
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const person = await federatedPerson(identifier);
      return person ? keyPairsOf(person.id) : [];
    });

  federation.setObjectDispatcher(Note, '/entries/{id}', async (ctx, { id }) => {
    if (!/^\d{1,15}$/.test(id)) return null;
    const entry = await read().entry(Number(id));
    return entry && (await federatedPerson(entry.author.username)) ? noteOf(ctx, entry) : null;
  });

  federation
    .setOutboxDispatcher('/people/{identifier}/outbox', async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const page = await read().outbox(identifier, cursor === '' ? null : cursor);
      if (!page) return null;
      return { items: page.notes.map((entry) => createOf(ctx, entry)), nextCursor: page.next };
    })
    .setFirstCursor(() => '');

  federation
    .setFollowersDispatcher('/people/{identifier}/followers', async (_ctx, identifier, cursor) => {
      const person = await federatedPerson(identifier);
      if (!person) return null;
      // no cursor: every follower, for a delivery to them all
      const limit = cursor === null ? 100_000 : PAGE;
      const rows = await readFollowerInboxes(prisma, person.id, limit, cursor ? Number(cursor) || 0 : 0);
      const items: Recipient[] = rows.map((row) => ({
        id: new URL(row.actor.uri),
        inboxId: new URL(row.actor.inbox),
        endpoints: row.actor.sharedInbox ? { sharedInbox: new URL(row.actor.sharedInbox) } : null,
      }));
      const nextCursor = cursor !== null && rows.length === PAGE ? String(rows.at(-1)!.id) : null;
      return { items, nextCursor };
    })
    .setCounter(async (_ctx, identifier) => {
      const person = await federatedPerson(identifier);
      return person ? countFollowers(prisma, person.id) : null;
    })
    .setFirstCursor(() => '0');

  federation
    .setFollowingDispatcher('/people/{identifier}/following', async (_ctx, identifier, cursor) => {
      const person = await federatedPerson(identifier);
      if (!person || cursor === null) return null;
      const rows = await readFollowingUris(prisma, person.id, PAGE, Number(cursor) || 0);
      return { items: rows.map((row) => new URL(row.actor.uri)), nextCursor: rows.length === PAGE ? String(rows.at(-1)!.id) : null };
    })
    .setFirstCursor(() => '0');

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const usage = await instanceUsage(prisma);
    return {
      software: { name: 'milepost', version: VERSION },
      protocols: ['activitypub'],
      openRegistrations: false,
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: 0 },
    };
  });

  /** Keeps the sender of an activity; null when it is no actor, or its server is blocked. */
  const senderOf = async (ctx: InboxContext<void>, activity: { getActor(options?: object): Promise<APObject | null> }) => {
    const actor = await activity.getActor(ctx);
    if (!actor || !isActor(actor) || !actor.id || !actor.inboxId) return null;
    if (await isBlockedHost(prisma, actor.id.host)) return null;
    const facts: RemoteActorFacts = {
      uri: actor.id.href,
      handle: `${actor.preferredUsername ?? actor.id.pathname.split('/').at(-1)}@${actor.id.host}`,
      host: actor.id.host,
      name: actor.name?.toString().slice(0, 200) ?? null,
      url: actor.url instanceof URL ? actor.url.href : null,
      inbox: actor.inboxId.href,
      sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    };
    return { facts, id: await keepRemoteActor(prisma, facts), actor };
  };

  /** The entry a URL of this server names (`/entries/42`), if it is public now. */
  const localEntryOf = async (uri: URL | null) => {
    if (!uri || uri.origin !== origin.origin) return null;
    const match = /^\/entries\/(\d{1,15})$/.exec(uri.pathname);
    return match ? read().entry(Number(match[1])) : null;
  };

  federation
    .setInboxListeners('/people/{identifier}/inbox', '/inbox')
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor') return;
      const person = await federatedPerson(target.identifier);
      const sender = person && (await senderOf(ctx, follow));
      if (!person || !sender) return;
      const status = person.fediverseAutoAccept ? 'accepted' : 'pending';
      const row = await prisma.remoteFollower.upsert({
        where: { personId_actorId: { personId: person.id, actorId: sender.id } },
        create: { personId: person.id, actorId: sender.id, followId: follow.id.href, status },
        update: { followId: follow.id.href },
        select: { id: true, status: true },
      });
      if (row.status === 'accepted')
        await sendAccept(ctx, person.username, follow.id, new URL(sender.facts.uri), sender.actor as Recipient);
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      const sender = undo.actorId;
      if (!sender) return;
      if (object instanceof Follow) {
        await prisma.remoteFollower.deleteMany({ where: { actor: { uri: sender.href }, followId: object.id?.href ?? '' } });
      } else if (object instanceof Like && object.id) {
        await prisma.remoteReaction.deleteMany({ where: { activityId: object.id.href, actor: { uri: sender.href } } });
      }
    })
    // the Follow they name is ours (by its id, which this server made): only whose follow it answers
    // is read, never an embedded copy another server could forge
    .on(Accept, async (_ctx, accept) => {
      if (!accept.objectId || !accept.actorId) return;
      await prisma.remoteFollowing.updateMany({
        where: { followId: accept.objectId.href, actor: { uri: accept.actorId.href } },
        data: { status: 'accepted' },
      });
    })
    .on(Reject, async (_ctx, reject) => {
      if (!reject.objectId || !reject.actorId) return;
      await prisma.remoteFollowing.deleteMany({ where: { followId: reject.objectId.href, actor: { uri: reject.actorId.href } } });
    })
    .on(Like, async (ctx, like) => {
      if (!like.id) return;
      const entry = await localEntryOf(like.objectId);
      const sender = entry && (await senderOf(ctx, like));
      if (!entry || !sender) return;
      await prisma.remoteReaction.upsert({
        where: { activityId: like.id.href },
        create: { entryId: entry.id, actorId: sender.id, kind: 'like', activityId: like.id.href },
        update: {},
      });
    })
    .on(Create, async (ctx, create) => {
      const object = await create.getObject(ctx);
      if (!(object instanceof Note) || !object.id || object.attributionId?.href !== create.actorId?.href) return;
      const text = plainText(object.content?.toString() ?? '');
      const entry = await localEntryOf(object.replyTargetId);
      const sender = await senderOf(ctx, create);
      if (!sender) return;
      if (entry) {
        await prisma.remoteReaction.upsert({
          where: { activityId: object.id.href },
          create: { entryId: entry.id, actorId: sender.id, kind: 'reply', activityId: object.id.href, text },
          update: { text },
        });
      } else if (await isFollowedHere(prisma, sender.id)) {
        const publishedAt = object.published ? new Date(object.published.epochMilliseconds) : new Date();
        const data = { text, url: object.url instanceof URL ? object.url.href : null, publishedAt };
        await prisma.remotePost.upsert({
          where: { uri: object.id.href },
          create: { ...data, actorId: sender.id, uri: object.id.href },
          update: data,
        });
      }
    })
    .on(Update, async (ctx, update) => {
      const object = await update.getObject(ctx);
      if (!(object instanceof Note) || !object.id || object.attributionId?.href !== update.actorId?.href) return;
      const text = plainText(object.content?.toString() ?? '');
      const owner = { actor: { uri: update.actorId!.href } };
      await prisma.remotePost.updateMany({ where: { uri: object.id.href, ...owner }, data: { text } });
      await prisma.remoteReaction.updateMany({ where: { activityId: object.id.href, kind: 'reply', ...owner }, data: { text } });
    })
    .on(Delete, async (_ctx, deletion) => {
      const objectId = deletion.objectId;
      const sender = deletion.actorId;
      if (!objectId || !sender) return;
      if (objectId.href === sender.href) {
        // the account itself is gone
        await prisma.remoteActor.deleteMany({ where: { uri: sender.href } });
        return;
      }
      const owner = { actor: { uri: sender.href } };
      await prisma.remotePost.deleteMany({ where: { uri: objectId.href, ...owner } });
      await prisma.remoteReaction.deleteMany({ where: { activityId: objectId.href, ...owner } });
    })
    .onError((_ctx, error) => logger.warn({ err: error }, 'an activity from the fediverse could not be handled'));

  /** Accepts the Follow `followId` of `follower` for `username`, sent to `to`. */
  async function sendAccept(ctx: FedifyContext<void>, username: string, followId: URL, follower: URL, to: Recipient) {
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

  /** A recipient known only by its stored actor id and inbox (a follower removed, an account unfollowed). */
  const recipient = (uri: string, inbox: string): Recipient => ({ id: new URL(uri), inboxId: new URL(inbox) });

  async function usernameOf(personId: number): Promise<string | null> {
    return (await prisma.person.findUnique({ where: { id: personId }, select: { username: true } }))?.username ?? null;
  }

  /** Sends what changed of an entry to the author's followers: Create, Update, or Delete. */
  async function publish(ctx: FedifyContext<void>, entryId: number, authorId: number) {
    const entry = await read().entry(entryId);
    const sent = await prisma.federatedEntry.findUnique({ where: { entryId } });
    if (entry) {
      const username = entry.author.username;
      const note = noteOf(ctx, entry);
      const activity = sent
        ? new Update({
            id: new URL(`${entry.url}#updates/${Date.now()}`),
            actor: actorUri(ctx, username),
            object: note,
            to: PUBLIC_COLLECTION,
            cc: ctx.getFollowersUri(username),
          })
        : createOf(ctx, entry, note);
      if (!sent) await prisma.federatedEntry.create({ data: { entryId, personId: authorId } });
      await ctx.sendActivity({ identifier: username }, 'followers', activity, { preferSharedInbox: true });
    } else if (sent) {
      // deleted, no longer public, or its author left the fediverse: those who had it are told
      await prisma.federatedEntry.delete({ where: { entryId } });
      const username = await usernameOf(sent.personId);
      if (!username) return;
      const url = new URL(`/entries/${entryId}`, origin);
      await ctx.sendActivity(
        { identifier: username },
        'followers',
        new Delete({
          id: new URL(`${url.href}#delete/${Date.now()}`),
          actor: actorUri(ctx, username),
          object: new Tombstone({ id: url }),
          to: PUBLIC_COLLECTION,
          cc: ctx.getFollowersUri(username),
        }),
        { preferSharedInbox: true },
      );
    }
  }

  async function runOwnJob(job: OwnJob) {
    const ctx = federation.createContext(origin, undefined);
    switch (job.milepost) {
      case 'publish':
        return publish(ctx, job.entryId, job.authorId);
      case 'accept': {
        const row = await prisma.remoteFollower.findUnique({ where: { id: job.followerId }, select: FOLLOW_ROW });
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
      case 'unfollow': {
        const username = await usernameOf(job.personId);
        if (!username) return;
        const me = ctx.getActorUri(username);
        const follow =
          job.milepost === 'reject'
            ? new Follow({ id: new URL(job.followId), actor: new URL(job.actorUri), object: me })
            : new Follow({ id: new URL(job.followId), actor: me, object: new URL(job.actorUri) });
        const id = new URL(`${me.href}#${job.milepost}/${crypto.randomUUID()}`);
        const activity =
          job.milepost === 'reject' ? new Reject({ id, actor: me, object: follow }) : new Undo({ id, actor: me, object: follow });
        await ctx.sendActivity({ identifier: username }, recipient(job.actorUri, job.inbox), activity);
        return;
      }
      case 'follow': {
        const row = await prisma.remoteFollowing.findUnique({ where: { id: job.followingId }, select: FOLLOW_ROW });
        if (!row) return;
        const me = ctx.getActorUri(row.person.username);
        const follow = new Follow({ id: new URL(row.followId), actor: me, object: new URL(row.actor.uri) });
        await ctx.sendActivity({ identifier: row.person.username }, recipient(row.actor.uri, row.actor.inbox), follow);
        return;
      }
    }
  }

  // Fedify's own messages and the service's jobs share the queue: the service's are taken here
  const fedifyListen = queue.listen.bind(queue);
  queue.listen = (handler, options) =>
    fedifyListen(async (message) => {
      if (isOwnJob(message)) await runOwnJob(message);
      else await handler(message);
    }, options);

  return {
    host,
    origin: origin.origin,
    federation,
    claims(request) {
      const { pathname } = new URL(request.url);
      if (FEDERATION_PATH.test(pathname)) return true;
      return (
        (request.method === 'GET' || request.method === 'HEAD') &&
        OBJECT_PATH.test(pathname) &&
        ACTIVITY_TYPES.test(request.headers.get('accept') ?? '')
      );
    },
    async fetch(request, fallback) {
      // Fedify takes only the platform's own Request (the server adapter's is another class): a copy,
      // whose body is read once and bounded
      let body: Uint8Array<ArrayBuffer> | null = null;
      if (request.method === 'POST') {
        const refused = await refuseInbound(request);
        if (refused) return refused;
        const read = await boundedBody(request);
        if (!read) return tooLarge();
        body = new Uint8Array(read);
      }
      const copy = new Request(request.url, { method: request.method, headers: request.headers, body });
      return federation.fetch(copy, { contextData: undefined, onNotFound: fallback, onNotAcceptable: fallback });
    },
    bindReader(bound) {
      reader = bound;
    },
    async relay(tx, events) {
      for (const event of events)
        if (PUBLISHING_EVENTS.has(event.name) && 'entryId' in event.payload && 'authorId' in event.payload)
          await enqueueJob(tx, { milepost: 'publish', entryId: event.payload.entryId, authorId: event.payload.authorId });
    },
    async lookup(handle) {
      const ctx = federation.createContext(origin, undefined);
      let actor: APObject | null;
      try {
        actor = await ctx.lookupObject(handle);
      } catch (error) {
        logger.warn({ err: error, handle }, 'a fediverse account could not be looked up');
        return null;
      }
      if (!actor || !isActor(actor) || !actor.id || !actor.inboxId) return null;
      if (await isBlockedHost(prisma, actor.id.host)) return null;
      return {
        uri: actor.id.href,
        handle: `${actor.preferredUsername ?? actor.id.pathname.split('/').at(-1)}@${actor.id.host}`,
        host: actor.id.host,
        name: actor.name?.toString().slice(0, 200) ?? null,
        url: actor.url instanceof URL ? actor.url.href : null,
        inbox: actor.inboxId.href,
        sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
      };
    },
    wake: () => queue.wake(),
    start() {
      const controller = new AbortController();
      const running = federation.startQueue(undefined, { signal: controller.signal });
      return {
        async stop() {
          controller.abort();
          await running;
        },
      };
    },
  };

  /** A POST from a blocked server (by its signature's key) is refused before anything is read. */
  async function refuseInbound(request: Request): Promise<Response | null> {
    const length = Number(request.headers.get('content-length') ?? 0);
    if (length > MAX_INBOX_BYTES) return tooLarge();
    const signature = request.headers.get('signature') ?? request.headers.get('signature-input') ?? '';
    const keyId = /keyid="([^"]+)"/i.exec(signature)?.[1];
    let keyHost: string | null = null;
    try {
      keyHost = keyId ? new URL(keyId).host : null;
    } catch {
      keyHost = null;
    }
    if (keyHost && (await isBlockedHost(prisma, keyHost)))
      return Response.json({ error: { code: 'FORBIDDEN', message: 'this server does not take activities from yours' } }, { status: 403 });
    return null;
  }
}

function tooLarge(): Response {
  return Response.json(
    { error: { code: 'PAYLOAD_TOO_LARGE', message: `an activity may be at most ${MAX_INBOX_BYTES} bytes`, field: 'body' } },
    { status: 413 },
  );
}

/** The request's body, or null when it is longer than MAX_INBOX_BYTES (then not read further). */
async function boundedBody(request: Request): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_INBOX_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Text as one HTML paragraph. */
const escapeText = (text: string) => `<p>${escapeMarkup(text)}</p>`;

/** The Note's HTML: the message, the workout in words a Mastodon reader reads, and a link to the entry. */
export function noteHtml(entry: PublicNote): string {
  const parts: string[] = [];
  if (entry.message) parts.push(escapeText(entry.message.slice(0, MAX_REMOTE_TEXT)));
  const workout = entry.workout;
  if (workout) {
    const words = [workout.title, lower(workout.activityType)].filter(Boolean).join(': ');
    const figures = [
      workout.distance ? `${Number(workout.distance.value.toFixed(2))} ${workout.distance.units.toLowerCase()}` : null,
      workout.duration ? formatDuration(workout.duration) : null,
    ].filter(Boolean);
    parts.push(escapeText([words, ...figures].join(' · ')));
  }
  parts.push(`<p><a href="${escapeMarkup(entry.url)}">${escapeMarkup(entry.url)}</a></p>`);
  return parts.join('');
}
