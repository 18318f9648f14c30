// The generated REST API at /api/v1: every query and mutation of the schema as a REST
// operation, made by sofa-api from the REST view of the schema (rest-view.ts), with no code per
// endpoint. Operations run through the same envelop as /graphql (createOperationRunner): the same
// token rules, limits, compiled execution and error masking. This layer adds what REST clients
// expect: typed failures as statuses (the one table in errors.ts) and the legacy layer's error body,
// readable paths for the resources the legacy paths also have, bodies read under the service's limits,
// and uploads as multipart parts.

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
// the adapter's own Response writes a text body as it is, where the global one encodes it first
import { Response as TextResponse } from '@whatwg-node/fetch';
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isNullableType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  visit,
} from 'graphql';
import { createSofa, createSofaRouter } from 'sofa-api';
import type { SplicedPages } from '../cache/spliced-pages.ts';
import { SCOPES, type Scope } from '../domain/scopes.ts';
import type { Context, Exchange } from '../graphql/context.ts';
import { hasNul, JSON_LIMIT_BYTES, MalformedBodyError, readJsonObject, readLimitedText } from '../http/body.ts';
import { CSRF_HEADERS, unpreflighted } from '../http/csrf.ts';
import { readMultipartForm } from '../http/multipart.ts';
import { Router } from '../http/router.ts';
import { failure, failureOfError, notAuthorized, RestError, TYPED_FAILURES, type TypedFailure } from './errors.ts';
import type { RunOperation } from './execute.ts';
import { LEFT_OUT, restViewSchema } from './rest-view.ts';

export const API_BASE = '/api/v1';

/** The OpenAPI tag of the generated operations. */
export const API_TAG = 'REST API v1 (generated from the GraphQL schema)';

/**
 * Paths of the operations whose resources the legacy layer also names; every other query is
 * `GET /api/v1/<field-name>` and every mutation `POST /api/v1/<field-name>`, in kebab case.
 */
const READABLE_PATHS: Record<string, string> = {
  'Query.me': '/me',
  'Query.person': '/people/:username',
  'Query.personStream': '/people/:username/entries',
  'Query.publicStream': '/entries',
  'Query.friendsStream': '/entries/friends',
  'Query.nearbyStream': '/entries/nearby',
  'Query.popularStream': '/entries/popular',
  'Query.entry': '/entries/:id',
  'Query.route': '/routes/:id',
  'Query.gear': '/gear/:id',
  'Query.searchPeople': '/search/people',
  'Query.searchEntries': '/search/entries',
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export interface GeneratedOperation {
  kind: 'query' | 'mutation';
  field: string;
  method: 'GET' | 'POST';
  /** With `:name` parameters, below API_BASE. */
  path: string;
  status: 200 | 201;
  description: string;
  /** The typed failures its result may be (ValidationError, NotFoundError, NotAuthorizedError). */
  failures: string[];
  /** The scope a mutation needs (domain/scopes.ts); a query needs `read` when it needs a token. */
  scope: Scope | null;
  /** Null answers 404 (401 for a field without arguments, which can only be about the viewer). */
  nullable: boolean;
  hasArgs: boolean;
  /** It takes a file (an upload scalar somewhere in its arguments): multipart bodies carry it. */
  uploads: boolean;
  /**
   * A mutation whose one argument is its `input` object: the body holds the input's fields (or, as
   * GraphQL names it, `{ "input": {…} }`).
   */
  takesInput: boolean;
}

/** Scalars whose values are files in a multipart body. */
const UPLOAD_SCALARS = new Set(['GpxDocument', 'ImageFile', 'ActivityFile']);

/** True when an argument of this type can hold a file. */
function takesFile(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (UPLOAD_SCALARS.has(named.name)) return true;
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((field) => takesFile(field.type, seen));
}

/** Every query and mutation of `schema` with its method, path and success status. */
/**
 * The operations of the view; `declared` is the schema the view was cut from, whose fields keep their
 * `extensions` (a stream declares there the typed errors it may end with, having no union to list them).
 */
export function generatedOperations(schema: GraphQLSchema, declared: GraphQLSchema = schema): GeneratedOperation[] {
  const operations: GeneratedOperation[] = [];
  for (const [kind, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const path = READABLE_PATHS[`${type!.name}.${field.name}`] ?? `/${kebab(field.name)}`;
      const result = getNamedType(field.type);
      operations.push({
        kind,
        field: field.name,
        method: kind === 'query' ? 'GET' : 'POST',
        path,
        status: kind === 'mutation' && field.name.startsWith('create') ? 201 : 200,
        description: field.description ?? '',
        failures: isUnionType(result)
          ? result
              .getTypes()
              .map((member) => member.name)
              .filter((name) => TYPED_FAILURES.has(name))
          : declaredFailures(declared, kind, field.name),
        scope: declaredScope(declared, kind, field.name),
        nullable: isNullableType(field.type),
        hasArgs: field.args.length > 0,
        uploads: field.args.some((arg) => takesFile(arg.type)),
        takesInput: kind === 'mutation' && field.args.length === 1 && field.args[0]!.name === 'input',
      });
    }
  }
  // fixed paths before parameters: /entries/nearby is not the entry "nearby"
  return operations.sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')));
}

/** JSON Schemas of the scalars for the OpenAPI document. */
const SCALARS = {
  DateTime: { type: 'string', format: 'date-time' },
  UnixTime: { type: 'number', description: 'Seconds since 1970-01-01 UTC; a decimal is floored to its second.' },
  GpxDocument: { type: 'string', description: 'The GPX document: its text in JSON, or a file part of a multipart body.' },
  ImageFile: { type: 'string', format: 'binary', description: 'A file part of a multipart body.' },
  ActivityFile: {
    type: 'string',
    description: 'A FIT, TCX or GPX file (gzipped or not): a file part of a multipart body, or a TCX or GPX document’s text in JSON.',
  },
};

export interface GeneratedDescription {
  document: { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, unknown> } };
  operations: GeneratedOperation[];
}

export interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: unknown; description?: string }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string; oneOf?: Array<{ $ref: string }> } }> }>;
}

export interface GeneratedApi {
  /** The answer to a request below API_BASE, or null when no operation has its path. */
  handle(request: Request, exchange: Exchange, clientAddress: string): Promise<Response | null>;
  /** The route pattern of a path below API_BASE (`/api/v1/entries/:id`), for logs and metrics. */
  patternFor(pathname: string): string | undefined;
  /** What the OpenAPI document says of the operations: sofa's own document (3.0, paths below API_BASE), and each operation. */
  describe(): GeneratedDescription;
}

/** The one field a generated operation selects. */
interface RootField {
  field: string;
  kind: 'query' | 'mutation';
  hasArgs: boolean;
}

interface Upload {
  marker: string;
  files: Map<string, File>;
}

/**
 * One /api/v1 request as the adapter carries it through sofa, on the request's exchange: what the edge
 * read of it, and what sofa's execution leaves for the edge. sofa hands its callbacks the request or the
 * context alone; the context holds the exchange, and the exchange this.
 */
interface ApiCall {
  /** The request sofa is handed (its body read here, as JSON). */
  readonly forwarded: Request;
  readonly context: Context;
  /** The files of a multipart body, by the markers that stand for them in its JSON. */
  readonly upload: Upload | null;
  /** The parameters it sent in its body, for sofa's complaints to name. */
  readonly body: Record<string, unknown>;
  /** A failure of the service met while sofa ran it: the edge answers it as one (500, logged). */
  unexpected?: unknown;
  /** A stream page put together as JSON, and the text sofa answers in its place. */
  splice?: Splice;
}

declare module '../graphql/context.ts' {
  interface Exchange {
    /** An /api/v1 request's call through sofa (rest/generated-api.ts). */
    apiCall?: ApiCall;
  }
}

/** The call of a context sofa hands back (made by `handle` below). */
function callOf(context: Context): ApiCall {
  const call = context.exchange?.apiCall;
  if (!call) throw new Error('a request reached sofa without its call');
  return call;
}

/** sofa over the REST view of the schema: one route per operation, executed through the REST kit's runner. */
function sofaOver(
  view: GraphQLSchema,
  operations: GeneratedOperation[],
  parameters: AsyncLocalStorage<Record<string, unknown>>,
  options: { run: RunOperation; pages?: SplicedPages },
) {
  return createSofa({
    basePath: API_BASE,
    schema: view,
    // every field comes whole: no type is cut down to its id
    depthLimit: 1,
    customScalars: SCALARS,
    routes: Object.fromEntries(
      operations.map((operation) => [
        `${operation.kind === 'query' ? 'Query' : 'Mutation'}.${operation.field}`,
        { method: operation.method, path: operation.path, responseStatus: operation.status, tags: [API_TAG] },
      ]),
    ),
    // the server context the operations' routes hand sofa with each request
    context: ({ call }: { call: ApiCall }) => call.context,
    execute: executeThrough(options.run, runnableDocuments(view), options.pages) as never,
    // fets types its own Response; the fetch API's is what it sends
    errorHandler: ((errors: readonly unknown[]) => errorResponse(errors[0], parameters.getStore() ?? {})) as never,
  });
}

