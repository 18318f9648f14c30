// Webhooks for apps: events about a person are queued, in the database, for every app that person
// has authorized and that registered a callback URL; a worker in each process delivers them, signed,
// retrying with backoff. The events come from the outbox, written in the transaction of the write
// they announce, so none is lost to a crash. Nothing here runs inside the request that caused it.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Prisma, Transaction } from '../db/database.ts';
import { claimLeased, startPoller } from '../db/leased-rows.ts';
import { drainOutbox, type OutboxEvent } from '../db/outbox.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { cutCircle, insideZone } from '../domain/privacy-zones.ts';
import { grantedScopes } from '../domain/scopes.ts';
import type { EventName, EventPayloads } from '../events/bus.ts';
import type { Logger } from '../log.ts';
import { isPublicAddress, PrivateAddressError, publicOnlyLookup } from './address-guard.ts';
import { signPayload, standardHeaders } from './signature.ts';

export const MAX_ATTEMPTS = 8;
const SEND_TIMEOUT_MS = 10_000;
const LOCK_MS = 60_000;

/** The events apps receive, under the names they see. */
const WEBHOOK_EVENTS: Partial<Record<EventName, string>> = {
  entryCreated: 'entry.created',
  entryDeleted: 'entry.deleted',
  commentAdded: 'comment.created',
  likeAdded: 'like.created',
};

/** A time as events carry it: UTC to the second. */
const isoSeconds = (time: Date) => time.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A signing secret as Standard Webhooks has it: `whsec_` and 24 random bytes in standard base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** An event's id: stable across its redeliveries (a receiver deduplicates by it), unique otherwise. */
const newEventId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** The types whose rows an event's `*_id` fields name: each gets the global id the API answers beside it. */
const NODE_TYPES: Record<string, string> = {
  entry_id: 'Entry',
  comment_id: 'Comment',
  like_id: 'Like',
  author_id: 'Person',
  person_id: 'Person',
};

/** `data` with a `<name>_node_id` beside each number id: the global id GraphQL and /api/v1 answer. */
function withNodeIds(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const [key, type] of Object.entries(NODE_TYPES))
    if (typeof data[key] === 'number') out[key.replace(/_id$/, '_node_id')] = encodeGlobalID(type, String(data[key]));
  return out;
}

/** The event id a stored body carries (older bodies had none: their delivery's own id stands in). */
function eventIdOf(payload: string, deliveryId: number): string {
  try {
    const id = (JSON.parse(payload) as { id?: unknown }).id;
    return typeof id === 'string' ? id : `msg_delivery_${deliveryId}`;
  } catch {
    return `msg_delivery_${deliveryId}`;
  }
}

/**
 * What an app may be told of an event, by what its live tokens of the person may read (the same rules
 * as its reads): nothing of an only-me entry without `read_all`, and without it no position the
 * person's privacy zones or hidden track ends keep from anyone but themselves. An app holding only a
 * `read` token once received only-me entries and raw in-zone coordinates that `entry(id:)` answered null to.
 */
interface EntryAsStored {
  visibility: string;
  lat: number | null;
  lon: number | null;
  hasTrack: boolean;
}

async function entryAsStored(
  prisma: Pick<Prisma, 'entry'>,
  name: EventName,
  payload: EventPayloads[EventName],
): Promise<EntryAsStored | null> {
  if (!('entryId' in payload)) return null;
  // a deleted entry is gone: its event says what it was
  if (name === 'entryDeleted' && 'visibility' in payload) return { visibility: payload.visibility, lat: null, lon: null, hasTrack: false };
  const entry = await prisma.entry.findUnique({
    where: { id: payload.entryId },
    select: { visibility: true, lat: true, lon: true, track: { select: { id: true } } },
  });
  return entry && { visibility: entry.visibility, lat: entry.lat, lon: entry.lon, hasTrack: entry.track !== null };
}

/** Whether the person's settings keep this place from anyone but themselves (as Entry.geo and nearby do). */
async function placeHidden(prisma: Pick<Prisma, 'person'>, personId: number, entry: EntryAsStored): Promise<boolean> {
  if (entry.lat === null || entry.lon === null) return false;
  const person = await prisma.person.findUnique({
    where: { id: personId },
    select: {
      hiddenEndsMeters: true,
      privacyZones: { select: { lat: true, lon: true, radiusMeters: true, shiftNorthMeters: true, shiftEastMeters: true } },
    },
  });
  if (!person) return true;
  if (insideZone({ lat: entry.lat, lon: entry.lon }, person.privacyZones.map(cutCircle))) return true;
  // by a hidden track end: the track's ends are not read here, so a placed workout with a track keeps its place
  return person.hiddenEndsMeters > 0 && entry.hasTrack;
}

