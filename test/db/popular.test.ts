// The popular stream (GET /entries/popular.json, GraphQL popularStream): the week's most liked and
// commented entries, ranked as of one moment, so that paging neither repeats nor skips entries while
// likes arrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POPULAR_MOMENT_MS } from '../../src/domain/paging.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
/** The stream's moment without `until`: the start of the current hour. */
let moment: number;
const ids: Record<string, number> = {};
const fanTokens: string[] = [];
const MINUTE = 60_000;

async function rest(path: string) {
  const response = await api.fetch(path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as { entries: Array<{ id: number; message: string }> } };
}
const messages = async (path: string) => (await rest(path)).body.entries.map((entry) => entry.message);

beforeAll(async () => {
  // a page read on each side of an hour's turn would rank as of two moments: start well inside one
  const intoHour = Date.now() % POPULAR_MOMENT_MS;
  if (intoHour > POPULAR_MOMENT_MS - 15_000) await new Promise((resolve) => setTimeout(resolve, POPULAR_MOMENT_MS - intoHour + 1_000));
  moment = Math.floor(Date.now() / POPULAR_MOMENT_MS) * POPULAR_MOMENT_MS;

  db = await createTestDatabase('popular');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'poster' });
  const fans: Array<{ id: number }> = [];
  for (let i = 0; i < 5; i++) {
    fans.push(await createPerson(db.prisma, { username: `fan${i}` }));
    fanTokens.push(await createToken(db.prisma, fans[i]!.id));
  }
  token = fanTokens[0]!;
  const before = (minutes: number) => new Date(moment - minutes * MINUTE);
  const post = async (name: string, at: Date, likes: number, comments: number) => {
    const entry = await createEntry(db.prisma, author.id, { message: name, at });
    ids[name] = entry.id;
    for (let i = 0; i < likes; i++) await db.prisma.like.create({ data: { entryId: entry.id, personId: fans[i]!.id, createdAt: at } });
    for (let i = 0; i < comments; i++) {
      await db.prisma.comment.create({ data: { entryId: entry.id, authorId: fans[i]!.id, body: 'nice', createdAt: at } });
    }
  };
  await post('four', before(60), 3, 1);
  await post('two by comments', before(30), 0, 2);
  await post('two by likes', before(40), 2, 0);
  // 22 entries nobody reacted to, newest first after the ranked ones: "quiet 0" is the newest
  for (let i = 0; i < 22; i++) await post(`quiet ${i}`, before(10 + i), 0, 0);
  // older than the week: however liked, not ranked
  await post('last month', before(8 * 24 * 60), 5, 5);
  // posted in the current hour: ranked from the next one (or with `until`)
  await post('this hour', new Date(), 3, 0);
});
afterAll(() => db.destroy());

describe('the popular stream', () => {
  it('ranks the week by likes and comments, ties newest first, 20 a page, then an empty page', async () => {
    const first = await messages('/entries/popular.json');
    expect(first.slice(0, 4)).toEqual(['four', 'two by comments', 'two by likes', 'quiet 0']);
    expect(first).toHaveLength(20);
    expect(first).not.toContain('last month');
    expect(first).not.toContain('this hour');
    expect(await messages('/entries/popular.json?page=2')).toEqual(['quiet 17', 'quiet 18', 'quiet 19', 'quiet 20', 'quiet 21']);
    expect(await rest('/entries/popular.json?page=3')).toEqual({ status: 200, body: { entries: [] } });
    // without the extension, and anonymously, the same
    const anonymous = await api.fetch('/entries/popular');
    expect(anonymous.status).toBe(200);
    expect(((await anonymous.json()) as { entries: Array<{ message: string }> }).entries.map((e) => e.message)).toEqual(first);
  });

  it('keeps every page as it was while likes and comments arrive, so paging neither repeats nor skips', async () => {
    const pages = [await messages('/entries/popular.json'), await messages('/entries/popular.json?page=2')];
    // a quiet entry of the second page gets five likes and a comment now: it rises from the next moment on
    const rising = ids['quiet 19']!;
    for (const fanToken of fanTokens) {
      const liked = await api.fetch(`/entries/${rising}/likes.json`, { method: 'POST', headers: { authorization: `Bearer ${fanToken}` } });
      expect(liked.status).toBe(201);
    }
    expect(await messages('/entries/popular.json')).toEqual(pages[0]);
    expect(await messages('/entries/popular.json?page=2')).toEqual(pages[1]);
    // pinned to now with `until`, the likes count: it leads
    const now = Math.floor(Date.now() / 1000) + 1;
    expect((await messages(`/entries/popular.json?until=${now}`))[0]).toBe('quiet 19');
    expect(await messages(`/entries/popular.json?until=${now}`)).toContain('this hour');
  });

  it('ranks a moment once: further pages read only their entries', async () => {
    const until = Math.floor(moment / 1000) - 5;
    const statements = async (path: string) => {
      const before = db.queryCount();
      expect((await rest(path)).status).toBe(200);
      return db.queryCount() - before;
    };
    // the token's look-up, the ranking, the page's entries
    expect(await statements(`/entries/popular.json?until=${until}`)).toBe(3);
    expect(await statements(`/entries/popular.json?until=${until}&page=2`)).toBe(2);
    expect(await statements(`/entries/popular.json?until=${until}`)).toBe(2);
    // past the end: no page to read
    expect(await statements(`/entries/popular.json?until=${until}&page=9`)).toBe(1);
  });

  it('keeps only entries after `since`, and refuses bad parameters by name', async () => {
    const since = Math.floor((moment - 30 * MINUTE) / 1000);
    expect(await messages(`/entries/popular.json?since=${since}`)).toEqual([...Array.from({ length: 20 }, (_, i) => `quiet ${i}`)]);
    const bad = await api.fetch('/entries/popular.json?page=0');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: { fields: [{ field: 'page' }] } });
  });

  it('pages with GraphQL cursors that keep their moment', async () => {
    const query =
      'query ($after: String) { popularStream(first: 3, after: $after) { ... on EntryConnection { edges { cursor node { message } } pageInfo { hasNextPage endCursor } } } }';
    type Result = { popularStream: { edges: Array<{ node: { message: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string } } };
    const first = (await api.graphql<Result>(query, {}, token)).data!.popularStream;
    expect(first.edges.map((e) => e.node.message)).toEqual(['four', 'two by comments', 'two by likes']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await api.graphql<Result>(query, { after: first.pageInfo.endCursor }, token)).data!.popularStream;
    expect(second.edges.map((e) => e.node.message)).toEqual(['quiet 0', 'quiet 1', 'quiet 2']);
    const refused = await api.graphql<{ popularStream: null }>('{ popularStream(last: 2, after: "nonsense") { edges { cursor } } }');
    expect(refused.data!.popularStream).toBeNull();
    const refusal = refused.errors![0]!.extensions as { type: string; issues: Array<{ path: string }> };
    expect(refusal.type).toBe('ValidationError');
    expect(refusal.issues.map((issue) => issue.path).sort()).toEqual(['after', 'last']);
  });
});
