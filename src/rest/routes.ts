// The legacy REST paths of SPEC 4.0, each a GraphQL operation (src/operations/rest.graphql) whose result takes the
// shapes of COMPAT.md (shapes.ts). One wrapper gives every path the same formats, JSONP, token
// handling, status codes and error body.
import { setImmediate as nextTurn } from 'node:timers/promises';
// whatwg-node's Response: node:http gets a string body in one write, not through a web stream
import { Response } from '@whatwg-node/fetch';
import { type ExecutionResult, getOperationAST } from 'graphql';
import { type EntryFragments, pageOf, recordingVersions } from '../cache/entry-fragments.ts';
import { DEFAULT_MAX_GPX_BYTES } from '../domain/gpx.ts';
import type { Context } from '../graphql/context.ts';
import { schema } from '../graphql/schema.ts';
import { BodyTooLargeError, drainedOnCancel, MalformedBodyError, readJsonObject } from '../http/body.ts';
import { readMultipartForm } from '../http/multipart.ts';
import { accepts } from '../http/negotiation.ts';
import { type RequestContext, type Router, readForm } from '../http/router.ts';
import {
  RestCreateCommentDocument,
  RestCreateEntryDocument,
  RestCreateRouteDocument,
  RestDeleteEntryDocument,
  RestEntryDocument,
  RestEntryGpxDocument,
  RestFriendsDocument,
  RestFriendsStreamDocument,
  RestFriendsStreamIdsDocument,
  type RestFriendsStreamIdsQuery,
  type RestFriendsStreamQuery,
  RestImportActivityDocument,
  RestLikeEntryDocument,
  RestMeDocument,
  RestNearbyStreamDocument,
  RestNearbyStreamIdsDocument,
  type RestNearbyStreamIdsQuery,
  type RestNearbyStreamQuery,
  RestPersonDocument,
  RestPersonStreamDocument,
  RestPersonStreamIdsDocument,
  type RestPersonStreamIdsQuery,
  type RestPersonStreamQuery,
  RestPopularStreamDocument,
  RestPopularStreamIdsDocument,
  type RestPopularStreamIdsQuery,
  type RestPopularStreamQuery,
  RestPublicStreamDocument,
  RestPublicStreamIdsDocument,
  type RestPublicStreamIdsQuery,
  type RestPublicStreamQuery,
  RestRemoveFriendDocument,
  RestRequestFriendDocument,
  RestRouteDocument,
  RestRouteGpxDocument,
  RestRoutesDocument,
  RestSetEntryTrackDocument,
  type RestSetEntryTrackMutation,
  RestSetRouteTrackDocument,
  type RestSetRouteTrackMutation,
} from '../operations/generated.ts';
import { failure, failureOfError, notAuthorized, RestError } from './errors.ts';
import type { RunOperation } from './execute.ts';
import { jsonpBody, validCallback } from './jsonp.ts';
import { createEntryInput, decimalParam, enumValue, nestBracketed, positiveId, restFieldName, variableProblems } from './params.ts';
import { commentJson, entryJson, friendJson, friendshipJson, likeJson, personJson, routeJson, trackJson } from './shapes.ts';

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
  context: (request: Request, formToken: string | null) => Promise<Context>;
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
function ownerName(ctx: RequestContext, context: Context): string {
  if (ctx.params.username !== 'me') return ctx.params.username!;
  if (!context.viewer) throw notAuthorized();
  return context.viewer.username;
}
/** Data of a successful execution (the variables were checked before it: see `run` in mountRestRoutes). */
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

