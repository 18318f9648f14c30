// The common GraphQL request, answered without yoga's HTTP pipeline: a JSON POST of a query
// that parses, validates and runs without errors. It costs a token read as much as the REST layer's
// run of the same operation: yoga's request parsing, its result processing and the promise plumbing
// between its HTTP hooks were about 1 ms of CPU a request, a third of a GraphQL stream page.
//
// The operation runs through the same envelop as yoga's (its parser and validation caches, the
// depth, token and cost limits, compiled execution, metrics, error masking), with the same context.
// Everything else is answered by yoga itself, as before: any other method, content type, Accept or
// Origin (CORS), a mutation or subscription, a body that is not a plain `{ query, variables,
// operationName }`, a document that does not parse or validate, a refused token, NUL characters,
// and a query whose result carries errors or extensions (run again there: a query has no effects).
// A query that reads one stream page has the page put together from its entries' kept JSON when it
// can (spliced-pages.ts).

import { Response } from '@whatwg-node/fetch';
import { type DocumentNode, type ExecutionResult, getOperationAST } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Context, Exchange, ServerContext } from '../graphql/context.ts';
import { deliversIncrementally } from '../graphql/incremental.ts';
import { bodyProblem } from '../http/body.ts';
import type { EntryVersions } from './entry-fragments.ts';
import { EntryFragments } from './entry-fragments.ts';
import { SplicedPages } from './spliced-pages.ts';

/** The content types answered here, by the Accept header that asks for them (absent: JSON). */
const ANSWERED_TYPES = new Map<string | null, string>([
  [null, 'application/json'],
  ['*/*', 'application/json'],
  ['application/json', 'application/json'],
  ['application/graphql-response+json', 'application/graphql-response+json'],
]);

interface QueryParams {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** The parameters of a body that is exactly `{ query, variables?, operationName? }`, else null. */
export function plainQueryParams(body: string): QueryParams | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isPlainObject(parsed) || typeof parsed.query !== 'string') return null;
  const { query, variables, operationName, ...rest } = parsed;
  if (Object.keys(rest).length > 0) return null;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  return {
    query,
    ...(variables ? { variables } : {}),
    ...(typeof operationName === 'string' ? { operationName } : {}),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Answers `body`, a JSON POST to /graphql, when it is the common case; null hands it to yoga. The
 * context comes from `context` (the request's token resolved), which throws for a refused token.
 */
/** `server`: what the HTTP side tells of the request beside it (its rate-limit budget), as yoga's server context. */
export type DirectQueries = (request: Request, body: string, exchange: Exchange) => Promise<Response | null>;

export function createDirectQueries(
  yoga: YogaServerInstance<ServerContext, Context>,
  /** The request's context: as its token, or the session its exchange names, reads. */
  context: (request: Request, exchange: Exchange) => Promise<Context>,
  fragments: EntryFragments = new EntryFragments(),
): DirectQueries {
  const pages = new SplicedPages(fragments);
  return async (request, body, exchange) => {
    if (request.headers.has('origin')) return null;
    const contentType = ANSWERED_TYPES.get(request.headers.get('accept'));
    const params = contentType ? plainQueryParams(body) : null;
    if (!params || bodyProblem(params.query) || bodyProblem(params.variables)) return null;
    // as the REST layer runs its operations (rest/execute.ts): yoga's envelop; a document that does not
    // parse or validate is yoga's to answer (the limits throw their refusal), and so is any operation
    // but a query, before the token is looked up
    const env = yoga.getEnveloped({ request, params });
    let document: DocumentNode;
    try {
      document = env.parse(params.query);
      if (getOperationAST(document, params.operationName)?.operation !== 'query' || deliversIncrementally(document)) return null;
      if (env.validate(env.schema, document).length > 0) return null;
    } catch {
      return null;
    }
    let contextValue: Context;
    try {
      contextValue = { ...(await context(request, exchange)), ...(exchange.rateLimit ? { rateLimit: exchange.rateLimit } : {}) };
    } catch {
      // a refused token: yoga answers it with its status and headers
      return null;
    }
    // the context is passed in, as the REST layer passes it
    const execute = async (runDocument: DocumentNode, versionRecorder?: EntryVersions): Promise<ExecutionResult | null> => {
      const result = await env.execute({
        schema: env.schema,
        document: runDocument,
        contextValue: await env.contextFactory(versionRecorder ? { ...contextValue, versionRecorder } : contextValue),
        variableValues: params.variables ?? {},
        operationName: params.operationName ?? null,
      });
      return Symbol.asyncIterator in result ? null : result;
    };
    let json: string | null;
    try {
      const plan = fragments.enabled ? pages.plan(document, params.operationName) : null;
      if (plan) {
        json = await pages.answer(
          plan,
          contextValue.baseUrl,
          params.variables ?? {},
          async (run, versions) => (await execute(run, versions)) ?? { errors: [] },
        );
      } else {
        const result = await execute(document);
        json = result && !result.errors && !result.extensions ? JSON.stringify(result) : null;
      }
    } catch {
      // a plugin's refusal, a page not put together (NotSpliced) or a fault: yoga runs it again and
      // answers it as it would have
      return null;
    }
    if (json === null) return null;
    // the adapter's own Response: it writes a text body as it is, where the global one streams it
    return new Response(json, { status: 200, headers: { 'content-type': `${contentType}; charset=utf-8` } });
  };
}
