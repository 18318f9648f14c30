// Blocking and muting: what a block takes away from the blocked person (the blocker's entries, profile,
// and every way to reach them: comments, likes, friend requests, their live entries), what it ends (a
// friendship, a request), and what muting leaves out (the muted person's entries from the muter's
// streams, nothing else). The read paths themselves are walked in visibility.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens: Record<string, string> = {};

type Result = { data?: Record<string, Record<string, unknown> & { error?: { __typename: string } | null }>; errors?: unknown[] };
const gql = (who: string, query: string) => api.graphql(query, {}, tokens[who]) as Promise<Result>;
const errorOf = async (who: string, mutation: string) =>
  Object.values((await gql(who, `mutation { ${mutation} { error { __typename } } }`)).data!)[0]!.error?.__typename ?? null;

async function post(who: string, message: string): Promise<number> {
  const result = await gql(
    who,
    `mutation { createEntry(input: { message: "${message}", visibility: EVERYONE }) { entry { databaseId } } }`,
  );
  return (result.data!.createEntry!.entry as { databaseId: number }).databaseId;
}

beforeAll(async () => {
  db = await createTestDatabase('blocks');
  api = testApp(db, { RESPONSE_CACHE_MB: '0' });
  for (const name of ['kim', 'lou', 'max', 'ned'])
    tokens[name] = await createToken(db.prisma, (await createPerson(db.prisma, { username: name })).id);
  const [kim, lou] = await Promise.all(
    ['kim', 'lou'].map((username) => db.prisma.person.findFirstOrThrow({ where: { usernameKey: username } })),
  );
  await makeFriends(db.prisma, kim!.id, lou!.id);
});
afterAll(() => db.destroy());

