// The connections over lists an object holds whole (an entry's comments and likes, a person's routes
// and friend requests): paging both ways, a count, and hostile arguments refused by name.
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { listConnection } from '../../src/graphql/types/lists.ts';

const list = ['a', 'b', 'c', 'd', 'e'];
const nodes = (page: ReturnType<typeof listConnection<string>>) => page.edges.map((edge) => edge!.node);

describe('a list as a connection', () => {
  it('holds the whole list without a count, as the REST resources show it', () => {
    const page = listConnection(list, {});
    expect(nodes(page)).toEqual(list);
    expect(page.totalCount).toBe(5);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('pages forward with first/after and backward with last/before, without gaps or repeats', () => {
    const first = listConnection(list, { first: 2 });
    expect(nodes(first)).toEqual(['a', 'b']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = listConnection(list, { first: 2, after: first.pageInfo.endCursor });
    expect(nodes(second)).toEqual(['c', 'd']);
    const last = listConnection(list, { last: 2 });
    expect(nodes(last)).toEqual(['d', 'e']);
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    expect(nodes(listConnection(list, { last: 2, before: last.pageInfo.startCursor }))).toEqual(['b', 'c']);
  });

  it('gives an empty page no cursors', () => {
    expect(listConnection([], {}).pageInfo).toMatchObject({ startCursor: null, endCursor: null, hasNextPage: false });
  });

  it.each([
    [{ first: -1 }, 'first'],
    [{ last: -3 }, 'last'],
    [{ after: 'not a cursor' }, 'after'],
    [{ before: Buffer.from('OffsetConnection:NaN').toString('base64') }, 'before'],
  ])('refuses %o naming %s, as a typed ValidationError', (args, path) => {
    let refusal: unknown;
    try {
      listConnection(list, args);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GraphQLError);
    expect((refusal as GraphQLError).extensions).toMatchObject({ type: 'ValidationError', code: 'VALIDATION_FAILED', issues: [{ path }] });
  });
});
