// Runs the REST layer's GraphQL operations through yoga's own envelop, so that they get the same
// schema, plugins and limits as requests to /graphql. Documents are parsed and validated once.
import type { DocumentNode, ExecutionResult } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Context } from '../graphql/context.ts';
import { OPERATIONS, type OperationName } from './operations.ts';

export type RunOperation<Name extends string = OperationName> = (
  name: Name,
  request: Request,
  context: Context,
  variables?: Record<string, unknown>,
) => Promise<ExecutionResult>;

/** Runs the named operations of `operations` (by default the REST layer's). */
export function createOperationRunner<Name extends string = OperationName>(
  yoga: YogaServerInstance<Record<string, never>, Context>,
  operations: Record<Name, string> = OPERATIONS as Record<Name, string>,
): RunOperation<Name> {
  const documents = new Map<Name, DocumentNode>();
  return async (name, request, context, variables = {}) => {
    // `params` as yoga gives them to its plugins (the metrics plugin reads the operation name)
    const env = yoga.getEnveloped({ request, params: { query: operations[name], variables }, ...context });
    let document = documents.get(name);
    if (!document) {
      const parsed = env.parse(operations[name]);
      const errors = env.validate(env.schema, parsed);
      if (errors.length > 0) throw new Error(`REST operation ${name} does not fit the schema: ${errors[0]!.message}`);
      documents.set(name, parsed);
      document = parsed;
    }
    const contextValue = await env.contextFactory();
    return (await env.execute({ schema: env.schema, document, contextValue, variableValues: variables })) as ExecutionResult;
  };
}