/** An app with a webhook that a person has authorized: the scopes of their live tokens for it. */
interface AuthorizedApp {
  id: number;
  scopes: Array<string | null>;
}

/**
 * What the events of a relayed batch share, read once for all of them: whose each event is (the author
 * of the entry concerned) and which apps with a webhook each of those people holds a live token of. A
 * batch of a hundred events takes two statements, where reading them event by event took three an event,
 * all inside the transaction that holds the outbox (and on SQLite the one writer every request waits for).
 */
interface RelayBatch {
  ownerOf(name: EventName, payload: EventPayloads[EventName]): number | null;
  appsOf(personId: number): readonly AuthorizedApp[];
}

async function readRelayBatch(
  prisma: Pick<Prisma, 'entry' | 'oAuthAccessToken'>,
  events: ReadonlyArray<{ name: EventName; payload: EventPayloads[EventName] }>,
  now: Date,
): Promise<RelayBatch> {
  const relayed = events.filter((event) => WEBHOOK_EVENTS[event.name]);
  const named = (name: EventName, payload: EventPayloads[EventName]) =>
    'authorId' in payload && (name === 'entryCreated' || name === 'entryDeleted') ? payload.authorId : null;
  const entryIds = [
    ...new Set(relayed.flatMap(({ name, payload }) => (named(name, payload) === null && 'entryId' in payload ? [payload.entryId] : []))),
  ];
  const authors = new Map(
    entryIds.length === 0
      ? []
      : (await prisma.entry.findMany({ where: { id: { in: entryIds } }, select: { id: true, authorId: true } })).map((e) => [
          e.id,
          e.authorId,
        ]),
  );
  const ownerOf = (name: EventName, payload: EventPayloads[EventName]) =>
    named(name, payload) ?? ('entryId' in payload ? (authors.get(payload.entryId) ?? null) : null);
  const people = [...new Set(relayed.flatMap(({ name, payload }) => ownerOf(name, payload) ?? []))];
  const tokens =
    people.length === 0
      ? []
      : await prisma.oAuthAccessToken.findMany({
          where: {
            personId: { in: people },
            revokedAt: null,
            client: { webhookUrl: { not: null } },
            OR: [{ expiresAt: null }, { expiresAt: { gt: now } }, { refreshExpiresAt: { gt: now } }],
          },
          select: { personId: true, clientId: true, scope: true },
          orderBy: [{ clientId: 'asc' }, { id: 'asc' }],
        });
  const apps = new Map<number, AuthorizedApp[]>();
  for (const token of tokens) {
    const held = apps.get(token.personId) ?? [];
    let app = held.at(-1);
    if (app?.id !== token.clientId) {
      app = { id: token.clientId, scopes: [] };
      held.push(app);
    }
    app.scopes.push(token.scope);
    apps.set(token.personId, held);
  }
  return { ownerOf, appsOf: (personId) => apps.get(personId) ?? [] };
}

/** Queues the deliveries of one event of `batch` (see readRelayBatch) to the apps that may hear of it. */
async function enqueueWebhooks<K extends EventName>(
  prisma: Pick<Prisma, 'entry' | 'webhookDelivery' | 'person'>,
  baseUrl: string,
  batch: RelayBatch,
  name: K,
  payload: EventPayloads[K],
  now: Date,
): Promise<number> {
  const event = WEBHOOK_EVENTS[name];
  if (!event) return 0;
  const personId = batch.ownerOf(name, payload);
  if (personId === null) return 0;
  const apps = batch.appsOf(personId);
  if (apps.length === 0) return 0;
  const entry = await entryAsStored(prisma, name, payload);
  // an entry gone before its event was relayed (deleted at once): nobody is told of what it was
  if ('entryId' in payload && name !== 'entryDeleted' && entry === null) return 0;
  const hidden = entry ? await placeHidden(prisma, personId, entry) : false;
  const deliveries = apps.flatMap((app) => {
    const readAll = app.scopes.some((scope) => grantedScopes(scope).has('read_all'));
    if (entry?.visibility === 'only_me' && !readAll) return [];
    const data: Record<string, unknown> = { ...payload };
    if ('lat' in data && hidden && !readAll) {
      data.lat = null;
      data.lon = null;
    }
    if ('entryId' in payload && name !== 'entryDeleted') data.entry_url = `${baseUrl}/entries/${payload.entryId}`;
    const snake = Object.fromEntries(Object.entries(data).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
    return [
      {
        clientId: app.id,
        event,
        payload: JSON.stringify({ id: newEventId(), event, occurred_at: isoSeconds(now), data: withNodeIds(snake) }),
      },
    ];
  });
  if (deliveries.length) await prisma.webhookDelivery.createMany({ data: deliveries });
  return deliveries.length;
}

/** Seconds before attempt `n + 1`: 1×, 4×, 16×… the base, at most an hour. */
export function backoffSeconds(attempts: number, baseSeconds: number): number {
  return Math.min(3600, baseSeconds * 4 ** Math.max(0, attempts - 1));
}

interface Answer {
  status: number;
  /** The start of the answer's body, at most `readLimit` bytes. */
  body: string;
}

/**
 * Sends one request and answers its status and the start of its body. Without `allowPrivate`, only to
 * public internet addresses: an IP literal is checked here, a name where it resolves (the connection uses
 * that address).
 */
function send(
  url: string,
  message: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  options: { allowPrivate: boolean; timeoutMs: number; readLimit?: number },
): Promise<Answer> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && !isPublicAddress(host))
    return Promise.reject(new PrivateAddressError(`${host} is not a public internet address`));
  const headers =
    message.body === undefined ? message.headers : { ...message.headers, 'content-length': String(Buffer.byteLength(message.body)) };
  const request: RequestOptions = {
    method: message.method,
    headers,
    timeout: options.timeoutMs,
    ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
  };
  const readLimit = options.readLimit ?? 0;
  return new Promise((resolve, reject) => {
    const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, request, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        // what a receiver says beyond the first bytes is never read into memory
        if (kept < readLimit) chunks.push(chunk.subarray(0, readLimit - kept));
        kept += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
    req.on('error', reject);
    req.end(message.body);
  });
}

