// The fediverse, on Fedify: every athlete is an ActivityPub `Person` at their page's URL (a browser
// still gets the page), found by WebFinger as `username@host`; their public entries go to their remote
// followers as Notes (Create, Update, Delete), read through the GraphQL schema as anyone sees them
// (reader.ts), so a friends-only or only-me entry, a place or a track never leaves. Remote follows,
// likes and replies come in through signed inboxes (inbox.ts). Deliveries and received activities are
// jobs in the database (store.ts) that survive restarts; Fedify retries deliveries and keeps a circuit
// breaker per server, so one dead or slow server holds back nobody else. docs/FEDERATION.md.
import { createExponentialBackoffPolicy, createFederation, type Federation } from '@fedify/fedify';
import type { Config } from '../config.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import { enqueueJob } from '../db/federation.ts';
import type { OutboxEvent } from '../db/outbox.ts';
import type { FediverseService } from '../graphql/context.ts';
import { errorBody, jsonResponse } from '../http/router.ts';
import type { Logger } from '../log.ts';
import { setDispatchers, VERSION } from './dispatchers.ts';
import { admitted, asksForObject, claimed, inOurWords, RefusedArgument } from './gate.ts';
import { setInbox } from './inbox.ts';
import { isOwnJob, runOwnJob } from './jobs.ts';
import { actorFacts, createKit } from './kit.ts';
import type { FediverseReader } from './reader.ts';
import { DatabaseKvStore, DatabaseMessageQueue } from './store.ts';

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

export function createFediverse({ prisma, config, logger }: FediverseOptions): Fediverse {
  const origin = new URL(config.origin);
  let reader: FediverseReader | null = null;
  const kit = createKit(prisma, origin, logger, () => reader);
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
  setDispatchers(federation, kit);
  setInbox(federation, kit);
  // Fedify's own messages and the service's jobs share the queue: the service's are taken here
  const fedifyListen = queue.listen.bind(queue);
  queue.listen = (handler, options) =>
    fedifyListen(async (message) => {
      if (isOwnJob(message)) await runOwnJob(kit, federation.createContext(origin, undefined), message);
      else await handler(message);
    }, options);
  return {
    host: origin.host,
    origin: origin.origin,
    federation,
    claims: claimed,
    fetch: (request, fallback) => answer(federation, prisma, request, fallback),
    bindReader(bound) {
      reader = bound;
    },
    async relay(tx, events) {
      for (const event of events) {
        if (PUBLISHING_EVENTS.has(event.name) && 'entryId' in event.payload && 'authorId' in event.payload)
          await enqueueJob(tx, { milepost: 'publish', entryId: event.payload.entryId, authorId: event.payload.authorId });
        if (event.name === 'profileChanged' && 'personId' in event.payload)
          await enqueueJob(tx, { milepost: 'profile', personId: event.payload.personId });
      }
    },
    async lookup(reference) {
      try {
        return await actorFacts(prisma, await federation.createContext(origin, undefined).lookupObject(reference));
      } catch (error) {
        logger.warn({ err: error, reference }, 'a fediverse account could not be looked up');
        return null;
      }
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
}

/** Answers a request the fediverse claims, refusals in the service's one error body. */
async function answer(
  federation: Federation<void>,
  prisma: Prisma,
  request: Request,
  fallback: () => Promise<Response>,
): Promise<Response> {
  const gate = await admitted(prisma, request);
  if ('refused' in gate) return gate.refused;
  let response: Response;
  try {
    // nobody there (or not in the fediverse, or not public) is a 404 to a server that asked for ActivityPub;
    // a browser (or an app asking for JSON) gets the page or the API's answer at the same URL
    const notFound = () =>
      asksForObject(request) ? jsonResponse(404, errorBody('NOT_FOUND', 'nothing in the fediverse at this URL')) : fallback();
    response = await federation.fetch(gate.request, { contextData: undefined, onNotFound: notFound, onNotAcceptable: fallback });
  } catch (error) {
    if (error instanceof RefusedArgument) return jsonResponse(400, errorBody('VALIDATION_ERROR', error.message, { field: error.field }));
    throw error;
  }
  if (response.status < 400 || (response.headers.get('content-type') ?? '').includes('json')) return response;
  return inOurWords(request, response, await response.text());
}
