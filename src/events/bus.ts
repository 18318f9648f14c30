// What happened, for subscriptions: published by the mutations after they commit. (Webhooks read the
// same events from the outbox, written in each write's transaction: src/db/outbox.ts.)
// In-process by default; through Redis with REDIS_URL, so an event published by one process reaches
// subscribers on every process. A process's own events reach its own subscribers directly, whether
// Redis answers or not: an outage costs other processes their events, never this one's.

import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { Redis } from 'ioredis';
import { DomainError } from '../domain/errors.ts';

export interface EventPayloads {
  entryCreated: { entryId: number; authorId: number; lat: number | null; lon: number | null; visibility: string };
  /** `visibility` as it was: who may hear of the deletion. */
  entryDeleted: { entryId: number; authorId: number; visibility: string };
  commentAdded: { entryId: number; commentId: number; authorId: number };
  likeAdded: { entryId: number; likeId: number; personId: number };
  /** Every change to an entry's comments, one topic so that they keep their order: added, edited, deleted. */
  commentChanged: { entryId: number; commentId: number; kind: 'ADDED' | 'EDITED' | 'REMOVED' };
  /** Every change to an entry's likes, in order: given, taken back. */
  likeChanged: { entryId: number; likeId: number; kind: 'ADDED' | 'REMOVED' };
  /** An entry's message or workout changed (its visibility: entryVisibilityChanged). */
  entryEdited: { entryId: number; authorId: number };
  friendRequested: { fromId: number; toId: number };
  /** An entry's visibility changed (from `previous`): subscribers of that entry look again whether they may still see it. */
  entryVisibilityChanged: { entryId: number; authorId: number; visibility: string; previous?: string };
  /** Two people are no longer friends: their friends-only entries are hidden from each other. */
  friendshipEnded: { personId: number; friendId: number };
  /** One person blocked another: each one's entries are hidden from the other. */
  personBlocked: { blockerId: number; blockedId: number };
  /** A person has a new (or grown) notification. */
  notified: { personId: number; notificationId: number };
  /** A moderator suspended a person: their live subscriptions end (their tokens and sessions already do). */
  personSuspended: { personId: number };
  /** What a person shows of themselves changed (name, goal, avatar): the fediverse's copies are updated. */
  profileChanged: { personId: number };
}

export type EventName = keyof EventPayloads;

export interface Events {
  publish<K extends EventName>(name: K, payload: EventPayloads[K]): void;
  /**
   * The events of `name` from now on; with `after` (the id of the last event a client saw, SSE's
   * Last-Event-ID), first those published after it that are still kept (REPLAY_WINDOW_MS).
   */
  subscribe<K extends EventName>(name: K, options?: { after?: string | null }): AsyncIterableIterator<EventPayloads[K]>;
  /** Subscriptions ended because their consumer fell too far behind. */
  dropped(): number;
  /** Events (or subscriptions) that could not reach Redis. */
  failed(): number;
  close(): Promise<void>;
}

/** Events a subscriber may have waiting; past this it is too slow and its subscription ends. */
export const MAX_PENDING_EVENTS = 256;

/** How long events are kept for a subscriber that comes back with the id of the last one it saw. */
export const REPLAY_WINDOW_MS = 5 * 60_000;
/** Events kept at most, whatever their age: a burst does not hold memory without bound. */
export const REPLAY_MAX_EVENTS = 10_000;
/**
 * Events one resumed subscription is given at most, the newest: each passes the subscription's filter
 * (some read the database), so a client that comes back far behind, or claims to, costs a bounded
 * amount; one further behind misses the older ones.
 */
export const REPLAY_MAX_DELIVERED = 1_000;

/** An event as the target carries it: its id (`<milliseconds>-<sequence>`, ordered) and its payload. */
interface Envelope {
  id: string;
  payload: unknown;
}

/** A kept event, for replay. */
interface Logged extends Envelope {
  name: string;
}