export function createGeneratedApi(options: {
  schema: GraphQLSchema;
  run: RunOperation;
  /** The request's context, its token resolved; the app whose token it was is noted on `exchange`. */
  context: (request: Request, exchange: Exchange) => Promise<Context>;
  /** Stream pages put together from their entries' kept JSON, as GraphQL's are (cache/spliced-pages.ts); absent: none. */
  pages?: SplicedPages;
}): GeneratedApi {
  const view = restViewSchema(options.schema);
  const operations = generatedOperations(view, options.schema);
  /** The parameters of the request sofa is reading, so that its complaint about one can name it (its error handler is given the errors alone). */
  const parameters = new AsyncLocalStorage<Record<string, unknown>>();
  const sofaRouter = createSofaRouter(sofaOver(view, operations, parameters, options));

  const router = operationsRouter(operations, (request, call) => sofaRouter.fetch(request, { call }), parameters);

  return {
    patternFor: (pathname) => router.patternFor(pathname),
    describe: () => ({ document: sofaRouter.openAPIDocument as never, operations }),
    async handle(request, exchange, clientAddress) {
      const pattern = router.patternFor(new URL(request.url).pathname);
      if (!pattern) return null;
      try {
        // the one method that writes (any other is the router's 405)
        if (request.method === 'POST' && unpreflighted(request)) {
          throw new RestError(
            403,
            'CSRF_HEADER_REQUIRED',
            `a ${request.method} with this content type must carry Authorization or one of ${CSRF_HEADERS.slice(0, 3).join(', ')} (a browser sends those only after a CORS preflight)`,
          );
        }
        const takesInput = operations.some((operation) => operation.takesInput && `${API_BASE}${operation.path}` === pattern);
        const read = await withReadBody(request, exchange, takesInput);
        const context = await options.context(request, exchange).catch((error: unknown) => {
          throw RestError.ofToken(error) ?? error;
        });
        const call: ApiCall = { ...read, context };
        exchange.apiCall = call;
        const response = await router.handle(read.forwarded, exchange, clientAddress);
        if ('unexpected' in call) throw call.unexpected;
        if (response && call.splice) return withSplicedPage(response, call.splice);
        return response && response.status === 201 ? withLocation(response) : response;
      } catch (error) {
        if (error instanceof RestError) return error.toResponse();
        throw error;
      }
    },
  };
}

/**
 * Where what a payload created is read again: an entry or a route at its path; a comment or a like,
 * the entry it is on (the payload names it). Null for anything else.
 */
function createdPath(payload: unknown): string | null {
  if (payload === null || typeof payload !== 'object') return null;
  const idOf = (key: string) => {
    const id = (payload as Record<string, { id?: unknown } | null>)[key]?.id;
    return typeof id === 'string' ? encodeURIComponent(id) : null;
  };
  const route = idOf('route');
  if (route) return `${API_BASE}/routes/${route}`;
  const entry = idOf('entry');
  return entry ? `${API_BASE}/entries/${entry}` : null;
}

/** A 201 with a `Location` naming what it created, as HTTP (and the legacy paths) give one. */
async function withLocation(response: Response): Promise<Response> {
  const text = await response.text();
  let path: string | null = null;
  try {
    path = createdPath(JSON.parse(text));
  } catch {
    // not JSON: answered as it was
  }
  const headers = new Headers(response.headers);
  if (path) headers.set('location', path);
  return new Response(text, { status: response.status, headers });
}

interface Splice {
  /** What sofa was given as the stream's answer, and writes as the whole body. */
  placeholder: string;
  /** The page's JSON, which the body then is. */
  json: string;
}

/** Sofa's answer with the page put together in place of the placeholder it was given. */
async function withSplicedPage(response: Response, { placeholder, json }: Splice): Promise<Response> {
  const text = await response.text();
  if (text !== JSON.stringify(placeholder)) throw new Error('a generated stream page lost its place in the answer');
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new TextResponse(json, { status: response.status, headers }) as Response;
}

/**
 * The document that runs for a generated one: `__typename` on its root field, so that a typed failure
 * is told from a result; the field names the schema gives (graphql-tools aliases a name it met with
 * another type elsewhere in the document); and a failure's `message` as `errorMessage`, since an
 * entry's `message` (nullable) may sit beside it in the same union.
 */
