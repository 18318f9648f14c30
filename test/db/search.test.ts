// Search: people by their names and entries by their words, by word prefix, in any case and with or
// without accents, from indexes kept in step with every write, on both databases; entries only where the
// viewer may see them; every query bounded and a bad one refused by name, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENSE_MATCHES } from '../../src/db/entry-conditions.ts';
import { BASE, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens = { author: '', friend: '', stranger: '' };

type Page = { edges: Array<{ node: { username?: string; message?: string } }>; totalCount?: number } | null;
type Answer = { data?: Record<string, Page>; errors?: Array<{ message: string; extensions?: { type?: string; issues?: unknown } }> };

const people = async (query: string, token?: string) =>
  (await api.graphql(
    `query ($q: String!) { searchPeople(query: $q) { totalCount edges { node { username } } } }`,
    { q: query },
    token,
  )) as Answer;
const entries = async (query: string, token?: string) =>
  (await api.graphql(`query ($q: String!) { searchEntries(query: $q) { edges { node { message } } } }`, { q: query }, token)) as Answer;
const usernames = (answer: Answer) => answer.data!.searchPeople!.edges.map((edge) => edge.node.username);
const messages = (answer: Answer) => answer.data!.searchEntries!.edges.map((edge) => edge.node.message);

async function post(token: string, input: string): Promise<number> {
  const answer = (
    await api.graphql(`mutation { createEntry(input: { ${input} }) { entry { databaseId } error { __typename } } }`, {}, token)
  ).data as { createEntry: { entry: { databaseId: number } } };
  return answer.createEntry.entry.databaseId;
}

beforeAll(async () => {
  db = await createTestDatabase('search');
  api = testApp(db, { RESPONSE_CACHE_MB: '0' });
  const [author, friend, stranger] = await Promise.all([
    createPerson(db.prisma, { username: 'zoe_a', displayName: 'Zoë Álvarez' }),
    createPerson(db.prisma, { username: 'zsmith', displayName: 'Zoe Smith' }),
    createPerson(db.prisma, { username: 'bob', displayName: 'Robert Zoellner' }),
  ]);
  await makeFriends(db.prisma, author!.id, friend!.id);
  tokens.author = await createToken(db.prisma, author!.id);
  tokens.friend = await createToken(db.prisma, friend!.id);
  tokens.stranger = await createToken(db.prisma, stranger!.id);
  await post(tokens.author, 'message: "Tempo run along the Río Grande", visibility: EVERYONE');
  await post(tokens.author, 'message: "Tempo with the club", visibility: FRIENDS');
  await post(tokens.author, 'message: "Tempo alone, nobody knows", visibility: ONLY_ME');
  await post(tokens.author, 'workout: { activityType: RUNNING, title: "Hill repeats on Tuesday" }, visibility: EVERYONE');
});
afterAll(() => db.destroy());

describe('searching people', () => {
  it('matches the start of any word of a name, in any case, with or without accents', async () => {
    // Zoë, Zoe, and Robert Zoellner (whose surname starts so)
    expect(usernames(await people('zoe')).sort()).toEqual(['bob', 'zoe_a', 'zsmith']);
    expect(usernames(await people('zoe smi'))).toEqual(['zsmith']);
    expect(usernames(await people('ALVA'))).toEqual(['zoe_a']);
    expect(usernames(await people('álvarez zo'))).toEqual(['zoe_a']);
    // a word inside another is no match: "oe" starts no word
    expect(usernames(await people('oe'))).toEqual([]);
    expect((await people('zoe')).data!.searchPeople!.totalCount).toBe(3);
  });

  it('ranks the person whose username the query is first', async () => {
    expect(usernames(await people('zsmith'))[0]).toBe('zsmith');
    expect(usernames(await people('@bob'))[0]).toBe('bob');
  });

  it('follows renames, new accounts and deletions at once', async () => {
    await api.graphql('mutation { updateProfile(input: { displayName: "Zoë Quinn" }) { error { __typename } } }', {}, tokens.author);
    expect(usernames(await people('quinn'))).toEqual(['zoe_a']);
    expect(usernames(await people('alvarez'))).toEqual([]);
    const newcomer = await createPerson(db.prisma, { username: 'quinnie', displayName: 'Q' });
    expect(usernames(await people('quinn')).sort()).toEqual(['quinnie', 'zoe_a']);
    await db.prisma.person.delete({ where: { id: newcomer.id } });
    expect(usernames(await people('quinn'))).toEqual(['zoe_a']);
  });

  it('pages by first and after', async () => {
    const first = (await api.graphql(
      'query { searchPeople(query: "zo", first: 1) { edges { cursor node { username } } pageInfo { hasNextPage } } }',
    )) as { data: { searchPeople: { edges: Array<{ cursor: string; node: { username: string } }>; pageInfo: { hasNextPage: boolean } } } };
    expect(first.data.searchPeople.edges).toHaveLength(1);
    expect(first.data.searchPeople.pageInfo.hasNextPage).toBe(true);
    const after = first.data.searchPeople.edges[0]!.cursor;
    const next = (await api.graphql(
      `query { searchPeople(query: "zo", first: 5, after: "${after}") { edges { node { username } } } }`,
    )) as Answer;
    expect(next.data!.searchPeople!.edges.map((e) => e.node.username)).not.toContain(first.data.searchPeople.edges[0]!.node.username);
  });
});

describe('searching entries', () => {
  it('finds only what the viewer may see', async () => {
    expect(messages(await entries('tempo'))).toEqual(['Tempo run along the Río Grande']);
    expect(messages(await entries('tempo', tokens.stranger))).toEqual(['Tempo run along the Río Grande']);
    expect(messages(await entries('tempo', tokens.friend))).toEqual(['Tempo with the club', 'Tempo run along the Río Grande']);
    expect(messages(await entries('tempo', tokens.author))).toEqual([
      'Tempo alone, nobody knows',
      'Tempo with the club',
      'Tempo run along the Río Grande',
    ]);
  });

  it('matches words of the message and of the workout title, by prefix, accents or not', async () => {
    expect(messages(await entries('rio gran'))).toEqual(['Tempo run along the Río Grande']);
    expect(messages(await entries('RÍO'))).toEqual(['Tempo run along the Río Grande']);
    expect((await entries('hill rep')).data!.searchEntries!.edges).toHaveLength(1);
    expect(messages(await entries('tempo hill'))).toEqual([]);
  });

  it('follows edits and deletions at once', async () => {
    const id = await post(tokens.author, 'message: "Easy shakeout"');
    expect(messages(await entries('shakeout'))).toEqual(['Easy shakeout']);
    await api.graphql(
      `mutation { updateEntry(input: { id: ${id}, message: "Easy recovery jog" }) { error { __typename } } }`,
      {},
      tokens.author,
    );
    expect(messages(await entries('shakeout'))).toEqual([]);
    expect(messages(await entries('recovery'))).toEqual(['Easy recovery jog']);
    await api.graphql(`mutation { updateEntry(input: { id: ${id}, visibility: ONLY_ME }) { error { __typename } } }`, {}, tokens.author);
    expect(messages(await entries('recovery'))).toEqual([]);
    await api.graphql(`mutation { deleteEntry(input: { id: ${id} }) { error { __typename } } }`, {}, tokens.author);
    expect(messages(await entries('recovery', tokens.author))).toEqual([]);
  });
});

describe('a word hundreds of entries hold', () => {
  it('pages newest first, as a rare word does (read along the time index past DENSE_MATCHES)', async () => {
    const author = await db.prisma.person.findFirstOrThrow({ where: { usernameKey: 'zoe_a' } });
    const start = Date.UTC(2026, 0, 1);
    await db.prisma.entry.createMany({
      data: Array.from({ length: DENSE_MATCHES + 20 }, (_, i) => ({
        authorId: author.id,
        message: `Common word ${i}`,
        createdAt: new Date(start + i * 60_000),
        visibility: i % 2 ? 'everyone' : 'friends',
      })),
    });
    const read = async (after?: string) =>
      (await api.graphql(
        `query ($after: String) { searchEntries(query: "common word", first: 5, after: $after) { edges { cursor node { message } } } }`,
        { after },
      )) as { data: { searchEntries: { edges: Array<{ cursor: string; node: { message: string } }> } } };
    const first = (await read()).data.searchEntries.edges;
    const last = DENSE_MATCHES + 19;
    expect(first.map((edge) => edge.node.message)).toEqual([last, last - 2, last - 4, last - 6, last - 8].map((n) => `Common word ${n}`));
    const second = (await read(first.at(-1)!.cursor)).data.searchEntries.edges;
    expect(second.map((edge) => edge.node.message)).toEqual([10, 12, 14, 16, 18].map((n) => `Common word ${last - n}`));
  });
});

describe('what a search refuses', () => {
  it.each([
    ['an empty query', ''],
    ['one letter', 'a'],
    ['only punctuation', '"*()'],
    ['a query past 200 characters', 'run '.repeat(51)],
  ])('%s: a ValidationError naming query, never a 500', async (_name, query) => {
    for (const answer of [await people(query), await entries(query)]) {
      expect(answer.errors?.[0]?.extensions).toMatchObject({ type: 'ValidationError', issues: [{ path: 'query' }] });
    }
  });

  it('takes the index’s own syntax as words', async () => {
    for (const query of ['tempo OR NEAR(x', 'tempo" AND "club', 'tempo:* | !club', "tempo' --"]) {
      const answer = await entries(query, tokens.author);
      expect(answer.errors).toBeUndefined();
    }
    expect(messages(await entries('"tempo" OR', tokens.author))).toEqual([]);
    expect(messages(await entries('club" tempo', tokens.author))).toEqual(['Tempo with the club']);
  });
});

describe('search in /api/v1', () => {
  it('is GET /api/v1/search/people and /api/v1/search/entries', async () => {
    const found = await api.fetch('/api/v1/search/people?query=zsmith');
    expect(found.status).toBe(200);
    expect(JSON.stringify(await found.json())).toContain('zsmith');
    const words = await api.fetch('/api/v1/search/entries?query=tempo', { headers: { authorization: `Bearer ${tokens.friend}` } });
    expect(words.status).toBe(200);
    expect(JSON.stringify(await words.json())).toContain('Tempo with the club');
    const refused = await api.fetch('/api/v1/search/entries?query=a');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain('query');
  });
});

describe('the search page', () => {
  it('lists the people and the entries a visitor may see, and says why a query is refused', async () => {
    const page = await api.fetch('/search?q=tempo%20run', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Tempo run along the Río Grande');
    expect(text).not.toContain('Tempo with the club');
    const named = await (await api.fetch('/search?q=zsmith', { headers: { accept: 'text/html' } })).text();
    expect(named).toContain(`href="${BASE}/people/zsmith"`);
    const refused = await api.fetch('/search?q=a', { headers: { accept: 'text/html' } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toMatch(/role="alert"[\s\S]*query: needs a word of at least 2 letters or digits/);
  });
});
