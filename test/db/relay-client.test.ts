// Relay as a frontend team uses it: relay-compiler compiles examples/relay/operations.ts against the
// committed schema (a fragment paged with @connection, fragments @refetchable through `node(id:)`, a
// subscription), and relay-runtime runs the compiled operations against the server and normalizes
// the answers into its store, by global id.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Environment, fetchQuery, Network, RecordSource, Store } from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import EntryQuery from '../../examples/relay/__generated__/operationsEntryQuery.graphql.ts';
import EntryRefetchQuery from '../../examples/relay/__generated__/operationsEntryRefetchQuery.graphql.ts';
import FriendsPaginationQuery from '../../examples/relay/__generated__/operationsFriendsPaginationQuery.graphql.ts';
import PersonQuery from '../../examples/relay/__generated__/operationsPersonQuery.graphql.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, makeFriends } from '../support/factories.ts';

const examples = fileURLToPath(new URL('../../examples/relay/', import.meta.url));
const compiler = fileURLToPath(new URL('../../node_modules/.bin/relay-compiler', import.meta.url));
let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let entryId = 0;

beforeAll(async () => {
  db = await createTestDatabase('relay');
  api = testApp(db);
  const rita = await createPerson(db.prisma, { username: 'rita', displayName: 'Rita' });
  for (const name of ['ann', 'bo', 'cy']) await makeFriends(db.prisma, rita.id, (await createPerson(db.prisma, { username: name })).id);
  entryId = (await createEntry(db.prisma, rita.id, { message: 'relayed' })).id;
});
afterAll(() => db.destroy());

function environment() {
  const answers: Array<Record<string, unknown>> = [];
  const network = Network.create(async (params, variables) => {
    const response = await api.app.fetch('http://milepost.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: params.text, variables }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    answers.push(answer);
    return answer as never;
  });
  return { env: new Environment({ network, store: new Store(new RecordSource()) }), answers };
}

const records = (env: Environment) => Object.values(env.getStore().getSource().toJSON()) as Array<Record<string, unknown>>;

describe('Relay', () => {
  it('relay-compiler compiles the examples against the committed schema, and the committed artifacts are current', () => {
    const run = spawnSync(compiler, ['--validate'], { cwd: examples, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/error/i);
    expect(run.status).toBe(0);
  });

  it('normalizes a person and pages their friends with @connection, through node(id:)', async () => {
    const { env, answers } = environment();
    await fetchQuery(env, PersonQuery, { username: 'rita' }).toPromise();
    const people = () =>
      records(env)
        .filter((record) => record.__typename === 'Person' && typeof record.username === 'string')
        .map((record) => record.username);
    expect(people().sort()).toEqual(['ann', 'bo']);
    const first = answers[0] as { data: { person: { id: string; friends: { pageInfo: { endCursor: string; hasNextPage: boolean } } } } };
    expect(first.data.person.friends.pageInfo.hasNextPage).toBe(true);
    // the next page, as usePaginationFragment asks it: the person again by its global id, after the cursor
    await fetchQuery(env, FriendsPaginationQuery, {
      id: first.data.person.id,
      count: 2,
      cursor: first.data.person.friends.pageInfo.endCursor,
    }).toPromise();
    expect(answers[1]).not.toHaveProperty('errors');
    expect(people().sort()).toEqual(['ann', 'bo', 'cy']);
  });

  it('refetches an entry by its global id (@refetchable on Node)', async () => {
    const { env, answers } = environment();
    await fetchQuery(env, EntryQuery, { id: String(entryId) }).toPromise();
    const entry = records(env).find((record) => record.__typename === 'Entry')!;
    expect(entry.message).toBe('relayed');
    await db.prisma.like.create({
      data: { entryId, personId: (await db.prisma.person.findFirstOrThrow({ where: { username: 'ann' } })).id },
    });
    await fetchQuery(env, EntryRefetchQuery, { id: entry.__id as string }).toPromise();
    expect(answers[1]).not.toHaveProperty('errors');
    expect(records(env).find((record) => record.__id === entry.__id)?.likeCount).toBe(1);
  });
});