/** Whether `id` is an event id as this bus issues them. */
export const isEventId = (id: string): boolean => /^\d{1,15}-\d{1,15}$/.test(id);

/** Orders two event ids. */
function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am - bm || as - bs;
}

/** The id each delivered payload came with: the payload object is what subscriptions pass on. */
const eventIds = new WeakMap<object, string>();

/** The id of the event that delivered `payload`, if it came from this bus. */
export const eventIdOf = (payload: unknown): string | null =>
  typeof payload === 'object' && payload !== null ? (eventIds.get(payload) ?? null) : null;

/** The events of the last REPLAY_WINDOW_MS in this process, for a bus without Redis. */
function localLog() {
  const kept: Array<Logged & { at: number }> = [];
  let lastMs = 0;
  let sequence = 0;
  return {
    append(name: string, payload: unknown): string {
      const now = Date.now();
      // ids stay ordered even if the clock steps back
      if (now > lastMs) [lastMs, sequence] = [now, 0];
      else sequence += 1;
      const id = `${lastMs}-${sequence}`;
      kept.push({ id, name, payload, at: now });
      let stale = 0;
      while (stale < kept.length && (kept.length - stale > REPLAY_MAX_EVENTS || kept[stale]!.at < now - REPLAY_WINDOW_MS)) stale++;
      if (stale > 0) kept.splice(0, stale);
      return id;
    },
    async after(name: string, id: string): Promise<Envelope[]> {
      const oldest = Date.now() - REPLAY_WINDOW_MS;
      return kept.filter((event) => event.name === name && event.at >= oldest && compareIds(event.id, id) > 0);
    },
  };
}

export class SlowSubscriberError extends DomainError {
  readonly code = 'SLOW_SUBSCRIBER';
  constructor() {
    super(`the subscriber fell more than ${MAX_PENDING_EVENTS} events behind; subscribe again`);
  }
}

type Listener = (event: Event) => void;
interface Target {
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
}

/** Subscribers an event reaches before the publisher goes on; the rest in later turns of the loop. */
export const FAN_OUT_SLICE = 64;

/**
 * The subscribers of each topic, reached in slices: an event target calls every listener at once, in
 * the publishing request, so the writer of a post waited for as many subscribers as there were. One
 * listener a topic on the target; the event goes to the first FAN_OUT_SLICE subscribers at once and
 * to the rest after I/O has had its turn (setImmediate), slice by slice.
 */
function fanOut(target: Target): Target {
  const topics = new Map<string, Set<Listener>>();
  const deliver = (listeners: Listener[], event: Event, from: number) => {
    const end = Math.min(from + FAN_OUT_SLICE, listeners.length);
    for (let i = from; i < end; i++) listeners[i]!(event);
    if (end < listeners.length) setImmediate(deliver, listeners, event, end);
  };
  return {
    addEventListener(topic, listener) {
      let listeners = topics.get(topic);
      if (!listeners) {
        const subscribers = new Set<Listener>();
        listeners = subscribers;
        topics.set(topic, subscribers);
        // a few topics, each listened to for the life of the process
        target.addEventListener(topic, (event) => deliver([...subscribers], event, 0));
      }
      listeners.add(listener);
    },
    removeEventListener(topic, listener) {
      topics.get(topic)?.delete(listener);
    },
  };
}

/**
 * An async iterator over one topic with a bounded queue: a consumer that stops reading ends its
 * subscription with SlowSubscriberError instead of making the server hold every event for it.
 */
