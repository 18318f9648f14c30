// Uploaded photos, served from the media store to those who may see an entry that shows them
// (Query.photo). Their names are digests of their bytes, so a public photo's answer may be cached for
// good: a changed photo is a new name. One that only some may see is kept by no shared cache, and a
// browser asks again each time (an entry's audience may shrink), answered 304 while it may have it.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { MediaStore } from '../media/store.ts';
import { jsonResponse } from './router.ts';

/** `access`: whether the viewer may have the photo and whether everyone may; null answers as a photo that does not exist. */
export async function mediaFile(store: MediaStore, name: string, request: Request, access: { public: boolean } | null): Promise<Response> {
  const file = access && (await store.file(name));
  if (!file) return jsonResponse(404, { error: { code: 'NOT_FOUND', message: `no photo ${name}` } });
  const etag = `"${name.split('.')[0]}"`;
  const headers = {
    'content-type': file.contentType,
    'cache-control': access.public ? 'public, max-age=31536000, immutable' : 'private, no-cache',
    ...(access.public ? {} : { vary: 'Authorization, Cookie' }),
    etag,
    'x-content-type-options': 'nosniff',
    // a photo is never a document: nothing in it may run if a browser is tricked into opening it as one
    'content-security-policy': "default-src 'none'; sandbox",
    'access-control-allow-origin': '*',
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const body = request.method === 'HEAD' ? null : (Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>);
  return new Response(body, { status: 200, headers: { ...headers, 'content-length': String(file.size) } });
}
