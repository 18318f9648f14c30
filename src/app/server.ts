// Assembles the HTTP service: GraphQL at /graphql, health at /healthz, JSON 404 elsewhere.
import { hasSessionCookie } from '../auth/session.ts';
import { MAX_ARCHIVE_UPLOAD_BYTES } from '../http/archive-upload.ts';
import { closeFitPool } from '../imports/fit-pool.ts';
import { closeTrackPool } from '../tracks/pool.ts';
import { readFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { DEFAULT_MAX_GPX_BYTES } from '../domain/gpx.ts';
import { graphqlHardening } from '../http/graphql-hardening.ts';
import {
  boundedRedis,
  createAdmission,
  createRateLimiter,
  rateLimitedReply,
  rateLimitKey,
  redisReady,
  type RateDecision,
} from '../http/rate-limit.ts';
import { fullUrlOf, requestIdOf, withFastReads, type Observation } from '../http/fast-read.ts';
import { isValidHost } from '../http/host.ts';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createServerAdapter } from '@whatwg-node/server';
import { GraphQLError, parse } from 'graphql';
import { createChangeClock } from '../db/change-clock.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';
import { isQueryOperation, readKey, ResponseCache } from '../http/response-cache.ts';
import { createGraphQLError, createYoga, maskError, type YogaServerInstance } from 'graphql-yoga';
import { DomainError } from '../domain/errors.ts';
import { useEventIds } from '../graphql/event-ids.ts';
import { withEventIds } from '../http/sse-ids.ts';
import { GuessThrottle } from '../auth/throttle.ts';
import { clientOfRequest, createTokenRecognizer, tokenFromRequest, tokenRefusal, viewerOfRequest } from '../auth/tokens.ts';
import type { Viewer } from '../auth/viewer.ts';
import { MediaPhotoDocument } from '../operations/generated.ts';
import { createLogger, type Logger } from '../log.ts';
import { createMetrics, type Metrics } from '../http/metrics.ts';
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { useSchemaChecks } from '../graphql/builder.ts';
import type { Context } from '../graphql/context.ts';
import { createRequestContexts, schemeOf, type RequestContexts } from './request-context.ts';
import { createEvents, type Events } from '../events/bus.ts';
import { useCompiledExecution } from '../graphql/compiled-execution.ts';
import { useIdempotencyKeys } from '../graphql/idempotency.ts';
import { createPersistedQueryStore, usePersistedQueries } from '../graphql/persisted-queries.ts';
import { schema } from '../graphql/schema.ts';
import { mountAccountRoutes } from '../account/routes.ts';
import { pageSession } from '../account/page-kit.ts';
import { mountOAuthRoutes } from '../oauth/routes.ts';
import { createOperationRunner } from '../rest/execute.ts';
import { prefersHtml, splitExtension } from '../http/negotiation.ts';
import { mountWebPages } from '../web/routes.ts';
import { EntryFragments } from '../http/entry-fragments.ts';
import { mountRestRoutes } from '../rest/routes.ts';
import { API_BASE, createGeneratedApi } from '../rest/generated-api.ts';
import { avatarSvg } from '../http/avatar.ts';
import { mediaFile } from '../http/media.ts';
import { createMediaStore, type MediaStore } from '../media/store.ts';
import { compressResponse } from '../http/compression.ts';
import { createDirectQueries } from '../http/direct-queries.ts';
import { BodyTooLargeError, discardRest, hasNul, JSON_LIMIT_BYTES, MalformedBodyError, readLimitedText } from '../http/body.ts';
import { readGraphQLMultipart, releaseUploads, useReadUploads } from '../http/multipart.ts';
import { errorBody, errorResponse, FORM_LIMIT_BYTES, htmlResponse, jsonResponse, routeOf, Router } from '../http/router.ts';
import { docsPage, openApiDocument } from '../rest/openapi.ts';
import { ALL_SCOPES } from '../domain/scopes.ts';
import { GRAPHIQL_ASSET_PATH, graphiqlAsset, renderGraphiQLPage, useGraphiQLPolicy } from '../http/graphiql.ts';
import { CSRF_HEADERS } from '../http/csrf.ts';