/** Why a request got no answer, in words for the delivery log and the developer page. */
function failureText(error: unknown, timeoutMs: number): string {
  const failure = error as Error;
  if (failure.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  if (failure instanceof PrivateAddressError) return `refused: ${failure.message}`;
  return `could not connect: ${failure.message}`;
}

export const CHALLENGE_TIMEOUT_MS = 5_000;

/**
 * Proves that whoever registers a webhook URL controls it, as Strava's subscriptions do: a GET to the URL
 * with `hub.mode=subscribe` and a random `hub.challenge`, which the receiver must answer, within
 * CHALLENGE_TIMEOUT_MS, with status 200 and the JSON `{"hub.challenge": "<the same value>"}`.
 * Answers what went wrong, or null.
 */
export async function webhookChallengeProblem(url: string, options: { allowPrivate: boolean }): Promise<string | null> {
  const challenge = randomBytes(16).toString('hex');
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.challenge', challenge);
  let answer: Answer;
  try {
    answer = await send(
      target.href,
      { method: 'GET', headers: { accept: 'application/json', 'user-agent': 'Milepost-Webhooks/1' } },
      { allowPrivate: options.allowPrivate, timeoutMs: CHALLENGE_TIMEOUT_MS, readLimit: 1024 },
    );
  } catch (error) {
    return `the URL did not answer the challenge: ${failureText(error, CHALLENGE_TIMEOUT_MS)}`;
  }
  if (answer.status !== 200) return `the URL answered the challenge with status ${answer.status}, not 200`;
  let echoed: unknown;
  try {
    echoed = (JSON.parse(answer.body) as Record<string, unknown> | null)?.['hub.challenge'];
  } catch {
    echoed = undefined;
  }
  return echoed === challenge ? null : 'the URL did not echo hub.challenge: answer {"hub.challenge": "<the value sent>"}';
}

export interface DeliveryOptions {
  retryBaseSeconds: number;
  allowPrivate: boolean;
}

async function deliver(prisma: Prisma, id: number, options: DeliveryOptions): Promise<void> {
  const { retryBaseSeconds } = options;
  const row = await prisma.webhookDelivery.findUniqueOrThrow({
    where: { id },
    select: { event: true, payload: true, attempts: true, client: { select: { webhookUrl: true, webhookSecret: true } } },
  });
  const attempts = row.attempts + 1;
  let statusCode: number | null = null;
  let error: string | null = null;
  if (!row.client.webhookUrl || !row.client.webhookSecret) {
    error = 'the app no longer has a webhook URL';
  } else {
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Milepost-Webhooks/1',
        ...standardHeaders(row.client.webhookSecret, eventIdOf(row.payload, id), timestamp, row.payload),
        // the earlier headers, for receivers written before (deprecated: docs/API.md)
        'x-milepost-event': row.event,
        'x-milepost-delivery': String(id),
        'x-milepost-signature': signPayload(row.client.webhookSecret, timestamp, row.payload),
      };
      statusCode = (
        await send(
          row.client.webhookUrl,
          { method: 'POST', headers, body: row.payload },
          {
            allowPrivate: options.allowPrivate,
            timeoutMs: SEND_TIMEOUT_MS,
          },
        )
      ).status;
      if (statusCode < 200 || statusCode > 299) error = `the receiver answered ${statusCode}`;
    } catch (e) {
      error = failureText(e, SEND_TIMEOUT_MS);
    }
  }
  if (!error) {
    await prisma.webhookDelivery.update({
      where: { id },
      data: { status: 'delivered', attempts, lastStatusCode: statusCode, lastError: null, deliveredAt: new Date(), lockedUntil: null },
    });
    return;
  }
  const giveUp = attempts >= MAX_ATTEMPTS;
  await prisma.webhookDelivery.update({
    where: { id },
    data: {
      status: giveUp ? 'failed' : 'pending',
      attempts,
      lastStatusCode: statusCode,
      lastError: error,
      lockedUntil: null,
      nextAttemptAt: new Date(Date.now() + backoffSeconds(attempts, retryBaseSeconds) * 1000),
    },
  });
}

