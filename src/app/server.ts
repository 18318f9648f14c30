// Assembles the HTTP service: the edge (edge.ts), dispatch to GraphQL, the REST layers, the pages and
// the service's own routes (dispatch.ts), and the GraphQL endpoint (graphql-endpoint.ts).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServerAdapter } from '@whatwg-node/server';
import { mountAccountRoutes } from '../account/routes.ts';
import { hasSessionCookie } from '../auth/session.ts';
import { GuessThrottle } from '../auth/throttle.ts';
import { sessionViewer, type Viewer } from '../auth/viewer.ts';
import { createDirectQueries } from '../cache/direct-queries.ts';
import { EntryFragments } from '../cache/entry-fragments.ts';
import { fullUrlOf, withFastReads } from '../cache/fast-read.ts';
import { ResponseCache, readKey } from '../cache/response-cache.ts';
import { SplicedPages } from '../cache/spliced-pages.ts';
import type { Config } from '../config.ts';
import { createChangeClock } from '../db/change-clock.ts';
import type { Database } from '../db/database.ts';
import { createTokenRecognizer } from '../db/token-viewers.ts';
import { createEvents, type Events } from '../events/bus.ts';
import { createFediverse, type Fediverse } from '../federation/federation.ts';
import { createReader } from '../federation/reader.ts';
import { createPersistedQueryStore } from '../graphql/persisted-queries.ts';
import { schema } from '../graphql/schema.ts';
import { createMetrics, type Metrics } from '../http/metrics.ts';
import { boundedRedis, createAdmission, createRateLimiter, type RateDecision, rateLimitKey, redisReady } from '../http/rate-limit.ts';
import { Router } from '../http/router.ts';
import { closeFitPool } from '../imports/fit-pool.ts';
import { createLogger, type Logger } from '../log.ts';
import { createMediaStore, type MediaStore } from '../media/store.ts';
import { mountOAuthRoutes } from '../oauth/routes.ts';
import { pageSession } from '../pages/kit.ts';
import { createOperationRunner } from '../rest/execute.ts';
import { createGeneratedApi } from '../rest/generated-api.ts';
import { mountRestRoutes } from '../rest/routes.ts';
import { closeTrackPool } from '../tracks/pool.ts';
import { mountWebActions } from '../web/actions.ts';
import { mountPageAssets } from '../web/assets.ts';
import { mountWebPages } from '../web/routes.ts';
import { createDispatch, mountDocuments, mountProbes, routeLabeller } from './dispatch.ts';
import { createGuard, createNodeListener, createObserved, createObserver, MAX_URL_LENGTH } from './edge.ts';
import { createGraphQLHandler, createGraphQLServer, type GraphQLServer } from './graphql-endpoint.ts';
import { createRequestContexts, type RequestContexts, schemeOf } from './request-context.ts';

export { MAX_BATCH_OPERATIONS } from './graphql-endpoint.ts';

export interface App {
  yoga: GraphQLServer;
  /** In-process entry point: tests call it without opening a port. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  listener: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
  /** Stopping: answers from now on carry `Connection: close`. */
  drain(): void;
  /** The one way a request's GraphQL context is made (the WebSocket transport uses it too). */
  contexts: RequestContexts;
  events: Events;
  logger: Logger;
  metrics: Metrics;
  /** Where photos and uploaded archives are kept (MEDIA_DIR). */
  media: MediaStore;
  /** Resolves when the shared stores answer (Redis), so that limits are shared from the first request. */
  ready(): Promise<boolean>;
  /** Counts one request against the shared rate limit (the WebSocket transport uses it). */
  rateLimit(token: string | null, clientAddress: string): Promise<RateDecision>;
  /** The fediverse (ActivityPub), when FEDERATION=true: its queue is started beside the server (cli/serve.ts). */
  fediverse: Fediverse | null;
  /** Releases what the app holds besides the database (its Redis connections). */
  close(): Promise<void>;
}

export interface AppOptions {
  /** Where log lines go (tests pass their own); by default stdout, as config says. */
  logger?: Logger;
  /** Newest entries the nearby search reads first (tests set 1 to reach its bounding-box path). */
  nearbyProbeRows?: number;
  /** Rows of the time index a step of the nearby search's walk reads (tests set a few to walk in several steps). */
  nearbyWalkRows?: number;
  /** How often a subscription over server-sent events asks whether its token still works (tests set it short). */
  tokenRecheckMs?: number;
  /** Live subscriptions of one athlete or address over every transport (tests set it low). */
  maxSubscriptionsPerOwner?: number;
}

