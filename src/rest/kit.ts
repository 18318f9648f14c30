// What every legacy REST path shares: one wrapper gives each the same formats, JSONP, token handling,
// status codes and error body, runs its GraphQL operation (src/operations/rest.graphql) with checked
// variables, and records the OpenAPI operation the route declares beside its handler.
import { setImmediate as nextTurn } from 'node:timers/promises';
// whatwg-node's Response: node:http gets a string body in one write, not through a web stream
import { Response } from '@whatwg-node/fetch';
import { type ExecutionResult, getOperationAST } from 'graphql';
import { type EntryFragments, pageOf, recordingVersions } from '../cache/entry-fragments.ts';
import type { Context, Exchange } from '../graphql/context.ts';
import { schema } from '../graphql/schema.ts';
import { BodyTooLargeError, MalformedBodyError, readJsonObject } from '../http/body.ts';
import { readMultipartForm } from '../http/multipart.ts';
import { accepts } from '../http/negotiation.ts';
import { type RequestContext, type Router, readForm } from '../http/router.ts';
import type {
  RestFriendsStreamDocument,
  RestFriendsStreamIdsDocument,
  RestFriendsStreamIdsQuery,
  RestFriendsStreamQuery,
  RestNearbyStreamDocument,
  RestNearbyStreamIdsDocument,
  RestNearbyStreamIdsQuery,
  RestNearbyStreamQuery,
  RestPersonStreamDocument,
  RestPersonStreamIdsDocument,
  RestPersonStreamIdsQuery,
  RestPersonStreamQuery,
  RestPopularStreamDocument,
  RestPopularStreamIdsDocument,
  RestPopularStreamIdsQuery,
  RestPopularStreamQuery,
  RestPublicStreamDocument,
  RestPublicStreamIdsDocument,
  RestPublicStreamIdsQuery,
  RestPublicStreamQuery,
} from '../operations/generated.ts';
import { failure, failureOfError, notAuthorized, RestError } from './errors.ts';
import type { RunOperation } from './execute.ts';
import { jsonpBody, validCallback } from './jsonp.ts';
import type { Operation } from './openapi-parts.ts';
import { decimalParam, nestBracketed, positiveId, restFieldName, variableProblems } from './params.ts';
import { entryJson } from './shapes.ts';

/** The streams answer the same selection. */
type StreamDocument =
  | typeof RestPublicStreamDocument
  | typeof RestPopularStreamDocument
  | typeof RestFriendsStreamDocument
  | typeof RestPersonStreamDocument
  | typeof RestNearbyStreamDocument;
type StreamQuery = RestPublicStreamQuery | RestPopularStreamQuery | RestFriendsStreamQuery | RestPersonStreamQuery | RestNearbyStreamQuery;
/** A stream's name, for the shares of its pages found kept. */
const kindOf = (document: StreamDocument) => `rest:${getOperationAST(document)?.name?.value}`;

/** The same streams, asked for their entries' ids only. */
type StreamIdsDocument =
  | typeof RestPublicStreamIdsDocument
  | typeof RestPopularStreamIdsDocument
  | typeof RestFriendsStreamIdsDocument
  | typeof RestPersonStreamIdsDocument
  | typeof RestNearbyStreamIdsDocument;
type StreamIdsQuery =
  | RestPublicStreamIdsQuery
  | RestPopularStreamIdsQuery
  | RestFriendsStreamIdsQuery
  | RestPersonStreamIdsQuery
  | RestNearbyStreamIdsQuery;

export interface RestOptions {
  run: RunOperation;
  /** Entries' JSON kept per version (shared with the GraphQL edge's stream pages). */
  fragments: EntryFragments;
  /** The request's context: its token, or a form's `oauth_token`, resolved (throws a token error). */
  /** The request's context, its token (or a form's `formToken`) resolved; the app whose token it was is noted on `exchange`. */
  context: (request: Request, formToken: string | null, exchange: Exchange) => Promise<Context>;
}

