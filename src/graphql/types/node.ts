// `node(id:)` and `nodes(ids:)`: any object again by its global id (graphql/global-ids.ts), as Relay
// refetches. Written here rather than taken from the Relay plugin, whose look-ups skip visibility and
// answer an error for an id that is not well formed: here either is null, as a missing object is.
import { decodeGlobalID, resolveNodes } from '@pothos/plugin-relay';
import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { MAX_NODES, mayReach } from '../global-ids.ts';

const NodeRef = builder.nodeInterfaceRef();

/** The object a global id names, when it is well formed, of a node type, and the viewer may reach it. */
async function reachable(context: Context, id: string): Promise<{ typename: string; id: string } | null> {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(id);
  } catch {
    return null;
  }
  return (await mayReach(context, decoded.typename, decoded.id)) ? decoded : null;
}

/** Loads objects by their decoded ids, each with what the query asks of it. */
function load(context: Context, info: GraphQLResolveInfo, ids: Array<{ typename: string; id: string }>): Promise<unknown[]> {
  return resolveNodes(builder as unknown as Parameters<typeof resolveNodes>[0], context, info, ids) as Promise<unknown[]>;
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef,
    nullable: true,
    description: 'Any object by its global `id` (Relay object identification); null when there is none, or when the viewer may not see it.',
    args: { id: t.arg.id({ required: true, description: 'A global `id`, as any object’s `id` field gives it.' }) },
    resolve: async (_root, args, context, info) => {
      const found = await reachable(context, String(args.id));
      return found ? ((await load(context, info, [found]))[0] ?? null) : null;
    },
  }),
  nodes: t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    description: `Objects by their global ids, in the order asked, at most ${MAX_NODES}; null for each there is none of, or the viewer may not see.`,
    args: { ids: t.arg.idList({ required: true, description: `At most ${MAX_NODES} global ids.` }) },
    resolve: async (_root, args, context, info) => {
      if (args.ids.length > MAX_NODES)
        throw new GraphQLError(`nodes takes at most ${MAX_NODES} ids`, {
          extensions: { code: 'VALIDATION_FAILED', field: 'ids', http: { status: 400 } },
        });
      const found = await Promise.all(args.ids.map((id) => reachable(context, String(id))));
      const loaded = await load(
        context,
        info,
        found.filter((id) => id !== null),
      );
      let next = 0;
      return found.map((id) => (id ? (loaded[next++] ?? null) : null));
    },
  }),
}));
