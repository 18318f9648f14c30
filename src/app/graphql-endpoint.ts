// The GraphQL endpoint at /graphql: yoga with the service's plugins, and the answer to a request: a
// session's GraphiQL, uploads read at the edge, batches spending the rate limit, the common JSON query
// answered without yoga's HTTP pipeline, and anonymous reads kept in the response cache.
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import { GraphQLError, parse } from 'graphql';
import {
  createGraphQLError,
  createYoga,
  maskError,
  type Plugin as YogaPlugin,
  type YogaServerInstance,
  type YogaServerOptions,
} from 'graphql-yoga';
import { tokenRefusal } from '../auth/tokens.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { DirectQueries } from '../cache/direct-queries.ts';
import { isQueryOperation, type ResponseCache } from '../cache/response-cache.ts';
import type { Config } from '../config.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { useAccessEndNotice } from '../graphql/access-end.ts';
import { useSchemaChecks } from '../graphql/builder.ts';
import { useCompiledExecution } from '../graphql/compiled-execution.ts';
import type { Context, Exchange, ServerContext } from '../graphql/context.ts';
import { useEventIds } from '../graphql/event-ids.ts';
import { useIdempotencyKeys } from '../graphql/idempotency.ts';
import { DOCUMENT_ID_PARAMS, type PersistedQueryStore, usePersistedQueries } from '../graphql/persisted-queries.ts';
import { schema } from '../graphql/schema.ts';
import { useSubscriptionCaps } from '../graphql/subscription-caps.ts';
import { batchLength, bodyProblem, JSON_LIMIT_BYTES, readLimitedText } from '../http/body.ts';
import { CSRF_HEADERS } from '../http/csrf.ts';
import { renderGraphiQLPage, useGraphiQLPolicy } from '../http/graphiql.ts';
import { graphqlHardening } from '../http/graphql-hardening.ts';
import type { Metrics } from '../http/metrics.ts';
import { readGraphQLMultipart, useReadUploads } from '../http/multipart.ts';
import { prefersHtml } from '../http/negotiation.ts';
import { graphqlMediaType, graphqlRateLimited, type RateLimiter, rateLimitedReply } from '../http/rate-limit.ts';
import { htmlResponse, jsonResponse } from '../http/router.ts';
import { withEventIds } from '../http/sse-ids.ts';
import type { Logger } from '../log.ts';
import { graphiqlOffPage } from '../pages/layout.ts';
import type { RequestContexts } from './request-context.ts';

export type GraphQLServer = YogaServerInstance<ServerContext, Context>;
type YogaPlugins = NonNullable<YogaServerOptions<ServerContext, Context>['plugins']>;

/** Operations one batched request may hold. */
export const MAX_BATCH_OPERATIONS = 10;

/** How many operations a JSON body holds: a batch's, at most MAX_BATCH_OPERATIONS, else one. */
const batchSize = (body: string) => Math.min(batchLength(body) ?? 1, MAX_BATCH_OPERATIONS);

/** Whether a path is GraphQL's (its answers are GraphQL-shaped: `errors`, not `error`). */
export const isGraphQLPath = (pathname: string) => pathname === '/graphql' || pathname.startsWith('/graphql/');

/**
 * How many operations a request to /graphql that is refused before it runs held, so that a batch is
 * answered an array as long as itself (Apollo's BatchHttpLink fails the whole batch on any other
 * length): its JSON body's batch length, or null for one operation or a body that is not JSON.
 */
export async function refusedBatchLength(request: Request): Promise<number | null> {
  if (request.method !== 'POST' || !/^application\/(graphql-response\+)?json\b/.test(request.headers.get('content-type') ?? ''))
    return null;
  return batchLength(await readLimitedText(request, JSON_LIMIT_BYTES).catch(() => ''));
}