function runnableDocuments(view: GraphQLSchema): (document: DocumentNode) => { document: DocumentNode; operation: RootField } {
  const runnable = new WeakMap<DocumentNode, { document: DocumentNode; operation: RootField }>();
  return (document) => {
    const known = runnable.get(document);
    if (known) return known;
    const definition = document.definitions[0] as OperationDefinitionNode;
    const root = definition.selectionSet.selections[0]!;
    if (root.kind !== Kind.FIELD) throw new Error('a generated operation selects one field');
    const type = definition.operation === 'query' ? view.getQueryType()! : view.getMutationType()!;
    const field = type.getFields()[root.name.value]!;
    const rewritten = visit(document, {
      Field(node) {
        const named = node.alias ? { ...node, alias: undefined } : node;
        if (node !== root || !node.selectionSet) return node.alias ? named : undefined;
        const typename: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };
        return { ...named, selectionSet: { ...node.selectionSet, selections: [typename, ...node.selectionSet.selections] } };
      },
      InlineFragment: {
        leave(node) {
          if (!TYPED_FAILURES.has(node.typeCondition?.name.value ?? '')) return undefined;
          const selections = node.selectionSet.selections.map((selection) =>
            selection.kind === Kind.FIELD && selection.name.value === 'message'
              ? { ...selection, alias: { kind: Kind.NAME, value: 'errorMessage' } }
              : selection,
          );
          // a payload's `error` is told by its type
          const typename: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };
          return { ...node, selectionSet: { ...node.selectionSet, selections: [typename, ...selections] } };
        },
      },
    });
    const entry = {
      document: rewritten,
      operation: { field: field.name, kind: definition.operation as RootField['kind'], hasArgs: field.args.length > 0 },
    };
    runnable.set(document, entry);
    return entry;
  };
}

/**
 * How sofa's operations run: as the document runnableDocuments makes of each, through the REST layer's
 * checked runner, with the request's uploads in their variables; a typed failure becomes its REST error.
 */
function executeThrough(run: RunOperation, typed: ReturnType<typeof runnableDocuments>, pages?: SplicedPages) {
  const marker = `milepost-page-${randomUUID()}`;
  return async (args: { document: DocumentNode; contextValue: Context; variableValues?: Record<string, unknown> | null }) => {
    const call = callOf(args.contextValue);
    const { forwarded: request, upload } = call;
    const variables = upload ? withFiles(args.variableValues ?? {}, upload) : (args.variableValues ?? {});
    const { document, operation } = typed(args.document);
    try {
      // a stream page: put together from its entries' kept JSON when it can be; any other answer runs as below
      const plan = operation.kind === 'query' && pages ? pages.plan(document, undefined) : null;
      if (plan) {
        const json = await pages!.streamValue(plan, args.contextValue.baseUrl, variables, (runDocument, versionRecorder) =>
          run(
            runDocument as TypedDocumentNode<Record<string, unknown>, never>,
            request,
            { ...args.contextValue, versionRecorder },
            variables,
            document,
          ),
        );
        if (json !== null) {
          call.splice = { placeholder: marker, json };
          return { data: { [operation.field]: marker } };
        }
      }
      const result = await run(document as TypedDocumentNode<Record<string, unknown>, never>, request, args.contextValue, variables);
      return { data: { [operation.field]: outcome(result, operation, args.contextValue) } };
    } catch (error) {
      // a bug, not a refusal: it leaves sofa and reaches the edge, which logs it and answers 500
      if (!(error instanceof RestError)) call.unexpected = error;
      throw error;
    }
  };
}

/**
 * The generated operations' route table: each hands its request to sofa with the parameters it sent
 * (for sofa's complaints to name them); a HEAD runs as the GET it asks about.
 */
function operationsRouter(
  operations: readonly GeneratedOperation[],
  fetchSofa: (request: Request, call: ApiCall) => Promise<Response> | Response,
  parameters: AsyncLocalStorage<Record<string, unknown>>,
): Router {
  const router = new Router();
  for (const operation of operations) {
    router.add(operation.method, `${API_BASE}${operation.path}`, async ({ request, url, params, exchange }) => {
      const call = exchange.apiCall;
      if (!call) throw new Error('an /api/v1 route was reached without its call');
      const sent = { ...call.body, ...Object.fromEntries(url.searchParams), ...params };
      if (request.method !== 'HEAD') return parameters.run(sent, () => fetchSofa(request, call));
      // HEAD runs as the GET it asks about (sofa routes GET only); node:http sends no body for a
      // HEAD, and the response cache keeps the GET's answer for both, as on the legacy paths
      const asGet = new Request(request.url, { method: 'GET', headers: request.headers });
      return parameters.run(sent, () => fetchSofa(asGet, call));
    });
  }
  return router;
}

