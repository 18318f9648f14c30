import type { Plugin } from '@envelop/core';
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from './context.ts';

/** A GPX document as a mutation receives it: text in JSON, or a file of a multipart upload. */
export type GpxSource = string | Blob;

/**
 * What every operation's root value carries (see useSchemaChecks). Resolvers see the root value in
 * `info`, where they cannot see the context, so a server's per-instance setting travels there.
 */
export interface RootValue {
  /** Development-time checks (an unused Prisma query throws); a production server turns them off. */
  strictSchemaChecks: boolean;
}

/**
 * Sets the root value of every operation a server executes, so that its setting applies to it alone:
 * two servers in one process (tests) may differ. Without it (a test executing the schema directly)
 * the checks are on.
 */
export function useSchemaChecks(options: { strict: boolean }): Plugin {
  const rootValue: RootValue = { strictSchemaChecks: options.strict };
  return {
    onExecute({ args }) {
      args.rootValue = rootValue;
    },
    onSubscribe({ args }) {
      args.rootValue = rootValue;
    },
  };
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    UnixTime: { Input: number; Output: number };
    GpxDocument: { Input: GpxSource; Output: never };
    ActivityFile: { Input: GpxSource; Output: never };
    ImageFile: { Input: Blob; Output: never };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  // authorization is a domain rule (requireViewer and the checks beside each write), not a plugin
  plugins: [ErrorsPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  errors: {
    // a failing field answers with the error object itself: `... on ValidationError { issues }`
    directResult: true,
    defaultUnionOptions: {
      description: 'What the field answers: its value, or one of the typed errors it may meet (each with a stable `code`).',
    },
  },
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    // a resolver that forgets to spread `query` would silently bring back N+1 queries
    onUnusedQuery: (info) => {
      if ((info.rootValue as Partial<RootValue> | undefined)?.strictSchemaChecks !== false)
        throw new Error(`unused prisma query for ${info.parentType.name}.${info.fieldName}`);
    },
  },
  relay: {
    cursorType: 'String',
    clientMutationId: 'omit',
    // node and nodes are defined in graphql/types/node.ts: a node is only what the viewer could reach by another path
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: {
      description: 'An object with an identity: its `id` fetches it again through `node(id:)` (Relay object identification).',
    },
    idFieldOptions: { description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
    pageInfoTypeOptions: {
      description: 'Where a page stands in its list (Relay): whether more follow or precede, and the cursors to ask for them.',
    },
    hasNextPageFieldOptions: { description: 'Whether items follow this page: ask with `first` and `after: endCursor`.' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page: ask with `last` and `before: startCursor`.' },
    startCursorFieldOptions: { description: 'The cursor of the first item of the page; null on an empty page.' },
    endCursorFieldOptions: { description: 'The cursor of the last item of the page; null on an empty page.' },
    defaultConnectionTypeOptions: { description: 'A page of a list (a Relay connection): its edges and where it stands.' },
    defaultEdgeTypeOptions: { description: 'An item of a page, with the cursor to page from it.' },
    edgesFieldOptions: { description: 'The items of the page, in the list’s order.' },
    pageInfoFieldOptions: { description: 'Where the page stands, and the cursors to go on from.' },
    cursorFieldOptions: { description: 'Opaque: pass it as `after` or `before` to page from this item.' },
    nodeFieldOptions: { description: 'The item.' },
    firstArgOptions: { description: 'How many items from the start of the list, or after `after`.' },
    lastArgOptions: { description: 'How many items from the end of the list, or before `before`.' },
    afterArgOptions: { description: 'A cursor: the items after this one.' },
    beforeArgOptions: { description: 'A cursor: the items before this one.' },
  },
});

builder.queryType({
  description:
    'Reads: the four streams of SPEC 4.2, single entries and people. A document may cost at most 50,000: one per field, lists multiplied by the items they may return (`first`, `last` or `max`; 20 for a connection page or a plain list). Depth at most 12.',
});
builder.mutationType({
  description:
    'Writes; each needs an access token. Each takes one `input` object (with an optional `clientMutationId`, handed back) and answers a payload: what changed, with the edge a new item joins its list with, or `error`, a typed error with a stable `code` (an expected failure is data, never a GraphQL error). Send an `Idempotency-Key` header (1 to 255 visible ASCII characters) to make a retry safe: the same key with the same mutation answers as the first time, without a second write, even after a first attempt cut off past its commit.',
});
builder.subscriptionType({
  description:
    'Live updates over graphql-ws (WebSocket at /graphql) or server-sent events. Each carries only what the matching query would show the viewer.',
});
