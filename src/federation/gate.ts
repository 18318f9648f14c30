// The fediverse's door: which requests are its to answer, and what an inbox refuses before Fedify reads
// anything (a body too large, a server the operator blocked).
import type { Prisma } from '../db/database.ts';
import { isBlockedHost } from '../db/federation.ts';

/** The largest activity an inbox takes, whatever the edge allowed (Mastodon's own bound is about 1 MB). */
export const MAX_INBOX_BYTES = 256 * 1024;

const ACTIVITY_TYPES = /application\/(activity\+json|ld\+json)/i;
const FEDERATION_PATH = /^\/(\.well-known\/(webfinger|nodeinfo)|nodeinfo\/2\.1|inbox|people\/[^/]+\/(inbox|outbox|followers|following))$/;
const OBJECT_PATH = /^\/(people\/[^/.]+|entries\/\d+)$/;

/** Whether a request is the fediverse's: its paths, or an athlete's or entry's URL asked for as ActivityPub. */
export function claimed(request: Request): boolean {
  const { pathname } = new URL(request.url);
  if (FEDERATION_PATH.test(pathname)) return true;
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    OBJECT_PATH.test(pathname) &&
    ACTIVITY_TYPES.test(request.headers.get('accept') ?? '')
  );
}

function tooLarge(): Response {
  return Response.json(
    { error: { code: 'PAYLOAD_TOO_LARGE', message: `an activity may be at most ${MAX_INBOX_BYTES} bytes`, field: 'body' } },
    { status: 413 },
  );
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
export async function admitted(prisma: Prisma, request: Request): Promise<Request | Response> {
  if (request.method !== 'POST') return new Request(request.url, { method: request.method, headers: request.headers });
  if (Number(request.headers.get('content-length') ?? 0) > MAX_INBOX_BYTES) return tooLarge();
  const host = signingHost(request);
  if (host && (await isBlockedHost(prisma, host)))
    return Response.json({ error: { code: 'FORBIDDEN', message: 'this server does not take activities from yours' } }, { status: 403 });
  const body = await boundedBody(request);
  if (!body) return tooLarge();
  return new Request(request.url, { method: 'POST', headers: request.headers, body });
}