export function createApp(config: Config, database: Database, options: AppOptions = {}): App {
  const base = createFoundation(config, database, options);
  const { logger, metrics, contexts, limiter, cache } = base;
  const yoga = createGraphQLServer({
    config,
    metrics,
    contexts,
    persistedQueries: base.persistedQueries,
    // called while a subscription lives, long after `routes` below is made
    sessionStillValid: async (request) => (await routes.sessionViewerOf(request)) !== null,
    logger,
    maxSubscriptionsPerOwner: options.maxSubscriptionsPerOwner,
  });
  const routes = createRoutes(config, database, base, yoga);
  base.fediverse?.bindReader(createReader(createOperationRunner(yoga), base.fediverse.origin, contexts.forViewer));
  /** The key of an anonymous read, the same one node:http's fast path computes. */
  const cacheKey = (request: Request, serverContext: { req?: IncomingMessage }, body = '') =>
    readKey(
      request.method,
      serverContext.req
        ? fullUrlOf(serverContext.req, config.trustProxy)
        : `${schemeOf(request, config.trustProxy)}:${request.url.slice(request.url.indexOf(':') + 1)}`,
      request.headers.get('accept'),
      body,
    );
  // a JSON query answered without yoga's HTTP pipeline when it is the common case (direct-queries.ts);
  // not with trusted documents: that path runs any text, and only yoga's checks the ids
  const direct = config.trustedDocuments
    ? null
    : createDirectQueries(
        yoga,
        (request, server) =>
          server?.sessionViewer ? Promise.resolve(contexts.forViewer(request, server.sessionViewer)) : contexts.forRequest(request),
        routes.fragments,
      );
  const { sessionViewerOf } = routes;
  const graphql = createGraphQLHandler({
    yoga,
    config,
    logger,
    limiter,
    cache,
    cacheKey,
    direct,
    sessionViewerOf,
  });
  const handle = createDispatch({ graphql, ...routes, cache, cacheKey, fediverse: base.fediverse });
  const observe = createObserver(metrics, logger, routeLabeller(routes));
  const guarded = createGuard({ config, handle, admit: base.admit, recognizeToken: base.recognizeToken, metrics, logger });
  const adapter = createServerAdapter<{ req?: IncomingMessage }>(createObserved(guarded, observe));
  // cached anonymous GETs skip the fetch-API adapter (see fast-read.ts)
  const fastReads = { admit: base.admit, maxUrlLength: MAX_URL_LENGTH, trustProxy: config.trustProxy, observe };
  const listener = cache ? withFastReads({ ...fastReads, cache, enabled: () => !config.maintenance }, adapter) : adapter;
  return {
    yoga,
    fetch: async (input, init) => adapter.fetch(input, init ?? {}),
    listener: createNodeListener(listener, { metrics, logger, draining: () => base.draining }),
    contexts,
    drain: () => void (base.draining = true),
    events: base.events,
    logger,
    metrics,
    media: base.media,
    ready: async () => (await Promise.all([limiter.ready(), redisReady(base.persistedRedis)])).every(Boolean),
    rateLimit: (token, address) => limiter.consume(rateLimitKey(token, address)),
    fediverse: base.fediverse,
    close: base.close,
  };
}

/** What every part of the service shares: logging, metrics, events, contexts, limits and the response cache. */
function createFoundation(config: Config, database: Database, options: AppOptions) {
  const logger = options.logger ?? createLogger(config);
  const metrics = createMetrics();
  const stopCountingQueries = database.onQuery((ms) => metrics.query(ms));
  const events = createEvents({
    redisUrl: config.redisUrl,
    prefix: `${config.redisKeyPrefix}:events`,
    onFailure: (error) => {
      metrics.eventFailed();
      logger.warn({ err: error }, 'could not publish an event to Redis; the write stands');
    },
  });
  const media = createMediaStore(config.mediaDir);
  const fediverse = config.federation ? createFediverse({ prisma: database.prisma, config: config.federation, logger }) : null;
  const nearby = {
    ...(fediverse ? { fediverse } : {}),
    ...(options.nearbyProbeRows ? { nearbyProbeRows: options.nearbyProbeRows } : {}),
    ...(options.nearbyWalkRows ? { nearbyWalkRows: options.nearbyWalkRows } : {}),
    ...(options.tokenRecheckMs ? { tokenRecheckMs: options.tokenRecheckMs } : {}),
  };
  const contexts = createRequestContexts(config, database, events, media, nearby);
  // registered texts of automatic persisted queries, shared between processes through Redis
  const persistedRedis = config.redisUrl ? boundedRedis(config.redisUrl) : null;
  const persistedQueries = createPersistedQueryStore(persistedRedis, config.redisKeyPrefix);
  const limiter = createRateLimiter(config);
  const admit = createAdmission({
    consume: (key) => limiter.consume(key),
    trustProxy: config.trustProxy,
    windowSeconds: config.rateLimit.windowSeconds,
  });
  const clock = config.responseCacheMb > 0 ? createChangeClock(config.database) : null;
  const cache = clock ? new ResponseCache(clock, config.responseCacheMb * 1024 * 1024) : null;
  if (cache) metrics.watchCache(() => cache.statistics());
  const close = async () => {
    stopCountingQueries();
    await Promise.all([
      limiter.close(),
      events.close(),
      persistedRedis?.quit().catch(() => undefined),
      clock?.close(),
      closeFitPool(),
      closeTrackPool(),
    ]);
  };
  const recognizeToken = createTokenRecognizer(database.prisma);
  return {
    logger,
    metrics,
    events,
    media,
    contexts,
    persistedRedis,
    persistedQueries,
    limiter,
    admit,
    recognizeToken,
    cache,
    close,
    fediverse,
    draining: false,
  };
}