function boundedSubscription<T>(target: Target, topic: string, onDrop: () => void): AsyncIterableIterator<T> {
  const unwrap = (event: Event): T => {
    const { id, payload } = (event as CustomEvent<Envelope>).detail;
    if (typeof payload === 'object' && payload !== null) eventIds.set(payload, id);
    return payload as T;
  };
  const queue: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let failed: Error | null = null;
  let done = false;
  const finish = () => {
    done = true;
    target.removeEventListener(topic, listener);
  };
  function listener(event: Event) {
    if (done) return;
    const payload = unwrap(event);
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve({ value: payload, done: false });
    } else if (queue.length >= MAX_PENDING_EVENTS) {
      failed = new SlowSubscriberError();
      queue.length = 0;
      finish();
      onDrop();
    } else {
      queue.push(payload);
    }
  }
  target.addEventListener(topic, listener);
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
      if (failed) return Promise.reject(failed);
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (waiting = resolve));
    },
    return() {
      finish();
      waiting?.({ value: undefined, done: true });
      waiting = null;
      return Promise.resolve({ value: undefined, done: true });
    },
  };
}

/**
 * The events kept after `after`, then the live ones (subscribed to first, so that none falls between):
 * a live event already replayed is passed over.
 */
async function* resumed<T>(live: AsyncIterableIterator<T>, kept: Promise<Envelope[]>): AsyncGenerator<T> {
  let last: string | null = null;
  try {
    for (const { id, payload } of await kept) {
      // a copy: what the live subscribers of the event read of it, once for all of them, is not what
      // this one is given now, minutes later (graphql/subscriptions.ts reads it again)
      const copy = typeof payload === 'object' && payload !== null ? { ...payload } : payload;
      if (typeof copy === 'object' && copy !== null) eventIds.set(copy, id);
      last = id;
      yield copy as T;
    }
    for (;;) {
      const next = await live.next();
      if (next.done) return;
      const id = eventIdOf(next.value);
      if (last !== null && id !== null && compareIds(id, last) <= 0) continue;
      yield next.value;
    }
  } finally {
    await live.return?.();
  }
}

/** An event as it crosses Redis: which process published it (it heard it itself already), its envelope. */
interface Crossing {
  origin: string;
  envelope: Envelope;
}

/**
 * The two Redis connections of the bus, with every command's failure handled: ioredis leaves a
 * command's promise unhandled, and a write made while Redis was away killed the process once the
 * queued command gave up. No offline queue for the publisher either: an event is refused at once, not
 * held for seconds while the outage lasts.
 */
function redisClients(url: string, onFailure: (error: unknown) => void) {
  // bounded: an event that Redis does not take within the time is lost to other processes, the write stands
  const publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, connectTimeout: 2_000 });
  // the subscriber keeps its queue: a SUBSCRIBE sent during an outage is replayed on reconnect
  const subscriber = new Redis(url, { connectTimeout: 2_000 });
  for (const client of [publisher, subscriber]) {
    client.on('error', () => {
      /* ioredis reconnects by itself; each failed command is reported below */
    });
  }
  /**
   * The events of every process, kept REPLAY_WINDOW_MS in a Redis stream a topic whose entry ids are
   * the events' ids; a fault of Redis loses the replay, never the event's delivery in this process.
   */
  const log = (key: string) => ({
    // a stream a topic, trimmed by count as it grows (XADD takes one trimming rule) and read by age
    append: (name: string, payload: unknown): Promise<string> =>
      publisher
        .xadd(`${key}:${name}`, 'MAXLEN', '~', String(REPLAY_MAX_EVENTS), '*', 'payload', JSON.stringify(payload))
        .then((id) => id ?? Promise.reject(new Error('XADD answered no id'))),
    after: async (name: string, id: string): Promise<Envelope[]> => {
      const oldest = `${Date.now() - REPLAY_WINDOW_MS}-0`;
      const from = compareIds(id, oldest) > 0 ? `(${id}` : oldest;
      // the newest first, as many as a resumed subscription is given; then in order
      const entries = await publisher.xrevrange(`${key}:${name}`, '+', from, 'COUNT', REPLAY_MAX_DELIVERED);
      return entries.reverse().map(([entryId, fields]) => ({ id: entryId, payload: JSON.parse(fields[1] ?? 'null') as unknown }));
    },
  });
  // a SUBSCRIBE sent while the connection was still being set up was answered, then lost: the first
  // subscription of a process that had just started heard nothing (seen by the resume test)
  const ready = (): Promise<unknown> =>
    subscriber.status === 'ready' ? Promise.resolve() : new Promise((resolve) => subscriber.once('ready', resolve));
  const channels = new Set<string>();
  return {
    log,
    connections: [publisher, subscriber],
    publish(channel: string, crossing: Crossing): void {
      publisher.publish(channel, JSON.stringify(crossing)).catch(onFailure);
    },
    /** Listens to `channel` (once however often asked) and hands each event of another process to `heard`. */
    listen(channel: string, heard: (channel: string, crossing: Crossing) => void): void {
      if (channels.has(channel)) return;
      if (channels.size === 0) {
        subscriber.on('message', (from: string, message: string) => {
          try {
            heard(from, JSON.parse(message) as Crossing);
          } catch {
            // not one of ours
          }
        });
      }
      channels.add(channel);
      ready()
        .then(() => subscriber.subscribe(channel))
        .catch(onFailure);
    },
  };
}

