// Lists an object already holds whole (an entry's comments and likes, a person's routes and friend
// requests: each read with its owner in one batched statement) as Relay connections with
// `totalCount`, paged in memory with Pothos's offset cursors. Without `first` or `last` a page holds
// the whole list, as the REST resources show it.
import { cursorToOffset, resolveArrayConnection } from '@pothos/plugin-relay';
import { ValidationError } from '../../domain/errors.ts';
import { builder } from '../builder.ts';
import { typedGraphQLError } from './errors.ts';

export interface ListArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** Whether `cursor` is one these lists issued: an offset cursor holding a whole number. */
function isListCursor(cursor: string): boolean {
  try {
    const offset = cursorToOffset(cursor);
    return Number.isSafeInteger(offset) && offset >= 0;
  } catch {
    return false;
  }
}

/** A page of `list` as `args` ask; a count below 0 or a cursor not issued here is a ValidationError naming it (`typedGraphQLError`). */
export function listConnection<T>(list: readonly T[], args: ListArgs) {
  const issues = [
    ...(['first', 'last'] as const)
      .filter((name) => args[name] != null && args[name]! < 0)
      .map((path) => ({ path, message: 'must be 0 or more' })),
    ...(['after', 'before'] as const)
      .filter((name) => args[name] != null && !isListCursor(args[name]!))
      .map((path) => ({ path, message: 'is not a cursor this API issued' })),
  ];
  if (issues.length) throw typedGraphQLError(new ValidationError(issues));
  const size = Math.max(list.length, 1);
  const page = resolveArrayConnection({ args, defaultSize: size, maxSize: size }, list);
  // an empty page has no cursors (Pothos would name offsets that hold nothing)
  if (page.edges.length > 0) return page;
  return { ...page, pageInfo: { ...page.pageInfo, startCursor: null, endCursor: null } };
}

/** The description of such a list's connection field. */
export const wholeListDescription = (what: string) =>
  `${what} A Relay connection paged with \`first\`/\`after\` or \`last\`/\`before\`; without either count, the whole list.`;

/**
 * The connection of `type` named `<Name>Connection`, with its `<Name>Edge`, and `totalCount`: the one
 * naming scheme of every connection in the schema. The edge is returned too, for the mutation payloads
 * that hand a client the edge a new item joins the list with (Relay's `@appendEdge`/`@prependEdge`).
 */
export function countedConnection<Type extends Parameters<typeof builder.edgeObject>[0]['type']>(type: Type, name: string, what: string) {
  const edge = builder.edgeObject({
    type,
    name: `${name}Edge`,
    description: `An item of a page of ${what}, with the cursor to page from it.`,
  });
  const connection = builder.connectionObject(
    {
      type,
      name: `${name}Connection`,
      description: `A page of ${what} (a Relay connection), with how many there are in all.`,
      fields: (t) => ({
        totalCount: t.int({
          description: `How many ${what} there are in all, on every page.`,
          // a number, or a count read only when asked for (a page read from the database holds only its page)
          resolve: async (connection) => {
            const total = (connection as { totalCount?: number | (() => Promise<number>) }).totalCount;
            return typeof total === 'function' ? total() : (total ?? 0);
          },
        }),
      }),
    },
    edge,
  );
  return { connection, edge };
}

/**
 * A nested Prisma selection that is never empty. A connection asked only for its count, its pageInfo or
 * its cursors selects nothing of its nodes, and Prisma refuses `select: {}` ("must not be empty"),
 * which failed the parent (`person: null` and INTERNAL_SERVER_ERROR): the row's key is selected then.
 */
export function nonEmpty<T>(selection: T, key: Record<string, true> = { id: true }): T {
  const select = (selection as { select?: Record<string, unknown> } | null)?.select;
  return select && Object.keys(select).length === 0 ? { ...selection, select: key } : selection;
}
