// Subscriptions over graphql-ws and server-sent events: who receives what, the protocol's close codes,
// token revocation, slow consumers, and events crossing processes through Redis.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { attachWebSocket, MAX_SUBSCRIPTIONS_PER_SOCKET } from '../../src/app/websocket.ts';
import { createLogger } from '../../src/log.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let app: App;
let server: Server;
let websocket: ReturnType<typeof attachWebSocket>;
let httpUrl = '';
let wsUrl = '';
const people: Record<string, { id: number; token: string }> = {};
const clients: Client[] = [];
/** The server's log lines (pino's JSON), to tell an error of the service from an expected end. */
const logLines: Array<{ level: number; msg: string }> = [];

beforeAll(async () => {
  db = await createTestDatabase('subs');
  const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0' });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  app = createApp(config, db, { logger: createLogger({ env: 'test', logLevel: 'info' }, sink), tokenRecheckMs: 200 });
  server = await listen(app, config);
  websocket = attachWebSocket(server, app, db, { tokenRecheckMs: 200, maxBufferedBytes: 64 * 1024 });
  const { port } = server.address() as AddressInfo;
  httpUrl = `http://127.0.0.1:${port}`;
  wsUrl = `ws://127.0.0.1:${port}/graphql`;
  for (const name of ['viewer', 'friend', 'stranger']) {
    const person = await createPerson(db.prisma, { username: name });
    people[name] = { id: person.id, token: await createToken(db.prisma, person.id) };
  }
  await makeFriends(db.prisma, people.viewer!.id, people.friend!.id);
});

afterAll(async () => {
  for (const client of clients) await client.dispose();
  await websocket.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
  await db.destroy();
});

function client(token?: string): Client {
  const c = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: token ? { oauth_token: token } : {},
    lazy: true,
    retryAttempts: 0,
  });
  clients.push(c);
  return c;
}

/** Subscribes and collects what arrives. */
function collect<T>(c: Client, query: string, variables: Record<string, unknown> = {}) {
  const received: T[] = [];
  const errors: unknown[] = [];
  const state = { completed: false };
  const dispose = c.subscribe<T>(
    { query, variables },
    {
      next: (v) => (v.data ? received.push(v.data as T) : errors.push(v.errors)),
      error: (e) => errors.push(e),
      complete: () => {
        state.completed = true;
      },
    },
  );
  return { received, errors, dispose, completed: () => state.completed };
}

const settle = (ms = 250) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, however slow the machine (a generous bound only ends a test that would fail). */
async function until(done: () => boolean, boundMs = 15_000) {
  for (const deadline = Date.now() + boundMs; !done() && Date.now() < deadline; ) await settle(20);
}

async function graphql(token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${httpUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data: Record<string, Record<string, unknown>> };
}

const post = async (who: string, message: string, extra: Record<string, unknown> = {}) =>
  (
    (
      await graphql(
        people[who]!.token,
        'mutation ($input: CreateEntryInput!) { createEntry(input: $input) { entry { id: databaseId } } }',
        {
          input: { message, ...extra },
        },
      )
    ).data.createEntry!.entry as { id: number }
  ).id;

