// Runs the GraphQL operations of the REST layer and the pages (src/operations/*.graphql, typed by
// GraphQL Code Generator) through yoga's own envelop, so that they get the same schema, plugins and
// limits as requests to /graphql. Each document is checked against the schema once.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type DocumentNode, type ExecutionResult, getOperationAST, print } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Context, ServerContext } from '../graphql/context.ts';

/**
 * Runs a typed operation for `request`. Variables go in as the client sent them, not as the document
 * types them: GraphQL's own coercion then names what is wrong, in the client's terms. A document made
 * from another by leaving selections out (cache/spliced-pages.ts) names it as `derivedFrom`: that one is
 * checked against the schema in its place (the part left out may be what used a variable).
 */
export type RunOperation = <TData>(
  // `never`: any document's variables fit, since they are passed as sent (see above)
  document: TypedDocumentNode<TData, never>,
  request: Request,
  context: Context,
  variables?: Record<string, unknown>,
  derivedFrom?: DocumentNode,
) => Promise<ExecutionResult<TData>>;

export function createOperationRunner(yoga: YogaServerInstance<ServerContext, Context>): RunOperation {
  const texts = new WeakMap<DocumentNode, string>();
  return async <TData>(
    document: TypedDocumentNode<TData, never>,
    request: Request,
    context: Context,
    variables: Record<string, unknown> = {},
    derivedFrom?: DocumentNode,
  ) => {
    const known = texts.get(document);
    const query = known ?? print(document);
    // `params` as yoga gives them to its plugins (the metrics plugin reads the operation name)
    const env = yoga.getEnveloped({ request, params: { query, variables }, ...context });
    if (known === undefined) {
      const errors = env.validate(env.schema, derivedFrom ?? document);
      const name = getOperationAST(document)?.name?.value ?? 'anonymous';
      if (errors.length > 0) throw new Error(`operation ${name} does not fit the schema: ${errors[0]!.message}`);
      texts.set(document, query);
    }
    const contextValue = await env.contextFactory();
    return (await env.execute({ schema: env.schema, document, contextValue, variableValues: variables })) as ExecutionResult<TData>;
  };
}
