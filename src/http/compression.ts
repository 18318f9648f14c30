// Compressed answers for clients that ask (Accept-Encoding): brotli or gzip, for text-like types over
// a small threshold. Pages and streams are 37–43 KB of JSON or HTML and shrink to a fifth. The full
// way compresses as the body streams out; the fast path keeps each cached answer's compressed forms.
import { pipeline, Readable, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import Negotiator from 'negotiator';
import { makeResponse, type ResponseBody } from './responses.ts';

export type Encoding = 'br' | 'gzip';

/** Brotli's default (11) costs ~40 ms on a 40 KB page; 4 compresses about as well as gzip, as fast. */
const STREAMING_BROTLI_QUALITY = 4;

/** Bodies smaller than this are sent as they are: compression would save less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|graphql-response\+json|javascript|gpx\+xml|xml)|text\/|image\/svg\+xml)/;

/** The encoding the client prefers among those we make, by its q-values; null for none (identity). */
export function preferredEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const chosen = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encoding(['br', 'gzip', 'identity']);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

export function isCompressible(contentType: string | null | undefined): boolean {
  return COMPRESSIBLE.test(contentType ?? '');
}

/** The tag of the same content in other bytes; `alreadyHeld` (response-cache.ts) still recognises it. */
export function encodedEtag(etag: string, encoding: Encoding): string {
  return etag.replace(/"$/, `-${encoding}"`);
}

/** `vary` with Accept-Encoding added once. */
export function varyOnEncoding(vary: string | null | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

const GZIP = { level: 6 };
/** Brotli for a body whose size is known, at `quality`. */
const brotliOptions = (size: number, quality: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * One body compressed, for the cache: kept and served many times, so brotli a step harder. Off the
 * main thread (libuv's pool): a 10 MB body held the event loop for most of a second compressed in place.
 */
export function compressBytes(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(body, brotliOptions(body.byteLength, 5)) : gzipAsync(body, GZIP);
}

/** Bodies past this size are compressed one at a time. */
const BIG_BODY_BYTES = 1024 * 1024;
let bigCompressions: Promise<unknown> = Promise.resolve();

/**
 * A whole body compressed off the main thread (libuv's pool), in one piece. Big ones wait for each
 * other: four 19 MB GPX documents compressed at once took both cores from the event loop for 455 ms.
 */
function compressWhole(body: Buffer, encoding: Encoding): Promise<Buffer> {
  const compress = () =>
    encoding === 'br' ? brotliAsync(body, brotliOptions(body.byteLength, STREAMING_BROTLI_QUALITY)) : gzipAsync(body, GZIP);
  if (body.byteLength < BIG_BODY_BYTES) return compress();
  const turn = bigCompressions.then(compress, compress);
  bigCompressions = turn.catch(() => undefined);
  return turn;
}

/** The response compressed as it streams, when the client asked and it is worth it; else as it was. */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type');
  if (!isCompressible(type) || response.status === 204 || response.status === 304) return response;
  const headers = new Headers(response.headers);
  headers.set('vary', varyOnEncoding(headers.get('vary')));
  const encoding = preferredEncoding(request.headers.get('accept-encoding'));
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const worth =
    encoding &&
    response.body &&
    request.method !== 'HEAD' &&
    !headers.has('content-encoding') &&
    !(length < COMPRESSION_THRESHOLD_BYTES) &&
    !/no-transform/.test(headers.get('cache-control') ?? '');
  const rebuilt = (body: ResponseBody) => makeResponse(body, { status: response.status, statusText: response.statusText, headers });
  if (!worth) {
    try {
      response.headers.set('vary', headers.get('vary')!);
      return response;
    } catch {
      // immutable headers (a fetched response): a copy carries the new ones
      return rebuilt(response.body);
    }
  }
  // a body of unknown length is read up to the threshold first: a small one goes out as it is
  const chunks = response.body[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let bytes = 0;
  while (bytes < COMPRESSION_THRESHOLD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      headers.delete('content-length');
      return rebuilt(Buffer.concat(head));
    }
    head.push(next.value);
    bytes += next.value.byteLength;
  }
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  // the same content in other bytes: a tag of its own, which If-None-Match still recognises
  const etag = headers.get('etag');
  if (etag) headers.set('etag', encodedEtag(etag, encoding));
  // a body that came in one piece (a stream page, a document) is compressed in one: no stream to
  // pipe, and it goes out with its length
  const following = await chunks.next();
  if (following.done) {
    const compressed = await compressWhole(Buffer.concat(head), encoding);
    headers.set('content-length', String(compressed.byteLength));
    return rebuilt(compressed);
  }
  head.push(following.value);
  // through zlib as a Node stream: bodies come as native or whatwg-node streams, and the two do not mix
  const compressor: Transform =
    encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: STREAMING_BROTLI_QUALITY } }) : createGzip(GZIP);
  const whole = (async function* () {
    yield* head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();
  const body = pipeline(Readable.from(whole), compressor, () => {
    // a client that went away, or a body that failed: the response is already cut off
  });
  return rebuilt(body);
}
