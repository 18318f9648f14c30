// Live updates: the events of events.ts, filtered to what the matching query would show the viewer,
// then read once for all the subscribers of the event (see readOncePerEvent).

import { filter, map, pipe } from 'graphql-yoga';
import { readEntriesById } from '../db/entry-pages.ts';
import { ALL_PARTS, PERSON_COLUMNS } from '../db/entry-rows.ts';
import { NotFoundError } from '../domain/errors.ts';
import { distanceMiles } from '../domain/geo.ts';
import { type EventName, type EventPayloads, eventIdOf } from '../events/bus.ts';
import { builder } from './builder.ts';
import { type Context, liveContexts, requireViewer } from './context.ts';
import { namesObject, requireDatabaseId } from './global-ids.ts';
import { entryById } from './loaders.ts';
import { forgetBlocks, requireEntry, requirePersonId, viewerMaySee } from './lookups.ts';
import { DeletedEntry } from './mutations/entries.ts';
import { entryPlaceHidden, privacyFor } from './privacy.ts';
import { DEFAULT_NEARBY_RADIUS_MILES, validateNearby } from './streams.ts';
import { CommentRef, LikeRef } from './types/comment.ts';
import { EntryRef } from './types/entry.ts';
import { NotificationRef } from './types/notification.ts';
import { PersonRef } from './types/person.ts';

/** How often a live subscription asks whether its token still works (WebSockets ask per socket, as often). */
export const TOKEN_RECHECK_MS = 5_000;

/**
 * `source` until its subscriber's access ends: at once when their account is suspended (over WebSocket
 * and server-sent events alike), and over server-sent events within TOKEN_RECHECK_MS of the token's
 * revocation or expiry (a WebSocket's token is checked by the socket). Then it ends (completes).
 * Anonymous subscribers have no access to lose. An iterator, not an async generator: a generator
 * waiting for its next event cannot be returned until one comes.
 */
/**
 * Why a subscription's access ended, by its context, for the last result that says so
 * (useAccessEndNotice): without it a client could not tell "log in again" from "finished".
 */
export const accessEnded = new WeakMap<Context, { code: string; message: string }>();

