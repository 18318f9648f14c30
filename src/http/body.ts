// Request bodies read under a limit. A body that is refused part-way (too large, or a document the
// parser rejected) is not cut off: closing a socket that still has unread bytes makes TCP send a
// reset, and the client then loses the answer that says why. Its remainder is read and discarded,
// up to a bound, so that the client reads the status and its JSON error body.

/** Bytes a refused body may still send after its answer; past this the connection is closed. */
export const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

/** JSON bodies: GraphQL documents with their variables, REST writes. */
export const JSON_LIMIT_BYTES = 1024 * 1024;

/** A body the service will not store: PostgreSQL's text cannot hold NUL, and no field needs one. */
export class MalformedBodyError extends Error {
  override name = 'MalformedBodyError';
}

/** Arrays and objects within one another: no field of the service nests more than a few. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why `value` (a parsed body, or GraphQL variables) is refused, or null: a NUL in a string, or in a key
 * or value of an array or plain object, or nesting deeper than MAX_JSON_DEPTH. Walked without
 * recursion, so a body nested 100,000 deep is refused rather than overflowing the stack.
 */
export function bodyProblem(value: unknown): string | null {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return NUL_PROBLEM;
      continue;
    }
    // plain objects only: an uploaded file (a Blob holding a Buffer) is bytes, not text, and walking
    // its buffer key by key cost seconds on a 20 MB upload
    const children = Array.isArray(item) ? item : isPlainObject(item) ? Object.entries(item).flat() : null;
    if (!children) continue;
    if (depth >= MAX_JSON_DEPTH) return `the body is nested deeper than ${MAX_JSON_DEPTH} levels`;
    for (const child of children) pending.push([child, depth + 1]);
  }
  return null;
}

const NUL_PROBLEM = 'strings may not contain NUL characters';

/** Whether a form's fields (name and value pairs) hold NUL. */
export function hasNul(fields: ReadonlyArray<readonly [string, unknown]>): boolean {
  return fields.some(([name, value]) => name.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')));
}

function isPlainObject(value: unknown): value is object {
  const prototype = value && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  return prototype === Object.prototype || prototype === null;
}

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(
    readonly limit: number,
    message = `the request body is larger than ${limit} bytes`,
  ) {
    super(message);
  }
}

/** Reads and drops what is left of a body, at most `limit` bytes, then lets go of it. */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, limit = DRAIN_LIMIT_BYTES): Promise<void> {
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      bytes += value.byteLength;
      if (bytes > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // the client went away: nothing left to read
  }
}

/**
 * The same bytes as `body`; cancelling it (a consumer that stopped early) discards the rest instead of
 * destroying the connection under the client's feet.
 */
export function drainedOnCancel(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        void discardRest(reader);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The body as text, at most `limit` bytes (whatever Content-Length says: chunked bodies have none). */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  return (await readLimitedBytes(request, limit)).toString('utf8');
}

/** The body's bytes, at most `limit` of them; past it BodyTooLargeError, and the rest is discarded. */
export async function readLimitedBytes(request: Request, limit: number): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value: read } = await reader.read();
    if (done) break;
    // an in-process request built from URLSearchParams streams its text as a string
    const value: Uint8Array = typeof read === 'string' ? Buffer.from(read) : read;
    bytes += value.byteLength;
    if (bytes > limit) {
      void discardRest(reader);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A JSON body that must be an object (the REST paths' and /api/v1's parameters), read under
 * JSON_LIMIT_BYTES; an empty body is `{}`. Anything else is a MalformedBodyError saying what is wrong.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readLimitedText(request, JSON_LIMIT_BYTES);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MalformedBodyError('the body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new MalformedBodyError('the body must be a JSON object');
  const problem = bodyProblem(body);
  if (problem) throw new MalformedBodyError(problem);
  return body as Record<string, unknown>;
}

/** How many operations a GraphQL JSON body holds as a batch (its array's length); null when it is not one. */
export function batchLength(body: string): number | null {
  if (!body.trimStart().startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed.length : null;
  } catch {
    return null;
  }
}
