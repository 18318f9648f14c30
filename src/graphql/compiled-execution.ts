// Compiled execution (graphql-jit through envelop) for the operations a server runs again and again:
// the REST layer's and the pages' documents, and any query or mutation a client sends a second time
// (yoga's parser cache hands back the same document object for the same text). A compiled stream page
// costs about half the CPU of graphql-js's interpreter walking the same 1,000-odd fields (issue 18).
//
// - A document's first execution is interpreted: compiling costs more than one run, so a document
//   sent once (or a stream of distinct ones) never pays for a compilation.
// - Subscriptions stay interpreted: graphql-jit's subscribe does not hand resolvers their arguments.
import { useGraphQlJit } from '@envelop/graphql-jit';
import { type DocumentNode, getOperationAST } from 'graphql';

export function useCompiledExecution() {
  const seen = new WeakSet<DocumentNode>();
  return useGraphQlJit(
    {},
    {
      enableIf: ({ document, operationName }) => {
        const operation = getOperationAST(document, operationName)?.operation;
        if (operation !== 'query' && operation !== 'mutation') return false;
        if (seen.has(document)) return true;
        seen.add(document);
        return false;
      },
    },
  );
}
