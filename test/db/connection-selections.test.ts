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
