// Lists an object already holds whole (an entry's comments and likes, a person's routes and friend
// requests: each read with its owner in one batched statement) as Relay connections with
// `totalCount`, paged in memory by a key: each cursor names its item's time and id, so a page after
// it starts after that item wherever it now stands. Offset cursors skipped an item once one before it
// was deleted (c1..c4, a page of c1 and c2, c1 deleted: the next page held only c4). Every list has a
// default page and a maximum, as GitHub's connections do.
import { cursorToOffset } from '@pothos/plugin-relay';
import { ValidationError } from '../../domain/errors.ts';
import { builder } from '../builder.ts';
import { typedGraphQLError } from './errors.ts';

export interface ListArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** An item's place in its list: its time in milliseconds and its id. */
export type ListKey = readonly [number, number];

/** How a list is paged: its items' keys, in which order it runs, how many a page holds. */
export interface ListPaging<T, N> {
  key: (item: T) => ListKey;
  /** Newest first: the list runs from the greatest key down. */
  descending?: boolean;
  /** What an edge holds of an item (the item itself unless given). */
  node?: (item: T) => N;
  defaultSize: number;
  maxSize: number;
}

/** The cursor of the item with this key. */
export const listCursor = ([at, id]: ListKey) => Buffer.from(`list:${at}:${id}`, 'utf8').toString('base64url');

/** The key a cursor names, or null for a cursor this API did not issue. Offset cursors of earlier releases name the item at that offset now. */
function decodeCursor<T>(cursor: string, list: readonly T[], key: (item: T) => ListKey): ListKey | 'past' | null {
  const named = keyOf(cursor);
  if (named) return named;
  try {
    const offset = cursorToOffset(cursor);
    if (!Number.isSafeInteger(offset) || offset < 0) return null;
    const item = list[offset];
    return item === undefined ? 'past' : key(item);
  } catch {
    return null;
  }
}

/** A page of `list` as `args` ask; a count out of bounds or a cursor not issued here is a ValidationError naming it (`typedGraphQLError`). */
/** What is wrong with `first` and `last` for a list of at most `maxSize` a page. */
function countIssues(args: ListArgs, maxSize: number): Array<{ path: string; message: string }> {
  return (['first', 'last'] as const).flatMap((path) => {
    const count = args[path];
    if (count == null) return [];
    if (count < 0) return [{ path, message: 'must be 0 or more' }];
    return count > maxSize ? [{ path, message: `must be at most ${maxSize}` }] : [];
  });
}

const KEY_CURSOR = /^list:(-?\d{1,16}):(\d{1,16})$/;

/** The key a cursor of listCursor names, or null. */
function keyOf(cursor: string): ListKey | null {
  const match = KEY_CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? [Number(match[1]), Number(match[2])] : null;
}

