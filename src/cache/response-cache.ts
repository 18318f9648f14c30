// Cached bytes of anonymous reads (the legacy GET paths, GraphQL query operations), valid for as long
// as nothing was committed to the database. Every lookup first reads the change clock: a different
// reading empties the cache, so a write is visible in the very next read, whichever process made it.
// Responses that depend on a viewer are never stored: only requests without a token get here.
// Misses are single-flight: lookups of a key that arrive while its answer is being computed, under the
// same reading, wait for that one computation instead of each starting their own (after a commit,
// every waiting reader would otherwise compute the same page at once).

import { createHash } from 'node:crypto';
import { type DocumentNode, getOperationAST } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { ChangeClock } from '../db/change-clock.ts';
import { deliversIncrementally } from '../graphql/incremental.ts';
import type { Encoding } from '../http/compression.ts';
import type { CacheStats } from '../http/metrics.ts';
// whatwg-node's Response hands a Buffer body to node:http in one write, with its length
import { makeResponse } from '../http/responses.ts';

export interface Stored {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer<ArrayBuffer>;
  etag: string;
  /** The body compressed, made on first demand and kept with it (fast path). */
  compressed?: Partial<Record<Encoding, Buffer>>;
}

/** Content types whose responses may be stored. */
const STORABLE = /^(application\/(json|graphql-response\+json|javascript|gpx\+xml))\b/;

export class ResponseCache {
  private reading: string | null = null;
  private readonly entries = new Map<string, Stored>();
  private bytes = 0;
  private readonly stats = { hits: 0, misses: 0, bypassed: 0, coalesced: 0 };
  /** Computations under way: their key, the reading they started under, and their stored answer (null: not shareable). */
  private readonly flights = new Map<string, { reading: string; answer: Promise<Stored | null> }>();

  constructor(
    private readonly clock: ChangeClock,
    private readonly maxBytes: number,
  ) {}

  /**
   * The response for `key`: the stored one while nothing was committed since it was stored, else what
   * `produce` answers (stored when `storable` says so, a 200 of a storable type).
   */
  async serve(
    request: Request,
    key: string,
    produce: () => Promise<Response> | Response,
    storable: (body: Buffer<ArrayBuffer>) => boolean = () => true,
  ): Promise<Response> {
    const reading = await this.clock.read();
    if (reading === null) {
      // the database cannot be reached: what was stored at the last reading still holds
      const stale = this.clock.lost() ? this.entries.get(key) : undefined;
      if (stale) {
        this.stats.hits += 1;
        return replay(request, stale);
      }
      this.stats.bypassed += 1;
      return produce();
    }
    const hit = this.find(key, reading);
    if (hit) return replay(request, hit);
    // no pause when there is no flight: this one must be set before another lookup of the key looks
    const flight = this.joined(key, reading);
    const shared = flight && (await flight);
    if (shared) return replay(request, shared);
    this.stats.misses += 1;
    let settle: (answer: Stored | null) => void = () => undefined;
    const answer = new Promise<Stored | null>((resolve) => (settle = resolve));
    this.flights.set(key, { reading, answer });
    try {
      const response = await produce();
      if (response.status !== 200 || response.headers.has('set-cookie') || !STORABLE.test(response.headers.get('content-type') ?? ''))
        return response;
      // read up to what may be kept: a bigger body (a 19 MB GPX document) goes out as it streams,
      // never gathered, hashed and written whole
      const read = await readUpTo(response, this.maxBytes / 4);
      if (read.rest) return read.rest;
      const body = read.body;
      const stored: Stored = {
        status: response.status,
        headers: [...response.headers],
        body,
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      };
      // an answer with errors is neither kept nor shared: each waiter then computes its own
      const keep = storable(body);
      settle(keep ? stored : null);
      // stored only if no commit was seen since this lookup's reading (a later lookup would have moved it)
      if (keep && this.reading === reading && body.byteLength <= this.maxBytes / 4) this.store(key, stored);
      return replay(request, stored);
    } finally {
      settle(null);
      if (this.flights.get(key)?.answer === answer) this.flights.delete(key);
    }
  }