/** Operations one batched request may hold. */
export const MAX_BATCH_OPERATIONS = 10;

/** How many operations a JSON body holds: the length of a batch's array, else one. */
function batchSize(body: string): number {
  if (!body.trimStart().startsWith('[')) return 1;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? Math.min(parsed.length, MAX_BATCH_OPERATIONS) : 1;
  } catch {
    return 1;
  }
}

const DEFAULT_QUERY = `# The public stream: the 20 newest entries with their authors, workouts, comments and likes.
query PublicStream {
  publicStream {
    edges {
      node {
        id url at message
        author { username displayName }
        workout { activityType distance { value units } duration felt title }
        comments { totalCount edges { node { body author { username } } } }
        likes { totalCount }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

export interface App {
  yoga: YogaServerInstance<Record<string, never>, Context>;
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
  /** Releases what the app holds besides the database (its Redis connections). */
  close(): Promise<void>;
}

export interface AppOptions {
  /** Where log lines go (tests pass their own); by default stdout, as config says. */
  logger?: Logger;
  /** Newest entries the nearby search reads first (tests set 1 to reach its bounding-box path). */
  nearbyProbeRows?: number;
}

export function createApp(config: Config, database: Database, options: AppOptions = {}): App {
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
  const contexts = createRequestContexts(
    config,
    database,
    events,
    media,
    options.nearbyProbeRows ? { nearbyProbeRows: options.nearbyProbeRows } : {},
  );
  // registered texts of automatic persisted queries, shared between processes through Redis
  const persistedRedis = config.redisUrl ? boundedRedis(config.redisUrl) : null;
  const persistedQueries = createPersistedQueryStore(persistedRedis, config.redisKeyPrefix);
  const yoga = createYoga<Record<string, never>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.graphiql ? { title: 'Milepost GraphQL', defaultQuery: DEFAULT_QUERY } : false,
    // served from here, never from a CDN (http/graphiql.ts)
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    maskedErrors: {
      isDev: config.exposeErrors,
      // expected failures keep their message, code and typed error's fields where no union carries
      // them (a stream's refused argument, a subscription refused at its start); the rest stays masked
      maskError: (error, message, isDev) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original instanceof DomainError)
          return createGraphQLError(original.message, {
            extensions: { ...original.extensions() },
            ...(error instanceof GraphQLError ? { path: error.path, nodes: error.nodes } : {}),
          });
        if (isDatabaseUnavailable(original))
          return createGraphQLError('the database is unavailable; try again shortly', {
            extensions: {
              code: 'SERVICE_UNAVAILABLE',
              http: { status: 503, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } },
            },
          });
        return maskError(error, message, isDev);
      },
    },
    plugins: [
      // after the transports have read theirs (the WebSocket's enveloped functions), the root value is this server's settings
      useSchemaChecks({ strict: config.env !== 'production' }),
      useCompiledExecution(),
      // a subscription result names the event it came from (SSE ids, Last-Event-ID)
      useEventIds(),
      ...graphqlHardening(config),
      // a create retried with the same Idempotency-Key answers as the first time (REST runs through here too)
      useIdempotencyKeys(),
      // operation metrics (parse, validate, execute, errors) into the same registry; /metrics serves it.
      // Off: the deprecated-field counter walks every request's document with a TypeInfo (2.4% of a
      // token read's CPU) and the schema deprecates nothing; the HTTP duration repeats
      // milepost_http_request_duration_seconds; the time summary's quantiles cost more than the histogram.
      usePrometheus({
        registry: metrics.registry,
        endpoint: false,
        metrics: {
          graphql_envelop_deprecated_field: false,
          graphql_yoga_http_duration: false,
          graphql_envelop_request_time_summary: false,
        },
      }),
      useGraphiQLPolicy(),
      // @defer and @stream, answered in parts over multipart/mixed or server-sent events
      useDeferStream(),
      // automatic persisted queries, or only the trusted documents when TRUSTED_DOCUMENTS is set
      ...usePersistedQueries(persistedQueries, config.trustedDocuments),
      {
        // PostgreSQL text cannot hold NUL: refuse it in any query or variable before it reaches a resolver
        onParams({ params }) {
          if (hasNul(params.query) || hasNul(params.variables)) {
            throw createGraphQLError('strings may not contain NUL characters', {
              extensions: { code: 'INVALID_CHARACTER', http: { status: 400 } },
            });
          }
        },
      },
      {
        // `variables` or `extensions` that are not JSON are the client's mistake: a 400 naming them, not a 500
        onRequestParse({ requestParser, setRequestParser }) {
          if (!requestParser) return;
          setRequestParser(async (request) => {
            try {
              return await requestParser(request);
            } catch (error) {
              if (!(error instanceof SyntaxError)) throw error;
              const field = notJson(new URL(request.url).searchParams) ?? 'variables';
              throw createGraphQLError(`${field} is not JSON: ${error.message}`, {
                extensions: { code: 'BAD_REQUEST', field, http: { status: 400 } },
              });
            }
          });
        },
      },
      // a browser may not send a GraphQL request that skips the CORS preflight (a simple GET, a form
      // post) unless it carries one of these headers; an Authorization header already forces one
      useCSRFPrevention({ requestHeaders: CSRF_HEADERS }),
      // multipart requests (uploads) are read at the edge, their files to temporary files as they arrive
      useReadUploads(),
    ],
    multipart: false,
    // an array of operations in one POST (Apollo's BatchHttpLink), each costed and rate-limited as if alone
    batching: { limit: MAX_BATCH_OPERATIONS },
    // the REST layer resolves the viewer itself (the token may sit in a form body) and passes the
    // whole context in; GraphQL requests get theirs from the request
    context: async (initial) => {
      if ('viewer' in initial) return initial as unknown as Context;
      const session = sessionViewers.get(initial.request);
      if (session) return contexts.forViewer(initial.request, session);
      try {
        return await contexts.forRequest(initial.request);
      } catch (error) {
        const refusal = tokenRefusal(error);
        if (!refusal) throw error;
        throw createGraphQLError(refusal.message, {
          extensions: { code: refusal.code, http: { status: refusal.status, headers: refusal.headers } },
        });
      }
    },
  });

  const limiter = createRateLimiter(config);
  const admit = createAdmission({
    consume: (key) => limiter.consume(key),
    trustProxy: config.trustProxy,
    windowSeconds: config.rateLimit.windowSeconds,
  });
  const recognizeToken = createTokenRecognizer(database.prisma);
  // every query and mutation as REST at /api/v1, generated by sofa-api from the schema
  const api = createGeneratedApi({ schema, run: createOperationRunner(yoga), context: (request) => contexts.forRequest(request) });

  const router = new Router();
  router.get('/healthz', () => jsonResponse(200, { status: 'ok' }));
  if (config.graphiql)
    router.get(
      `${GRAPHIQL_ASSET_PATH}/:asset`,
      async ({ params }) => (await graphiqlAsset(params.asset!)) ?? errorResponse(404, 'NOT_FOUND', `no GraphiQL asset ${params.asset}`),
    );
  // ready to take traffic: the database answers, and Redis too when it is configured
  router.get('/readyz', async () => {
    // stopping: a load balancer takes this instance out while it finishes what it has
    if (draining) return jsonResponse(503, { status: 'draining' });
    // bounded: a database behind a network blackhole makes the probe say so, not hang
    const databaseStatus = await Promise.race([
      database.prisma.$queryRawUnsafe('SELECT 1').then(
        () => 'ok',
        () => 'unavailable',
      ),
      new Promise<string>((resolve) => setTimeout(resolve, 2_000, 'unavailable').unref()),
    ]);
    const redisStatus = await limiter.redisStatus();
    // without Redis this process still serves (limits and events fall back to memory): degraded, not
    // out of service; without the database it cannot
    const ready = databaseStatus === 'ok';
    const status = !ready ? 'not ready' : redisStatus === 'unavailable' ? 'degraded' : 'ready';
    return jsonResponse(ready ? 200 : 503, { status, database: databaseStatus, redis: redisStatus });
  });
  router.get('/', ({ request }) => jsonResponse(200, { name: 'Milepost', graphql: `${contexts.baseUrl(request)}/graphql` }));
  router.get('/metrics', async ({ request }) => {
    if (!config.metricsToken && !config.metricsPublic) {
      return errorResponse(403, 'FORBIDDEN', 'metrics are closed: set METRICS_TOKEN (or METRICS_PUBLIC=true) to open them');
    }
    if (config.metricsToken && request.headers.get('authorization') !== `Bearer ${config.metricsToken}`) {
      return errorResponse(401, 'NOT_AUTHORIZED', 'metrics need Authorization: Bearer <METRICS_TOKEN>', {
        'www-authenticate': 'Bearer realm="milepost metrics"',
      });
    }
    return new Response(await metrics.render(), {
      status: 200,
      headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' },
    });
  });
  router.get('/people/:username/avatar.svg', ({ params }) => avatarSvg(params.username!));
  // a photo goes to whoever may see an entry that shows it: an app by its token, a browser by its session
  const runMedia = createOperationRunner(yoga);
  /** The pages' session of a request (its log-in cookie), as the pages and the photos read it. */
  const sessionOf = (request: Request) =>
    pageSession({ prisma: database.prisma, sessionSecret: config.sessionSecret, baseUrl: contexts.baseUrl }, request);
  /** The athlete a request's log-in session belongs to, as a viewer; null without a valid one. */
  const sessionViewerOf = async (request: Request): Promise<Viewer | null> => {
    if (!hasSessionCookie(request.headers.get('cookie'))) return null;
    const { viewer } = await sessionOf(request);
    return viewer && { id: viewer.id, username: viewer.username, clientId: null, scopes: new Set(ALL_SCOPES) };
  };
  router.get('/media/:name', async ({ request, params }) => {
    const viewer = (await viewerOfRequest(database, request)) ?? (await sessionViewerOf(request));
    const { data, errors } = await runMedia(MediaPhotoDocument, request, contexts.forViewer(request, viewer), { name: params.name! });
    if (errors?.length) throw new Error(`photo access failed: ${errors[0]!.message}`);
    return mediaFile(media, params.name!, request, data?.photo ?? null);
  });
  router.get('/openapi.json', ({ request }) => withCors(jsonResponse(200, openApiDocument(contexts.baseUrl(request), api.describe()))));
  router.get('/docs', ({ request }) => htmlResponse(200, docsPage(openApiDocument(contexts.baseUrl(request), api.describe()))));
  // the account pages and the authorization server: one guessing throttle for log-ins and token requests
  const pageOptions = {
    prisma: database.prisma,
    sessionSecret: config.sessionSecret,
    baseUrl: contexts.baseUrl,
    throttle: new GuessThrottle((rule) => limiter.attemptCounter(rule)),
  };
  mountAccountRoutes(router, { ...pageOptions, webhooks: config.webhooks, media });
  mountOAuthRoutes(router, { ...pageOptions, tokenLifetimes: config.tokenLifetimes });

  // the pages the API's `url` fields point at, for browsers (see handle: by the Accept header)
  const pages = new Router();
  mountWebPages(pages, {
    run: createOperationRunner(yoga),
    context: (request) => contexts.forViewer(request, null),
    session: sessionOf,
  });

  // the legacy paths answer with or without `.json`, so they route on the path without its extension
  const rest = new Router();
  // each entry's JSON kept per version, for the stream pages of the REST layer and of GraphQL alike
  const fragments = new EntryFragments(config.entryJsonMb * 1_000_000);
  mountRestRoutes(rest, { run: createOperationRunner(yoga), context: contexts.forRequest, fragments });

  const clock = config.responseCacheMb > 0 ? createChangeClock(config.database) : null;
  const cache = clock ? new ResponseCache(clock, config.responseCacheMb * 1024 * 1024) : null;
  if (cache) metrics.watchCache(() => cache.statistics());
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

  /**
   * The athlete a GraphQL request without a token runs as when it carries their pages' log-in session
   * (GraphiQL in their browser). Safe from other sites: a JSON POST from elsewhere needs a CORS
   * preflight that /graphql never grants with credentials, the session cookie is SameSite, and yoga's
   * CSRF rule refuses the requests a browser sends without a preflight (a GET, a form).
   */
  const sessionViewers = new WeakMap<Request, Viewer>();

  /** The rate-limit budget each admitted request spent, for the further operations of a batch. */
  const budgets = new WeakMap<Request, string>();

  // a JSON query answered without yoga's HTTP pipeline when it is the common case (direct-queries.ts)
  // not with trusted documents: that path runs any text, and only yoga's checks the ids
  const direct = config.trustedDocuments
    ? null
    : createDirectQueries(
        yoga,
        (request) => {
          const session = sessionViewers.get(request);
          return session ? Promise.resolve(contexts.forViewer(request, session)) : contexts.forRequest(request);
        },
        fragments,
      );
  /** GraphQL's answer; a stream of server-sent events with each event's `id:` (http/sse-ids.ts). */
  const graphql = async (request: Request, serverContext: { req?: IncomingMessage }, tokenless: boolean): Promise<Response> => {
    const response = await graphqlAnswer(request, serverContext, tokenless);
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    return new Response(withEventIds(response.body), { status: response.status, headers: response.headers });
  };
  const graphqlAnswer = async (request: Request, serverContext: { req?: IncomingMessage }, tokenless: boolean): Promise<Response> => {
    const session = tokenless ? await sessionViewerOf(request) : null;
    if (session) sessionViewers.set(request, session);
    // a logged-in session is a viewer: its reads are its own, never the anonymous cache's
    const anonymous = tokenless && !session;
    const type = request.headers.get('content-type') ?? '';
    if (request.method === 'POST' && /^multipart\/form-data\b/i.test(type)) {
      const read = await readGraphQLMultipart(request).catch((error: unknown) => {
        // a client that went away is the edge's to count; anything else (a disk that cannot take the
        // file) is the server's fault, answered as GraphQL answers one
        if (request.signal?.aborted) throw error;
        logger.error({ err: error, method: request.method, path: '/graphql' }, 'unexpected error');
        return { status: 500, body: { errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL' } }] } };
      });
      if (read instanceof Request && session) sessionViewers.set(read, session);
      return read instanceof Request ? yoga.fetch(read) : jsonResponse(read.status, read.body);
    }
    if (request.method !== 'POST' || !/^application\/(graphql-response\+)?json\b/.test(type)) return yoga.fetch(request);
    // a declared length was checked at the edge (bodyTooLarge); a chunked body has none, so every
    // body is read here, under the limit
    const body = await readLimitedText(request, JSON_LIMIT_BYTES);
    // a batch: each operation after the first spends the rate limit as if sent alone
    const further = batchSize(body) - 1;
    const budget = budgets.get(request);
    if (further > 0 && budget !== undefined) {
      const decision = await limiter.consume(budget, further);
      if (!decision.allowed) {
        const refusal = rateLimitedReply(decision, config.rateLimit.windowSeconds);
        return jsonResponse(refusal.status, refusal.body, refusal.headers);
      }
    }
    // the body is read: yoga gets a copy of the request that still holds it
    const replayed = () => {
      const copy = new Request(request.url, { method: 'POST', headers: request.headers, body });
      if (session) sessionViewers.set(copy, session);
      return yoga.fetch(copy);
    };
    const answer = async () => (direct ? await direct(request, body) : null) ?? replayed();
    if (!cache || !anonymous || !isQueryOperation(body, parse)) return answer();
    // a result with errors (a bad variable, a masked failure) is answered but not kept
    return cache.serve(
      request,
      cacheKey(request, serverContext, body),
      answer,
      (bytes) => !('errors' in JSON.parse(bytes.toString('utf8'))),
    );
  };

  const handle = async (
    request: Request,
    serverContext: { req?: IncomingMessage },
    address?: string,
    anonymous = false,
  ): Promise<Response> => {
    const { pathname } = new URL(request.url);
    // old clients build paths as base + '/people/me/friends' with a base ending in '/': one slash, as
    // the original answered, and no redirect (they do not follow one on POST)
    if (pathname.includes('//')) return handle(withPath(request, pathname.replace(/\/{2,}/g, '/')), serverContext, address, anonymous);
    if (pathname === '/graphql' || pathname.startsWith('/graphql/')) return graphql(request, serverContext, anonymous);
    const clientAddress = address ?? serverContext.req?.socket.remoteAddress ?? 'local';
    if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) {
      if (request.method === 'OPTIONS') return corsPreflight(request);
      const generated = async () =>
        withCors((await api.handle(request, clientAddress)) ?? errorResponse(404, 'NOT_FOUND', `no operation at ${pathname}`));
      if (cache && anonymous && (request.method === 'GET' || request.method === 'HEAD'))
        return cache.serve(request, cacheKey(request, serverContext), generated);
      return generated();
    }
    // a browser navigating to /, /entries/42 or /people/ann gets the page; apps get the data
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      prefersHtml(request.headers.get('accept')) &&
      !splitExtension(pathname).extension
    ) {
      const page = await pages.handle(request, clientAddress);
      if (page) return page;
    }
    const routed = await router.handle(request, clientAddress);
    if (routed) return routed;
    const split = splitExtension(pathname);
    if (request.method === 'OPTIONS') return corsPreflight(request);
    const legacy = async () => {
      const response = await rest.handle(request, clientAddress, { pathname: split.path, extension: split.extension });
      return response ? withCors(response) : errorResponse(404, 'NOT_FOUND', `no resource at ${pathname}`);
    };
    if (cache && anonymous && (request.method === 'GET' || request.method === 'HEAD'))
      return cache.serve(request, cacheKey(request, serverContext), legacy);
    return legacy();
  };

  // node:http → fetch API, with streaming bodies and aborts handled by the same adapter yoga uses;
  // its fetch() serves in-process requests (tests) through the same path
  // Edge rules that hold for every path, in order: sizes, maintenance, the rate limit, TLS. Then the
  // request runs, and its response gets the rate-limit headers. An unexpected error is a bug: it is
  // logged and answered with the JSON error body, never a dropped connection or a stack trace.
  /** The route pattern a request is counted under: never the raw path, whose ids would explode the labels. */
  const routeLabel = (pathname: string, request?: Request): string => {
    if (pathname === '/graphql' || pathname.startsWith('/graphql/')) return '/graphql';
    return (
      (request && routeOf(request)) ??
      api.patternFor(pathname) ??
      pages.patternFor(pathname) ??
      router.patternFor(pathname) ??
      rest.patternFor(splitExtension(pathname).path) ??
      'unmatched'
    );
  };

  /** One log line and one metric per request, whichever way it was answered. */
  const observe = (observation: Observation, request?: Request) => {
    const route = routeLabel(observation.path, request);
    metrics.request(observation.method, route, observation.status, observation.seconds);
    if (observation.status === 503 && observation.rateLimited) metrics.rateLimited();
    // the path, never the query string (it may hold oauth_token)
    logger.info(
      {
        reqId: observation.requestId,
        method: observation.method,
        route,
        path: observation.path,
        status: observation.status,
        ms: Math.round(observation.seconds * 10_000) / 10,
        client: request && clientOfRequest(request),
      },
      'request',
    );
  };

  const observed = async (request: Request, serverContext: { req?: IncomingMessage }): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    const answer = await guarded(request, serverContext);
    // the operation has read its uploads by now: their temporary files go
    void releaseUploads(request);
    const response = await compressResponse(request, answer);
    const path = new URL(request.url).pathname;
    observe(
      {
        requestId,
        method: request.method,
        path,
        status: response.status,
        seconds: (performance.now() - started) / 1000,
        rateLimited: response.headers.has('retry-after'),
      },
      request,
    );
    return withHeaders(response, { 'x-request-id': requestId });
  };

  const guarded = async (request: Request, serverContext: { req?: IncomingMessage }): Promise<Response> => {
    try {
      const url = new URL(request.url);
      if (request.url.length > MAX_URL_LENGTH)
        return errorResponse(414, 'URI_TOO_LONG', `URLs may be at most ${MAX_URL_LENGTH} characters`);
      // NUL can be neither stored (PostgreSQL text) nor part of any name: refuse it at the door
      if (/%00/i.test(request.url) || request.url.includes('\u0000')) {
        return errorResponse(400, 'INVALID_CHARACTER', 'the URL contains a NUL character');
      }
      const tooLarge = bodyTooLarge(request, url.pathname);
      if (tooLarge) {
        // read off, not left unread: closing over unread bytes resets the connection and loses this answer
        if (request.body) void discardRest(request.body.getReader());
        return errorResponse(413, 'TOO_LARGE', tooLarge);
      }
      // probes and scrapers are never limited nor turned away in maintenance
      if (url.pathname === '/healthz' || url.pathname === '/readyz' || url.pathname === '/metrics')
        return await handle(request, serverContext);
      if (config.maintenance) {
        // no Retry-After: that is how clients tell maintenance from the rate limit (SPEC 7)
        return errorResponse(503, 'MAINTENANCE', 'Milepost is down for maintenance; please try again later');
      }
      let token: string | null = null;
      let anonymous = false;
      try {
        token = tokenFromRequest(request);
        anonymous = token === null;
      } catch {
        // two different tokens: counted by address; the handler answers 400
      }
      // a token we never issued spends the address's budget: random tokens open no budgets of their own
      const counted = token !== null && (await recognizeToken(token).catch(() => false)) ? token : null;
      const socketAddress = serverContext.req?.socket.remoteAddress ?? 'local';
      const {
        clientAddress,
        key,
        headers: limitHeaders,
        refusal,
      } = await admit(socketAddress, request.headers.get('x-forwarded-for'), counted);
      if (refusal) return jsonResponse(refusal.status, refusal.body, refusal.headers);
      budgets.set(request, key);
      if (config.requireTls && token && schemeOf(request, config.trustProxy) !== 'https') {
        return withHeaders(errorResponse(403, 'TLS_REQUIRED', 'requests with an access token must use HTTPS'), limitHeaders);
      }
      return withHeaders(await handle(request, serverContext, clientAddress, anonymous), limitHeaders);
    } catch (error) {
      // the client closed its connection (a phone losing signal, the end of a load test): not a fault
      if (request.signal?.aborted || (error as Error | null)?.name === 'AbortError') {
        metrics.aborted();
        logger.debug({ method: request.method, path: new URL(request.url).pathname }, 'aborted request');
        return errorResponse(CLIENT_CLOSED_REQUEST, 'ABORTED', 'the client closed the connection');
      }
      if (error instanceof MalformedBodyError) return errorResponse(400, 'MALFORMED_BODY', error.message);
      if (error instanceof BodyTooLargeError) return errorResponse(413, 'TOO_LARGE', error.message);
      if (isDatabaseUnavailable(error)) {
        logger.warn({ err: error, method: request.method }, 'the database is unavailable');
        return databaseUnavailable();
      }
      logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, 'unexpected error');
      return errorResponse(500, 'INTERNAL', 'an unexpected error occurred; it has been logged');
    }
  };
  const adapter = createServerAdapter<{ req?: IncomingMessage }>(observed);
  // cached anonymous GETs skip the fetch-API adapter (see fast-read.ts)
  const listener = cache
    ? withFastReads(
        {
          cache,
          admit,
          maxUrlLength: MAX_URL_LENGTH,
          trustProxy: config.trustProxy,
          enabled: () => !config.maintenance,
          observe: (observation) => observe(observation),
        },
        adapter,
      )
    : adapter;

  let draining = false;
  const edge = (req: IncomingMessage, res: ServerResponse) => {
    // while stopping, every answer says so: a keep-alive client reconnects instead of reusing a socket about to close
    if (draining) res.setHeader('connection', 'close');
    withReasonPhrase(res);
    closeUnreadBodies(req, res);
    const host = req.headers.host;
    if (host !== undefined && !isValidHost(host)) {
      // no request URL can be made of it: answered here, and the body is not read
      logger.warn({ method: req.method, host: host.slice(0, 100) }, 'request with an invalid Host header');
      metrics.request(req.method ?? 'GET', 'unmatched', 400, 0);
      const body = JSON.stringify(errorBody('BAD_HOST', 'the Host header is not a valid host[:port]', { field: 'Host' }));
      res.writeHead(400, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      res.end(body);
      return;
    }
    return listener(req, res);
  };

  return {
    yoga,
    fetch: async (input, init) => adapter.fetch(input, init ?? {}),
    listener: edge,
    contexts,
    drain: () => void (draining = true),
    events,
    logger,
    metrics,
    media,
    ready: async () => (await Promise.all([limiter.ready(), redisReady(persistedRedis)])).every(Boolean),
    rateLimit: (token, address) => limiter.consume(rateLimitKey(token, address)),
    close: async () => {
      stopCountingQueries();
      await Promise.all([
        limiter.close(),
        events.close(),
        persistedRedis?.quit().catch(() => undefined),
        clock?.close(),
        closeFitPool(),
        closeTrackPool(),
      ]);
    },
  };
}

const MAX_URL_LENGTH = 8 * 1024;

/** The answer while the database cannot be reached: try again shortly. */
function databaseUnavailable(): Response {
  return errorResponse(503, 'DATABASE_UNAVAILABLE', 'the database is unavailable; try again shortly', {
    'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
  });
}

/** Which of a GET's `variables` and `extensions` is not JSON, if either. */
function notJson(params: URLSearchParams): 'variables' | 'extensions' | null {
  for (const name of ['variables', 'extensions'] as const) {
    const value = params.get(name);
    if (!value) continue;
    try {
      JSON.parse(value);
    } catch {
      return name;
    }
  }
  return null;
}
/** nginx's code for a request whose client went away before the answer: logged and counted, never seen. */
const CLIENT_CLOSED_REQUEST = 499;

/**
 * An answer given before its request's body was read (a 404, a 405, a 413, a refusal) closes the
 * connection: node:http would otherwise read and discard the rest to reuse the socket, and an
 * anonymous chunked POST to a missing path had 3 GB read. The answer says so (`Connection: close`).
 */
function closeUnreadBodies(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!req.complete && !res.headersSent) res.setHeader('connection', 'close');
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  res.on('finish', () => {
    if (!req.complete) req.socket.destroySoon();
  });
}

/** The standard reason phrase on the status line: the fetch-API side leaves it empty (`HTTP/1.1 200 `). */
function withReasonPhrase(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (rest[0] === '' || rest[0] === undefined) {
      if (rest[0] === '') rest.shift();
      return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, STATUS_CODES[statusCode] ?? 'Unknown', ...rest);
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as ServerResponse['writeHead'];
}

/** Largest body accepted, by content type; null when the declared length is within it. */
const BODY_LIMITS: Array<[RegExp, number]> = [
  [/^application\/gpx\+xml/, DEFAULT_MAX_GPX_BYTES],
  [/^multipart\/form-data/, DEFAULT_MAX_GPX_BYTES + 1024 * 1024],
  [/^application\/(graphql-response\+)?json/, JSON_LIMIT_BYTES],
  [/^application\/x-www-form-urlencoded/, FORM_LIMIT_BYTES],
];

/** `request` at another path of the same origin, with its method, headers, body and signal. */
function withPath(request: Request, pathname: string): Request {
  const url = new URL(request.url);
  url.pathname = pathname;
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

function bodyTooLarge(request: Request, pathname: string): string | null {
  const length = Number(request.headers.get('content-length') ?? 0);
  if (!length) return null;
  // the account page's archive upload streams to disk under its own bound (http/archive-upload.ts)
  if (pathname === '/account/import')
    return length > MAX_ARCHIVE_UPLOAD_BYTES ? `an archive may be at most ${MAX_ARCHIVE_UPLOAD_BYTES} bytes` : null;
  const type = request.headers.get('content-type') ?? '';
  const limit = BODY_LIMITS.find(([pattern]) => pattern.test(type))?.[1] ?? FORM_LIMIT_BYTES;
  return length > limit ? `a ${type || 'request'} body may be at most ${limit} bytes` : null;
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    // some responses have immutable headers: copy them
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

/**
 * CORS for browser apps on the legacy paths: any origin may call, because tokens travel explicitly
 * (header or parameter) and never in cookies, so no credentials are allowed.
 */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Location, WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, ETag',
  // the same path answers a page to browsers and JSON to apps: shared caches must keep them apart
  vary: 'Accept',
};

function withCors(response: Response): Response {
  for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
  return response;
}

function corsPreflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
      'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? 'Authorization, Content-Type',
      'access-control-max-age': '86400',
    },
  });
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
  const server = config.tls
    ? createHttpsServer({ ...options, cert: readFileSync(config.tls.cert), key: readFileSync(config.tls.key) }, app.listener)
    : createServer(options, app.listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server));
  });
}