export function createEvents(options: {
  redisUrl: string | null;
  prefix: string;
  /** An event that could not reach Redis (an outage): it is lost for other processes, and the write stands. */
  onFailure?: (error: unknown) => void;
}): Events {
  let clients: Redis[] = [];
  let failed = 0;
  const fail = (error: unknown) => {
    failed += 1;
    options.onFailure?.(error);
  };
  const redis = options.redisUrl ? redisClients(options.redisUrl, fail) : null;
  if (redis) clients = redis.connections;
  const shared = redis ? redis.log(`${options.prefix}:events`) : null;
  // this process's events (and, without Redis, the only ones), kept for replay too when Redis fails
  const kept = localLog();
  // every subscriber listens here; Redis hands in the events of other processes
  const local = new EventTarget();
  // one listener per subscription: thousands are expected, not a leak
  setMaxListeners(0, local);
  const subscribers = fanOut(local as unknown as Target);
  const origin = randomBytes(8).toString('hex');
  let dropped = 0;
  // channels are namespaced, so that deployments (and test runs) sharing one Redis never mix
  const topic = (name: string) => `${options.prefix}:${name}`;
  const deliver = (channel: string, envelope: Envelope) => local.dispatchEvent(new CustomEvent(channel, { detail: envelope }));
  const heard = (channel: string, crossing: Crossing) => {
    if (crossing.origin !== origin) deliver(channel, crossing.envelope);
  };
  return {
    publish(name, payload) {
      if (!redis || !shared) {
        deliver(topic(name), { id: kept.append(name, payload), payload });
        return;
      }
      // the id comes from Redis's stream, shared by every process; Redis away, this process's own
      // subscribers still hear it, with an id of this process's log (the same form)
      shared.append(name, payload).then(
        (id) => {
          const envelope = { id, payload };
          deliver(topic(name), envelope);
          redis.publish(topic(name), { origin, envelope });
        },
        (error: unknown) => {
          fail(error);
          deliver(topic(name), { id: kept.append(name, payload), payload });
        },
      );
    },
    subscribe(name, { after = null } = {}) {
      redis?.listen(topic(name), heard);
      const live = boundedSubscription<EventPayloads[typeof name]>(subscribers, topic(name), () => (dropped += 1));
      if (after === null || !isEventId(after)) return live;
      // a replay Redis cannot give (an outage) is lost; the live events still come
      const missed = (shared ?? kept).after(name, after).then(
        (events) => events.slice(-REPLAY_MAX_DELIVERED),
        (error: unknown) => {
          fail(error);
          return [];
        },
      );
      return resumed(live, missed);
    },
    dropped: () => dropped,
    failed: () => failed,
    async close() {
      for (const client of clients) client.disconnect();
    },
  };
}
