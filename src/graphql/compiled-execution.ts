// Compiled execution (graphql-jit) for the operations a server runs again and again: the REST layer's
// and the pages' documents, and any query or mutation a client sends a second time (yoga's parser
// cache hands back the same document object for the same text). A compiled stream page costs about
// half the CPU of graphql-js's interpreter walking the same 1,000-odd fields (issue 18).
//
// - A document's first execution is interpreted: compiling costs more than one run (about 4 ms for
//   a full stream page), so a document sent once, or a stream of distinct ones, never pays for it.
// - Compiled documents are kept in a bounded least-recently-used map: each holds about 240 KB of
//   generated code, and a client sending many distinct documents must not grow the process.
// - Subscriptions stay interpreted: graphql-jit's subscribe does not hand resolvers their arguments.
// - Variables that do not fit the operation are answered by the interpreter: graphql-js's error
//   (status 400, with locations) is the one clients have been given. graphql-jit coerces them first
//   and answers without running anything, so only such a request runs twice.
import type { Plugin } from '@envelop/core';
import { type DocumentNode, type ExecutionResult, getOperationAST } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

/** Compiled documents kept at most: the REST layer and the pages use about 40. */
export const COMPILED_DOCUMENTS = 200;

export function useCompiledExecution(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  const compiled = new Map<DocumentNode, CompiledQuery | null>();
  const compiledFor = (args: Parameters<NonNullable<Plugin['onExecute']>>[0]['args']): CompiledQuery | null => {
    const { document, operationName, schema } = args;
    if (compiled.has(document)) {
      const known = compiled.get(document)!;
      // most recently used goes last
      compiled.delete(document);
      compiled.set(document, known);
      return known;
    }
    if (!seen.has(document)) {
      seen.add(document);
      return null;
    }
    const result = compileQuery(schema, document, operationName ?? undefined);
    // a document graphql-jit cannot compile runs interpreted, as it would have anyway
    const entry = isCompiledQuery(result) ? result : null;
    if (compiled.size >= COMPILED_DOCUMENTS) compiled.delete(compiled.keys().next().value!);
    compiled.set(document, entry);
    return entry;
  };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName)?.operation;
      if (operation !== 'query' && operation !== 'mutation') return;
      const query = compiledFor(args);
      if (!query) return;
      setExecuteFn(async (run) => {
        const result = (await query.query(run.rootValue, run.contextValue, run.variableValues)) as ExecutionResult;
        // no `data` at all: the variables did not fit, and nothing ran
        return 'data' in result ? result : executeFn(run);
      });
    },
  };
}
