// Multipart bodies read as they arrive (busboy): fields as text, and each file written to a temporary
// file as its bytes come, so that a 20 MB upload never sits in memory whole (reading it into a form
// held it four times over). A file is handed on as a File backed by that temporary file, read from disk
// when the operation reads it; the temporary files of a request are removed once it is answered
// (`releaseUploads`, at the edge).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { DEFAULT_MAX_GPX_BYTES } from '../domain/gpx.ts';
import type { Exchange, ServerContext } from '../graphql/context.ts';
import { MAX_IMAGE_BYTES } from '../media/images.ts';
import { BodyTooLargeError, discardRest, hasNul, JSON_LIMIT_BYTES, MalformedBodyError } from './body.ts';

export interface MultipartLimits {
  /** The whole body, whatever its headers say. */
  bytes: number;
  files: number;
  /** Fields besides the files. */
  fields: number;
  /** One field's value. */
  fieldBytes: number;
}

/**
 * A multipart form's fields and files, in the body's order. A body larger than `limits.bytes` is
 * BodyTooLargeError (413), as is a field longer than `limits.fieldBytes` or more parts than allowed; a
 * body that is not multipart as it says is MalformedBodyError (400). Either way the rest of the body
 * is read off, so that the client gets the answer, and no temporary file is left.
 */
export async function receiveMultipart(
  request: Request,
  exchange: Pick<Exchange, 'spooled'>,
  limits: MultipartLimits,
): Promise<Array<[string, string | File]>> {
  if (!request.body) return [];
  const files = exchange.spooled;
  const reader = request.body.getReader();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      limits: { files: limits.files, fields: limits.fields, fieldSize: limits.fieldBytes, fileSize: limits.bytes },
      defParamCharset: 'utf8',
    });
  } catch (error) {
    void discardRest(reader);
    throw new MalformedBodyError(`the multipart body cannot be read: ${(error as Error).message}`);
  }
  const parts: Array<[string, string | Promise<File>]> = [];
  // set by the parser's events: a holder, so that the reads below see what they set
  const refused: { error: Error | null } = { error: null };
  const tooLarge = (limit = limits.bytes, message?: string) => {
    refused.error ??= new BodyTooLargeError(limit, message);
  };
  parser.on('field', (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated)
      tooLarge(limits.fieldBytes, `a multipart field may be at most ${limits.fieldBytes} bytes`);
    else parts.push([name, value]);
  });
  parser.on('file', (name, stream, info) => {
    if (refused.error) {
      stream.resume();
      return;
    }
    const target = path.join(os.tmpdir(), `milepost-upload-${randomUUID()}`);
    files.push(target);
    stream.on('limit', () => tooLarge());
    const written = pipeline(stream, createWriteStream(target));
    const file = written.then(async () => new File([await openAsBlob(target)], info.filename ?? 'blob', { type: info.mimeType }));
    // settled here too: a refused body's files are never awaited by the caller
    file.catch(() => {});
    parts.push([name, file]);
  });
  parser.on('filesLimit', () => tooLarge(limits.files, `a multipart body may carry at most ${limits.files} files`));
  parser.on('fieldsLimit', () => tooLarge(limits.fields, `a multipart body may carry at most ${limits.fields} fields besides its files`));
  const parsed = finished(parser);
  parsed.catch(() => {});

  let bytes = 0;
  try {
    for (;;) {
      const { done, value: read } = await reader.read();
      if (done) break;
      // an in-process request built from a string streams its text as a string
      const value: Uint8Array = typeof read === 'string' ? Buffer.from(read) : read;
      bytes += value.byteLength;
      if (bytes > limits.bytes) tooLarge();
      if (refused.error) throw refused.error;
      if (!parser.write(value)) await Promise.race([once(parser, 'drain'), parsed]);
    }
    parser.end();
    await parsed.catch((error: Error) => {
      throw new MalformedBodyError(`the multipart body cannot be read: ${error.message}`);
    });
    const received: Array<[string, string | File]> = [];
    for (const [name, value] of parts) received.push([name, typeof value === 'string' ? value : await value]);
    if (refused.error) throw refused.error;
    return received;
  } catch (error) {
    void discardRest(reader);
    parser.destroy();
    await Promise.allSettled(parts.flatMap(([, value]) => (typeof value === 'string' ? [] : [value])));
    await releaseUploads(exchange);
    // the client went away, or the disk failed (ENOSPC, EACCES): not a fault of the body
    if (request.signal?.aborted || (error as { syscall?: string }).syscall) throw error;
    if (error instanceof BodyTooLargeError || error instanceof MalformedBodyError) throw error;
    throw new MalformedBodyError(`the multipart body cannot be read: ${(error as Error).message}`);
  }
}

/**
 * A multipart form's fields and files, in order, for the REST paths and the pages; the body may be at
 * most `limit` bytes (a photo upload carries its file here). Fields may not hold NUL.
 */
/** A REST form (legacy or /api/v1) may be this large: a photo of the largest size accepted, twice over. */
export const FORM_UPLOAD_LIMIT_BYTES = 2 * MAX_IMAGE_BYTES;