  /**
   * The stored response for `key` while nothing was committed since it was stored, or the one being
   * computed under the current reading once it is ready (node:http's fast path).
   */
  async peek(key: string): Promise<Stored | null> {
    const reading = await this.clock.read();
    if (reading === null) return (this.clock.lost() && this.entries.get(key)) || null;
    return this.find(key, reading) ?? (await this.joined(key, reading));
  }

  /**
   * The answer of the computation of `key` under way under this same reading, if any and shareable;
   * null at once (not a promise) when there is none.
   */
  private joined(key: string, reading: string): Promise<Stored | null> | null {
    const flight = this.flights.get(key);
    // the same reading: that computation started after every commit this lookup could know of
    if (!flight || flight.reading !== reading) return null;
    return flight.answer.then((shared) => {
      if (shared) this.stats.coalesced += 1;
      return shared;
    });
  }

  private find(key: string, reading: string): Stored | null {
    if (reading !== this.reading) {
      this.entries.clear();
      this.bytes = 0;
      this.reading = reading;
    }
    const hit = this.entries.get(key);
    if (!hit) return null;
    this.stats.hits += 1;
    // least recently used goes first: move this one to the end
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  private store(key: string, stored: Stored) {
    const size = stored.body.byteLength + key.length * 2;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes + size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.byteLength + oldest.length * 2;
    }
    this.entries.set(key, stored);
    this.bytes += size;
  }

  statistics(): CacheStats {
    return { ...this.stats, entries: this.entries.size, bytes: this.bytes };
  }
}

/** Whether an If-None-Match header names these bytes. */
export function alreadyHeld(ifNoneMatch: string | null | undefined, etag: string): boolean {
  // a compressed answer's tag names its encoding ("…-br"): the client holds the same content
  const known = ifNoneMatch?.split(',').map((tag) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/-(br|gzip)"$/, '"'),
  );
  return known !== undefined && (known.includes(etag) || known.includes('*'));
}

/** The key of an anonymous read: what its response depends on besides the data. */
export function readKey(method: string, url: string, accept: string | null | undefined, body = ''): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}\n${accept ?? ''}\n${body}`;
}

/** The body, whole, when it holds at most `limit` bytes; else the response again, streaming from where it was. */
async function readUpTo(response: Response, limit: number): Promise<{ body: Buffer<ArrayBuffer>; rest?: undefined } | { rest: Response }> {
  if (!response.body) return { body: Buffer.alloc(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) return { body: Buffer.concat(chunks) as Buffer<ArrayBuffer> };
    chunks.push(next.value);
    bytes += next.value.byteLength;
    if (bytes > limit) break;
  }
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { rest: makeResponse(rest, { status: response.status, headers: response.headers }) };
}

/** A stored response as a new one, or 304 when the client already holds these bytes. */
function replay(request: Request, stored: Stored): Response {
  const headers = new Headers(stored.headers);
  headers.set('etag', stored.etag);
  if (alreadyHeld(request.headers.get('if-none-match'), stored.etag)) return makeResponse(null, { status: 304, headers });
  return makeResponse(request.method === 'HEAD' ? null : stored.body, { status: stored.status, headers });
}

const operationTypes = new LRUCache<string, string>({ max: 1000 });

/** Whether a GraphQL request body asks for a query operation (not a mutation or subscription). */
export function isQueryOperation(body: string, parse: (query: string) => DocumentNode): boolean {
  let params: { query?: unknown; operationName?: unknown };
  try {
    params = JSON.parse(body) as typeof params;
  } catch {
    return false;
  }
  if (typeof params?.query !== 'string') return false;
  const key = `${typeof params.operationName === 'string' ? params.operationName : ''}\n${params.query}`;
  let type = operationTypes.get(key);
  if (type === undefined) {
    type = 'unreadable';
    try {
      const document = parse(params.query);
      // a query answered in parts (`@defer`, `@stream`) is not one body to keep
      type = deliversIncrementally(document)
        ? 'incremental'
        : (getOperationAST(document, typeof params.operationName === 'string' ? params.operationName : undefined)?.operation ?? 'unknown');
    } catch {
      // a syntax error: yoga answers it, uncached
    }
    operationTypes.set(key, type);
  }
  return type === 'query';
}