function whileAllowed<T>(context: Context, source: AsyncIterator<T>): AsyncIterableIterator<T> {
  const viewer = context.viewer;
  if (viewer === null) return source as AsyncIterableIterator<T>;
  const watch = context.events.subscribe('personSuspended');
  const done: IteratorResult<T> = { value: undefined, done: true };
  let finished = false;
  const { tokenStillValid } = context;
  const recheck = tokenStillValid
    ? setInterval(() => {
        tokenStillValid().then(
          (valid) => {
            if (valid) return;
            accessEnded.set(context, { code: 'INVALID_TOKEN', message: 'the access token was revoked or has expired: log in again' });
            void finish();
          },
          () => undefined, // the database away: the stream goes on, and the next check asks again
        );
      }, context.tokenRecheckMs ?? TOKEN_RECHECK_MS)
    : null;
  recheck?.unref();
  const finish = async (): Promise<IteratorResult<T>> => {
    if (!finished) {
      finished = true;
      if (recheck) clearInterval(recheck);
      await Promise.all([watch.return?.(), source.return?.()]);
    }
    return done;
  };
  const suspended = (async () => {
    for (let next = await watch.next(); !next.done; next = await watch.next())
      if (next.value.personId === viewer.id) {
        accessEnded.set(context, { code: 'ACCOUNT_SUSPENDED', message: 'the account was suspended' });
        return;
      }
  })();
  const ended = suspended.then(finish);
  return {
    next: () => (finished ? Promise.resolve(done) : Promise.race([source.next(), ended])),
    return: finish,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** The events of `name` the subscriber may hear of (`keep`). */
function only<K extends EventName>(context: Context, name: K, keep: (payload: EventPayloads[K]) => boolean | Promise<boolean>) {
  liveContexts.add(context);
  return pipe(context.events.subscribe(name) as AsyncIterable<EventPayloads[K]> & AsyncIterator<EventPayloads[K]>, filter(keep));
}

/**
 * A subscription's own events: resumed after the client's Last-Event-ID, and each noted as the one
 * the next result comes from, so that the result carries its id (`extensions.eventId`, SSE's `id:`).
 * (The watches of a single-entry subscription are `only`: they neither resume nor name a result.)
 */
function delivered<K extends EventName>(context: Context, name: K, keep: (payload: EventPayloads[K]) => boolean | Promise<boolean>) {
  liveContexts.add(context);
  const source = whileAllowed(context, context.events.subscribe(name, { after: context.subscription?.resumeAfter ?? null }));
  return pipe(
    source as AsyncIterable<EventPayloads[K]> & AsyncIterator<EventPayloads[K]>,
    filter(keep),
    map((payload) => {
      if (context.subscription) context.subscription.eventId = eventIdOf(payload);
      return payload;
    }),
  );
}

/** An entry as it is now: who wrote it, who may see it, and where it is; null once deleted. */
type EntryNow = { authorId: number; visibility: string; lat: number | null; lon: number | null } | null;

/**
 * New entries the subscriber may see, as they are when the event is delivered, that also pass `keep`.
 * Never as the event described them: an entry made only-me or deleted since, or moved, is judged as
 * it is now, live or replayed after a Last-Event-ID (a replay once sent an entry its author had hidden
 * since, with its coordinates, and one since deleted).
 */
function newEntries(
  context: Context,
  keep: (payload: EventPayloads['entryCreated'], now: NonNullable<EntryNow>) => boolean | Promise<boolean> = () => true,
) {
  return delivered(context, 'entryCreated', async (p) => {
    const now = await sharedRead(entryStates, p, ({ entryId }) =>
      context.prisma.entry.findUnique({ where: { id: entryId }, select: { authorId: true, visibility: true, lat: true, lon: true } }),
    );
    return now !== null && (await viewerMaySee(context, now)) && (await keep(p, now));
  });
}

/** Whether the entry is still one the subscriber may see: its visibility may change while a subscription lives. */
const stillVisible = (context: Context, entryId: number) =>
  requireEntry(context, entryId).then(
    () => true,
    () => false,
  );

/** What a single-entry subscription yields last: its entry was deleted, or is now hidden from the subscriber. */
const GONE = Symbol('entry gone');
type Gone = { [GONE]: string };

/** Resolves once the entry is deleted or hidden from the subscriber (its visibility, a friendship ended); `stop` ends the watch. */
function entryGone(context: Context, entryId: number): { gone: Promise<void>; stop: () => void } {
  const watches = [
    only(context, 'entryDeleted', (p) => p.entryId === entryId),
    only(context, 'entryVisibilityChanged', async (p) => p.entryId === entryId && !(await stillVisible(context, entryId))),
    only(
      context,
      'friendshipEnded',
      async (p) =>
        context.viewer !== null &&
        (p.personId === context.viewer.id || p.friendId === context.viewer.id) &&
        !(await stillVisible(context, entryId)),
    ),
    only(context, 'personBlocked', async (p) => {
      if (context.viewer === null || (p.blockerId !== context.viewer.id && p.blockedId !== context.viewer.id)) return false;
      forgetBlocks(context);
      return !(await stillVisible(context, entryId));
    }),
  ];
  const gone = Promise.race(watches.map(async (watch) => void (await watch.next())));
  return { gone, stop: () => void Promise.all(watches.map((watch) => watch.return?.())) };
}

/**
 * The events of `source` until the entry is gone; then one last `Gone`, and the end: the subscriber
 * is told why it hears no more, and the subscription completes.
 */
async function* untilGone<T>(context: Context, entryId: number, sent: string, source: AsyncIterator<T>): AsyncGenerator<T | Gone> {
  const { gone, stop } = entryGone(context, entryId);
  const ended = gone.then((): typeof GONE => GONE);
  try {
    for (;;) {
      const next: IteratorResult<T> | typeof GONE = await Promise.race([source.next(), ended]);
      if (typeof next === 'symbol') {
        yield { [GONE]: sent };
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    stop();
    await source.return?.();
  }
}

/** What happened to an item of a list. */
type ChangeKind = 'ADDED' | 'EDITED' | 'REMOVED';

/** A changed comment as it is now (null once deleted), read once for the subscribers of the event. */
const readComment = (context: Context, event: EventPayloads['commentChanged']) =>
  readOncePerEvent(event, ({ commentId }) => context.prisma.comment.findUnique({ where: { id: commentId }, include: { author: PERSON } }));

/** A given like (null once taken back), read once for the subscribers of the event. */
const readLike = (context: Context, event: EventPayloads['likeChanged']) =>
  readOncePerEvent(event, ({ likeId }) => context.prisma.like.findUnique({ where: { id: likeId }, include: { person: PERSON } }));

const ChangeKindEnum = builder.enumType('ChangeKind', {
  description: 'What happened to an item of a list.',
  values: {
    ADDED: { description: 'It joined the list.' },
    EDITED: { description: 'It changed; the change carries it as it is now.' },
    REMOVED: { description: 'It left the list (deleted, or taken back); the change carries only its id.' },
  },
});

const CommentChangeRef = builder
  .objectRef<{ kind: ChangeKind; id: number; comment: Awaited<ReturnType<Context['prisma']['comment']['findUnique']>> }>('CommentChange')
  .implement({
    description: 'A change to an entry’s comments.',
    fields: (t) => ({
      kind: t.field({ type: ChangeKindEnum, description: 'What happened.', resolve: (change) => change.kind }),
      commentId: t.globalID({ description: 'The comment’s global id.', resolve: (change) => ({ type: 'Comment', id: change.id }) }),
      comment: t.field({
        type: CommentRef,
        nullable: true,
        description: 'The comment as it is now; null when REMOVED.',
        resolve: (change) => change.comment,
      }),
    }),
  });

const LikeChangeRef = builder
  .objectRef<{ kind: ChangeKind; id: number; like: Awaited<ReturnType<Context['prisma']['like']['findUnique']>> }>('LikeChange')
  .implement({
    description: 'A change to an entry’s likes.',
    fields: (t) => ({
      kind: t.field({ type: ChangeKindEnum, description: 'What happened: ADDED or REMOVED.', resolve: (change) => change.kind }),
      likeId: t.globalID({ description: 'The like’s global id.', resolve: (change) => ({ type: 'Like', id: change.id }) }),
      like: t.field({ type: LikeRef, nullable: true, description: 'The like; null when REMOVED.', resolve: (change) => change.like }),
    }),
  });

/** Event names whose payloads are about one entry. */
type EntryEventName = { [K in EventName]: EventPayloads[K] extends { entryId: number } ? K : never }[EventName];

/**
 * The events of `names` about one entry (`id`, as the client sent it) that the subscriber may see, as
 * they come, until the entry is deleted or hidden from them (then one last `Gone`): what every
 * subscription to one entry's comments, likes or edits is made of.
 */
async function entryEvents<K extends EntryEventName>(context: Context, id: string | number, ...names: K[]) {
  const entryId = requireDatabaseId(id, 'Entry', 'entry');
  await requireEntry(context, entryId, id);
  const on = (p: { entryId: number }) => p.entryId === entryId && stillVisible(context, entryId);
  const sources = names.map((name) => delivered(context, name, on as (p: EventPayloads[K]) => boolean | Promise<boolean>));
  return untilGone(context, entryId, String(id), sources.length === 1 ? sources[0]! : merged(...sources));
}

/** The events of several sources as they come, one stream; returning it returns them all. */
function merged<T>(...sources: Array<AsyncIterator<T>>): AsyncIterableIterator<T> {
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<T> }>>();
  const pull = (index: number) =>
    pending.set(
      index,
      sources[index]!.next().then((result) => ({ index, result })),
    );
  for (let index = 0; index < sources.length; index++) pull(index);
  const done: IteratorResult<T> = { value: undefined, done: true };
  let finished = false;
  const finish = async (): Promise<IteratorResult<T>> => {
    finished = true;
    pending.clear();
    await Promise.all(sources.map(async (source) => source.return?.()));
    return done;
  };
  return {
    async next() {
      while (!finished && pending.size > 0) {
        const { index, result } = await Promise.race(pending.values());
        if (finished) return done;
        if (result.done) {
          pending.delete(index);
          continue;
        }
        pull(index);
        return result;
      }
      return done;
    },
    return: finish,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** The event's object, or the typed end of a subscription whose entry is gone. */
function unlessGone<P extends object, T>(payload: P | Gone, read: (payload: P) => Promise<T>): Promise<T> {
  if (GONE in payload) return Promise.reject(new NotFoundError('entry', payload[GONE]));
  return readOncePerEvent(payload, read);
}

/**
 * What the subscribers of one event read, read once: every subscription to a topic receives the same
 * payload object, and a thousand sockets made a thousand copies of the same statements for each event
 * (and held their rows all at once). Keyed by the payload itself, a read is shared only by the
 * subscribers of that one event, all of which ask after its commit, and it goes with the event. What
 * is read is the same for every viewer; each subscriber's filter has already decided that it may see
 * it, and the fields apply the rest (privacy zones) per viewer, as on a stream page.
 */
const eventReads = new WeakMap<object, Shared<unknown>>();
/** What each event's entry is now (newEntries), read once for the subscribers it is delivered to together. */
const entryStates = new WeakMap<object, Shared<EntryNow>>();

/**
 * A read shared by the subscribers an event is delivered to together: kept SHARED_READ_MS. A replay
 * (Last-Event-ID) comes later with the same event, and reads again what it sends: what was hidden,
 * deleted or changed since is not sent as it was.
 */
type Shared<T> = { at: number; result: Promise<T> };
const SHARED_READ_MS = 1_000;

function readOncePerEvent<P extends object, T>(payload: P, read: (payload: P) => Promise<T>): Promise<T> {
  return sharedRead(eventReads as WeakMap<object, Shared<T>>, payload, read);
}

/** `read` of the event `payload`, kept in `reads` for SHARED_READ_MS (see above). */
function sharedRead<P extends object, T>(reads: WeakMap<object, Shared<T>>, payload: P, read: (payload: P) => Promise<T>): Promise<T> {
  const kept = reads.get(payload);
  if (kept && Date.now() - kept.at < SHARED_READ_MS) return kept.result;
  const result = read(payload);
  reads.set(payload, { at: Date.now(), result });
  return result;
}

/** The entry an event names with all its parts (one statement, or none when its document is kept), as its author sees it. */
const entryOf = (payload: { entryId: number; authorId: number }, context: Context) =>
  readOncePerEvent(payload, async ({ entryId, authorId }) => {
    const entry = (await readEntriesById(context, [entryId], ALL_PARTS, { id: authorId, ownPrivate: true })).get(entryId);
    if (!entry) throw new Error(`entry ${entryId} was deleted before its event was delivered`);
    return entry;
  });

/** The columns of a person that a comment's or a like's event carries, as a stream page carries its people. */
const PERSON = {
  select: Object.fromEntries(PERSON_COLUMNS.map((column) => [column, true])) as Record<(typeof PERSON_COLUMNS)[number], true>,
};

// new entries, as each stream would show them
builder.subscriptionFields((t) => ({
  publicEntries: t.field({
    type: EntryRef,
    description: 'Every new entry, as the public stream would show it.',
    subscribe: (_root, _args, context) => newEntries(context),
    resolve: (payload, _args, context) => entryOf(payload, context),
  }),

  personEntries: t.field({
    type: EntryRef,
    description: "A person's new entries.",
    args: { username: t.arg.string({ required: true, description: 'A username, in any letter case.' }) },
    subscribe: async (_root, { username }, context) => {
      const id = await requirePersonId(context, username);
      return newEntries(context, (p) => p.authorId === id);
    },
    resolve: (payload, _args, context) => entryOf(payload, context),
  }),

  friendsEntries: t.field({
    type: EntryRef,
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
    resolve: (payload, _args, context) => entryOf(payload, context),
  }),

  nearbyEntries: t.field({
    type: EntryRef,
    description: 'New entries posted within `radius` miles (default 50) of a point.',
    args: {
      lat: t.arg.float({ required: true, description: 'Latitude, -90 to 90.' }),
      lon: t.arg.float({ required: true, description: 'Longitude, -180 to 180.' }),
      radius: t.arg.float({ description: `Miles; default ${DEFAULT_NEARBY_RADIUS_MILES}.` }),
    },
    subscribe: (_root, args, context) => {
      const center = { lat: args.lat, lon: args.lon };
      const radius = args.radius ?? DEFAULT_NEARBY_RADIUS_MILES;
      validateNearby(center, radius);
      // a place inside its author's privacy zones matches no one else's search
      // where the entry is now, not where its event said it was
      return newEntries(
        context,
        async (p, { lat, lon }) =>
          lat !== null &&
          lon !== null &&
          distanceMiles(center, { lat, lon }) <= radius &&
          !(await entryPlaceHidden(context, { id: p.entryId, authorId: p.authorId }, { lat, lon }, await privacyFor(context, p.authorId))),
      );
    },
    resolve: (payload, _args, context) => entryOf(payload, context),
  }),
}));

// what happens to an entry (comments, likes, deletion), and to the viewer (friend requests)
builder.subscriptionFields((t) => ({
  entryComments: t.field({
    type: CommentRef,
    description:
      'New comments on an entry. When the entry is deleted, or hidden from the subscriber, a last event carries a NOT_FOUND error naming it, and the subscription completes.',
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    subscribe: (_root, args, context) => entryEvents(context, args.entryId, 'commentAdded'),
    resolve: (payload, _args, context) =>
      unlessGone(payload, ({ commentId }) =>
        context.prisma.comment.findUniqueOrThrow({ where: { id: commentId }, include: { author: PERSON } }),
      ),
  }),

  entryLikes: t.field({
    type: LikeRef,
    description:
      'New likes on an entry. When the entry is deleted, or hidden from the subscriber, a last event carries a NOT_FOUND error naming it, and the subscription completes.',
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    subscribe: (_root, args, context) => entryEvents(context, args.entryId, 'likeAdded'),
    resolve: (payload, _args, context) =>
      unlessGone(payload, ({ likeId }) => context.prisma.like.findUniqueOrThrow({ where: { id: likeId }, include: { person: PERSON } })),
  }),

  entryCommentChanges: t.field({
    type: CommentChangeRef,
    description:
      'Every change to an entry’s comments, in order: one ADDED, EDITED with the comment as it is now, REMOVED with only its id (for Relay’s `@deleteEdge`), so that a list on screen stays right. When the entry is deleted, or hidden from the subscriber, a last event carries a NOT_FOUND error naming it, and the subscription completes. Resumes after a Last-Event-ID as the others do.',
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    subscribe: (_root, args, context) => entryEvents(context, args.entryId, 'commentChanged'),
    resolve: (payload, _args, context) =>
      unlessGone(payload, async (event) => {
        const comment = event.kind === 'REMOVED' ? null : await readComment(context, event);
        // edited, then deleted before this was read: removed
        return { kind: comment ? event.kind : 'REMOVED', id: event.commentId, comment };
      }),
  }),

  entryLikeChanges: t.field({
    type: LikeChangeRef,
    description:
      'Every change to an entry’s likes, in order: ADDED with the like, REMOVED with only its id (a like taken back). Ends as `entryCommentChanges` does.',
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    subscribe: (_root, args, context) => entryEvents(context, args.entryId, 'likeChanged'),
    resolve: (payload, _args, context) =>
      unlessGone(payload, async (event) => {
        const like = event.kind === 'REMOVED' ? null : await readLike(context, event);
        return { kind: like ? event.kind : 'REMOVED', id: event.likeId, like };
      }),
  }),

  entryChanges: t.field({
    type: EntryRef,
    description:
      'An entry as it is now, each time its message, workout or visibility changes. Ends as `entryCommentChanges` does when it is deleted or hidden from the subscriber.',
    args: { entryId: t.arg.id({ required: true, description: namesObject('Entry') }) },
    subscribe: (_root, args, context) => entryEvents(context, args.entryId, 'entryEdited', 'entryVisibilityChanged'),
    resolve: (payload, _args, context) => unlessGone(payload, ({ entryId }) => entryById(context, entryId)),
  }),

  entryDeleted: t.field({
    type: DeletedEntry,
    description:
      'Ids of entries the subscriber could see and no longer may: deleted, or hidden from them since (made only-me, friends-only to a non-friend). The two look alike, so that clients drop them from what they show, and nobody learns which it was.',
    // a hidden entry's deletion would tell that it existed, and when its author acted
    subscribe: (_root, _args, context) =>
      merged<{ entryId: number }>(
        delivered(context, 'entryDeleted', (p) => viewerMaySee(context, { authorId: p.authorId, visibility: p.visibility })),
        delivered(
          context,
          'entryVisibilityChanged',
          async (p) =>
            p.previous !== undefined &&
            (await viewerMaySee(context, { authorId: p.authorId, visibility: p.previous })) &&
            !(await viewerMaySee(context, { authorId: p.authorId, visibility: p.visibility })),
        ),
      ),
    resolve: (payload) => ({ id: payload.entryId }),
  }),

  friendRequests: t.field({
    type: PersonRef,
    description: 'People asking the viewer to be friends. Needs an access token.',
    subscribe: (_root, _args, context) => {
      const viewer = requireViewer(context);
      return delivered(context, 'friendRequested', (p) => p.toId === viewer.id);
    },
    resolve: (payload, _args, context) =>
      readOncePerEvent(payload, ({ fromId }) => context.prisma.person.findUniqueOrThrow({ where: { id: fromId } })),
  }),

  notifications: t.field({
    type: NotificationRef,
    nullable: true,
    description:
      'The viewer’s notifications as they are written, or grow (a new like on an entry whose likes they have not read yet is the same notification, counting one more). Null for one marked read or gone since. Needs an access token.',
    subscribe: (_root, _args, context) => {
      const viewer = requireViewer(context);
      return delivered(context, 'notified', (p) => p.personId === viewer.id);
    },
    resolve: (payload, _args, context) =>
      readOncePerEvent(payload, ({ notificationId }) => context.prisma.notification.findUnique({ where: { id: notificationId } })),
  }),
}));
