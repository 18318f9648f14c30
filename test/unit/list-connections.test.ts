// The connections over lists an object holds whole (an entry's comments and likes, a person's routes
// and friend requests): paging both ways by a key, a default page and a maximum, and hostile arguments
// refused by name.
import { offsetToCursor } from '@pothos/plugin-relay';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { type ListArgs, listConnection } from '../../src/graphql/types/lists.ts';

type Item = { name: string; at: number; id: number };
// two share a moment: the id orders them
const LIST: Item[] = ['a', 'b', 'c', 'd', 'e'].map((name, i) => ({ name, at: 1_000 * Math.min(i, 3), id: i + 1 }));
const PAGING = { key: (item: Item) => [item.at, item.id] as const, defaultSize: 3, maxSize: 4 };
const page = (args: ListArgs, list: readonly Item[] = LIST, paging: Partial<typeof PAGING> & { descending?: boolean } = {}) =>
  listConnection(list, args, { ...PAGING, ...paging });
const names = (connection: ReturnType<typeof page>) => connection.edges.map((edge) => edge.node.name);

describe('a list as a connection', () => {
  it('holds a default page without a count, and says there is more', () => {
    const first = page({});
    expect(names(first)).toEqual(['a', 'b', 'c']);
    expect(first.totalCount).toBe(5);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('pages forward with first/after and backward with last/before, without gaps or repeats', () => {
    const first = page({ first: 2 });
    expect(names(first)).toEqual(['a', 'b']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = page({ first: 2, after: first.pageInfo.endCursor });
    expect(names(second)).toEqual(['c', 'd']);
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    const last = page({ last: 2 });
    expect(names(last)).toEqual(['d', 'e']);
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    expect(names(page({ last: 2, before: last.pageInfo.startCursor }))).toEqual(['b', 'c']);
  });

  it('starts after the item a cursor names, wherever it stands now: a removal skips nothing', () => {
    const first = page({ first: 2 });
    // "a" is deleted, and "b", the cursor's item, too: the next page still starts at "c"
    expect(names(page({ first: 2, after: first.pageInfo.endCursor }, LIST.slice(1)))).toEqual(['c', 'd']);
    expect(names(page({ first: 2, after: first.pageInfo.endCursor }, LIST.slice(2)))).toEqual(['c', 'd']);
    // an item added before the cursor is not repeated
    const added = [{ name: 'early', at: 0, id: 9 }, ...LIST];
    expect(names(page({ first: 2, after: first.pageInfo.endCursor }, added))).toEqual(['c', 'd']);
  });

  it('runs newest first when the list does', () => {
    const newest = [...LIST].reverse();
    const first = page({ first: 2 }, newest, { descending: true });
    expect(names(first)).toEqual(['e', 'd']);
    expect(names(page({ first: 2, after: first.pageInfo.endCursor }, newest, { descending: true }))).toEqual(['c', 'b']);
  });

  it('takes the offset cursors of earlier releases as the item at that offset', () => {
    expect(names(page({ first: 2, after: offsetToCursor(1) }))).toEqual(['c', 'd']);
  });

  it('gives an empty page no cursors', () => {
    expect(page({}, []).pageInfo).toMatchObject({ startCursor: null, endCursor: null, hasNextPage: false });
  });

  it.each([
    [{ first: -1 }, 'first', 'must be 0 or more'],
    [{ last: -3 }, 'last', 'must be 0 or more'],
    [{ first: 100_000 }, 'first', 'must be at most 4'],
    [{ after: 'not a cursor' }, 'after', 'is not a cursor this API issued'],
    [{ before: Buffer.from('OffsetConnection:NaN').toString('base64') }, 'before', 'is not a cursor this API issued'],
  ])('refuses %o naming %s, as a typed ValidationError', (args, path, message) => {
    let refusal: unknown;
    try {
      page(args);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GraphQLError);
    expect((refusal as GraphQLError).extensions).toMatchObject({
      type: 'ValidationError',
      code: 'VALIDATION_FAILED',
      issues: [{ path, message }],
    });
  });
});