/** A multipart form's fields and files (receiveMultipart), its files spooled for `exchange`. */
export async function readMultipartForm(
  request: Request,
  exchange: Pick<Exchange, 'spooled'>,
  limit = FORM_UPLOAD_LIMIT_BYTES,
): Promise<Array<[string, string | File]>> {
  const parts = await receiveMultipart(request, exchange, { bytes: limit, files: 10, fields: 1_000, fieldBytes: limit });
  if (hasNul(parts)) throw new MalformedBodyError('form fields may not contain NUL characters');
  return parts;
}

/**
 * Removes the temporary files of an exchange's uploads (after its answer); never fails. Every request
 * passes here: one without uploads costs no promise.
 */
export function releaseUploads(exchange: Pick<Exchange, 'spooled'>): Promise<unknown> {
  if (exchange.spooled.length === 0) return RELEASED;
  const files = exchange.spooled.splice(0);
  // a file that cannot be removed is left to the system's clean-up of its temporary directory
  return Promise.allSettled(files.map((file) => rm(file, { force: true })));
}
const RELEASED = Promise.resolve();

/** What a GraphQL multipart request may hold: one upload of the largest kind, and its operations. */
export const GRAPHQL_MULTIPART_LIMITS: MultipartLimits = {
  bytes: DEFAULT_MAX_GPX_BYTES + JSON_LIMIT_BYTES,
  files: 10,
  // `operations` and `map`, and room for a client that adds a few of its own
  fields: 8,
  fieldBytes: JSON_LIMIT_BYTES,
};

/**
 * A GraphQL multipart request (the GraphQL multipart request spec: `operations`, `map`, then the
 * files) read here, at the edge, under its limits, instead of by yoga, whose form reading holds every
 * file in memory and whose own size limit would cut off the discarding of a refused body (a reset).
 * The answer: the request to hand yoga with `exchange` (no body; its operations, files in place, are the
 * exchange's, which `useReadUploads` gives yoga), or the refusal to send (400 or 413, a GraphQL error).
 */
export async function readGraphQLMultipart(
  request: Request,
  exchange: Exchange,
  limits = GRAPHQL_MULTIPART_LIMITS,
): Promise<Request | { status: number; body: { errors: Array<{ message: string; extensions: { code: string } }> } }> {
  try {
    exchange.operations = operationsOf(new Map(await receiveMultipart(request, exchange, limits)));
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    return new Request(request.url, { method: 'POST', headers, signal: request.signal });
  } catch (error) {
    const refusal =
      error instanceof BodyTooLargeError
        ? { status: 413, code: 'TOO_LARGE' }
        : error instanceof MalformedBodyError
          ? { status: 400, code: 'BAD_REQUEST' }
          : null;
    if (!refusal) throw error;
    return { status: refusal.status, body: { errors: [{ message: (error as Error).message, extensions: { code: refusal.code } }] } };
  }
}

/** Gives yoga the operations readGraphQLMultipart read (yoga's own multipart reading is off). */
export function useReadUploads(): Plugin<object, ServerContext> {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const operations = serverContext && 'spooled' in serverContext ? serverContext.operations : undefined;
      if (operations) setRequestParser(() => operations);
    },
  };
}

const badRequest = (message: string) => new MalformedBodyError(message);

function jsonField(parts: Map<string, string | File>, name: string): unknown {
  const value = parts.get(name);
  if (typeof value !== 'string') throw badRequest(`the multipart field "${name}" must be JSON text`);
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`the multipart field "${name}" is not valid JSON`);
  }
}

/** The request's operations with each file put where `map` says. */
function operationsOf(parts: Map<string, string | File>): GraphQLParams | GraphQLParams[] {
  if (!parts.has('operations')) throw badRequest('the multipart field "operations" is missing');
  const operations = jsonField(parts, 'operations');
  if (operations === null || typeof operations !== 'object')
    throw badRequest('the multipart field "operations" must be a JSON object or array');
  if (!parts.has('map')) return operations as GraphQLParams;
  const map = jsonField(parts, 'map');
  if (map === null || typeof map !== 'object' || Array.isArray(map)) throw badRequest('the multipart field "map" must be a JSON object');
  for (const [key, paths] of Object.entries(map)) {
    const file = parts.get(key);
    if (!(file instanceof File)) throw badRequest(`the map names the file "${key}", which the body does not hold`);
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))
      throw badRequest(`the map's "${key}" must be an array of paths`);
    for (const at of paths) placeAt(operations as Record<string, unknown>, at, file);
  }
  return operations as GraphQLParams;
}

/** Sets `at` (`variables.input.photo`, `0.variables.gpx`) in `object` to `value`. */
function placeAt(object: Record<string, unknown>, at: string, value: unknown): void {
  const keys = at.split('.');
  let node = object;
  for (const [i, key] of keys.entries()) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw badRequest(`the map's path "${at}" is not allowed`);
    if (i === keys.length - 1) node[key] = value;
    else {
      // as yoga places them: a missing step of the path is made
      if (node[key] === null || typeof node[key] !== 'object' || !Object.hasOwn(node, key)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
  }
}