/** The routers of everything but /graphql: the service's own routes, the pages, /api/v1 and the legacy paths. */
function createRoutes(config: Config, database: Database, base: ReturnType<typeof createFoundation>, yoga: GraphQLServer) {
  const { contexts, limiter, metrics, media } = base;
  // each entry's JSON kept per version, for the stream pages of the REST layer, /api/v1 and GraphQL alike
  const fragments = new EntryFragments(config.entryJsonMb * 1_000_000);
  // every query and mutation as REST at /api/v1, generated by sofa-api from the schema
  const api = createGeneratedApi({
    schema,
    run: createOperationRunner(yoga),
    context: (request, exchange) => contexts.forRequest(request, null, exchange),
    pages: fragments.enabled ? new SplicedPages(fragments) : undefined,
  });
  /** The pages' session of a request (its log-in cookie), as the pages and the photos read it. */
  const sessionOf = (request: Request) =>
    pageSession({ prisma: database.prisma, sessionSecret: config.sessionSecret, baseUrl: contexts.baseUrl }, request);
  /** The athlete a request's log-in session belongs to, as a viewer; null without a valid one. */
  const sessionViewerOf = async (request: Request): Promise<Viewer | null> => {
    if (!hasSessionCookie(request.headers.get('cookie'))) return null;
    const { viewer } = await sessionOf(request);
    return viewer && sessionViewer(viewer);
  };
  const router = new Router();
  mountProbes(router, { config, database, limiter, metrics, contexts, draining: () => base.draining });
  // the account pages and the authorization server: one guessing throttle for log-ins and token requests
  const pageOptions = {
    prisma: database.prisma,
    sessionSecret: config.sessionSecret,
    baseUrl: contexts.baseUrl,
    throttle: new GuessThrottle((rule) => limiter.attemptCounter(rule)),
  };
  mountAccountRoutes(router, { ...pageOptions, webhooks: config.webhooks, media });
  mountOAuthRoutes(router, { ...pageOptions, tokenLifetimes: config.tokenLifetimes });
  // the pages the API's `url` fields point at, for browsers (dispatch.ts: by the Accept header)
  const pages = new Router();
  const web = { run: createOperationRunner(yoga), context: contexts.forViewer, session: sessionOf, tiles: config.mapTiles };
  const pageNotFound = mountWebPages(pages, web);
  // the athlete's forms (post, comment, like, befriend, settings): any Accept, on the service's router
  mountWebActions(router, web);
  mountPageAssets(router);
  // the legacy paths answer with or without `.json`, so they route on the path without its extension
  const rest = new Router();
  const legacyPaths = mountRestRoutes(rest, { run: createOperationRunner(yoga), context: contexts.forRequest, fragments });
  const runMedia = createOperationRunner(yoga);
  mountDocuments(router, { config, contexts, database, media, api, legacyPaths, runMedia, sessionViewerOf });
  return { api, router, pages, pageNotFound, rest, fragments, sessionViewerOf };
}

/** How long a client may take to send its headers (slowloris). */
export const HEADERS_TIMEOUT_MS = 20_000;

export function listen(app: App, config: Config, bounds: { headersTimeoutMs?: number } = {}): Promise<Server> {
  const headersTimeout = bounds.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const options = {
    // bounds for slow or oversized clients
    maxHeaderSize: 16 * 1024,
    requestTimeout: 120_000,
    headersTimeout,
    keepAliveTimeout: 5_000,
    // node checks those timeouts every 30 s by default: a 20 s bound cut slow clients at 30-40 s
    connectionsCheckingInterval: Math.min(1_000, headersTimeout / 4),
  };
  // the listener answers every request itself, failures included (createNodeListener): node:http only starts it
  const listener = (request: IncomingMessage, response: ServerResponse) => void app.listener(request, response);
  const server = config.tls
    ? createHttpsServer({ ...options, cert: readFileSync(config.tls.cert), key: readFileSync(config.tls.key) }, listener)
    : createServer(options, listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server));
  });
}
