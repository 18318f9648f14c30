// Persisted operations over HTTP, in Apollo's protocol (`extensions.persistedQuery.sha256Hash`), which
// Apollo Client, urql and Relay's persisted queries speak:
// - automatic persisted queries (the default): a client sends the hash alone; an unknown hash answers
//   `PersistedQueryNotFound`, and the client sends the hash with the text, which registers it once
//   the text's SHA-256 is checked. Registered texts are kept in memory and, with REDIS_URL, in Redis
//   for every process (a Redis fault only costs a client one more round trip);
// - trusted documents (TRUSTED_DOCUMENTS): only the operations of a file deployed with the server run,
//   by their id; any other text is refused.
// A document is also named by `documentId` (the GraphQL-over-HTTP persisted documents draft) or `doc_id`.
// Lookups go through yoga's persisted-operations plugin; this module keeps the texts and registers them.
import { createHash } from 'node:crypto';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** Texts kept in this process, most recently used last out. */
const KEPT_IN_MEMORY = 5_000;
/** How long Redis keeps a registered text after its last registration. */
const REDIS_TTL_SECONDS = 7 * 24 * 3600;
const SHA256 = /^[0-9a-f]{64}$/;

export interface PersistedQueryStore {
  get(hash: string): Promise<string | null>;
  set(hash: string, text: string): Promise<void>;
}

/** Registered texts: in memory, and shared through Redis when there is one. */
export function createPersistedQueryStore(redis: Redis | null, keyPrefix: string): PersistedQueryStore {
  const memory = new LRUCache<string, string>({ max: KEPT_IN_MEMORY });
  const key = (hash: string) => `${keyPrefix}:apq:${hash}`;
  return {
    async get(hash) {
      const kept = memory.get(hash);
      if (kept !== undefined || !redis) return kept ?? null;
      // Redis away or slow (its commands are bounded): the client registers the text again
      const shared = await redis.get(key(hash)).catch(() => null);
      if (shared !== null) memory.set(hash, shared);
      return shared;
    },
    async set(hash, text) {
      memory.set(hash, text);
      await redis?.set(key(hash), text, 'EX', REDIS_TTL_SECONDS).catch(() => undefined);
    },
  };
}

const refusal = (message: string, code: string) => createGraphQLError(message, { extensions: { code, http: { status: 400 } } });

/** The hash a request names in Apollo's protocol, if any; a malformed one is refused. */
function persistedHash(extensions: unknown): string | null {
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null | undefined)?.persistedQuery;
  if (persisted == null) return null;
  if (persisted.version !== 1 || typeof persisted.sha256Hash !== 'string')
    throw refusal('extensions.persistedQuery must be { version: 1, sha256Hash }', 'PERSISTED_QUERY_INVALID');
  return persisted.sha256Hash;
}

/** The request fields that name a persisted document besides Apollo's extension (yoga's `extraParamNames`). */
export const DOCUMENT_ID_PARAMS = ['documentId', 'doc_id'];

/**
 * The id of the persisted document a request names: `documentId` (the GraphQL-over-HTTP persisted
 * documents draft; `sha256:<hash>` or the bare hash), `doc_id` (as some clients send it), in the body or,
 * for GET, the query string; else Apollo's `extensions.persistedQuery.sha256Hash`.
 */
function documentIdOf(params: Record<string, unknown>, request: Request): string | null {
  const fromQuery = request.method === 'GET' ? new URL(request.url).searchParams : null;
  for (const name of DOCUMENT_ID_PARAMS) {
    const id = params[name] ?? fromQuery?.get(name);
    if (typeof id === 'string' && id !== '') return id.replace(/^sha256:/, '');
  }
  const persisted = (params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null | undefined)
    ?.persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

/** The plugins for persisted operations: trusted documents only when `trusted` is given, else APQ. */
export function usePersistedQueries(store: PersistedQueryStore, trusted: ReadonlyMap<string, string> | null): Plugin[] {
  const lookup: Plugin = usePersistedOperations({
    // trusted documents: nothing but their ids; APQ: a text goes through (registered below when it names its hash)
    allowArbitraryOperations: trusted === null,
    extractPersistedOperationId: (params, request) => documentIdOf(params as unknown as Record<string, unknown>, request),
    getPersistedOperation: (id) => (trusted ? (trusted.get(id) ?? null) : SHA256.test(id) ? store.get(id) : null),
    customErrors: {
      // the message and code Apollo Client and urql look for before sending the text
      notFound: { message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } },
      keyNotFound: trusted
        ? {
            message: 'only trusted documents run here: send extensions.persistedQuery',
            extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
          }
        : { message: 'Must provide query string.', extensions: { code: 'BAD_REQUEST', http: { status: 400 } } },
      persistedQueryOnly: {
        message: 'only trusted documents run here: send the id of one, not an operation text',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
    },
  }) as Plugin;
  if (trusted) return [lookup];
  const register: Plugin = {
    async onParams({ params }) {
      const hash = persistedHash(params.extensions);
      if (hash === null || !params.query) return;
      if (!SHA256.test(hash))
        throw refusal('extensions.persistedQuery.sha256Hash must be 64 hexadecimal digits', 'PERSISTED_QUERY_INVALID');
      if (createHash('sha256').update(params.query).digest('hex') !== hash)
        throw refusal('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
      await store.set(hash, params.query);
    },
  };
  return [register, lookup];
}
