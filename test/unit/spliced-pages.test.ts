// Which GraphQL queries have their stream pages put together from kept entries (src/cache/spliced-pages.ts):
// only those that read one stream and ask of its entries nothing but what their versions cover.
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { planOf } from '../../src/cache/spliced-pages.ts';

const plan = (query: string, operationName?: string) => planOf(parse(query), operationName, 'q1');

describe('spliced stream pages', () => {
  it.each([
    ['a stream page', '{ publicStream { ... on EntryConnection { edges { node { id message author { username } } } } } }'],
    [
      'aliases, cursors, page info, typed errors',
      '{ s: friendsStream(first: 5) { __typename ... on EntryConnection { e: edges { cursor n: node { m: message } } pageInfo { hasNextPage } } ... on Error { message } } }',
    ],
    [
      'named and inline fragments below the entry',
      '{ personStream(username: "ann") { ... on EntryConnection { edges { node { ...E } } } } } fragment E on Entry { ... on Entry { id: databaseId } comments { edges { node { author { ...P } } } } } fragment P on Person { url }',
    ],
    ['variables of the stream', 'query ($u: String!) { personStream(username: $u) { ... on EntryConnection { edges { node { id } } } } }'],
    [
      "a page of an entry's comments and likes, as clients ask for it",
      'query ($c: Int, $a: String) { publicStream(first: 20) { ... on EntryConnection { edges { node { comments(first: $c, after: $a) { edges { node { body } } } likes(last: 3) { totalCount } } } } } }',
    ],
    [
      "a track's summary (the entry's revision covers its track)",
      '{ publicStream { ... on EntryConnection { edges { node { track { name distanceMeters polyline pointCount repairs } } } } } }',
    ],
  ])('puts together %s', (_name, query) => {
    expect(plan(query)).not.toBeNull();
  });

  it.each([
    ['a mutation', 'mutation { createEntry(input: { message: "x" }) { error { __typename } } }'],
    ['two root fields', '{ me { username } publicStream { ... on EntryConnection { edges { node { id } } } } }'],
    ['a field not a stream', '{ person(username: "ann") { entries { edges { node { id } } } } }'],
    ["a track's points", '{ publicStream { ... on EntryConnection { edges { node { track { points { lat } } } } } } }'],
    ["a track's GPX", '{ publicStream { ... on EntryConnection { edges { node { track { gpx } } } } } }'],
    [
      'a person beyond their document',
      '{ publicStream { ... on EntryConnection { edges { node { author { stats(period: WEEK) { __typename } } } } } } }',
    ],
    ['a route', '{ publicStream { ... on EntryConnection { edges { node { workout { route { id } } } } } } }'],
    [
      'a directive below the entry',
      'query ($x: Boolean!) { publicStream { ... on EntryConnection { edges { node { id @include(if: $x) } } } } }',
    ],
    ['a directive on the stream', '{ publicStream @skip(if: false) { ... on EntryConnection { edges { node { id } } } } }'],
    ['two edges', '{ publicStream { ... on EntryConnection { a: edges { node { id } } b: edges { node { url } } } } }'],
    ['a named fragment around the edges', '{ publicStream { ...C } } fragment C on EntryConnection { edges { node { id } } }'],
    ['the alias the ids go under', '{ publicStream { ... on EntryConnection { edges { node { milepostSplicedEntryId: id } } } } }'],
    ['no entries asked for', '{ publicStream { ... on EntryConnection { pageInfo { hasNextPage } } } }'],
    [
      'an argument that is not a page',
      '{ publicStream { ... on EntryConnection { edges { node { comments(orderBy: NEWEST) { totalCount } } } } } }',
    ],
    [
      'a page of a list of another kind',
      '{ publicStream { ... on EntryConnection { edges { node { author(first: 2) { username } } } } } }',
    ],
    [
      'a page given as an object',
      '{ publicStream { ... on EntryConnection { edges { node { likes(first: { n: 2 }) { totalCount } } } } } }',
    ],
  ])('leaves alone %s', (_name, query) => {
    expect(plan(query)).toBeNull();
  });

  it("keeps the entries' JSON apart by the values of the variables their selection uses, and only those", () => {
    const planned = plan(
      'query ($n: Int, $c: Int, $b: String) { publicStream(first: $n) { ... on EntryConnection { edges { node { likes(last: $c, before: $b) { totalCount } ...C } } } } } fragment C on Entry { comments(first: $c) { totalCount } }',
    )!;
    expect(planned.variables).toEqual(['b', 'c']);
    expect(plan('{ publicStream { ... on EntryConnection { edges { node { comments(first: 2) { totalCount } } } } } }')!.variables).toEqual(
      [],
    );
  });

  it('asks first for the ids alone, then for the whole query with the ids', () => {
    const planned = plan('query Feed { s: publicStream { ... on EntryConnection { edges { cursor n: node { message } } } } }', 'Feed')!;
    expect(planned.path).toEqual(['s', 'edges']);
    expect(planned.node).toBe('n');
    expect(print(planned.ids)).toContain('n: node {\n          milepostSplicedEntryId: databaseId\n        }');
    expect(print(planned.whole)).toContain('n: node {\n          milepostSplicedEntryId: databaseId\n          message\n        }');
    expect(print(planned.whole)).toContain('cursor');
  });
});