export interface RestContext extends RequestContext {
  extension: string | null;
}

interface Reply {
  status: number;
  body: unknown;
  /** The body's JSON when it was put together already (a stream page of kept entries). */
  json?: string;
  headers?: Record<string, string>;
  /** Raw bytes instead of JSON (the GPX download). */
  raw?: { contentType: string; text: string };
}

/** `me` in a person's path means the token's person; without a token it is a 401, not someone called "me". */
export function ownerName(ctx: RequestContext, context: Context): string {
  if (ctx.params.username !== 'me') return ctx.params.username!;
  if (!context.viewer) throw notAuthorized();
  return context.viewer.username;
}
/** Characters of a document sent at a time: a 19 MB GPX written whole held the event loop while the socket took it. */
const SLICE_CHARACTERS = 256 * 1024;

/**
 * A document as a body: a big one in slices, each encoded in a turn of the event loop of its own (a
 * reader pulling in a loop, as the response cache does, would otherwise encode megabytes in one turn).
 */
function textBody(text: string): string | ReadableStream<Uint8Array> {
  if (text.length <= SLICE_CHARACTERS) return text;
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at > 0) await nextTurn();
      controller.enqueue(encoder.encode(text.slice(at, at + SLICE_CHARACTERS)));
      at += SLICE_CHARACTERS;
      if (at >= text.length) controller.close();
    },
  });
}

/** Data of a successful execution (the variables were checked before it: see `run` in restKit). */
export function dataOf<T>(result: ExecutionResult<T>, viewer = true): T {
  if (result.errors?.length) {
    const first = result.errors[0]!;
    // a stream's typed failure
    const typed = failureOfError(first, viewer, restFieldName);
    if (typed) throw typed;
    // an expected refusal with a status of its own (an Idempotency-Key conflict): the same status here
    const http = first.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
    if (http?.status && (http.status < 500 || http.status === 503))
      throw new RestError(http.status, String(first.extensions?.code ?? 'REFUSED'), first.message, undefined, http.headers);
    throw first;
  }
  return result.data!;
}

/** A typed error as a payload's `error` selects it (the `RestFailure` fragment). */
interface PayloadFailure {
  __typename: string;
  errorMessage: string;
  issues?: Array<{ path: string; message: string }>;
  scope?: string;
}

/**
 * What a mutation (aliased `result`) changed: its payload's `part`; its typed `error` as that error's
 * status; a part gone since the write (the entry deleted under a new comment) as 404.
 */
export function outcome<
  D extends { result: { error?: PayloadFailure | null } },
  P extends Exclude<keyof D['result'], 'error' | '__typename'>,
>(result: ExecutionResult<D>, part: P): NonNullable<D['result'][P]> {
  const payload = dataOf(result).result;
  if (payload.error) throw failure({ ...payload.error, message: payload.error.errorMessage }, true, restFieldName);
  const value = (payload as D['result'])[part];
  if (value === null || value === undefined) throw new RestError(404, 'NOT_FOUND', `the ${String(part)} was deleted meanwhile`);
  return value as NonNullable<D['result'][P]>;
}

/** A stream's page; its refused argument (a GraphQL error naming the typed failure) as that failure's status. */
export function streamOf<P>(result: ExecutionResult<{ stream?: P | null }>, viewer: boolean): P {
  const page = dataOf(result, viewer).stream;
  if (!page) throw new RestError(500, 'INTERNAL', 'a stream answered no page');
  return page;
}

/** Stream parameters as sent; GraphQL's coercion names any that is not a number. */
function pageVariables(url: URL) {
  const variables: Record<string, unknown> = {};
  for (const name of ['page', 'since', 'until']) {
    const value = url.searchParams.get(name);
    if (value === null || value === '') continue;
    // `page` is whole; a UNIX time may be a decimal
    const number = name === 'page' && !/^-?\d+$/.test(value.trim()) ? null : decimalParam(value);
    variables[name] = number ?? value;
  }
  return variables;
}