/** The answer to a batch of more operations than MAX_BATCH_OPERATIONS: one refusal for each of them. */
function batchTooLarge(length: number, accept: string | null): Response {
  const message = `a batch holds at most ${MAX_BATCH_OPERATIONS} operations; this one held ${length}`;
  const one = { errors: [{ message, extensions: { code: 'BATCH_TOO_LARGE', limit: MAX_BATCH_OPERATIONS } }] };
  return jsonResponse(
    413,
    Array.from({ length }, () => one),
    { 'content-type': graphqlMediaType(accept) },
  );
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

/**
 * An error as clients see it: expected failures keep their message, code and typed error's fields
 * where no union carries them (a stream's refused argument, a subscription refused at its start); the
 * rest stays masked.
 */
function maskedError(error: unknown, message: string, isDev?: boolean): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError)
    return createGraphQLError(original.message, {
      extensions: { ...original.extensions() },
      ...(error instanceof GraphQLError ? { path: error.path, nodes: error.nodes } : {}),
    });
  // the executor's own check of `@stream(initialCount: $n)` given a negative $n (a literal fails validation)
  if (original instanceof Error && /^initialCount must be a (number|positive integer)$/.test(original.message))
    return createGraphQLError('@stream(initialCount:) must be 0 or more', {
      extensions: { code: 'BAD_USER_INPUT' },
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
}

/** `csrf`, but for a browser's EventSource: a GET asking for server-sent events. */
function eventSourceAllowed(csrf: YogaPlugin): YogaPlugin {
  return {
    onRequestParse(payload) {
      const { request } = payload;
      if (request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/event-stream')) return;
      return csrf.onRequestParse?.(payload);
    },
  };
}

/** A batch item that is not an object (`[{…}, null]`) is that item's mistake, before any plugin reads its fields. */
const operationsAreObjects: YogaPlugins[number] = {
  onParams({ params }) {
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      throw createGraphQLError('each operation must be a JSON object with a query', {
        extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
      });
    }
  },
};

/**
 * PostgreSQL text cannot hold NUL, and variables nested 100,000 deep would overflow the stack of whatever
 * walks them: both are refused in any query or variable before they reach a resolver.
 */
const noNulNorDeepNesting: YogaPlugins[number] = {
  onParams({ params }) {
    const problem = bodyProblem(params.query) ?? bodyProblem(params.variables);
    if (problem) {
      throw createGraphQLError(problem, {
        extensions: { code: problem.includes('NUL') ? 'INVALID_CHARACTER' : 'BAD_REQUEST', http: { status: 400 } },
      });
    }
  },
};

/** `variables` or `extensions` that are not JSON are the client's mistake: a 400 naming them, not a 500. */
const jsonOrBadRequest: YogaPlugins[number] = {
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
};

/** The plugins of /graphql, in the order they apply. */
function graphqlPlugins(
  config: Config,
  persistedQueries: PersistedQueryStore,
  metrics: Metrics,
  maxSubscriptionsPerOwner?: number,
): YogaPlugins {
  return [
    operationsAreObjects,
    // after the transports have read theirs (the WebSocket's enveloped functions), the root value is this server's settings
    useSchemaChecks({ strict: config.env !== 'production' }),
    useCompiledExecution(),
    // one cap on live subscriptions, whichever transport carries them
    useSubscriptionCaps(maxSubscriptionsPerOwner),
    // a subscription result names the event it came from (SSE ids, Last-Event-ID)
    useEventIds(),
    // a subscription whose access ended says so before it completes
    useAccessEndNotice(),
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
    noNulNorDeepNesting,
    jsonOrBadRequest,
    // a browser may not send a GraphQL request that skips the CORS preflight (a simple GET, a form
    // post) unless it carries one of these headers; an Authorization header already forces one. But for
    // an EventSource's GET (Accept: text/event-stream), which can send no header: a GET changes nothing
    // (mutations are refused over GET), and without credentials in CORS no other site reads its answer
    eventSourceAllowed(useCSRFPrevention({ requestHeaders: CSRF_HEADERS })),
    // graphql-sse's protocol at /graphql/stream, its single-connection mode included (a reservation by
    // PUT, the events by GET, the operations by POST); /graphql serves its distinct-connections mode
    useGraphQLSSE({ endpoint: '/graphql/stream' }),
    // multipart requests (uploads) are read at the edge, their files to temporary files as they arrive
    useReadUploads(),
  ];
}

export interface GraphQLServerDeps {
  config: Config;
  metrics: Metrics;
  contexts: RequestContexts;
  persistedQueries: PersistedQueryStore;
  /** Whether a request's log-in session still holds (not logged out, expired or suspended): a live subscription asks. */
  sessionStillValid: (request: Request) => Promise<boolean>;
  logger: Logger;
  /** Live subscriptions of one athlete or address over every transport (MAX_SUBSCRIPTIONS_PER_OWNER; tests set it low). */
  maxSubscriptionsPerOwner?: number;
}

/**
 * yoga's own log lines, through the service's logger. yoga logs every error its masking replaced: an
 * expected failure (a typed error, such as the NotFoundError that ends a subscription whose entry was
 * deleted) is not an error of the service, and is logged at debug level; the rest stay errors.
 */
function yogaLogging(logger: Logger) {
  const expected = (value: unknown) =>
    value instanceof DomainError || (value instanceof GraphQLError && value.originalError instanceof DomainError);
  return {
    debug: (...args: unknown[]) => logger.debug({ yoga: args.map(String) }, 'graphql-yoga'),
    info: (...args: unknown[]) => logger.info({ yoga: args.map(String) }, 'graphql-yoga'),
    warn: (...args: unknown[]) => logger.warn({ yoga: args.map(String) }, 'graphql-yoga'),
    error: (...args: unknown[]) => {
      const [first] = args;
      if (expected(first)) logger.debug({ err: first }, 'an expected failure');
      else logger.error({ err: first, more: args.slice(1).map(String) }, 'graphql-yoga: unexpected error');
    },
  };
}

export function createGraphQLServer({
  config,
  metrics,
  contexts,
  persistedQueries,
  sessionStillValid,
  logger,
  maxSubscriptionsPerOwner,
}: GraphQLServerDeps): GraphQLServer {
  return createYoga<ServerContext, Context>({
    schema,
    logging: yogaLogging(logger),
    graphqlEndpoint: '/graphql',
    graphiql: config.graphiql ? { title: 'Milepost GraphQL', defaultQuery: DEFAULT_QUERY } : false,
    // served from here, never from a CDN (http/graphiql.ts)
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    maskedErrors: {
      isDev: config.exposeErrors,
      // expected failures keep their message, code and typed error's fields where no union carries
      // them (a stream's refused argument, a subscription refused at its start); the rest stays masked
      maskError: maskedError,
    },
    plugins: graphqlPlugins(config, persistedQueries, metrics, maxSubscriptionsPerOwner),
    multipart: false,
    // an array of operations in one POST (Apollo's BatchHttpLink), each costed and rate-limited as if alone
    batching: { limit: MAX_BATCH_OPERATIONS },
    // a persisted document named as the draft and some clients name it, beside Apollo's extension
    extraParamNames: DOCUMENT_ID_PARAMS,
    // the REST layer resolves the viewer itself (the token may sit in a form body) and passes the
    // whole context in; GraphQL requests get theirs from the request
    context: async (initial) => {
      if ('viewer' in initial) return initial;
      const session = initial.sessionViewer;
      // whose anonymous subscriptions these are (graphql/subscription-caps.ts)
      const clientAddress =
        initial.clientAddress ?? contexts.clientAddress(initial.req?.socket.remoteAddress, initial.request.headers.get('x-forwarded-for'));
      // yoga asked in-process without one (tests, tools) has no exchange to note the request on
      const exchange = 'spooled' in initial ? initial : undefined;
      // a subscription over server-sent events outlives this check: it asks again while it lives
      if (session)
        return {
          ...contexts.forViewer(initial.request, session, clientAddress),
          rateLimit: initial.rateLimit,
          tokenStillValid: () => sessionStillValid(initial.request),
        };
      try {
        return { ...(await contexts.forRequest(initial.request, null, exchange)), clientAddress, rateLimit: initial.rateLimit };
      } catch (error) {
        const refusal = tokenRefusal(error);
        if (!refusal) throw error;
        throw createGraphQLError(refusal.message, {
          extensions: { code: refusal.code, http: { status: refusal.status, headers: refusal.headers } },
        });
      }
    },
  });
}

export interface GraphQLHandlerDeps {
  yoga: GraphQLServer;
  config: Config;
  logger: Logger;
  limiter: RateLimiter;
  cache: ResponseCache | null;
  cacheKey: (request: Request, exchange: Exchange, body?: string) => string;
  direct: DirectQueries | null;
  sessionViewerOf: (request: Request) => Promise<Viewer | null>;
}

/** Answers a request to /graphql (`tokenless`: it carries no token, so its session or nobody reads). */
/** Whether a request is a browser opening /graphql itself (a page view: HTML wanted, no operation in it). */
function graphiqlOffPageWanted(request: Request): boolean {
  if (request.method !== 'GET' || !prefersHtml(request.headers.get('accept'))) return false;
  const url = new URL(request.url);
  return url.pathname === '/graphql' && !['query', 'documentId', 'doc_id', 'extensions'].some((name) => url.searchParams.has(name));
}

export function createGraphQLHandler(deps: GraphQLHandlerDeps) {
  const { yoga, config, logger, limiter, cache, cacheKey, direct, sessionViewerOf } = deps;
  /** GraphQL's answer; a stream of server-sent events with each event's `id:` (http/sse-ids.ts). */
  const graphql = async (request: Request, exchange: Exchange, tokenless: boolean): Promise<Response> => {
    // a person who opens /graphql in a browser where GraphiQL is off: a page that says so, not a CSRF refusal
    if (!config.graphiql && graphiqlOffPageWanted(request)) return htmlResponse(200, graphiqlOffPage());
    const response = await graphqlAnswer(request, exchange, tokenless);
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    return new Response(withEventIds(response.body), { status: response.status, headers: response.headers });
  };
  /** `exchange` is yoga's server context: its context factory reads who is asking there. */
  const graphqlAnswer = async (request: Request, exchange: Exchange, tokenless: boolean): Promise<Response> => {
    const session = tokenless ? await sessionViewerOf(request) : null;
    if (session) exchange.sessionViewer = session;
    // a logged-in session is a viewer: its reads are its own, never the anonymous cache's
    const anonymous = tokenless && !session;
    const type = request.headers.get('content-type') ?? '';
    if (request.method === 'POST' && /^multipart\/form-data\b/i.test(type)) {
      const read = await readGraphQLMultipart(request, exchange).catch((error: unknown) => {
        // a client that went away is the edge's to count; anything else (a disk that cannot take the
        // file) is the server's fault, answered as GraphQL answers one
        if (request.signal?.aborted) throw error;
        logger.error({ err: error, method: request.method, path: '/graphql' }, 'unexpected error');
        return { status: 500, body: { errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL' } }] } };
      });
      return read instanceof Request ? yoga.fetch(read, exchange) : jsonResponse(read.status, read.body);
    }
    // graphql-sse's own endpoint (/graphql/stream) and anything but a JSON POST: yoga's, as it came
    if (
      request.method !== 'POST' ||
      !/^application\/(graphql-response\+)?json\b/.test(type) ||
      new URL(request.url).pathname !== '/graphql'
    )
      return yoga.fetch(request, exchange);
    // a declared length was checked at the edge (bodyTooLarge); a chunked body has none, so every
    // body is read here, under the limit
    const body = await readLimitedText(request, JSON_LIMIT_BYTES);
    const length = batchLength(body);
    if (length !== null && length > MAX_BATCH_OPERATIONS) return batchTooLarge(length, request.headers.get('accept'));
    // a batch: each operation after the first spends the rate limit as if sent alone
    const further = batchSize(body) - 1;
    const { budget } = exchange;
    if (further > 0 && budget !== undefined) {
      const decision = await limiter.consume(budget, further);
      if (!decision.allowed) {
        const refusal = graphqlRateLimited(
          rateLimitedReply(decision, config.rateLimit.windowSeconds),
          length,
          request.headers.get('accept'),
        );
        return jsonResponse(refusal.status, refusal.body, refusal.headers);
      }
    }
    // the body is read: yoga gets a copy of the request that still holds it
    const replayed = () => {
      // with the request's signal: a subscription over server-sent events hears its client go away
      const copy = new Request(request.url, { method: 'POST', headers: request.headers, body, signal: request.signal });
      return yoga.fetch(copy, exchange);
    };
    const answer = async () => (direct ? await direct(request, body, exchange) : null) ?? replayed();
    if (!cache || !anonymous || !isQueryOperation(body, parse)) return answer();
    // a result with errors (a bad variable, a masked failure) is answered but not kept
    return cache.serve(request, cacheKey(request, exchange, body), answer, (bytes) => !('errors' in JSON.parse(bytes.toString('utf8'))));
  };
  return graphql;
}
