// Limits on what one GraphQL document may ask, so that a single request cannot exhaust the server:
// depth, aliases, tokens and directives (graphql-armor), a cost that multiplies each list by how
// many items it may hold, no field suggestions (they leak the schema when introspection is off), and
// introspection itself where configured off.

import { createRequire } from 'node:module';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type ValidationRule,
} from 'graphql';
import type { ComplexityEstimator, getComplexity as GetComplexity } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';

// its ESM build imports graphql's ESM files, and graphql refuses a schema built by the CommonJS one
// (Pothos, yoga): "another module or realm"
const { getComplexity } = createRequire(import.meta.url)('graphql-query-complexity') as { getComplexity: typeof GetComplexity };

export const GRAPHQL_LIMITS = {
  // a feed with its comments' authors is 8 deep through connections (edges, node); graphql-armor
  // counts fragment spreads too, and the REST operations' stream pages come to 14
  maxDepth: 16,
  // one unit per field, lists multiplied by their size: a page of 100 entries with their comments
  // and likes is ~40,000; friends of friends of friends at 50 each ~10,000; a third level of friends is refused
  maxCost: 50_000,
  maxAliases: 15,
  maxTokens: 3_000,
  maxDirectives: 50,
};

/** Items of a connection page when `first` is not given (the streams' 20). */
const CONNECTION_PAGE = 20;
/** What a list without a size argument is assumed to hold: comments and likes of an entry, routes. */
export const ASSUMED_LIST_SIZE = 20;
/** Connections and sized lists cost as many items as they may return, up to this. */
const MAX_COUNTED_ITEMS = 100_000;
/** A field that returns a whole document (a track's GPX) costs like this many fields. */
const DOCUMENT_COST = 1_000;
const DOCUMENT_FIELDS = new Set(['Track.gpx']);
/**
 * A field that sums every workout of a person (their stats, records, streak) costs like this many
 * fields, plus what it holds: one person's all three fit the limit easily, every author's of a page do not.
 */
const AGGREGATE_COST = 2_000;
const AGGREGATE_FIELDS = new Set(['Person.stats', 'Person.records', 'Person.streak']);

/**
 * The cost of a field: 1, plus its children's cost times the items it may return. The item count is
 * the argument that bounds it (`first`, `last`, `max`), else the connection's page (20), else the
 * assumed size of a plain list; a connection's `edges` are counted once, at the connection.
 */
export const listCost: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (DOCUMENT_FIELDS.has(`${type.name}.${field.name}`)) return DOCUMENT_COST;
  if (AGGREGATE_FIELDS.has(`${type.name}.${field.name}`)) return AGGREGATE_COST + childComplexity;
  const named = getNamedType(field.type);
  // introspection is bounded by the schema itself (and off in production)
  if (named.name.startsWith('__')) return 0;
  if (isLeafType(named)) return 1;
  const sized = [args.first, args.last, args.max].find((n): n is number => typeof n === 'number');
  let items = 1;
  // a connection (one that takes `first`)
  // (its own default page when it declares one: graphql/types/lists.ts)
  if (field.args.some((arg) => arg.name === 'first'))
    items = sized ?? (field.extensions.defaultPage as number | undefined) ?? CONNECTION_PAGE;
  else if (type.name.endsWith('Connection') && field.name === 'edges') items = 1;
  else if (isListType(getNullableType(field.type))) items = sized ?? ASSUMED_LIST_SIZE;
  return 1 + Math.min(Math.max(items, 0), MAX_COUNTED_ITEMS) * childComplexity;
};

/** The cost of running `document` with `variables`, as the limit counts it. */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
): number {
  return getComplexity({ schema, query: document, variables: variables ?? {}, operationName, estimators: [listCost] });
}

/**
 * Variables as they bear on the cost: an upload (a File, whose own fields may hold its bytes) is a
 * leaf of the cost whatever it holds, so it is written as a mark, never serialized.
 */
function uploadsAsMarks(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null ? value : '[upload]';
}

/** What a document's cost depends on besides the document: the operation and its variables, uploads as marks. */
export function costKey(operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): string {
  return `${operationName ?? ''}\u0000${JSON.stringify(variables ?? {}, uploadsAsMarks)}`;
}

/** Costs remembered per document: its variable sets (REST's pages, a client's repeats) are few. */
const COSTS_PER_DOCUMENT = 32;
/** Variables longer than this as JSON are costed afresh each time, never kept. */
const COSTED_VARIABLES_MAX = 1_024;

/**
 * Refuses an operation whose cost is over the limit, before anything runs (queries and subscriptions).
 * The cost of a document with the same operation and variables is the same every time: a document
 * run again (the REST layer's, a client's repeat: yoga's parser cache hands back the same object)
 * is costed once per variable set, not walked on every request.
 */
function costLimit(maxCost: number): Plugin {
  // null: a cost that could not be worked out (execution reports why)
  const known = new WeakMap<DocumentNode, LRUCache<string, { cost: number | null }>>();
  const costOf = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    variableValues?: Record<string, unknown> | null;
    operationName?: string | null;
  }): number | null => {
    const key = costKey(args.operationName, args.variableValues);
    const costs = known.get(args.document);
    const kept = costs?.get(key);
    if (kept) return kept.cost;
    let cost: number | null;
    try {
      cost = queryCost(args.schema, args.document, args.variableValues ?? undefined, args.operationName ?? undefined);
    } catch {
      // a variable of the wrong type: execution reports it properly
      cost = null;
    }
    if (key.length <= COSTED_VARIABLES_MAX) {
      const keeping = costs ?? new LRUCache<string, { cost: number | null }>({ max: COSTS_PER_DOCUMENT });
      keeping.set(key, { cost });
      if (!costs) known.set(args.document, keeping);
    }
    return cost;
  };
  const check = (args: Parameters<typeof costOf>[0]) => {
    const cost = costOf(args);
    if (cost === null || cost <= maxCost) return null;
    return new GraphQLError(`Query cost ${cost} is over the limit of ${maxCost}: ask for fewer items (first, max) or fewer nested lists`, {
      extensions: { code: 'COST_LIMIT' },
    });
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}

export function graphqlHardening(config: Pick<Config, 'introspection'>): Plugin[] {
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true },
      // the cost is counted below, with the sizes of lists (armor's own cost ignores them)
      costLimit: { enabled: false },
      maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
      maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
      maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
      blockFieldSuggestion: { enabled: true },
    }) as Plugin,
    costLimit(GRAPHQL_LIMITS.maxCost),
    {
      onValidate({ addValidationRule }) {
        addValidationRule(streamInitialCountRule);
      },
    },
  ];
  if (!config.introspection) {
    plugins.push({
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    });
  }
  return plugins;
}

/**
 * `@stream(initialCount:)` written as a negative number is refused with the document, naming the
 * argument (the executor would fail the field with an unexpected error). One given in a variable is
 * refused when it runs (app/graphql-endpoint.ts).
 */
export const streamInitialCountRule: ValidationRule = (context) => ({
  Directive(node) {
    if (node.name.value !== 'stream') return;
    const initialCount = node.arguments?.find((argument) => argument.name.value === 'initialCount');
    if (initialCount?.value.kind === Kind.INT && Number(initialCount.value.value) < 0) {
      context.reportError(new GraphQLError('@stream(initialCount:) must be 0 or more', { nodes: [initialCount] }));
    }
  },
});