async function readBody(ctx: RestContext): Promise<Record<string, unknown>> {
  const type = ctx.request.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) {
    try {
      return await readJsonObject(ctx.request);
    } catch (error) {
      if (error instanceof MalformedBodyError) throw new RestError(400, 'MALFORMED_BODY', error.message);
      throw error;
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    try {
      // a multipart form may carry a photo (media[data]): room for one over the limit, so that its size is named
      if (type.startsWith('multipart/form-data')) return nestBracketed(await readMultipartForm(ctx.request, ctx.exchange));
      return nestBracketed((await readForm(ctx)).entries());
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw error;
      throw new RestError(400, 'MALFORMED_BODY', 'the form body cannot be read');
    }
  }
  if (type === '' || (await ctx.request.clone().text()) === '') return {};
  throw new RestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send application/json, application/x-www-form-urlencoded or multipart/form-data');
}

interface Spec {
  auth?: boolean;
  /** Extensions this path answers to; the first is what a path without one gets. */
  formats?: Array<'json' | 'gpx'>;
  /** Reads a body (POST): form fields may carry oauth_token. */
  body?: boolean;
  /** The path's OpenAPI operation, as `<path>.<first format>`; a path without one is an undocumented alias. */
  doc?: Operation;
  /** The operation of `<path>.gpx`, when GPX is not the first format. */
  gpxDoc?: Operation;
}

/** The legacy paths as OpenAPI documents them: `/entries/{id}.json` → method → operation. */
export type LegacyPaths = Record<string, Record<string, Operation>>;

export type Handler = (args: { ctx: RestContext; context: Context; params: Record<string, unknown>; format: string }) => Promise<Reply>;

/** What the route groups share: the route wrapper, the checked runner, and stream pages. */
export type RestKit = ReturnType<typeof restKit>;

export function restKit(router: Router, options: RestOptions) {
  const paths: LegacyPaths = {};
  const document = (method: string, path: string, format: string, operation: Operation | undefined) => {
    if (!operation) return;
    const template = `${path.replace(/:(\w+)/g, '{$1}')}.${format}`;
    paths[template] = { ...paths[template], [method.toLowerCase()]: operation };
  };

  /** Runs an operation once its variables fit the types it declares; else 422 naming each parameter. */
  const run: RunOperation = async (document, request, context, variables = {}) => {
    const problems = variableProblems(schema, document, variables);
    if (problems.length) throw new RestError(422, 'VALIDATION_FAILED', 'some parameters are invalid', problems);
    return options.run(document, request, context, variables);
  };

  function route(method: string, path: string, spec: Spec, handler: Handler) {
    document(method, path, spec.formats?.[0] ?? 'json', spec.doc);
    document(method, path, 'gpx', spec.gpxDoc);
    router.add(method, path, async (base) => {
      const ctx = base as RestContext;
      const formats = spec.formats ?? ['json'];
      const format = ctx.extension ?? formats[0]!;
      const rawCallback = ctx.request.method === 'GET' && format === 'json' ? ctx.url.searchParams.get('callback') : null;
      const callback = rawCallback !== null && validCallback(rawCallback) ? rawCallback : null;
      let viewer = false;
      try {
        checkFormat(ctx, formats, format, rawCallback, callback);
        const params = spec.body ? await readBody(ctx) : {};
        const context = await viewerContext(options, ctx, params.oauth_token);
        viewer = context.viewer !== null;
        if (spec.auth && !viewer) throw notAuthorized();
        return respond(await handler({ ctx, context, params, format }), callback, viewer);
      } catch (error) {
        if (error instanceof RestError) return respond(errorReply(error), callback, viewer);
        throw error;
      }
    });
  }

  /**
   * A stream page put together from its entries' JSON kept per version when they all are (its ids
   * read first, cache/entry-fragments.ts), else read whole and its entries kept.
   */
  const stream = (
    ids: StreamIdsDocument,
    operation: StreamDocument,
    variables: (ctx: RestContext, context: Context) => Record<string, unknown>,
  ): Handler => {
    const kind = kindOf(operation);
    return async ({ ctx, context }) => {
      const asked = { ...variables(ctx, context), ...pageVariables(ctx.url) };
      const viewer = context.viewer !== null;
      const page = await pageOf(
        options.fragments,
        kind,
        context.baseUrl,
        async () => {
          const reading = recordingVersions(context);
          const listed = streamOf(await run<StreamIdsQuery>(ids, ctx.request, reading.context, asked), viewer);
          return { rest: null, ids: listed.edges.map((edge) => edge.node.id), versions: reading.versions };
        },
        async () => {
          const reading = recordingVersions(context);
          const read = streamOf(await run<StreamQuery>(operation, ctx.request, reading.context, asked), viewer);
          const entries = read.edges.map(({ node }) => ({ id: node.id, json: () => JSON.stringify(entryJson(node)) }));
          return { rest: null, entries, versions: reading.versions };
        },
      );
      return { status: 200, body: null, json: `{"entries":[${page.entries.join(',')}]}` };
    };
  };

  return { route, run, stream, options, paths };
}