export function listConnection<T, N = T>(list: readonly T[], args: ListArgs, paging: ListPaging<T, N>) {
  const issues = countIssues(args, paging.maxSize);
  const bounds = { after: null as ListKey | 'past' | null, before: null as ListKey | 'past' | null };
  for (const path of ['after', 'before'] as const) {
    const cursor = args[path];
    if (cursor == null) continue;
    bounds[path] = decodeCursor(cursor, list, paging.key);
    if (bounds[path] === null) issues.push({ path, message: 'is not a cursor this API issued' });
  }
  if (issues.length) throw typedGraphQLError(new ValidationError(issues));
  // where an item stands against a key, in the list's order: below 0 before it, above after it
  const place = (item: T, key: ListKey) => {
    const [at, id] = paging.key(item);
    const order = at - key[0] || id - key[1];
    return paging.descending ? -order : order;
  };
  const { after, before } = bounds;
  const inRange = (item: T) =>
    (after === null || (after !== 'past' && place(item, after) > 0)) && (before === null || before === 'past' || place(item, before) < 0);
  const range = list.filter(inRange);
  let items: T[];
  let more = false;
  if (args.last != null && args.first == null) {
    items = args.last === 0 ? [] : range.slice(-args.last);
    more = range.length > items.length;
  } else {
    items = range.slice(0, args.first ?? paging.defaultSize);
    more = range.length > items.length;
  }
  const backwards = args.last != null && args.first == null;
  const edges = items.map((item) => ({ cursor: listCursor(paging.key(item)), node: (paging.node ? paging.node(item) : item) as N }));
  // beyond the cursors: items before `after`, or from `before` on
  const beforeAfter = after !== null && (after === 'past' ? list.length > 0 : list.some((item) => place(item, after) <= 0));
  const fromBefore = before !== null && before !== 'past' && list.some((item) => place(item, before) >= 0);
  return {
    edges,
    totalCount: list.length,
    pageInfo: {
      hasNextPage: backwards ? fromBefore : more || fromBefore,
      hasPreviousPage: backwards ? more || beforeAfter : beforeAfter,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** The pages of the lists: an entry's comments and likes, a person's routes and friend requests. */
export const REACTIONS_PAGE = { defaultSize: 20, maxSize: 1000 } as const;
export const ROUTES_PAGE = { defaultSize: 20, maxSize: 1000 } as const;
export const REQUESTS_PAGE = { defaultSize: 20, maxSize: 100 } as const;

/** A list field's extensions: its default page, which the cost limit counts when `first` is not given (http/graphql-hardening.ts). */
export const pageExtensions = (page: { defaultSize: number }) => ({ defaultPage: page.defaultSize });

/** The key of a row by its time and id. */
export const timeAndId = (row: { createdAt: Date; id: number }): ListKey => [row.createdAt.getTime(), row.id];

/** The description of such a list's connection field. */
export const listDescription = (what: string, page: { defaultSize: number; maxSize: number }) =>
  `${what} A Relay connection paged with \`first\`/\`after\` or \`last\`/\`before\`: ${page.defaultSize} a page unless asked, at most ${page.maxSize}. A cursor names its item, so a page after it starts after that item even when others were removed.`;

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

/** A nested selection of rows paged by timeAndId: never empty, and holding the key's columns. */
export function withKey<T>(selection: T): T {
  const select = (selection as { select?: Record<string, unknown> } | null)?.select;
  return select ? { ...selection, select: { ...select, id: true, createdAt: true } } : selection;
}

/**
 * A list read from the database a page at a time, oldest first, by the same keys (a row's time and
 * id columns): the Prisma arguments of its page, one row more than it holds to tell whether more
 * follow. A Prisma cursor names a row that must still exist: once it was deleted (a friend removed),
 * the next page came back empty.
 */
export function keyedQuery(args: ListArgs, page: { defaultSize: number; maxSize: number }, columns: { time: string; id: string }) {
  const issues = countIssues(args, page.maxSize);
  const bounds = { after: null as ListKey | null, before: null as ListKey | null };
  for (const path of ['after', 'before'] as const) {
    const cursor = args[path];
    if (cursor == null) continue;
    bounds[path] = keyOf(cursor);
    if (bounds[path] === null) issues.push({ path, message: 'is not a cursor this API issued' });
  }
  if (issues.length) throw typedGraphQLError(new ValidationError(issues));
  const backwards = args.last != null && args.first == null;
  const size = (backwards ? args.last : args.first) ?? page.defaultSize;
  const beyond = ([at, id]: ListKey, op: 'gt' | 'lt') => ({
    OR: [{ [columns.time]: { [op]: new Date(at) } }, { [columns.time]: new Date(at), [columns.id]: { [op]: id } }],
  });
  const order = backwards ? 'desc' : 'asc';
  return {
    where: { AND: [...(bounds.after ? [beyond(bounds.after, 'gt')] : []), ...(bounds.before ? [beyond(bounds.before, 'lt')] : [])] },
    orderBy: [{ [columns.time]: order }, { [columns.id]: order }],
    take: size + 1,
    page: { size, backwards, after: bounds.after !== null, before: bounds.before !== null },
  };
}

/** The connection of the rows keyedQuery read (one more than the page when more follow). */
export function keyedConnection<T, N>(
  rows: readonly T[],
  page: ReturnType<typeof keyedQuery>['page'],
  key: (row: T) => ListKey,
  node: (row: T) => N,
) {
  const more = rows.length > page.size;
  const kept = rows.slice(0, page.size);
  const items = page.backwards ? kept.reverse() : kept;
  const edges = items.map((row) => ({ cursor: listCursor(key(row)), node: node(row) }));
  return {
    edges,
    pageInfo: {
      // past a cursor, what lies on its other side is not read: a cursor says there is some
      hasNextPage: page.backwards ? page.before : more,
      hasPreviousPage: page.backwards ? more : page.after,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
