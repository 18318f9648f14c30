// Compiled execution (graphql-jit) for the operations a server runs again and again: the REST layer's
// and the pages' documents, and any query or mutation a client sends a second time (yoga's parser
// cache hands back the same document object for the same text). A compiled stream page costs about
// half the CPU of graphql-js's interpreter walking the same 1,000-odd fields.
//
// - A document's first execution is interpreted: compiling costs more than one run (about 4 ms for
//   a full stream page), so a document sent once, or a stream of distinct ones, never pays for it.
// - Compiled documents are kept in a bounded least-recently-used map: each holds about 240 KB of
//   generated code, and a client sending many distinct documents must not grow the process.
// - Subscriptions stay interpreted: graphql-jit's subscribe does not hand resolvers their arguments.
// - Variables that do not fit the operation are answered by the interpreter: graphql-js's error
//   (status 400, with locations) is the one clients have been given. graphql-jit coerces them first
//   and answers without running anything, so only such a request runs twice.
// - graphql-jit puts the fields a fragment brings after the fields beside it, where graphql-js (and the
//   spec's CollectFields) keeps them where the fragment stands: `{ a ...F c }` answered `a, c, b`
//   compiled and `a, b, c` interpreted. The document is compiled with the fragments on object types
//   spelled out in place (fieldsInPlace), so both answer in the order asked.
// - A request that leaves out a variable standing for a field of an input object is interpreted:
//   graphql-js leaves that field out (what an update keeps as it is), graphql-jit passes it as null (a
//   field cleared).

import type { Plugin } from '@envelop/core';
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { deliversIncrementally } from './incremental.ts';

/** Compiled documents kept at most: the REST layer and the pages use about 40. */
export const COMPILED_DOCUMENTS = 200;

export function useCompiledExecution(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  // a document graphql-jit cannot compile is kept as null: it runs interpreted, as it would have anyway
  const compiled = new LRUCache<DocumentNode, { query: CompiledQuery | null }>({ max: COMPILED_DOCUMENTS });
  const compiledFor = (args: Parameters<NonNullable<Plugin['onExecute']>>[0]['args']): CompiledQuery | null => {
    const { document, operationName, schema } = args;
    const known = compiled.get(document);
    if (known) return known.query;
    if (!seen.has(document)) {
      seen.add(document);
      return null;
    }
    const result = compileQuery(schema, fieldsInPlace(schema, document), operationName ?? undefined);
    const query = isCompiledQuery(result) ? result : null;
    compiled.set(document, { query });
    return query;
  };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'query' && operation?.operation !== 'mutation') return;
      // answered in parts: graphql-jit knows one answer only
      if (deliversIncrementally(args.document)) return;
      // a variable left out is left out of the input it stands in (a field that stays as it is);
      // graphql-jit would pass it as null (a field cleared)
      if (leavesOutInputFields(operation, args.variableValues)) return;
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

/** Of each operation, the variables that stand for a field of an input object written in it. */
const inInputObjects = new WeakMap<OperationDefinitionNode, readonly string[]>();

/**
 * Whether the request gives no value for a variable that stands for a field of an input object
 * (`{ id: $id, message: $message }`): graphql-js leaves that field out, graphql-jit sets it to null.
 * Arguments themselves are the same in both (a left-out one is absent, or its default).
 */
export function leavesOutInputFields(
  operation: OperationDefinitionNode,
  values: Readonly<Record<string, unknown>> | null | undefined,
): boolean {
  let names = inInputObjects.get(operation);
  if (!names) {
    const found = new Set<string>();
    let depth = 0;
    visit(operation, {
      ObjectValue: { enter: () => void depth++, leave: () => void depth-- },
      Variable: (node) => {
        if (depth > 0) found.add(node.name.value);
      },
    });
    names = [...found];
    inInputObjects.set(operation, names);
  }
  return names.some((name) => values?.[name] === undefined);
}

/**
 * `document` with every fragment (inline or named, without directives) that applies to an object type
 * spelled out in place inside that type's selections. Fields keep the order in which they are asked
 * for; a response key asked for twice is merged as before. Fragments on abstract types stay.
 */
export function fieldsInPlace(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const typeOf = (name: string | undefined, parent: GraphQLNamedType) => (name === undefined ? parent : schema.getType(name));
  const inPlace = (set: SelectionSetNode, parent: GraphQLNamedType): SelectionSetNode => {
    const selections: SelectionNode[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = (isObjectType(parent) || isInterfaceType(parent)) && parent.getFields()[selection.name.value];
        // a copy of each field, leaf or not: a fragment spelled out in two places must not put the same
        // node in both (graphql-jit keeps what it learns of a node, such as a @skip or @include above it:
        // `me @include(if: false) { ...P }` beside `author { ...P }` left the author empty)
        selections.push(
          selection.selectionSet && field
            ? { ...selection, selectionSet: inPlace(selection.selectionSet, getNamedType(field.type)) }
            : { ...selection },
        );
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      const condition = fragment && typeOf(fragment.typeCondition?.name.value, parent);
      if (!fragment || !condition) {
        selections.push(selection);
        continue;
      }
      const applies = condition === parent || (isAbstractType(condition) && isObjectType(parent) && schema.isSubType(condition, parent));
      if (isObjectType(parent) && applies && !selection.directives?.length)
        selections.push(...inPlace(fragment.selectionSet, parent).selections);
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        selections.push({ ...selection, selectionSet: inPlace(selection.selectionSet, condition) });
      else selections.push(selection);
    }
    return { ...set, selections };
  };
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind === Kind.OPERATION_DEFINITION) {
        const root = schema.getRootType(definition.operation);
        return root ? { ...definition, selectionSet: inPlace(definition.selectionSet, root) } : definition;
      }
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        const condition = schema.getType(definition.typeCondition.name.value);
        return condition ? { ...definition, selectionSet: inPlace(definition.selectionSet, condition) } : definition;
      }
      return definition;
    }),
  };
}