describe('a block', () => {
  it('ends a friendship and a waiting request, and is the first block when made twice', async () => {
    expect(await errorOf('max', 'requestFriend(input: { username: "kim" })')).toBeNull();
    expect(await errorOf('kim', 'blockPerson(input: { username: "lou" })')).toBeNull();
    expect(await errorOf('kim', 'blockPerson(input: { username: "max" })')).toBeNull();
    expect(await errorOf('kim', 'blockPerson(input: { username: "max" })')).toBeNull();
    expect(await db.prisma.friendship.count()).toBe(0);
    expect(await db.prisma.friendRequest.count()).toBe(0);
    const me = await gql('kim', '{ lou: person(username: "lou") { blockedByViewer mutedByViewer } }');
    expect(me.data!.lou).toEqual({ blockedByViewer: true, mutedByViewer: false });
    expect(await errorOf('kim', 'blockPerson(input: { username: "kim" })')).toBe('ValidationError');
  });

  it('leaves the blocked person no way to reach the blocker: profile, entries, comments, likes, requests', async () => {
    const entry = await post('kim', 'Open to all');
    // to Lou, Kim does not exist; to anyone else she does
    expect((await gql('lou', '{ person(username: "kim") { username } }')).data!.person).toBeNull();
    expect((await gql('ned', '{ person(username: "kim") { username } }')).data!.person).toEqual({ username: 'kim' });
    expect((await api.fetch('/people/kim.json', { headers: { authorization: `Bearer ${tokens.lou}` } })).status).toBe(404);
    expect((await api.fetch(`/entries/${entry}.json`, { headers: { authorization: `Bearer ${tokens.lou}` } })).status).toBe(404);
    expect(await errorOf('lou', `createComment(input: { entryId: ${entry}, body: "hey" })`)).toBe('NotFoundError');
    expect(await errorOf('lou', `likeEntry(input: { entryId: ${entry} })`)).toBe('NotFoundError');
    expect(await errorOf('lou', 'requestFriend(input: { username: "kim" })')).toBe('NotFoundError');
    // nor does the blocker reach the blocked: unblock first
    expect(await errorOf('kim', 'requestFriend(input: { username: "lou" })')).toBe('ValidationError');
    const lous = await post('lou', 'By Lou');
    expect((await gql('kim', `{ entry(id: ${lous}) { id } }`)).data!.entry).toBeNull();
    // an unblock opens the doors again (the friendship stays ended)
    expect(await errorOf('kim', 'unblockPerson(input: { username: "lou" })')).toBeNull();
    expect((await gql('lou', '{ person(username: "kim") { username } }')).data!.person).toEqual({ username: 'kim' });
    expect(await errorOf('lou', `likeEntry(input: { entryId: ${entry} })`)).toBeNull();
    expect(await db.prisma.friendship.count()).toBe(0);
  });

  it('leaves the blocked person no way round to the blocker: routes, friend lists, a comment’s author', async () => {
    const ids = Object.fromEntries(
      await Promise.all(
        ['kim', 'lou', 'ned'].map(async (name) => [name, (await db.prisma.person.findFirstOrThrow({ where: { usernameKey: name } })).id]),
      ),
    );
    const route = await db.prisma.route.create({ data: { ownerId: ids.kim!, name: 'Kim’s loop' } });
    await makeFriends(db.prisma, ids.kim!, ids.ned!);
    const neds = await post('ned', 'Ned’s run');
    const comment = await db.prisma.comment.create({ data: { entryId: neds, authorId: ids.kim!, body: 'Nice one' } });
    expect(await errorOf('kim', 'blockPerson(input: { username: "lou" })')).toBeNull();
    const asLou = { authorization: `Bearer ${tokens.lou}` };
    // her route: missing, by GraphQL, by node, and by the REST paths
    expect((await gql('lou', `{ route(id: ${route.id}) { name } }`)).data!.route).toBeNull();
    const routeNode = await api.graphql(`{ node(id: "${Buffer.from(`Route:${route.id}`).toString('base64')}") { id } }`, {}, tokens.lou);
    expect((routeNode.data as { node: unknown }).node).toBeNull();
    expect((await api.fetch(`/routes/${route.id}.json`, { headers: asLou })).status).toBe(404);
    expect((await api.fetch(`/routes/${route.id}.gpx`, { headers: asLou })).status).toBe(404);
    // nor in another person's friends
    const nedsFriends = await gql('lou', '{ person(username: "ned") { friends { totalCount edges { node { username } } } } }');
    expect(nedsFriends.data!.person).toEqual({ friends: { totalCount: 0, edges: [] } });
    const listed = (await (await api.fetch('/people/ned/friends.json', { headers: asLou })).json()) as unknown;
    expect(JSON.stringify(listed)).not.toContain('kim');
    // a comment of hers that Lou may read names her, and no more: no friends, no routes
    const byComment = await api.graphql<{ node: { author: Record<string, unknown> } }>(
      `{ node(id: "${Buffer.from(`Comment:${comment.id}`).toString('base64')}") { ... on Comment { author { friends { totalCount edges { node { username } } } routes { totalCount edges { node { name } } } } } } }`,
      {},
      tokens.lou,
    );
    expect(byComment.data!.node.author).toEqual({ friends: { totalCount: 0, edges: [] }, routes: { totalCount: 0, edges: [] } });
    // to anyone else, all of it as before
    expect((await gql('ned', `{ route(id: ${route.id}) { name } }`)).data!.route).toEqual({ name: 'Kim’s loop' });
    const asNed = await gql('ned', '{ person(username: "ned") { friends { totalCount edges { node { username } } } } }');
    expect(asNed.data!.person).toEqual({ friends: { totalCount: 1, edges: [{ node: { username: 'kim' } }] } });
    expect(await errorOf('kim', 'unblockPerson(input: { username: "lou" })')).toBeNull();
  });

  it('keeps the words of someone on either side of a block out of a notification (Notification.said)', async () => {
    for (const name of ['rae', 'quin']) tokens[name] = await createToken(db.prisma, (await createPerson(db.prisma, { username: name })).id);
    const entryId = await post('rae', 'Hill session');
    expect(await errorOf('quin', `createComment(input: { entryId: ${entryId}, body: "Said before the block" })`)).toBeNull();
    const said = async () =>
      ((await gql('rae', '{ notifications { edges { node { kind said } } } }')).data!.notifications!.edges as Array<{ node: unknown }>).map(
        (edge) => edge.node,
      );
    expect(await said()).toEqual([{ kind: 'COMMENT', said: 'Said before the block' }]);
    // the commenter blocks the author: their words are no longer quoted to her
    expect(await errorOf('quin', 'blockPerson(input: { username: "rae" })')).toBeNull();
    expect(await said()).toEqual([{ kind: 'COMMENT', said: null }]);
    // nor when the author is the one who blocked
    expect(await errorOf('quin', 'unblockPerson(input: { username: "rae" })')).toBeNull();
    expect(await errorOf('rae', 'blockPerson(input: { username: "quin" })')).toBeNull();
    expect(await said()).toEqual([{ kind: 'COMMENT', said: null }]);
  });

  it('keeps the blocker’s new entries from the blocked person’s live stream', async () => {
    expect(await errorOf('kim', 'blockPerson(input: { username: "lou" })')).toBeNull();
    const response = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${tokens.lou}` },
      body: JSON.stringify({ query: 'subscription { publicEntries { message } }' }),
    });
    const reader = response.body!.getReader();
    const seen: string[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let text = '';
      while (!seen.includes('By Ned')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (const match of text.matchAll(/"message":"([^"]*)"/g)) if (!seen.includes(match[1]!)) seen.push(match[1]!);
      }
    })();
    // the subscription is in place once the stream has begun
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post('kim', 'By Kim, live');
    await post('ned', 'By Ned');
    await reading;
    await reader.cancel();
    expect(seen).toEqual(['By Ned']);
  });
});

describe('a block made while the blocked person listens', () => {
  it('ends their subscription to the blocker’s entry, as a hidden entry ends it', async () => {
    for (const name of ['ola', 'pat']) tokens[name] = await createToken(db.prisma, (await createPerson(db.prisma, { username: name })).id);
    const entry = await post('ola', 'Watch this');
    const response = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${tokens.pat}` },
      body: JSON.stringify({ query: `subscription { entryComments(entryId: ${entry}) { body } }` }),
    });
    const text = (async () => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let all = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return all;
        all += decoder.decode(value, { stream: true });
        if (all.includes('event: complete')) {
          await reader.cancel();
          return all;
        }
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await errorOf('ola', `createComment(input: { entryId: ${entry}, body: "before" })`);
    expect(await errorOf('ola', 'blockPerson(input: { username: "pat" })')).toBeNull();
    await errorOf('ola', `createComment(input: { entryId: ${entry}, body: "after" })`);
    const events = await text;
    expect(events).toContain('"body":"before"');
    expect(events).toContain('NOT_FOUND');
    expect(events).not.toContain('"body":"after"');
  });
});

describe('muting', () => {
  it('leaves the muted person’s entries out of the muter’s streams and search, not out of their page', async () => {
    await post('ned', 'Ned’s tempo');
    expect(await errorOf('max', 'mutePerson(input: { username: "ned" })')).toBeNull();
    const read = async (query: string) => JSON.stringify((await gql('max', query)).data);
    expect(await read('{ publicStream { ... on EntryConnection { edges { node { message } } } } }')).not.toContain('Ned’s tempo');
    expect(await read('{ searchEntries(query: "tempo") { edges { node { message } } } }')).not.toContain('Ned’s tempo');
    expect(await read('{ personStream(username: "ned") { ... on EntryConnection { edges { node { message } } } } }')).toContain(
      'Ned’s tempo',
    );
    // nobody else is affected, and unmuting brings them back
    expect(JSON.stringify((await gql('kim', '{ publicStream { ... on EntryConnection { edges { node { message } } } } }')).data)).toContain(
      'Ned’s tempo',
    );
    expect(await errorOf('max', 'unmutePerson(input: { username: "ned" })')).toBeNull();
    expect(await read('{ publicStream { ... on EntryConnection { edges { node { message } } } } }')).toContain('Ned’s tempo');
  });
});
