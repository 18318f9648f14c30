// Which part of the service answers a request: GraphQL, the generated REST API, a page for a browser,
// the service's own routes (probes, documents, account and OAuth pages), or a legacy REST path. Anonymous
// reads of the REST paths are answered from the response cache when they can be.
import type { Viewer } from '../auth/viewer.ts';
import type { ResponseCache } from '../cache/response-cache.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { viewerOfRequest } from '../db/token-viewers.ts';
import type { Fediverse } from '../federation/federation.ts';
import type { Exchange } from '../graphql/context.ts';
import { avatarSvg } from '../http/avatar.ts';
import { GRAPHIQL_ASSET_PATH, graphiqlAsset } from '../http/graphiql.ts';
import { mediaFile } from '../http/media.ts';
import type { Metrics } from '../http/metrics.ts';
import { prefersHtml, splitExtension } from '../http/negotiation.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { errorResponse, htmlResponse, jsonResponse, type Router } from '../http/router.ts';
import type { MediaStore } from '../media/store.ts';
import { MediaPhotoDocument } from '../operations/generated.ts';
import { docsPage } from '../rest/docs-page.ts';
import type { RunOperation } from '../rest/execute.ts';
import { API_BASE, type GeneratedApi } from '../rest/generated-api.ts';
import { openApiDocument } from '../rest/openapi.ts';
import type { LegacyPaths } from '../rest/routes.ts';
import type { RequestContexts } from './request-context.ts';

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

export interface ProbeDeps {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  metrics: Metrics;
  contexts: RequestContexts;
  /** Whether the process is stopping (its readiness says so). */
  draining: () => boolean;
}

