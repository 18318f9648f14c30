// @defer and @stream (yoga's defer-stream plugin): a query answers its first part at once and the rest
// as it comes, over multipart/mixed or server-sent events; the paths built for one JSON answer (the
// compiled execution, the direct-query path, the response cache) leave such a query alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;

beforeAll(async () => {
  db = await createTestDatabase('defer');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'dee' });
  for (const name of ['river', 'hill']) await db.prisma.route.create({ data: { ownerId: author.id, name } });
  for (let i = 0; i < 3; i++) {
    const entry = await createEntry(db.prisma, author.id, { message: `entry ${i}` });
    await db.prisma.comment.create({ data: { entryId: entry.id, authorId: author.id, body: `on ${i}` } });
  }
});
afterAll(() => db.destroy());

const DEFERRED = `{ publicStream(first: 3) { ... on EntryConnection { edges { node { message ... @defer(label: "comments") { comments { edges { node { body } } } } } } } } }`;

/** The JSON parts of a multipart/mixed answer, in order. */
function parts(body: string): Array<Record<string, unknown>> {
  return body
    .split(/\r?\n--[^\r\n]*/)
    .map((part) => part.slice(part.indexOf('{')))
    .filter((part) => part.startsWith('{'))
    .map((part) => JSON.parse(part.slice(0, part.lastIndexOf('}') + 1)) as Record<string, unknown>);
}

describe('incremental delivery', () => {
  it('@defer over multipart/mixed: the page first, each entry’s comments after, then the end', async () => {
    // asked twice: the second run is the one compiled execution would have taken
    for (let run = 0; run < 2; run++) {
      const response = await api.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query: DEFERRED }),
      });
      expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
      const answered = parts(await response.text());
      expect(answered[0]).toMatchObject({ hasNext: true, data: { publicStream: { edges: [{ node: { message: 'entry 2' } }, {}, {}] } } });
      expect(JSON.stringify(answered[0])).not.toContain('comments');
      expect(JSON.stringify(answered.slice(1))).toContain('on 2');
      expect(answered.at(-1)).toMatchObject({ hasNext: false });
    }
  });

  it('@stream over server-sent events', async () => {
    const response = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: '{ person(username: "dee") { routes { edges @stream(initialCount: 0) { node { name } } } displayName } }',
      }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text).toContain('"hasNext":true');
    expect(text).toContain('"name":"river"');
    expect(text).toContain('event: complete');
  });

  it('an anonymous read with @defer is never answered from the response cache as one body', async () => {
    const ask = () =>
      api.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query: DEFERRED }),
      });
    const first = await (await ask()).text();
    await db.prisma.comment.create({
      data: { entryId: (await db.prisma.entry.findFirstOrThrow({ where: { message: 'entry 2' } })).id, authorId: 1, body: 'later' },
    });
    const second = await (await ask()).text();
    expect(first).not.toContain('later');
    expect(second).toContain('later');
  });
});
