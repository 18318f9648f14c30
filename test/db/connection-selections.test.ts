// Every connection answers a selection of only its count, only its pageInfo or only its cursors: such
// a selection selects nothing of the nodes, which once failed the parent with INTERNAL_SERVER_ERROR
// (`person: null`). The connections are found by introspection: one added later is tried as well.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token = '';
let entryId = 0;

beforeAll(async () => {
  db = await createTestDatabase('connections');
  api = testApp(db);
  const bens = await createPerson(db.prisma, { username: 'bens' });
  const cy = await createPerson(db.prisma, { username: 'cy' });
  await makeFriends(db.prisma, bens.id, cy.id);
  await db.prisma.friendRequest.create({ data: { fromId: (await createPerson(db.prisma, { username: 'di' })).id, toId: bens.id } });
  await db.prisma.route.create({ data: { ownerId: bens.id, name: 'Loop' } });
  entryId = (await createEntry(db.prisma, bens.id, { message: 'Connections' })).id;
  await db.prisma.comment.create({ data: { entryId, authorId: cy.id, body: 'Nice' } });
  await db.prisma.like.create({ data: { entryId, personId: cy.id } });
  token = await createToken(db.prisma, bens.id);
});
afterAll(() => db.destroy());

type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
type Field = { name: string; type: TypeRef; args: Array<{ name: string; type: TypeRef }> };
const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);

describe('a connection asked only for its count, its pageInfo or its cursors', () => {
  it('answers, on every connection of a person, an entry and the viewer', async () => {
    const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
    const schema = await api.graphql<{ __schema: { types: Array<{ name: string; fields: Field[] | null }> } }>(
      `{ __schema { types { name fields { name type { ${typeRef} } args { name type { ${typeRef} } } } } } }`,
    );
    const types = new Map(schema.data!.__schema.types.map((type) => [type.name, type]));
    const connectionsOf = (typeName: string) =>
      (types.get(typeName)?.fields ?? []).filter(
        (field) => named(field.type).name?.endsWith('Connection') && !field.args.some((arg) => arg.type.kind === 'NON_NULL'),
      );
    const hasCount = (connection: string) => types.get(connection)?.fields?.some((field) => field.name === 'totalCount');
    const roots: Array<[string, string]> = [
      ['Person', '{ person(username: "bens") '],
      ['Person', '{ me '],
      ['Entry', `{ entry(id: ${entryId}) `],
    ];
    const problems: string[] = [];
    let asked = 0;
    for (const [typeName, root] of roots) {
      for (const field of connectionsOf(typeName)) {
        const connection = named(field.type).name!;
        const selections = [
          ...(hasCount(connection) ? ['{ totalCount }'] : []),
          '{ pageInfo { hasNextPage } }',
          '(first: 1) { pageInfo { hasNextPage endCursor } }',
          '{ edges { cursor } }',
        ];
        for (const selection of selections) {
          const query = `${root}{ ${field.name}${selection} } }`;
          const result = await api.graphql(query, {}, token);
          asked += 1;
          const parent = Object.values(result.data ?? {})[0];
          if (result.errors || parent === null || parent === undefined)
            problems.push(`${query}: ${JSON.stringify(result.errors ?? parent)}`);
        }
      }
    }
    expect(asked).toBeGreaterThan(15);
    expect(problems).toEqual([]);
  });
});

describe('a cursor names its item', () => {
  it('pages on after a deletion without skipping: comments, likes, routes and friends', async () => {
    const owner = await createPerson(db.prisma, { username: 'pager' });
    const ownerToken = await createToken(db.prisma, owner.id);
    const entry = (await createEntry(db.prisma, owner.id, { message: 'Paged' })).id;
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, i));
    const people = await Promise.all([1, 2, 3, 4].map((i) => createPerson(db.prisma, { username: `pager${i}` })));
    for (const [i, person] of people.entries()) {
      await db.prisma.comment.create({ data: { entryId: entry, authorId: person.id, body: `c${i + 1}`, createdAt: at(i) } });
      await db.prisma.like.create({ data: { entryId: entry, personId: person.id, createdAt: at(i) } });
      await db.prisma.route.create({ data: { ownerId: owner.id, name: `r${i + 1}`, createdAt: at(i) } });
      await db.prisma.friendship.createMany({
        data: [
          { personId: owner.id, friendId: person.id, createdAt: at(i) },
          { personId: person.id, friendId: owner.id, createdAt: at(i) },
        ],
      });
    }
    const LISTS = {
      comments: { root: `entry(id: ${entry})`, item: 'body' },
      likes: { root: `entry(id: ${entry})`, item: 'person { username }' },
      routes: { root: 'person(username: "pager")', item: 'name' },
      friends: { root: 'person(username: "pager")', item: 'username' },
    };
    type Page = { edges: Array<{ node: Record<string, unknown> }>; pageInfo: { endCursor: string; hasNextPage: boolean } };
    const page = async (list: keyof typeof LISTS, after: string | null) => {
      const { root, item } = LISTS[list];
      const answer = await api.graphql<Record<string, Record<string, Page>>>(
        `query ($after: String) { holder: ${root} { ${list}(first: 2, after: $after) { edges { node { ${item} } } pageInfo { endCursor hasNextPage } } } }`,
        { after },
        ownerToken,
      );
      expect(answer.errors).toBeUndefined();
      const connection = answer.data!.holder![list]!;
      return { names: connection.edges.map(({ node }) => JSON.stringify(node).replace(/\W|body|username|person|name/g, '')), connection };
    };
    const first = {
      comments: await page('comments', null),
      likes: await page('likes', null),
      routes: await page('routes', null),
      friends: await page('friends', null),
    };
    expect(first.friends.names).toEqual(['pager1', 'pager2']);
    expect(first.comments.names).toEqual(['c1', 'c2']);
    expect(first.likes.names).toEqual(['pager1', 'pager2']);
    // routes are newest first
    expect(first.routes.names).toEqual(['r4', 'r3']);
    // the first item of each page is deleted: the next page still starts right after the cursor's item
    await db.prisma.comment.deleteMany({ where: { entryId: entry, body: 'c1' } });
    await db.prisma.like.deleteMany({ where: { entryId: entry, personId: people[0]!.id } });
    await db.prisma.route.deleteMany({ where: { ownerId: owner.id, name: 'r4' } });
    // and the cursor's own item: a friend removed (a Prisma cursor then found nothing after it)
    await db.prisma.friendship.deleteMany({
      where: {
        OR: [{ personId: owner.id }, { friendId: owner.id }],
        NOT: { friendId: people[3]!.id, personId: owner.id },
        createdAt: { lte: at(1) },
      },
    });
    expect((await page('comments', first.comments.connection.pageInfo.endCursor)).names).toEqual(['c3', 'c4']);
    expect((await page('likes', first.likes.connection.pageInfo.endCursor)).names).toEqual(['pager3', 'pager4']);
    expect((await page('routes', first.routes.connection.pageInfo.endCursor)).names).toEqual(['r2', 'r1']);
    expect((await page('friends', first.friends.connection.pageInfo.endCursor)).names).toEqual(['pager3', 'pager4']);
  });

  it('refuses more than a list’s maximum, naming first', async () => {
    const answer = await api.graphql<{ entry: { comments: { totalCount: number } } | null }>(
      `{ entry(id: ${entryId}) { comments(first: 1001) { totalCount } } }`,
    );
    expect(answer.data?.entry ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'first', message: 'must be at most 1000' }],
    });
  });
});