/**
 * Queues a delivery already claimed by this process and sends it at once, so that the page which asked can
 * show how it went. Should it fail, the worker retries it like any other once the claim lapses.
 */
async function sendNow(prisma: Prisma, clientId: number, event: string, payload: string, options: DeliveryOptions): Promise<number> {
  const { id } = await prisma.webhookDelivery.create({
    data: { clientId, event, payload, status: 'sending', lockedUntil: new Date(Date.now() + LOCK_MS) },
    select: { id: true },
  });
  await deliver(prisma, id, options);
  return id;
}

/** Sends an owned app's webhook a `ping` event, signed like every other; answers the delivery's id. */
export async function sendTestEvent(prisma: Prisma, ownerId: number, clientId: string, options: DeliveryOptions): Promise<number> {
  const app = await prisma.oAuthClient.findFirst({ where: { clientId, ownerId }, select: { id: true, webhookUrl: true } });
  if (!app) throw new NotFoundError('app', clientId);
  if (!app.webhookUrl) throw ValidationError.field('webhook_url', 'the app has no webhook URL: set one first');
  const body = JSON.stringify({ id: newEventId(), event: 'ping', occurred_at: isoSeconds(new Date()), data: { client_id: clientId } });
  return sendNow(prisma, app.id, 'ping', body, options);
}

/**
 * Sends a finished delivery of an owned app again: the same event and body, as a new delivery with its own
 * id and log line (the old one stays as it was). Answers the new delivery's id.
 */
export async function redeliver(
  prisma: Prisma,
  owner: { ownerId: number; clientId: string },
  deliveryId: number,
  options: DeliveryOptions,
): Promise<number> {
  const row = await prisma.webhookDelivery.findFirst({
    where: { id: deliveryId, client: owner },
    select: { clientId: true, event: true, payload: true, status: true },
  });
  if (!row) throw new NotFoundError('delivery', String(deliveryId));
  if (row.status === 'pending' || row.status === 'sending')
    throw ValidationError.field('delivery', 'this delivery is still being tried: wait for it to fail or succeed');
  return sendNow(prisma, row.clientId, row.event, row.payload, options);
}

export interface WebhookWorker {
  /** Queues what the outbox holds and delivers what is due now; the timer calls it, and tests may too. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export interface WebhookWorkerOptions {
  pollMs: number;
  retryBaseSeconds: number;
  /** The service's public origin, for the `entry_url` of events. */
  origin: string;
  /** Deliver to private and loopback addresses too (WEBHOOK_ALLOW_PRIVATE: tests, internal deployments). */
  allowPrivate?: boolean;
  logger?: Pick<Logger, 'error'>;
  /** What else the outbox's events are relayed to, in the same transaction (the fediverse). */
  alsoRelay?: (tx: Transaction, events: readonly OutboxEvent[]) => Promise<void>;
}

/** Turns outbox events into deliveries, in the transaction that takes them from the outbox. */
export function relayOutbox(prisma: Prisma, origin: string, alsoRelay?: WebhookWorkerOptions['alsoRelay']): Promise<number> {
  return drainOutbox(prisma, async (tx, events) => {
    const now = new Date();
    const batch = await readRelayBatch(tx, events, now);
    for (const event of events) await enqueueWebhooks(tx, origin, batch, event.name, event.payload, now);
    await alsoRelay?.(tx, events);
  });
}

export function startWebhookWorker(prisma: Prisma, options: WebhookWorkerOptions): WebhookWorker {
  const deliveries = prisma.webhookDelivery;
  return startPoller(
    async () => {
      await relayOutbox(prisma, options.origin, options.alsoRelay);
      for (const id of await claimLeased(deliveries, 20, LOCK_MS))
        await deliver(prisma, id, { retryBaseSeconds: options.retryBaseSeconds, allowPrivate: options.allowPrivate ?? false });
    },
    options.pollMs,
    'webhook delivery failed',
    options.logger,
  );
}