/** Refuses a bad JSONP callback (400), an extension the path does not offer, or an Accept header that excludes its type (406). */
function checkFormat(
  ctx: RestContext,
  formats: readonly string[],
  format: string,
  rawCallback: string | null,
  callback: string | null,
): void {
  if (rawCallback !== null && !callback)
    throw new RestError(400, 'INVALID_CALLBACK', 'callback must be a dotted JavaScript identifier of at most 128 characters');
  if (!formats.includes(format))
    throw new RestError(406, 'NOT_ACCEPTABLE', `${ctx.url.pathname} is available as ${formats.map((f) => `.${f}`).join(' or ')}`);
  const accept = ctx.request.headers.get('accept');
  const mediaType = format === 'gpx' ? 'application/gpx+xml' : callback ? 'application/javascript' : 'application/json';
  if (!accepts(accept, mediaType) && !(format === 'gpx' && (accepts(accept, 'application/xml') || accepts(accept, 'text/xml')))) {
    throw new RestError(406, 'NOT_ACCEPTABLE', `the Accept header excludes ${mediaType}`);
  }
}

async function viewerContext(options: RestOptions, ctx: RestContext, formToken: unknown): Promise<Context> {
  try {
    return await options.context(ctx.request, typeof formToken === 'string' ? formToken : null, ctx.exchange);
  } catch (error) {
    throw RestError.ofToken(error) ?? error;
  }
}

function respond(reply: Reply, callback: string | null, viewer: boolean): Response {
  // lower-case names, so that these settle any the reply carried
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  if (viewer) headers['cache-control'] = 'private';
  if (reply.raw) {
    headers['content-type'] = reply.raw.contentType;
    return new Response(textBody(reply.raw.text), { status: reply.status, headers });
  }
  const json = reply.json ?? JSON.stringify(reply.body);
  if (callback) {
    headers['content-type'] = 'application/javascript; charset=utf-8';
    headers['x-content-type-options'] = 'nosniff';
    return new Response(jsonpBody(callback, json), { status: reply.status, headers });
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  return new Response(json, { status: reply.status, headers });
}

function errorReply(error: RestError): Reply {
  return {
    status: error.status,
    body: error.body,
    headers: error.headers,
  };
}

export function entryId(ctx: RestContext): number {
  const id = positiveId(ctx.params.id);
  if (id === null) throw new RestError(404, 'NOT_FOUND', `no entry ${ctx.params.id}`);
  return id;
}
export function username(ctx: RestContext): string {
  return ctx.params.username!;
}