describe('over graphql-ws', () => {
  it('each stream carries exactly what its query would show', async () => {
    const everyone = collect<{ publicEntries: { message: string; author: { username: string } } }>(
      client(),
      'subscription { publicEntries { message author { username } } }',
    );
    const friends = collect<{ friendsEntries: { message: string } }>(
      client(people.viewer!.token),
      'subscription { friendsEntries { message } }',
    );
    const stranger = collect<{ personEntries: { message: string } }>(
      client(),
      'subscription { personEntries(username: "stranger") { message } }',
    );
    const oakland = collect<{ nearbyEntries: { message: string } }>(
      client(),
      'subscription { nearbyEntries(lat: 37.8044, lon: -122.2712, radius: 10) { message } }',
    );
    await settle();
    await post('viewer', 'mine', { lat: 37.81, lon: -122.27 });
    await post('friend', 'my friend’s');
    await post('stranger', 'a stranger’s', { lat: 40.7, lon: -74 });
    await settle(500);
    expect(everyone.received.map((r) => r.publicEntries.message)).toEqual(['mine', 'my friend’s', 'a stranger’s']);
    expect(everyone.received[0]!.publicEntries.author.username).toBe('viewer');
    expect(friends.received.map((r) => r.friendsEntries.message)).toEqual(['mine', 'my friend’s']);
    expect(stranger.received.map((r) => r.personEntries.message)).toEqual(['a stranger’s']);
    expect(oakland.received.map((r) => r.nearbyEntries.message)).toEqual(['mine']);
    for (const s of [everyone, friends, stranger, oakland]) s.dispose();
  });

  it('an entry reaches only the subscribers who may see it (its visibility), and so do its comments', async () => {
    const watchers = {
      anonymous: collect<{ publicEntries: { message: string } }>(client(), 'subscription { publicEntries { message } }'),
      stranger: collect<{ publicEntries: { message: string } }>(
        client(people.stranger!.token),
        'subscription { publicEntries { message } }',
      ),
      friend: collect<{ publicEntries: { message: string } }>(client(people.friend!.token), 'subscription { publicEntries { message } }'),
      author: collect<{ publicEntries: { message: string } }>(client(people.viewer!.token), 'subscription { publicEntries { message } }'),
    };
    const personal = collect<{ personEntries: { message: string } }>(
      client(people.stranger!.token),
      'subscription { personEntries(username: "viewer") { message } }',
    );
    await settle();
    for (const visibility of ['EVERYONE', 'FRIENDS', 'ONLY_ME']) await post('viewer', visibility.toLowerCase(), { visibility });
    await settle(500);
    const got = (name: keyof typeof watchers) => watchers[name].received.map((r) => r.publicEntries.message);
    expect(got('anonymous')).toEqual(['everyone']);
    expect(got('stranger')).toEqual(['everyone']);
    expect(got('friend')).toEqual(['everyone', 'friends']);
    expect(got('author')).toEqual(['everyone', 'friends', 'only_me']);
    expect(personal.received.map((r) => r.personEntries.message)).toEqual(['everyone']);
    for (const w of [...Object.values(watchers), personal]) w.dispose();

    // a comment subscription on an entry that turns private stops carrying its comments to others
    const entryId = await post('viewer', 'soon private');
    const comments = collect<{ entryComments: { body: string } }>(
      client(people.stranger!.token),
      `subscription { entryComments(entryId: ${entryId}) { body } }`,
    );
    await settle();
    await graphql(
      people.viewer!.token,
      `mutation { createComment(input: { entryId: ${entryId}, body: "seen" }) { error { __typename } } }`,
    );
    await settle(300);
    await graphql(
      people.viewer!.token,
      `mutation { updateEntry(input: { id: ${entryId}, visibility: ONLY_ME }) { error { __typename } } }`,
    );
    await graphql(
      people.viewer!.token,
      `mutation { createComment(input: { entryId: ${entryId}, body: "unseen" }) { error { __typename } } }`,
    );
    await settle(500);
    expect(comments.received).toEqual([{ entryComments: { body: 'seen' } }]);
    comments.dispose();
  });

  it('tells of every change to a list: a comment added, edited and removed; a like given and taken back; an entry edited', async () => {
    const entryId = await post('viewer', 'live list');
    const c = client(people.friend!.token);
    type CommentChange = { kind: string; commentId: string; comment: { body: string } | null };
    type LikeChange = { kind: string; likeId: string; like: { person: { username: string } } | null };
    const comments = collect<{ entryCommentChanges: CommentChange }>(
      c,
      `subscription { entryCommentChanges(entryId: ${entryId}) { kind commentId comment { body } } }`,
    );
    const likes = collect<{ entryLikeChanges: LikeChange }>(
      c,
      `subscription { entryLikeChanges(entryId: ${entryId}) { kind likeId like { person { username } } } }`,
    );
    const edits = collect<{ entryChanges: { message: string; workout: { duration: number } | null } }>(
      c,
      `subscription { entryChanges(entryId: ${entryId}) { message workout { duration } } }`,
    );
    await settle();
    const as = (who: string, query: string) => graphql(people[who]!.token, query);
    const created = await as('stranger', `mutation { createComment(input: { entryId: ${entryId}, body: "first" }) { comment { id } } }`);
    const commentId = (created.data as { createComment: { comment: { id: string } } }).createComment.comment.id;
    // a change is read when it is delivered: each step waits for the one before to arrive
    await until(() => comments.received.length >= 1);
    await as('stranger', `mutation { updateComment(input: { id: "${commentId}", body: "first, edited" }) { error { __typename } } }`);
    await until(() => comments.received.length >= 2);
    await as('viewer', `mutation { deleteComment(input: { id: "${commentId}" }) { error { __typename } } }`);
    await as('stranger', `mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`);
    await until(() => likes.received.length >= 1);
    await as('stranger', `mutation { unlikeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`);
    await as('viewer', `mutation { updateEntry(input: { id: ${entryId}, message: "live list, edited" }) { error { __typename } } }`);
    await until(() => comments.received.length >= 3 && likes.received.length >= 2 && edits.received.length >= 1);
    expect(
      comments.received.map(({ entryCommentChanges: change }) => [change.kind, change.commentId, change.comment?.body ?? null]),
    ).toEqual([
      ['ADDED', commentId, 'first'],
      ['EDITED', commentId, 'first, edited'],
      ['REMOVED', commentId, null],
    ]);
    expect(likes.received.map(({ entryLikeChanges: change }) => [change.kind, change.like?.person.username ?? null])).toEqual([
      ['ADDED', 'stranger'],
      ['REMOVED', null],
    ]);
    expect(likes.received[0]!.entryLikeChanges.likeId).toBe(likes.received[1]!.entryLikeChanges.likeId);
    expect(edits.received).toEqual([{ entryChanges: { message: 'live list, edited', workout: null } }]);
    for (const w of [comments, likes, edits]) w.dispose();

    // over server-sent events, resumed after the first change: the rest, removals included
    const response = await fetch(`${httpUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${people.friend!.token}` },
      body: JSON.stringify({ query: `subscription { entryCommentChanges(entryId: ${entryId}) { kind comment { body } } }` }),
    });
    const reader = response.body!.getReader();
    let text = '';
    const read = (async () => {
      for (let part = await reader.read(); !part.done; part = await reader.read()) text += new TextDecoder().decode(part.value);
    })();
    // open once its first ping (a comment line) arrived
    await until(() => text.startsWith(':'));
    const second = await as('stranger', `mutation { createComment(input: { entryId: ${entryId}, body: "second" }) { comment { id } } }`);
    const secondId = (second.data as { createComment: { comment: { id: string } } }).createComment.comment.id;
    await until(() => text.includes('second'));
    const firstEventId = /\nid: ?(\S+)/.exec(text)![1]!;
    await reader.cancel();
    await read.catch(() => undefined);
    await as('viewer', `mutation { deleteComment(input: { id: "${secondId}" }) { error { __typename } } }`);
    const resumed = await fetch(`${httpUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${people.friend!.token}`,
        'last-event-id': firstEventId,
      },
      body: JSON.stringify({ query: `subscription { entryCommentChanges(entryId: ${entryId}) { kind comment { body } } }` }),
    });
    const again = resumed.body!.getReader();
    let replayed = '';
    const readAgain = (async () => {
      for (let part = await again.read(); !part.done; part = await again.read()) replayed += new TextDecoder().decode(part.value);
    })();
    await until(() => replayed.includes('REMOVED'));
    await again.cancel();
    await readAgain.catch(() => undefined);
    expect(replayed).not.toContain('"ADDED"');
  });

  it("an event's subscribers with the same selection share one read of it, however many they are", async () => {
    const selection = 'subscription { publicEntries { id: databaseId message author { username } comments { edges { node { body } } } } }';
    // statements run while an entry is posted and delivered, leaving out token checks (the poster's, and live sockets')
    const delivered = async (subscribers: number) => {
      const streams = Array.from({ length: subscribers }, () =>
        collect<{ publicEntries: { id: number; message: string; author: { username: string } } }>(client(), selection),
      );
      const other = collect<{ publicEntries: { message: string } }>(client(), 'subscription { publicEntries { message } }');
      await settle();
      let statements = 0;
      const stop = db.onQuery((_ms, sql) => {
        // token statements in either quoting (Prisma's SQLite adapter writes `main`.`OAuthAccessToken`): the
        // poster's own token is looked up again, and its last use written, once a minute has passed
        if (!sql.includes('OAuthAccessToken')) statements += 1;
      });
      const id = await post('friend', `to ${subscribers}`);
      try {
        await until(() => [...streams, other].every((s) => s.received.length > 0));
        await settle(100);
        stop();
        for (const s of streams)
          expect(s.received).toEqual([
            { publicEntries: { id, message: `to ${subscribers}`, author: { username: 'friend' }, comments: { edges: [] } } },
          ]);
        expect(other.received).toEqual([{ publicEntries: { message: `to ${subscribers}` } }]);
        return statements;
      } finally {
        // ended either way: a subscriber left behind would hear (and be dropped from) the tests after it
        stop();
        for (const s of [...streams, other]) s.dispose();
      }
    };
    expect(await delivered(40)).toBe(await delivered(1));
  });

  it("an entry's own subscriptions are told when it is hidden from the subscriber or deleted, and complete", async () => {
    const shared = await post('friend', 'for friends', { visibility: 'FRIENDS' });
    const open = await post('friend', 'for everyone');
    const c = client(people.viewer!.token);
    const hidden = collect(c, `subscription { entryComments(entryId: ${shared}) { body } }`);
    const deleted = collect(c, `subscription { entryLikes(entryId: ${open}) { person { username } } }`);
    const unrelated = collect(c, `subscription { entryComments(entryId: ${open}) { body } }`);
    await settle();
    // the author makes it only theirs: the friend watching it may no longer see it
    await graphql(people.friend!.token, `mutation { updateEntry(input: { id: ${shared}, visibility: ONLY_ME }) { error { __typename } } }`);
    await until(() => hidden.completed());
    expect(hidden.errors).toEqual([[expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]]);
    expect(hidden.completed()).toBe(true);
    expect(unrelated.completed()).toBe(false);
    const consoleErrors = vi.spyOn(console, 'error');
    const errorsBefore = logLines.filter((line) => line.level >= 50).length;
    await graphql(people.friend!.token, `mutation { deleteEntry(input: { id: ${open} }) { error { __typename } } }`);
    await until(() => deleted.completed() && unrelated.completed());
    // an expected end, not an error of the service: nothing at error level, nothing on the console
    expect(logLines.filter((line) => line.level >= 50).slice(errorsBefore)).toEqual([]);
    expect(consoleErrors).not.toHaveBeenCalled();
    consoleErrors.mockRestore();
    expect(deleted.errors).toEqual([[expect.objectContaining({ message: expect.stringMatching(/entry .* does not exist/) })]]);
    expect(deleted.completed()).toBe(true);
    expect(unrelated.completed()).toBe(true);
    for (const s of [hidden, deleted, unrelated]) s.dispose();
  });

  it('comments, likes and deletions of an entry; friend requests to the viewer only', async () => {
    const entryId = await post('friend', 'watch me');
    const c = client(people.viewer!.token);
    const comments = collect<{ entryComments: { body: string } }>(c, `subscription { entryComments(entryId: ${entryId}) { body } }`);
    const likes = collect<{ entryLikes: { person: { username: string } } }>(
      c,
      `subscription { entryLikes(entryId: ${entryId}) { person { username } } }`,
    );
    const deletions = collect<{ entryDeleted: { id: number } }>(c, 'subscription { entryDeleted { id: databaseId } }');
    const requests = collect<{ friendRequests: { username: string } }>(c, 'subscription { friendRequests { username } }');
    await settle();
    await graphql(
      people.viewer!.token,
      `mutation { createComment(input: { entryId: ${entryId}, body: "nice" }) { error { __typename } } }`,
    );
    await graphql(people.stranger!.token, `mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`);
    await graphql(people.stranger!.token, `mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`);
    await graphql(people.stranger!.token, 'mutation { requestFriend(input: { username: "viewer" }) { error { __typename } } }');
    await graphql(people.stranger!.token, 'mutation { requestFriend(input: { username: "friend" }) { error { __typename } } }');
    await graphql(people.friend!.token, `mutation { deleteEntry(input: { id: ${entryId} }) { error { __typename } } }`);
    await settle(500);
    expect(comments.received).toEqual([{ entryComments: { body: 'nice' } }]);
    expect(likes.received).toEqual([{ entryLikes: { person: { username: 'stranger' } } }]);
    expect(requests.received).toEqual([{ friendRequests: { username: 'stranger' } }]);
    expect(deletions.received).toEqual([{ entryDeleted: { id: entryId } }]);
  });

  it('tells of a deletion only those who could see the entry', async () => {
    const hidden = await post('friend', 'only for me', { visibility: 'ONLY_ME' });
    const friendsOnly = await post('friend', 'for friends', { visibility: 'FRIENDS' });
    const open = await post('friend', 'for all');
    const anonymous = collect<{ entryDeleted: { id: number } }>(client(), 'subscription { entryDeleted { id: databaseId } }');
    const stranger = collect<{ entryDeleted: { id: number } }>(
      client(people.stranger!.token),
      'subscription { entryDeleted { id: databaseId } }',
    );
    const friend = collect<{ entryDeleted: { id: number } }>(
      client(people.viewer!.token),
      'subscription { entryDeleted { id: databaseId } }',
    );
    await settle();
    for (const id of [hidden, friendsOnly, open])
      await graphql(people.friend!.token, `mutation { deleteEntry(input: { id: ${id} }) { error { __typename } } }`);
    await settle(500);
    expect(anonymous.received).toEqual([{ entryDeleted: { id: open } }]);
    expect(stranger.received).toEqual([{ entryDeleted: { id: open } }]);
    expect(friend.received).toEqual([{ entryDeleted: { id: friendsOnly } }, { entryDeleted: { id: open } }]);
  });

  it('tells of an entry hidden from the subscriber as of one deleted, and only those who could see it', async () => {
    const friendsOnly = await post('friend', 'for friends, then for me', { visibility: 'FRIENDS' });
    const open = await post('friend', 'for all, then for friends');
    const query = 'subscription { entryDeleted { id: databaseId } }';
    const anonymous = collect<{ entryDeleted: { id: number } }>(client(), query);
    const stranger = collect<{ entryDeleted: { id: number } }>(client(people.stranger!.token), query);
    const friend = collect<{ entryDeleted: { id: number } }>(client(people.viewer!.token), query);
    await settle();
    const narrow = (id: number, visibility: string) =>
      graphql(people.friend!.token, `mutation { updateEntry(input: { id: ${id}, visibility: ${visibility} }) { error { __typename } } }`);
    await narrow(friendsOnly, 'ONLY_ME');
    await narrow(open, 'FRIENDS');
    await settle(500);
    // the friend saw both: one is now only-me; anonymous saw the open one, now friends-only; the stranger too
    expect(friend.received).toEqual([{ entryDeleted: { id: friendsOnly } }]);
    expect(anonymous.received).toEqual([{ entryDeleted: { id: open } }]);
    expect(stranger.received).toEqual([{ entryDeleted: { id: open } }]);
  });

  it('bounds the operations one socket holds, and frees a place when one completes', async () => {
    const c = client();
    const held = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET + 5 }, () =>
      collect(c, 'subscription { publicEntries { id: databaseId } }'),
    );
    await settle(500);
    const refused = held.filter((h) => JSON.stringify(h.errors).includes('TOO_MANY_SUBSCRIPTIONS'));
    expect(refused).toHaveLength(5);
    expect(JSON.stringify(refused[0]!.errors)).toMatch(/at most 32 operations at once on one connection/);
    const kept = held.filter((h) => !refused.includes(h));
    kept[0]!.dispose();
    const again = collect(c, 'subscription { publicEntries { id: databaseId } }');
    await settle(300);
    expect(again.errors).toEqual([]);
    const id = await post('viewer', 'to every held subscription');
    await settle(500);
    expect(again.received).toEqual([{ publicEntries: { id } }]);
    expect(kept.slice(1).every((h) => h.received.length === 1)).toBe(true);
    for (const h of [...kept, again]) h.dispose();
  });

  it('refuses the friends stream without a token, and an unknown token at connection (4403)', async () => {
    const anonymous = collect(client(), 'subscription { friendsEntries { message } }');
    await settle();
    expect(JSON.stringify(anonymous.errors)).toMatch(/access token/);
    const closed = await rawClose((ws) => ws.send(JSON.stringify({ type: 'connection_init', payload: { oauth_token: 'not-a-token' } })));
    expect(closed.code).toBe(4403);
  });

  it('closes a connection over the rate limit with 4429, not the 4403 of a bad token', async () => {
    const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_PER_HOUR: '2' });
    const limited = createApp(config, db, { logger: createLogger({ env: 'test', logLevel: 'fatal' }) });
    const limitedServer = await listen(limited, config);
    const limitedSocket = attachWebSocket(limitedServer, limited, db, {});
    try {
      const url = `ws://127.0.0.1:${(limitedServer.address() as AddressInfo).port}/graphql`;
      const connect = () =>
        new Promise<{ code: number | null; reason: string }>((resolve) => {
          const ws = new WebSocket(url, 'graphql-transport-ws');
          ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { oauth_token: people.viewer!.token } })));
          ws.on('message', () => {
            resolve({ code: null, reason: 'acknowledged' });
            ws.close();
          });
          ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
        });
      expect(await connect()).toEqual({ code: null, reason: 'acknowledged' });
      expect(await connect()).toEqual({ code: null, reason: 'acknowledged' });
      const refused = await connect();
      expect(refused.code).toBe(4429);
      expect(refused.reason).toMatch(/retry in \d+ s/);
    } finally {
      await limitedSocket.close();
      limitedServer.closeAllConnections();
      await new Promise((resolve) => limitedServer.close(resolve));
      await limited.close();
    }
  });

  it('ends the sockets of a revoked token', async () => {
    const person = await createPerson(db.prisma);
    const token = await createToken(db.prisma, person.id);
    const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { oauth_token: token } }));
    await new Promise((resolve) => ws.once('message', resolve));
    await db.prisma.oAuthAccessToken.updateMany({ where: { personId: person.id }, data: { revokedAt: new Date() } });
    expect(await closed).toBe(4403);
  });

  it('ends a subscription over server-sent events whose token was revoked', async () => {
    const person = await createPerson(db.prisma);
    const token = await createToken(db.prisma, person.id);
    const response = await fetch(`${httpUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'subscription { publicEntries { message } }' }),
    });
    const reader = response.body!.getReader();
    let text = '';
    const ended = (async () => {
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        text += new TextDecoder().decode(part.value);
        if (text.includes('event: complete')) return true;
      }
      return true;
    })();
    await settle();
    await post('friend', 'heard while the token works');
    await db.prisma.oAuthAccessToken.updateMany({ where: { personId: person.id }, data: { revokedAt: new Date() } });
    // the recheck (200 ms here) ends it; a stream still open after 3 s is a subscription that outlived its token
    expect(await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve(false), 3_000))])).toBe(true);
    await post('friend', 'not heard after');
    expect(text).toContain('heard while the token works');
    expect(text).not.toContain('not heard after');
    // before it completes it says why, with a code: "log in again", not "finished"
    const events = text.split('\n\n').filter((event) => event.includes('event: next'));
    const last = JSON.parse(events.at(-1)!.split('data: ')[1]!) as { errors?: Array<{ extensions: { code: string } }> };
    expect(last.errors?.[0]?.extensions.code).toBe('INVALID_TOKEN');
    expect(text.indexOf('INVALID_TOKEN')).toBeLessThan(text.indexOf('event: complete'));
  });
});

/** Opens a raw socket, runs `act`, and resolves with how the server closed it (or what it answered). */
function rawClose(
  act: (ws: WebSocket) => void,
  protocol: string | null = 'graphql-transport-ws',
): Promise<{ code: number; messages: string[] }> {
  return new Promise((resolve, reject) => {
    const ws = protocol ? new WebSocket(wsUrl, protocol) : new WebSocket(wsUrl);
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(String(data)));
    ws.on('open', () => act(ws));
    ws.on('close', (code) => resolve({ code, messages }));
    ws.on('error', reject);
    setTimeout(() => {
      ws.close();
      resolve({ code: -1, messages });
    }, 5_000);
  });
}

describe('the graphql-ws protocol', () => {
  const init = JSON.stringify({ type: 'connection_init' });
  const subscribe = (id: string) =>
    JSON.stringify({ id, type: 'subscribe', payload: { query: 'subscription { publicEntries { id: databaseId } }' } });

  it.each<[string, number, (ws: WebSocket) => void, (string | null)?]>([
    ['no graphql-transport-ws subprotocol', 4406, () => {}, null],
    ['subscribe before init', 4401, (ws) => ws.send(subscribe('1'))],
    [
      'a second init',
      4429,
      (ws) => {
        ws.send(init);
        ws.send(init);
      },
    ],
    [
      'an invalid message',
      4400,
      (ws) => {
        ws.send(init);
        ws.send('{"type":"nonsense"}');
      },
    ],
    [
      'a duplicate id',
      4409,
      (ws) => {
        ws.send(init);
        setTimeout(() => {
          ws.send(subscribe('same'));
          ws.send(subscribe('same'));
        }, 100);
      },
    ],
    ['no init within 3 s', 4408, () => {}],
  ])(
    '%s: close %i',
    async (_what, code, act, protocol) => {
      expect((await rawClose(act, protocol)).code).toBe(code);
    },
    10_000,
  );

  it.each([
    ['a syntax error', { query: 'subscription { publicEntries { ' }],
    ['a document over the token limit', { query: `subscription { publicEntries { ${'id '.repeat(5_000)}} }` }],
    ['a mutation', { query: 'mutation { likeEntry(input: { entryId: 1 }) { error { __typename } } }' }],
  ])('%s: an error for that id alone; the socket and its other subscriptions go on', async (_what, payload) => {
    const result = await rawClose((ws) => {
      ws.send(init);
      setTimeout(() => ws.send(subscribe('good')), 50);
      setTimeout(() => ws.send(JSON.stringify({ id: 'bad', type: 'subscribe', payload })), 100);
      setTimeout(() => ws.send(JSON.stringify({ type: 'ping' })), 300);
      setTimeout(() => ws.close(1000), 500);
    });
    const messages = result.messages.map((m) => JSON.parse(m) as { type: string; id?: string });
    expect(result.code).toBe(1000);
    expect(messages.find((m) => m.id === 'bad')?.type).toMatch(/^(error|next)$/);
    // still open after it: the ping is answered
    expect(messages.at(-1)?.type).toBe('pong');
  });

  it('answers ping with pong', async () => {
    const result = await rawClose((ws) => {
      ws.send(init);
      setTimeout(() => ws.send(JSON.stringify({ type: 'ping' })), 100);
      setTimeout(() => ws.close(1000), 400);
    });
    expect(result.messages.map((m) => JSON.parse(m).type)).toEqual(['connection_ack', 'pong']);
  });

  it('ends the subscription of a client that stops reading, instead of buffering for it', async () => {
    const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(init);
    await new Promise((resolve) => ws.once('message', resolve));
    ws.send(JSON.stringify({ id: 'slow', type: 'subscribe', payload: { query: 'subscription { publicEntries { message } }' } }));
    await settle();
    // stop reading: the socket's buffers fill, sends stall, and events queue up for this subscriber
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(String(data)));
    const entryId = await post('viewer', 'x'.repeat(5000));
    const before = app.events.dropped();
    for (let i = 0; i < 3000 && app.events.dropped() === before; i++) {
      app.events.publish('entryCreated', { entryId, authorId: people.viewer!.id, lat: null, lon: null, visibility: 'everyone' });
      if (i % 100 === 0) await settle(10);
    }
    expect(app.events.dropped()).toBe(before + 1);
    socket.resume();
    // the client learns why once it reads again
    for (let i = 0; i < 100 && !messages.some((m) => m.includes('fell more than')); i++) await settle(100);
    expect(messages.find((m) => JSON.parse(m).type === 'error')).toMatch(/fell more than 256 events behind/);
    ws.close();
  }, 60_000);
});

describe('over server-sent events', () => {
  it('streams the same events, authenticated by the Authorization header', async () => {
    const controller = new AbortController();
    const response = await fetch(`${httpUrl}/graphql`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${people.viewer!.token}` },
      body: JSON.stringify({ query: 'subscription { friendsEntries { message } }' }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        if (text.includes('over SSE')) break;
      }
    })();
    await settle();
    await post('stranger', 'not for the viewer');
    await post('friend', 'over SSE');
    await Promise.race([reading, settle(3000)]);
    controller.abort();
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events.map((e) => e.data?.friendsEntries?.message).filter(Boolean)).toEqual(['over SSE']);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('across processes through Redis', () => {
  const bin = fileURLToPath(new URL('../../bin/milepost.js', import.meta.url));
  function start(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
    const child = spawn(process.execPath, [bin, 'serve', '--no-seed'], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: db.config.url,
        RATE_LIMIT_PER_HOUR: '100000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        const match = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
        if (match) resolve({ child, port: Number(match[1]) });
      });
      child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
  }

  it('a mutation on one process reaches a subscriber on the other', async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `subs-${randomBytes(6).toString('hex')}` };
    const [a, b] = await Promise.all([start(env), start(env)]);
    const remote = createClient({ url: `ws://127.0.0.1:${b.port}/graphql`, webSocketImpl: WebSocket, lazy: true, retryAttempts: 0 });
    try {
      const received: string[] = [];
      remote.subscribe<{ publicEntries: { message: string } }>(
        { query: 'subscription { publicEntries { message } }' },
        { next: (v) => received.push(v.data!.publicEntries.message), error: () => {}, complete: () => {} },
      );
      await settle(500);
      await fetch(`http://127.0.0.1:${a.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${people.viewer!.token}` },
        body: JSON.stringify({ query: 'mutation { createEntry(input: { message: "from process A" }) { error { __typename } } }' }),
      });
      for (let i = 0; i < 40 && received.length === 0; i++) await settle(100);
      expect(received).toEqual(['from process A']);
    } finally {
      await remote.dispose();
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
    }
  }, 30_000);
});
