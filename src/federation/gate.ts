// The fediverse's door: which requests are its to answer, and what an inbox refuses before Fedify reads
// anything (a body too large, a server the operator blocked).
import type { Prisma } from '../db/database.ts';
import { isBlockedHost } from '../db/federation.ts';
import { errorBody, jsonResponse } from '../http/router.ts';

/** The largest activity an inbox takes, whatever the edge allowed (Mastodon's own bound is about 1 MB). */
export const MAX_INBOX_BYTES = 256 * 1024;

const ACTIVITY_TYPES = /application\/(activity\+json|ld\+json)/i;
const FEDERATION_PATH = /^\/(\.well-known\/(webfinger|nodeinfo)|nodeinfo\/2\.1|inbox|people\/[^/]+\/(inbox|outbox|followers|following))$/;
const OBJECT_PATH = /^\/(people\/[^/.]+|entries\/\d+)$/;

/** Whether a request asks for an athlete or an entry as ActivityPub (a server, not a browser or an app). */
export function asksForObject(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    OBJECT_PATH.test(pathname) &&
    ACTIVITY_TYPES.test(request.headers.get('accept') ?? '')
  );
}

/** Whether a request is the fediverse's: its paths, or an athlete's or entry's URL asked for as ActivityPub. */
export function claimed(request: Request): boolean {
  return FEDERATION_PATH.test(new URL(request.url).pathname) || asksForObject(request);
}

function tooLarge(): Response {
  return jsonResponse(413, errorBody('PAYLOAD_TOO_LARGE', `an activity may be at most ${MAX_INBOX_BYTES} bytes`, { field: 'body' }));
}

/** A refusal of an argument that the fediverse's reads meet (a cursor no page has): 400 naming it. */
export class RefusedArgument extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'NOT_AUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  410: 'GONE',
};

/**
 * Fedify's own refusals (plain text: "Missing resource parameter.", "Invalid JSON.", a failed signature)
 * in the service's one error body, naming what was wrong: WebFinger's `resource`, an inbox's `signature`
 * or `body`.
 */
export function inOurWords(request: Request, response: Response, text: string): Response {
  const { pathname } = new URL(request.url);
  const field = pathname.startsWith('/.well-known/webfinger') ? 'resource' : response.status === 401 ? 'signature' : 'body';
  const message = text.trim().replace(/\.$/, '') || `refused with status ${response.status}`;
  return jsonResponse(response.status, errorBody(CODES[response.status] ?? 'REFUSED', message, { field }));
}

/** The request's body, or null when it is longer than MAX_INBOX_BYTES (then not read further). */
async function boundedBody(request: Request): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_INBOX_BYTES) return null;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The host of the key a request's HTTP Signature names, if it names one. */
function signingHost(request: Request): string | null {
  const signature = request.headers.get('signature') ?? request.headers.get('signature-input') ?? '';
  const keyId = /keyid="([^"]+)"/i.exec(signature)?.[1];
  if (!keyId || !URL.canParse(keyId)) return null;
  return new URL(keyId).host;
}

/**
 * The request as Fedify takes it: a copy of the platform's own Request class (the server adapter's is
 * another), with a POST's body read once and bounded; or the answer that refuses it (413, or 403 for a
 * server the operator blocked, by its signature's key, before anything is parsed).
 */
export async function admitted(prisma: Prisma, request: Request): Promise<{ request: Request } | { refused: Response }> {
  if (request.method !== 'POST') return { request: new Request(request.url, { method: request.method, headers: request.headers }) };
  if (Number(request.headers.get('content-length') ?? 0) > MAX_INBOX_BYTES) return { refused: tooLarge() };
  const host = signingHost(request);
  if (host && (await isBlockedHost(prisma, host)))
    return { refused: jsonResponse(403, errorBody('FORBIDDEN', 'this server does not take activities from yours')) };
  const body = await boundedBody(request);
  if (!body) return { refused: tooLarge() };
  return { request: new Request(request.url, { method: 'POST', headers: request.headers, body }) };
}