function dataOf<T>(result: ExecutionResult<T>, viewer = true): T {
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
function outcome<D extends { result: { error?: PayloadFailure | null } }, P extends Exclude<keyof D['result'], 'error' | '__typename'>>(
  result: ExecutionResult<D>,
  part: P,
): NonNullable<D['result'][P]> {
  const payload = dataOf(result).result;
  if (payload.error) throw failure({ ...payload.error, message: payload.error.errorMessage }, true, restFieldName);
  const value = (payload as D['result'])[part];
  if (value === null || value === undefined) throw new RestError(404, 'NOT_FOUND', `the ${String(part)} was deleted meanwhile`);
  return value as NonNullable<D['result'][P]>;
}

/** A stream's page; its refused argument (a GraphQL error naming the typed failure) as that failure's status. */
function streamOf<P>(result: ExecutionResult<{ stream?: P | null }>, viewer: boolean): P {
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
      if (type.startsWith('multipart/form-data')) return nestBracketed(await readMultipartForm(ctx.request));
      return nestBracketed((await readForm(ctx.request)).entries());
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
}

type Handler = (args: { ctx: RestContext; context: Context; params: Record<string, unknown>; format: string }) => Promise<Reply>;

export function mountRestRoutes(router: Router, options: RestOptions): void {
  const kit = restKit(router, options);
  mountStreamRoutes(kit);
  mountEntryRoutes(kit);
  mountPeopleRoutes(kit);
  mountRouteRoutes(kit);
}

/** What the route groups share: the route wrapper, the checked runner, and stream pages. */
type RestKit = ReturnType<typeof restKit>;

function restKit(router: Router, options: RestOptions) {
  /** Runs an operation once its variables fit the types it declares; else 422 naming each parameter. */
  const run: RunOperation = async (document, request, context, variables = {}) => {
    const problems = variableProblems(schema, document, variables);
    if (problems.length) throw new RestError(422, 'VALIDATION_FAILED', 'some parameters are invalid', problems);
    return options.run(document, request, context, variables);
  };

  function route(method: string, path: string, spec: Spec, handler: Handler) {
    router.add(method, path, async (base) => {
      const ctx = base as RestContext;
      const formats = spec.formats ?? ['json'];
      const format = ctx.extension ?? formats[0]!;
      const rawCallback = ctx.request.method === 'GET' && format === 'json' ? ctx.url.searchParams.get('callback') : null;
      const callback = rawCallback !== null && validCallback(rawCallback) ? rawCallback : null;
      let viewer = false;
      try {
        if (rawCallback !== null && !callback)
          throw new RestError(400, 'INVALID_CALLBACK', 'callback must be a dotted JavaScript identifier of at most 128 characters');
        if (!formats.includes(format as 'json'))
          throw new RestError(406, 'NOT_ACCEPTABLE', `${ctx.url.pathname} is available as ${formats.map((f) => `.${f}`).join(' or ')}`);
        const accept = ctx.request.headers.get('accept');
        const mediaType = format === 'gpx' ? 'application/gpx+xml' : callback ? 'application/javascript' : 'application/json';
        if (!accepts(accept, mediaType) && !(format === 'gpx' && (accepts(accept, 'application/xml') || accepts(accept, 'text/xml')))) {
          throw new RestError(406, 'NOT_ACCEPTABLE', `the Accept header excludes ${mediaType}`);
        }
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

  return { route, run, stream, options };
}

async function viewerContext(options: RestOptions, ctx: RestContext, formToken: unknown): Promise<Context> {
  try {
    return await options.context(ctx.request, typeof formToken === 'string' ? formToken : null);
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

function entryId(ctx: RestContext): number {
  const id = positiveId(ctx.params.id);
  if (id === null) throw new RestError(404, 'NOT_FOUND', `no entry ${ctx.params.id}`);
  return id;
}
function username(ctx: RestContext): string {
  return ctx.params.username!;
}

/** The streams (SPEC 4.2). */
function mountStreamRoutes(kit: RestKit): void {
  const { route, stream } = kit;
  // streams (SPEC 4.2)
  route(
    'GET',
    '/entries',
    {},
    stream(RestPublicStreamIdsDocument, RestPublicStreamDocument, () => ({})),
  );
  // the week's most liked and commented, ranked as of one moment (GraphQL popularStream)
  route(
    'GET',
    '/entries/popular',
    {},
    stream(RestPopularStreamIdsDocument, RestPopularStreamDocument, () => ({})),
  );
  route(
    'GET',
    '/entries/friends',
    { auth: true },
    stream(RestFriendsStreamIdsDocument, RestFriendsStreamDocument, () => ({})),
  );
  route(
    'GET',
    '/entries/nearby/:lat,:lon',
    {},
    stream(RestNearbyStreamIdsDocument, RestNearbyStreamDocument, (ctx) => {
      const radius = ctx.url.searchParams.get('radius');
      return {
        lat: Number(ctx.params.lat),
        lon: Number(ctx.params.lon),
        ...(radius !== null && radius !== '' ? { radius: Number.isFinite(Number(radius)) ? Number(radius) : radius } : {}),
      };
    }),
  );
  route(
    'GET',
    '/people/me/entries',
    { auth: true },
    stream(RestPersonStreamIdsDocument, RestPersonStreamDocument, (_ctx, context) => ({ username: context.viewer!.username })),
  );
  route(
    'GET',
    '/people/:username/entries',
    {},
    stream(RestPersonStreamIdsDocument, RestPersonStreamDocument, (ctx) => ({ username: username(ctx) })),
  );
}

/** A comment or like of an entry, by its id (where a create's Location points): as the entry shows it. */
const partOfEntry =
  ({ run }: RestKit, part: 'comments' | 'likes', shape: (item: never) => unknown): Handler =>
  async ({ ctx, context }) => {
    const id = entryId(ctx);
    const itemId = positiveId(ctx.params.itemId);
    const what = part === 'comments' ? 'comment' : 'like';
    const missing = new RestError(404, 'NOT_FOUND', `no ${what} ${ctx.params.itemId} on entry ${ctx.params.id}`);
    if (itemId === null) throw missing;
    const data = dataOf(await run(RestEntryDocument, ctx.request, context, { id }));
    const item = (data.entry?.[part].edges as Array<{ node: { id: number } }> | undefined)?.find(({ node }) => node.id === itemId)?.node;
    if (!item) throw missing;
    return { status: 200, body: shape(item as never) };
  };

/** Entries, their comments and likes. */
function mountEntryRoutes(kit: RestKit): void {
  const { route, run } = kit;
  // entries
  route('POST', '/entries', { auth: true, body: true }, async ({ ctx, context, params }) => {
    const result = await run(RestCreateEntryDocument, ctx.request, context, { input: createEntryInput(params) });
    const entry = outcome(result, 'entry');
    return { status: 201, body: entryJson(entry), headers: { location: entry.url } };
  });
  // a FIT, TCX or GPX file (gzipped or not) as a workout entry; the same file again answers
  // the entry it made the first time, 200 instead of 201
  route('POST', '/entries/import', { auth: true, body: true }, async ({ ctx, context, params }) => {
    const file = params.file;
    // the form's File need not be this realm's Blob
    if (typeof file !== 'object' || file === null || typeof (file as Blob).arrayBuffer !== 'function')
      throw new RestError(422, 'VALIDATION_FAILED', 'some parameters are invalid', [
        { field: 'file', message: 'send the activity file as the multipart/form-data part `file`' },
      ]);
    const variables = {
      file,
      ...(typeof params.message === 'string' ? { message: params.message } : {}),
      ...(params.visibility !== undefined && params.visibility !== '' ? { visibility: enumValue(params.visibility) } : {}),
    };
    const imported = await run(RestImportActivityDocument, ctx.request, context, variables);
    const entry = outcome(imported, 'entry');
    return {
      status: imported.data?.result.created ? 201 : 200,
      body: entryJson(entry),
      headers: { location: entry.url },
    };
  });
  route('GET', '/entries/:id', { formats: ['json', 'gpx'] }, async ({ ctx, context, format }) => {
    if (format === 'gpx') {
      const data = dataOf(await run(RestEntryGpxDocument, ctx.request, context, { id: entryId(ctx) }));
      if (!data.entry) throw new RestError(404, 'NOT_FOUND', `no entry ${ctx.params.id}`);
      if (!data.entry.track) throw new RestError(404, 'NOT_FOUND', `entry ${ctx.params.id} has no GPS track`);
      return { status: 200, body: null, raw: { contentType: 'application/gpx+xml; charset=utf-8', text: data.entry.track.gpx } };
    }
    const data = dataOf(await run(RestEntryDocument, ctx.request, context, { id: entryId(ctx) }));
    if (!data.entry) throw new RestError(404, 'NOT_FOUND', `no entry ${ctx.params.id}`);
    return { status: 200, body: entryJson(data.entry) };
  });
  route('DELETE', '/entries/:id', { auth: true, body: true }, async ({ ctx, context }) => {
    const id = entryId(ctx);
    outcome(await run(RestDeleteEntryDocument, ctx.request, context, { id }), 'deletedEntry');
    return { status: 200, body: { id, deleted: true } };
  });
  route('POST', '/entries/:id/comments', { auth: true, body: true }, async ({ ctx, context, params }) => {
    const id = entryId(ctx);
    // an object or a list is passed as sent, so that GraphQL's coercion names `body` (never "[object Object]")
    const body =
      params.body === undefined || params.body === null
        ? ''
        : typeof params.body === 'number' || typeof params.body === 'boolean'
          ? String(params.body)
          : params.body;
    const comment = outcome(await run(RestCreateCommentDocument, ctx.request, context, { entryId: id, body }), 'comment');
    // clients read the new id off the end of Location (`.*/[0-9]+$`), and a GET there answers the comment
    return { status: 201, body: commentJson(comment), headers: { location: `${context.baseUrl}/entries/${id}/comments/${comment.id}` } };
  });
  route('POST', '/entries/:id/likes', { auth: true, body: true }, async ({ ctx, context }) => {
    const id = entryId(ctx);
    const like = outcome(await run(RestLikeEntryDocument, ctx.request, context, { entryId: id }), 'like');
    return { status: 201, body: likeJson(like), headers: { location: `${context.baseUrl}/entries/${id}/likes/${like.id}` } };
  });
  route('GET', '/entries/:id/comments/:itemId', {}, partOfEntry(kit, 'comments', commentJson));
  route('GET', '/entries/:id/likes/:itemId', {}, partOfEntry(kit, 'likes', likeJson));
}

/** People, their friends and routes. */
function mountPeopleRoutes(kit: RestKit): void {
  const { route, run } = kit;
  // people
  route('GET', '/people/me', { auth: true }, async ({ ctx, context }) => {
    const data = dataOf(await run(RestMeDocument, ctx.request, context));
    return { status: 200, body: personJson(data.me!) };
  });
  route('GET', '/people/:username', {}, async ({ ctx, context }) => {
    const data = dataOf(await run(RestPersonDocument, ctx.request, context, { username: username(ctx) }));
    if (!data.person) throw new RestError(404, 'NOT_FOUND', `nobody is called ${username(ctx)}`);
    return { status: 200, body: personJson(data.person) };
  });
  route('GET', '/people/:username/friends', {}, async ({ ctx, context }) => {
    const name = ownerName(ctx, context);
    const data = dataOf(await run(RestFriendsDocument, ctx.request, context, { username: name }));
    if (!data.person) throw new RestError(404, 'NOT_FOUND', `nobody is called ${name}`);
    return { status: 200, body: { friends: data.person.friends.edges.map((edge) => friendJson(edge.node)) } };
  });
  // friend requests: asking someone who already asked you makes you friends at once
  route('POST', '/people/:username/friends', { auth: true, body: true }, async ({ ctx, context }) => {
    const result = await run(RestRequestFriendDocument, ctx.request, context, { username: ownerName(ctx, context) });
    const state = outcome(result, 'friendship');
    return { status: 201, body: friendshipJson(state), headers: { location: state.person.url } };
  });
  route('DELETE', '/people/:username/friends', { auth: true, body: true }, async ({ ctx, context }) => {
    const result = await run(RestRemoveFriendDocument, ctx.request, context, { username: ownerName(ctx, context) });
    return { status: 200, body: friendshipJson(outcome(result, 'friendship')) };
  });
  route('GET', '/people/:username/routes', {}, async ({ ctx, context }) => {
    const name = ownerName(ctx, context);
    const data = dataOf(await run(RestRoutesDocument, ctx.request, context, { username: name }));
    if (!data.person) throw new RestError(404, 'NOT_FOUND', `nobody is called ${name}`);
    return { status: 200, body: { routes: data.person.routes.edges.map((edge) => routeJson(edge.node)) } };
  });
}

/** Routes and tracks (SPEC 4.7). */
function mountRouteRoutes(kit: RestKit): void {
  const { route, run } = kit;
  // routes and tracks (SPEC 4.7)
  route('POST', '/routes', { auth: true, body: true }, async ({ ctx, context, params }) => {
    const variables: Record<string, unknown> = {};
    if (params.name !== undefined) variables.name = typeof params.name === 'string' ? params.name : String(params.name);
    if (params.activity_type !== undefined && params.activity_type !== '') {
      variables.activityType = enumValue(params.activity_type);
    }
    const created = outcome(await run(RestCreateRouteDocument, ctx.request, context, variables), 'route');
    return { status: 201, body: routeJson(created), headers: { location: `${context.baseUrl}/routes/${created.id}.gpx` } };
  });
  route('GET', '/routes/:id', { formats: ['gpx', 'json'] }, async ({ ctx, context, format }) => {
    const id = positiveId(ctx.params.id);
    const missing = new RestError(404, 'NOT_FOUND', `no route ${ctx.params.id}`);
    if (id === null) throw missing;
    if (format === 'json') {
      const data = dataOf(await run(RestRouteDocument, ctx.request, context, { id }));
      if (!data.route) throw missing;
      return { status: 200, body: routeJson(data.route) };
    }
    const data = dataOf(await run(RestRouteGpxDocument, ctx.request, context, { id }));
    if (!data.route) throw missing;
    const gpx = data.route.track?.gpx ?? emptyGpx(data.route.name);
    return { status: 200, body: null, raw: { contentType: 'application/gpx+xml; charset=utf-8', text: gpx } };
  });

  const trackUpload =
    (operation: typeof RestSetEntryTrackDocument | typeof RestSetRouteTrackDocument, what: 'entry' | 'route'): Handler =>
    async ({ ctx, context }) => {
      const id = positiveId(ctx.params.id);
      if (id === null) throw new RestError(404, 'NOT_FOUND', `no ${what} ${ctx.params.id}`);
      const type = (ctx.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/gpx+xml')
        throw new RestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the GPX document as the raw body with Content-Type: application/gpx+xml');
      if (Number(ctx.request.headers.get('content-length') ?? 0) > DEFAULT_MAX_GPX_BYTES) {
        throw new RestError(413, 'TOO_LARGE', `GPX documents may be at most ${DEFAULT_MAX_GPX_BYTES} bytes`);
      }
      // the body streams into the parser, which stops at the size limit
      const gpx = { stream: () => (ctx.request.body ? drainedOnCancel(ctx.request.body) : new Blob([]).stream()) };
      const data = await run<RestSetEntryTrackMutation | RestSetRouteTrackMutation>(operation, ctx.request, context, { id, gpx });
      const result =
        what === 'entry'
          ? outcome(data as ExecutionResult<RestSetEntryTrackMutation>, 'entry')
          : outcome(data as ExecutionResult<RestSetRouteTrackMutation>, 'route');
      return { status: 200, body: { id: result.id, track: trackJson(result.track!) } };
    };
  route('PUT', '/entries/:id/track', { auth: true }, trackUpload(RestSetEntryTrackDocument, 'entry'));
  route('PUT', '/routes/:id/track', { auth: true }, trackUpload(RestSetRouteTrackDocument, 'route'));
}

function emptyGpx(name: string | null): string {
  const escaped = name?.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Milepost" xmlns="http://www.topografix.com/GPX/1/1">\n${escaped ? `  <metadata><name>${escaped}</name></metadata>\n` : ''}</gpx>\n`;
}