/** Health, readiness, metrics and the service's front door. */
export function mountProbes(router: Router, { config, database, limiter, metrics, contexts, draining: isDraining }: ProbeDeps): void {
  router.get('/healthz', () => jsonResponse(200, { status: 'ok' }));
  if (config.graphiql)
    router.get(
      `${GRAPHIQL_ASSET_PATH}/:asset`,
      async ({ params }) => (await graphiqlAsset(params.asset!)) ?? errorResponse(404, 'NOT_FOUND', `no GraphiQL asset ${params.asset}`),
    );
  // ready to take traffic: the database answers, and Redis too when it is configured
  router.get('/readyz', async () => {
    // stopping: a load balancer takes this instance out while it finishes what it has
    if (isDraining()) return jsonResponse(503, { status: 'draining' });
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
}

export interface DocumentDeps {
  config: Config;
  contexts: RequestContexts;
  database: Database;
  media: MediaStore;
  api: GeneratedApi;
  /** The legacy paths' OpenAPI operations, as their routes declared them. */
  legacyPaths: LegacyPaths;
  /** Runs the photo's operation (whoever may see an entry that shows it may fetch it). */
  runMedia: RunOperation;
  sessionViewerOf: (request: Request) => Promise<Viewer | null>;
}

/** GraphiQL's files, avatars, photos, and the REST reference. */
export function mountDocuments(router: Router, deps: DocumentDeps): void {
  const { config, contexts, database, media, api, legacyPaths, runMedia, sessionViewerOf } = deps;
  if (config.graphiql)
    router.get(
      `${GRAPHIQL_ASSET_PATH}/:asset`,
      async ({ params }) => (await graphiqlAsset(params.asset!)) ?? errorResponse(404, 'NOT_FOUND', `no GraphiQL asset ${params.asset}`),
    );
  router.get('/people/:username/avatar.svg', ({ params }) => avatarSvg(params.username!));
  router.get('/media/:name', async ({ request, params }) => {
    const viewer = (await viewerOfRequest(database, request)) ?? (await sessionViewerOf(request));
    const { data, errors } = await runMedia(MediaPhotoDocument, request, contexts.forViewer(request, viewer), { name: params.name! });
    if (errors?.length) throw new Error(`photo access failed: ${errors[0]!.message}`);
    return mediaFile(media, params.name!, request, data?.photo ?? null);
  });
  const document = (request: Request) => openApiDocument(contexts.baseUrl(request), legacyPaths, api.describe());
  router.get('/openapi.json', ({ request }) => withCors(jsonResponse(200, document(request))));
  router.get('/docs', ({ request }) => htmlResponse(200, docsPage(document(request))));
}

export interface DispatchDeps {
  graphql: (request: Request, exchange: Exchange, tokenless: boolean) => Promise<Response>;
  api: GeneratedApi;
  /** The pages for browsers, the service's own routes, and the legacy REST paths (routed without extension). */
  pages: Router;
  /** The page a browser gets for a path that leads nowhere. */
  pageNotFound: (request: Request) => Promise<Response>;
  router: Router;
  rest: Router;
  cache: ResponseCache | null;
  cacheKey: (request: Request, exchange: Exchange, body?: string) => string;
  /** The fediverse, when it is on: its paths, and an athlete's or entry's URL asked for as ActivityPub. */
  fediverse?: Pick<Fediverse, 'claims' | 'fetch'> | null;
}

/** Answers a request that passed the edge (`anonymous`: it carries no token). */
export function createDispatch({ graphql, api, pages, pageNotFound, router, rest, cache, cacheKey, fediverse }: DispatchDeps) {
  const handle = async (request: Request, exchange: Exchange, anonymous = false): Promise<Response> => {
    if (fediverse?.claims(request)) return fediverse.fetch(request, () => answer(request, exchange, anonymous));
    return answer(request, exchange, anonymous);
  };
  const answer = async (request: Request, exchange: Exchange, anonymous: boolean): Promise<Response> => {
    const { pathname } = new URL(request.url);
    // old clients build paths as base + '/people/me/friends' with a base ending in '/': one slash, as
    // the original answered, and no redirect (they do not follow one on POST)
    if (pathname.includes('//')) return handle(withPath(request, pathname.replace(/\/{2,}/g, '/')), exchange, anonymous);
    exchange.clientAddress ??= exchange.req?.socket.remoteAddress ?? 'local';
    const { clientAddress } = exchange;
    if (pathname === '/graphql' || pathname.startsWith('/graphql/')) return graphql(request, exchange, anonymous);
    if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) {
      if (request.method === 'OPTIONS') return corsPreflight(request);
      const generated = async () =>
        withCors((await api.handle(request, exchange, clientAddress)) ?? errorResponse(404, 'NOT_FOUND', `no operation at ${pathname}`));
      if (cache && anonymous && (request.method === 'GET' || request.method === 'HEAD'))
        return cache.serve(request, cacheKey(request, exchange), generated);
      return generated();
    }
    // a browser navigating to /, /entries/42 or /people/ann gets the page; apps get the data
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      prefersHtml(request.headers.get('accept')) &&
      !splitExtension(pathname).extension
    ) {
      const page = await pages.handle(request, exchange, clientAddress);
      if (page) return page;
    }
    const routed = await router.handle(request, exchange, clientAddress);
    if (routed) return routed;
    const split = splitExtension(pathname);
    if (request.method === 'OPTIONS') return corsPreflight(request);
    const legacy = async () => {
      const response = await rest.handle(request, exchange, clientAddress, { pathname: split.path, extension: split.extension });
      if (response) return withCors(response);
      // a person in a browser gets a page; an app, the JSON error
      if (request.method === 'GET' && prefersHtml(request.headers.get('accept'))) return pageNotFound(request);
      return errorResponse(404, 'NOT_FOUND', `no resource at ${pathname}`);
    };
    if (cache && anonymous && (request.method === 'GET' || request.method === 'HEAD'))
      return cache.serve(request, cacheKey(request, exchange), legacy);
    return legacy();
  };
  return handle;
}

/** The route pattern a request is counted under: never the raw path, whose ids would explode the labels. */
export function routeLabeller({ api, pages, router, rest }: Pick<DispatchDeps, 'api' | 'pages' | 'router' | 'rest'>) {
  return (pathname: string, exchange?: Exchange): string => {
    if (pathname === '/graphql' || pathname.startsWith('/graphql/')) return '/graphql';
    return (
      exchange?.route ??
      api.patternFor(pathname) ??
      pages.patternFor(pathname) ??
      router.patternFor(pathname) ??
      rest.patternFor(splitExtension(pathname).path) ??
      'unmatched'
    );
  };
}
