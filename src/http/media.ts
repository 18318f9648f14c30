// Uploaded photos, served from the media store. Their names are digests of their bytes, so an answer
// may be cached for good: a changed photo is a new name.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { MediaStore } from '../media/store.ts';
import { jsonResponse } from './router.ts';

export async function mediaFile(store: MediaStore, name: string, request: Request): Promise<Response> {
  const file = await store.file(name);
  if (!file) return jsonResponse(404, { error: { code: 'NOT_FOUND', message: `no photo ${name}` } });
  const etag = `"${name.split('.')[0]}"`;
  const headers = {
    'content-type': file.contentType,
    'cache-control': 'public, max-age=31536000, immutable',
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