/** The scope a root field declares in its extensions (every mutation: graphql/mutations/payload.ts). */
function declaredScope(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string): Scope | null {
  const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  const scope = root?.getFields()[name]?.extensions?.scope;
  return typeof scope === 'string' && (SCOPES as readonly string[]).includes(scope) ? (scope as Scope) : null;
}

/** The typed errors a root field that answers no union declares in its extensions (the streams). */
function declaredFailures(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string): string[] {
  const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  const failures = root?.getFields()[name]?.extensions?.failures;
  return Array.isArray(failures) ? failures.filter((failure): failure is string => TYPED_FAILURES.has(failure)) : [];
}

/** The result of a generated operation, or the RestError its typed failure or null answer maps to. */
function outcome(
  result: {
    data?: Record<string, unknown> | null;
    errors?: ReadonlyArray<{ message: string; path?: unknown; extensions?: Record<string, unknown> }>;
  },
  operation: RootField,
  context: Context,
): unknown {
  const error = result.errors?.[0];
  if (error) {
    // a stream's refused argument: its typed error, in the extensions
    const typedFailure = failureOfError(error, context.viewer !== null);
    if (typedFailure) throw typedFailure;
    // nothing ran: a parameter did not fit its type, and GraphQL's message names it
    // (within the input object, the field it names: `at "input.body"`)
    const variable = result.data
      ? undefined
      : (/^Variable "\$input" got invalid value .* at "input\.([\w.]+)"/.exec(error.message)?.[1] ??
        /^Variable "\$input" .*Field "(\w+)" of required type/.exec(error.message)?.[1] ??
        /^Variable "\$(\w+)"/.exec(error.message)?.[1]);
    if (variable) throw invalidParameter(variable, error.message.replace(/^Variable "\$\w+"\s*/, ''));
    const http = error.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
    // an expected refusal with a status of its own (an Idempotency-Key conflict, a cost over the limit,
    // the database away: 503 with Retry-After)
    if (http?.status && (http.status < 500 || http.status === 503))
      throw new RestError(http.status, String(error.extensions?.code ?? 'REFUSED'), error.message, undefined, http.headers);
    if (!result.data) throw new RestError(400, String(error.extensions?.code ?? 'REFUSED'), error.message);
    // a failure of the service, not of the request: an Error, with its path and extensions, for the log
    throw Object.assign(new Error(error.message), { path: error.path, extensions: error.extensions });
  }
  const value = result.data?.[operation.field] as (Record<string, unknown> & { __typename?: string }) | null;
  if (value === null || value === undefined) {
    // a field without arguments that answers null can only be about the viewer: `me` without a token
    if (!operation.hasArgs && !context.viewer) throw notAuthorized();
    throw new RestError(404, 'NOT_FOUND', `nothing matches ${operation.field}'s parameters`);
  }
  // a list or a scalar (suggestedPeople, unreadNotificationCount) is the answer as it is
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const { __typename, ...rest } = value;
  // a mutation's payload: its typed `error`, or what it changed (without the null error)
  const failed = (operation.kind === 'mutation' ? rest.error : value) as (Record<string, unknown> & { __typename?: string }) | null;
  if (failed?.__typename && TYPED_FAILURES.has(failed.__typename)) {
    throw failure(
      {
        __typename: failed.__typename,
        message: String(failed.errorMessage),
        issues: failed.issues as TypedFailure['issues'],
        scope: failed.scope as string | undefined,
      },
      context.viewer !== null,
    );
  }
  if (operation.kind === 'mutation') delete rest.error;
  return rest;
}

/** A parameter that does not fit its type: 422, naming it, as every REST path answers. */
function invalidParameter(name: string | undefined, message: string): RestError {
  return new RestError(422, 'VALIDATION_FAILED', 'some parameters are invalid', [{ field: name ?? 'parameters', message }]);
}

/**
 * sofa's answer to what went wrong: a RestError as it says; a parameter sofa could not read, 422
 * naming it (sofa's message names only the value, so the parameter holding that value is named); a
 * bug (see `unexpected`), 500.
 */
