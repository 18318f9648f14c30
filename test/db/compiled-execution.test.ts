// A document runs interpreted the first time and compiled (graphql-jit) from the second: clients must
// not be able to tell. Each operation below is sent three times; every answer is the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
let username: string;
let entryId: number;

beforeAll(async () => {
  db = await createTestDatabase('compiled');
  // the response cache would answer the repeats without executing anything
  api = testApp(db, { RESPONSE_CACHE_MB: '0' });
  const person = await createPerson(db.prisma);
  username = person.username;
  token = await createToken(db.prisma, person.id);
  const entry = await createEntry(db.prisma, person.id, {
    message: 'compiled or not',
    lat: 37.8,
    lon: -122.27,
    placeName: 'Oakland, CA',
    workout: { activityType: 'running', distanceValue: 5, distanceUnits: 'miles', duration: 1500 },
  });
  entryId = entry.id;
  await db.prisma.comment.create({ data: { entryId, authorId: person.id, body: 'first' } });
  await db.prisma.like.create({ data: { entryId, personId: person.id } });
});
afterAll(() => db.destroy());

const FEED = `edges { cursor node { id: databaseId url at kind message location { name } geo { type coordinates latitude longitude }
  media { content { url } } author { username displayName url photoUrl units }
  workout { activityType completedAt distance { value units } duration felt title calories routeId }
  comments { edges { node { id body createdAt author { username } } } } likes { edges { node { createdAt person { username } } } } commentCount likeCount } }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

const OPERATIONS: Array<[string, string, Record<string, unknown>]> = [
  ['a full stream page', `{ publicStream { __typename ... on EntryConnection { ${FEED} } } }`, {}],
  [
    'a stream refused with a typed error',
    '{ publicStream(page: -1) { __typename ... on ValidationError { code message issues { path message } } } }',
    {},
  ],
  ['a variable of the wrong type', 'query ($n: Int) { publicStream(first: $n) { __typename } }', { n: 'twenty' }],
  [
    'fragments, aliases and @include',
    'query ($more: Boolean!) { mine: me { ...P friends @include(if: $more) { edges { node { username } } } } } fragment P on Person { username displayName }',
    { more: true },
  ],
  [
    'an entry with its parts',
    'query ($id: ID!) { entry(id: $id) { id comments { edges { node { body } } } likes { edges { node { person { username } } } } workout { title } commentCount likeCount } }',
    {},
  ],
  [
    'a person stream',
    'query ($u: String!) { personStream(username: $u) { ... on EntryConnection { edges { node { id: databaseId } } } ... on NotFoundError { code } } }',
    {},
  ],
  ['an unknown person', '{ personStream(username: "nobody-here") { __typename ... on NotFoundError { code message } } }', {}],
  [
    'fields brought by fragments between others',
    `query ($u: String!) { personStream(username: $u) { ... on EntryConnection { edges { node { id: databaseId ...Told ... on Entry { at }
      author { ...Who url } kind } } } } } fragment Told on Entry { message ...Where } fragment Where on Entry { location { name } }
      fragment Who on Person { username }`,
    {},
  ],
];

describe('compiled execution', () => {
  it.each(OPERATIONS)('answers %s the same the first time (interpreted) and after (compiled)', async (_name, query, variables) => {
    const vars = { ...variables, id: entryId, u: username };
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const response = await api.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables: vars }),
      });
      answers.push({ status: response.status, body: await response.text() });
    }
    // the same bytes: the fields in the order asked for, wherever a fragment brings them
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('answers a mutation the same way compiled: each run writes', async () => {
    const mutation =
      'mutation ($id: ID!) { createComment(input: { entryId: $id, body: "again" }) { comment { body author { username } } error { __typename } } }';
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api.graphql(mutation, { id: entryId }, token));
    expect(answers.map((a) => a.data)).toEqual(
      Array(3).fill({ createComment: { comment: { body: 'again', author: { username } }, error: null } }),
    );
    expect(await db.prisma.comment.count({ where: { entryId, body: 'again' } })).toBe(3);
  });

  it('leaves an input field out when its variable is left out, the second time as the first (nothing cleared)', async () => {
    await db.prisma.person.update({ where: { usernameKey: username.toLowerCase() }, data: { location: 'Oakland, CA' } });
    const mutation =
      'mutation ($name: String, $location: String) { updateProfile(input: { displayName: $name, location: $location }) { person { displayName location } error { __typename } } }';
    const answers = [];
    for (const name of ['One', 'Two', 'Three']) answers.push((await api.graphql(mutation, { name }, token)).data);
    expect(answers).toEqual(
      ['One', 'Two', 'Three'].map((displayName) => ({ updateProfile: { person: { displayName, location: 'Oakland, CA' }, error: null } })),
    );
    // given, it is applied compiled too
    expect((await api.graphql(mutation, { name: 'Four', location: null }, token)).data).toEqual({
      updateProfile: { person: { displayName: 'Four', location: null }, error: null },
    });
  });

  it('answers a fragment spread both under a skipped field and elsewhere the same compiled (nothing left out)', async () => {
    const query =
      'query ($l: Boolean = false) { publicStream { ... on EntryConnection { edges { node { message author { ...P } } } } } me @include(if: $l) { ...P } gone: me @skip(if: true) { ...P } } fragment P on Person { username url }';
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await api.graphql(query)).data);
    expect(JSON.stringify(answers[0])).toContain(`"author":{"username":"${username}"`);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});
