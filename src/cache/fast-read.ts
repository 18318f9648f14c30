// The shortest way through for the commonest request: an anonymous GET whose bytes the response cache
// holds. It is answered on node:http directly, without building fetch-API objects, under the same
// edge rules as every other request (rate limit and its headers, request id, log line, metrics).
// Anything else, and any miss, goes the full way.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasSessionCookie } from '../auth/session.ts';
import { batchLength } from '../http/body.ts';
import {
  COMPRESSION_THRESHOLD_BYTES,
  compressBytes,
  encodedEtag,
  isCompressible,
  preferredEncoding,
  varyOnEncoding,
} from '../http/compression.ts';
import { forwardedScheme } from '../http/forwarded.ts';
import { prefersHtml } from '../http/negotiation.ts';
import { type Admission, graphqlRateLimited } from '../http/rate-limit.ts';
import { alreadyHeld, type ResponseCache, readKey, type Stored } from './response-cache.ts';

export interface Observation {
  requestId: string;
  method: string;
  path: string;
  status: number;
  seconds: number;
  /** A 503 of the rate limit (not of maintenance). */
  rateLimited?: boolean;
}

export interface FastReadOptions {
  cache: ResponseCache;
  /** The edge's admission rule, the same as the full way's (see createAdmission). */
  admit: (socketAddress: string, forwardedFor: string | null, recognizedToken: string | null) => Promise<Admission>;
  maxUrlLength: number;
  /** TRUST_PROXY: hops whose X-Forwarded-Proto decides the scheme a request is cached under. */
  trustProxy: number;
  /** False while in maintenance: every request then takes the full way. */
  enabled: () => boolean;
  observe: (observation: Observation) => void;
}

/** Paths the full way handles itself: probes, metrics, GraphQL (bodies, CSRF). */
const NEVER = /^\/(graphql|healthz|readyz|metrics)(\/|$|\?)/;

/** GraphQL bodies larger than this, or of no declared length, take the full way. */
const MAX_GRAPHQL_BODY = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The URL a request is cached under: as @whatwg-node/server builds it, with the scheme a trusted proxy
 * reports, since the answer's URLs carry that scheme (an https page must never be served to http).
 */
export function fullUrlOf(req: IncomingMessage, trustProxy = 0): string {
  const forwarded = forwardedScheme(req.headers['x-forwarded-proto'] as string | undefined, trustProxy);
  const protocol = forwarded ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  return `${protocol}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
}

/** Request ids that may be echoed: short, and no characters that could split a log line or a header. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && /^[\w.:-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The stored body in the encoding the client prefers, compressed once per entry and kept; sets the headers. */
async function encoded(stored: Stored, headers: Record<string, string | number>, acceptEncoding: string | undefined): Promise<Buffer> {
  if (!isCompressible(headers['content-type'] as string | undefined)) return stored.body;
  headers.vary = varyOnEncoding(headers.vary as string | undefined);
  const encoding = preferredEncoding(acceptEncoding);
  if (!encoding || stored.body.byteLength < COMPRESSION_THRESHOLD_BYTES) return stored.body;
  stored.compressed ??= {};
  const body = (stored.compressed[encoding] ??= await compressBytes(stored.body, encoding));
  headers['content-encoding'] = encoding;
  headers.etag = encodedEtag(stored.etag, encoding);
  return body;
}

/** The rate limit's refusal, as JSON. */
function sendRefusal(res: ServerResponse, reply: NonNullable<Admission['refusal']>, requestId: string): number {
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    ...reply.headers,
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
  });
  res.end(body);
  return reply.status;
}

/** A kept answer, compressed as the client accepts, or 304 when the client holds it already; answers the status sent. */
async function sendStored(req: IncomingMessage, res: ServerResponse, stored: Stored, extra: Record<string, string>): Promise<number> {
  const headers: Record<string, string | number> = {};
  for (const [name, value] of stored.headers) if (name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  Object.assign(headers, extra, { etag: stored.etag });
  if (alreadyHeld(req.headers['if-none-match'], stored.etag)) {
    delete headers['content-type'];
    res.writeHead(304, headers);
    res.end();
    return 304;
  }
  const body = await encoded(stored, headers, req.headers['accept-encoding']);
  headers['content-length'] = body.byteLength;
  res.writeHead(stored.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
  return stored.status;
}

export function withFastReads(options: FastReadOptions, fullWay: Listener): Listener {
  /** What kind of cacheable read this is, if any: a GET of a legacy path, or a GraphQL POST. */
  const kind = (req: IncomingMessage): 'get' | 'graphql' | null => {
    const url = req.url ?? '/';
    if (!options.enabled() || req.headers.authorization !== undefined || url.length > options.maxUrlLength) return null;
    if (req.method === 'POST' && url === '/graphql' && /^application\/json\b/.test(req.headers['content-type'] ?? '')) {
      // a logged-in athlete's own session (GraphiQL in their browser) asks as them, never from the anonymous cache
      if (hasSessionCookie(req.headers.cookie)) return null;
      // a declared length bounds what is read here (node:http holds the body to it)
      const length = req.headers['content-length'];
      return length !== undefined && Number(length) <= MAX_GRAPHQL_BODY ? 'graphql' : null;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    return !NEVER.test(url) && !/oauth_token|%00|\u0000/i.test(url) && !prefersHtml(req.headers.accept ?? null) ? 'get' : null;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, what: 'get' | 'graphql'): Promise<void> => {
    const started = performance.now();
    let body = '';
    if (what === 'graphql') {
      body = await readBody(req);
      // the stream is spent: @whatwg-node/server takes a request's `body` field as its body instead
      (req as IncomingMessage & { body?: string }).body = body;
    }
    const stored = await options.cache.peek(readKey(req.method!, fullUrlOf(req, options.trustProxy), req.headers.accept, body));
    if (!stored) return fullWay(req, res);
    const requestId = requestIdOf(req.headers['x-request-id'] as string | undefined);
    // anonymous by construction: requests with a token never take this path
    const admission = await options.admit(
      req.socket.remoteAddress ?? 'local',
      (req.headers['x-forwarded-for'] as string | undefined) ?? null,
      null,
    );
    // a GraphQL read is refused as GraphQL answers (http/rate-limit.ts)
    const reply =
      admission.refusal &&
      (what === 'graphql'
        ? graphqlRateLimited(admission.refusal, batchLength(body), (req.headers.accept as string | undefined) ?? null)
        : admission.refusal);
    const status = reply
      ? sendRefusal(res, reply, requestId)
      : await sendStored(req, res, stored, { ...admission.headers, 'x-request-id': requestId });
    options.observe({
      requestId,
      method: req.method!,
      path: (req.url ?? '/').split('?')[0]!,
      status,
      seconds: (performance.now() - started) / 1000,
      rateLimited: reply !== null,
    });
  };

  return (req: IncomingMessage, res: ServerResponse) => {
    const what = kind(req);
    if (!what) return fullWay(req, res);
    serve(req, res, what).catch((error: unknown) => {
      // nothing sent yet: the full way answers (and logs) instead; otherwise the socket is closed
      if (!res.headersSent) return void fullWay(req, res);
      res.destroy(error instanceof Error ? error : undefined);
    });
  };
}
