// The edge: rules that hold for every request, in order (sizes, NUL, maintenance, the rate limit, TLS),
// then the request runs and its response gets the rate-limit headers and a request id. One log line and
// one metric per request. An unexpected error is a bug: it is logged and answered with the JSON error
// body, never a dropped connection or a stack trace.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { tokenFromRequest } from '../auth/tokens.ts';
import { type Observation, requestIdOf } from '../cache/fast-read.ts';
import type { Config } from '../config.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';
import { DEFAULT_MAX_GPX_BYTES } from '../domain/gpx.ts';
import { type Exchange, newExchange } from '../graphql/context.ts';
import { MAX_ARCHIVE_UPLOAD_BYTES } from '../http/archive-upload.ts';
import { BodyTooLargeError, discardRest, JSON_LIMIT_BYTES, MalformedBodyError } from '../http/body.ts';
import { compressResponse } from '../http/compression.ts';
import { isValidHost } from '../http/host.ts';
import type { Metrics } from '../http/metrics.ts';
import { releaseUploads } from '../http/multipart.ts';
import { prefersHtml } from '../http/negotiation.ts';
import { type createAdmission, graphqlRateLimited } from '../http/rate-limit.ts';
import { errorBody, errorResponse, FORM_LIMIT_BYTES, htmlResponse, jsonResponse } from '../http/router.ts';
import type { Logger } from '../log.ts';
import { unavailablePage } from '../pages/layout.ts';
import { isGraphQLPath, refusedBatchLength } from './graphql-endpoint.ts';
import { schemeOf } from './request-context.ts';

export const MAX_URL_LENGTH = 8 * 1024;

/** The answer while the database cannot be reached: try again shortly (a page a person can read, to a browser). */
function databaseUnavailable(request: Request): Response {
  const headers = { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) };
  if (prefersHtml(request.headers.get('accept')))
    return htmlResponse(503, unavailablePage(DATABASE_RETRY_AFTER_SECONDS), { ...headers, 'cache-control': 'no-store' });
  return errorResponse(503, 'DATABASE_UNAVAILABLE', 'the database is unavailable; try again shortly', headers);
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
  // a lingering close, as nginx and Apache do: a body still arriving when its answer has gone is read
  // and dropped, up to a bound, before the connection closes. Closed over bytes the client is still
  // sending, TCP resets it, and the client (a browser posting a form just over the limit) lost the
  // answer that said why: a network error instead of the 413. An endless body is cut at the bound.
  res.on('finish', () => {
    if (req.complete) return;
    let read = 0;
    const close = () => {
      clearTimeout(timer);
      req.socket.destroySoon();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) close();
    });
    req.once('end', close);
    req.once('error', close);
    req.resume();
  });
}

/** What a lingering close reads of a body whose answer has gone, at most, and for how long. */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2_000;

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

type Handler = (request: Request, exchange: Exchange, anonymous?: boolean) => Promise<Response>;
export type Observe = (observation: Observation, exchange?: Exchange) => void;

/** One log line and one metric per request, whichever way it was answered. */
export function createObserver(metrics: Metrics, logger: Logger, routeLabel: (pathname: string, exchange?: Exchange) => string): Observe {
  return (observation: Observation, exchange?: Exchange) => {
    const route = routeLabel(observation.path, exchange);
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
        client: exchange?.clientId,
      },
      'request',
    );
  };
}

/** The request answered, compressed, observed, and marked with its request id. */
export function createObserved(guarded: Handler, observe: Observe) {
  return async (request: Request, serverContext: { req?: IncomingMessage }): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    // what the parts below learn of the request goes with it (graphql/context.ts)
    const exchange = newExchange(serverContext.req);
    const answer = await guarded(request, exchange);
    // the operation has read its uploads by now: their temporary files go
    void releaseUploads(exchange);
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
      exchange,
    );
    return withHeaders(response, { 'x-request-id': requestId });
  };
}

export interface GuardDeps {
  config: Config;
  handle: Handler;
  admit: ReturnType<typeof createAdmission>;
  /** Whether Milepost issued a token (random tokens open no rate-limit budgets of their own). */
  recognizeToken: (token: string) => Promise<boolean>;
  metrics: Metrics;
  logger: Logger;
}

/** The edge's rules, then the request; every failure answered with the JSON error body. */
export function createGuard({ config, handle, admit, recognizeToken, metrics, logger }: GuardDeps) {
  return async (request: Request, exchange: Exchange): Promise<Response> => {
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
      if (url.pathname === '/healthz' || url.pathname === '/readyz' || url.pathname === '/metrics') return await handle(request, exchange);
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
      const socketAddress = exchange.req?.socket.remoteAddress ?? 'local';
      const {
        clientAddress,
        key,
        headers: limitHeaders,
        refusal,
        budget,
      } = await admit(socketAddress, request.headers.get('x-forwarded-for'), counted);
      if (refusal) {
        // GraphQL clients read GraphQL's shape (a batch, an array as long as itself); the legacy paths keep SPEC's 503
        const reply = isGraphQLPath(new URL(request.url).pathname)
          ? graphqlRateLimited(refusal, await refusedBatchLength(request), request.headers.get('accept'))
          : refusal;
        return jsonResponse(reply.status, reply.body, reply.headers);
      }
      if (config.requireTls && token && schemeOf(request, config.trustProxy) !== 'https') {
        return withHeaders(errorResponse(403, 'TLS_REQUIRED', 'requests with an access token must use HTTPS'), limitHeaders);
      }
      // the budget's key goes with it: a batch's further operations spend it too
      Object.assign(exchange, { clientAddress, rateLimit: budget, budget: key });
      return withHeaders(await handle(request, exchange, anonymous), limitHeaders);
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
        return databaseUnavailable(request);
      }
      logger.error({ err: error, method: request.method, path: new URL(request.url).pathname }, 'unexpected error');
      return errorResponse(500, 'INTERNAL', 'an unexpected error occurred; it has been logged');
    }
  };
}

/**
 * node:http's side of the edge: a stopping process says `Connection: close`, the status line gets its
 * reason phrase, an answer before the body was read closes the connection, and a Host that is no host
 * is answered here (no request URL can be made of it).
 */
export function createNodeListener(
  listener: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  { metrics, logger, draining }: { metrics: Metrics; logger: Logger; draining: () => boolean },
) {
  return (req: IncomingMessage, res: ServerResponse) => {
    // while stopping, every answer says so: a keep-alive client reconnects instead of reusing a socket about to close
    if (draining()) res.setHeader('connection', 'close');
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
    // the adapter answers its own failures; one that escapes it still gets an answer, never an
    // unhandled rejection, which would end the process
    const answering = listener(req, res);
    // a fast read answers synchronously: no promise to watch
    return answering?.catch((error: unknown) => {
      logger.error({ err: error, method: req.method }, 'a request failed outside its handler');
      if (res.headersSent) return void res.destroy();
      const body = JSON.stringify(errorBody('INTERNAL', 'the server could not answer this request'));
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
}