function errorResponse(error: unknown, parameters: Record<string, unknown>): Response {
  if (error instanceof RestError) return error.toResponse();
  const http = (error as { extensions?: { http?: { status?: number } } } | null)?.extensions?.http;
  if (http?.status && http.status < 500) {
    const message = (error as Error).message;
    if (message === 'POST body sent invalid JSON.') return new RestError(400, 'MALFORMED_BODY', 'the body is not valid JSON').toResponse();
    const value = /: "(.*)"$/.exec(message)?.[1];
    const name = Object.entries(parameters).find(([, held]) => value !== undefined && JSON.stringify(held) === JSON.stringify(value))?.[0];
    return invalidParameter(name, message).toResponse();
  }
  return new RestError(500, 'INTERNAL', 'an unexpected error occurred; it has been logged').toResponse();
}

/**
 * The request sofa is handed: its body read here, under the service's limits (sofa would read any
 * length), as JSON. A form's fields become JSON members; a multipart body's files become markers that
 * `withFiles` swaps back for the files. A file's part name is its variable, or a dotted path into one
 * (`input.photo.data`).
 */
async function withReadBody(
  request: Request,
  exchange: Exchange,
  takesInput: boolean,
): Promise<Pick<ApiCall, 'forwarded' | 'upload' | 'body'>> {
  if (request.method === 'GET' || request.method === 'HEAD') return { forwarded: request, upload: null, body: {} };
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  const forward = (body: Record<string, unknown>, upload: Upload | null = null) => {
    // the input's fields, or the input itself as GraphQL names it
    const named = Object.keys(body).length === 1 && typeof body.input === 'object' && body.input !== null;
    const sent = takesInput && !named ? { input: body } : body;
    const forwarded = new Request(request.url, { method: request.method, headers, body: JSON.stringify(sent) });
    return { forwarded, upload, body: named ? (body.input as Record<string, unknown>) : body };
  };
  if (type.startsWith('multipart/form-data')) {
    const upload: Upload = { marker: `upload:${randomUUID()}:`, files: new Map() };
    const body: Record<string, unknown> = {};
    const files: Array<[string, File]> = [];
    for (const [name, value] of await readMultipartForm(request, exchange)) {
      if (typeof value === 'string') body[name] = value;
      else files.push([name, value]);
    }
    for (const [name, file] of files) {
      const marker = `${upload.marker}${upload.files.size}`;
      upload.files.set(marker, file);
      placeAt(body, name, marker);
    }
    return forward(body, upload);
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(await readLimitedText(request, JSON_LIMIT_BYTES));
    if (hasNul([...params.entries()])) throw new RestError(400, 'INVALID_CHARACTER', 'form fields may not contain NUL characters');
    return forward(Object.fromEntries(params));
  }
  if (type && !/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    // an empty body of any type is no parameters
    if ((await readLimitedText(request, JSON_LIMIT_BYTES)).trim() === '') return forward({});
    throw new RestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send JSON, a URL-encoded form, or a multipart form (for files)');
  }
  try {
    return forward(await readJsonObject(request));
  } catch (error) {
    if (error instanceof MalformedBodyError) throw new RestError(400, 'MALFORMED_BODY', error.message);
    throw error;
  }
}

/** Sets `path` (`input.photo.data`) in `body` to `value`; a JSON string met on the way is read as the object it holds. */
function placeAt(body: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = body;
  for (const key of keys.slice(0, -1)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype')
      throw new RestError(400, 'INVALID_PARAMETER', `a part may not be named ${path}`);
    let next = node[key];
    if (typeof next === 'string') {
      try {
        next = JSON.parse(next);
      } catch {
        throw new RestError(400, 'INVALID_PARAMETER', `${key} must be a JSON object to hold the file ${path}`);
      }
    }
    if (next === null || typeof next !== 'object' || Array.isArray(next)) next = {};
    node[key] = next;
    node = next as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

/** The variables with each upload marker replaced by its file. */
function withFiles(value: Record<string, unknown>, upload: Upload): Record<string, unknown> {
  const swap = (item: unknown): unknown => {
    if (typeof item === 'string' && item.startsWith(upload.marker)) return upload.files.get(item) ?? item;
    if (Array.isArray(item)) return item.map(swap);
    if (item && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, swap(v)]));
    return item;
  };
  return swap(value) as Record<string, unknown>;
}

/** Paths of the left-out fields, for the OpenAPI document's description. */
export const LEFT_OUT_NOTES = [...new Set(Object.values(LEFT_OUT))];
