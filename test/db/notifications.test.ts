// Notifications: who hears of what (a comment, a reply, a like, a friend request and its acceptance, a
// mention), grouped while unread (a burst of likes is one notification), marked read, chosen by kind,
// never about what the person may not see, and live through a subscription; on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyAll } from '../../src/db/notifications.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, provider, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens: Record<string, string> = {};

type Note = {
  kind: string;
  read: boolean;
  othersCount: number;
  text: string;
  actor: { username: string };
  entry: { databaseId: number } | null;
};
// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions say what they hold
const gql = async (who: string | null, query: string): Promise<any> => api.graphql(query, {}, who ? tokens[who] : undefined);
const inbox = async (who: string, args = '') =>
  (
    await gql(
      who,
      `{ unreadNotificationCount notifications${args} { totalCount edges { node { id kind read othersCount text actor { username } entry { databaseId } } } } }`,
    )
  ).data as { unreadNotificationCount: number; notifications: { totalCount: number; edges: Array<{ node: Note & { id: string } }> } };

async function post(who: string, input: string): Promise<number> {
  return (await gql(who, `mutation { createEntry(input: { ${input} }) { entry { databaseId } } }`)).data.createEntry.entry.databaseId;
}
const comment = (who: string, entryId: number, body: string) =>
  gql(who, `mutation { createComment(input: { entryId: ${entryId}, body: "${body}" }) { error { __typename } } }`);
const like = (who: string, entryId: number) => gql(who, `mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`);
/**
 * A comment's statements (see 'cost a comment the same few statements'): the token, the entry, who hears
 * of it (one read), then the write: on SQLite the comment, its outbox event and the notifications, and the
 * COMMIT; on PostgreSQL one statement that commits on its own.
 */
const FEWEST = provider === 'postgresql' ? 4 : 7;
const readAll = (who: string) => gql(who, 'mutation { markNotificationsRead(input: { all: true }) { unreadCount } }');

beforeAll(async () => {
  db = await createTestDatabase('notifications');
  api = testApp(db, { RESPONSE_CACHE_MB: '0' });
  for (const name of ['ann', 'ben', 'cat', 'dov', 'eve'])
    tokens[name] = await createToken(db.prisma, (await createPerson(db.prisma, { username: name, displayName: name.toUpperCase() })).id);
  const [ann, ben] = await Promise.all(['ann', 'ben'].map((u) => db.prisma.person.findFirstOrThrow({ where: { usernameKey: u } })));
  await makeFriends(db.prisma, ann!.id, ben!.id);
});
afterAll(() => db.destroy());

describe('notifications', () => {
  it('tell an author of comments (grouped while unread) and earlier commenters of replies; never of one’s own', async () => {
    const entry = await post('ann', 'message: "Long run", visibility: EVERYONE');
    await comment('ann', entry, 'My own words');
    expect((await inbox('ann')).unreadNotificationCount).toBe(0);
    await comment('ben', entry, 'Nice');
    await comment('cat', entry, 'Great');
    const ann = await inbox('ann');
    expect(ann.unreadNotificationCount).toBe(1);
    expect(ann.notifications.edges.map((e) => e.node)).toMatchObject([
      {
        kind: 'COMMENT',
        othersCount: 1,
        text: 'CAT and 1 other commented on your entry',
        actor: { username: 'cat' },
        entry: { databaseId: entry },
      },
    ]);
    // Ben commented before Cat: he hears of her reply
    expect((await inbox('ben')).notifications.edges.map((e) => e.node)).toMatchObject([{ kind: 'REPLY', actor: { username: 'cat' } }]);
    expect((await readAll('ann')).data.markNotificationsRead.unreadCount).toBe(0);
    expect((await readAll('ben')).data.markNotificationsRead.unreadCount).toBe(0);
  });

  it('make a burst of likes one notification, and a like after it was read a new one', async () => {
    const entry = await post('ann', 'message: "Popular", visibility: EVERYONE');
    const likers = [];
    for (let i = 0; i < 40; i++) {
      const person = await createPerson(db.prisma, { username: `fan${i}` });
      likers.push(await createToken(db.prisma, person.id));
    }
    for (const token of likers)
      await api.graphql(`mutation { likeEntry(input: { entryId: ${entry} }) { error { __typename } } }`, {}, token);
    expect(await db.prisma.notification.count({ where: { entryId: entry } })).toBe(1);
    const [note] = (await inbox('ann', '(unread: true)')).notifications.edges;
    expect(note!.node).toMatchObject({ kind: 'LIKE', othersCount: 39, text: 'Athlete fan39 and 39 others liked your entry' });
    await gql('ann', `mutation { markNotificationsRead(input: { ids: ["${note!.node.id}"] }) { unreadCount } }`);
    await like('dov', entry);
    expect(await db.prisma.notification.count({ where: { entryId: entry } })).toBe(2);
    expect((await inbox('ann', '(unread: true)')).notifications.edges.map((e) => e.node.othersCount)).toEqual([0]);
    await readAll('ann');
  });

  // two acts whose transactions overlap: the second's insert meets the first's unread row and waits for its
  // commit, then adds to it (a read of the unread rows before the insert saw none, and wrote a second row).
  // SQLite has one writer at a time, so only PostgreSQL can overlap them.
  it.skipIf(provider === 'sqlite')('make acts whose transactions overlap one notification, not one each', async () => {
    const entry = await post('ann', 'message: "Rush hour", visibility: EVERYONE');
    const ann = await db.prisma.person.findFirstOrThrow({ where: { usernameKey: 'ann' } });
    const [first, second] = await Promise.all([createPerson(db.prisma), createPerson(db.prisma)]);
    const like = (actorId: number) => ({ personId: ann.id, kind: 'like' as const, actorId, entryId: entry });
    let secondStarted!: () => void;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));
    await Promise.all([
      db.prisma.$transaction(async (tx) => {
        await notifyAll(tx, [like(first!.id)]);
        await started;
        // the second is inside its transaction now, reading or waiting; this one commits after a moment
        await new Promise((resolve) => setTimeout(resolve, 200));
      }),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await db.prisma.$transaction(async (tx) => {
          secondStarted();
          await notifyAll(tx, [like(second!.id)]);
        });
      })(),
    ]);
    const rows = await db.prisma.notification.findMany({ where: { entryId: entry }, select: { actorCount: true, actorId: true } });
    expect(rows).toEqual([{ actorCount: 2, actorId: second!.id }]);
    await readAll('ann');
  });

  it('cost a comment the same few statements however many earlier commenters hear of it', async () => {
    const entry = await post('ann', 'message: "Busy thread", visibility: EVERYONE');
    const statementsOfComment = async (who: string) => {
      let statements = 0;
      const stop = db.onQuery(() => {
        statements += 1;
      });
      await comment(who, entry, 'One more');
      stop();
      return statements;
    };
    await comment('ben', entry, 'First');
    const fewCommenters = await statementsOfComment('cat');
    for (let i = 0; i < 12; i++)
      await api.graphql(
        `mutation { createComment(input: { entryId: ${entry}, body: "Me too" }) { error { __typename } } }`,
        {},
        await createToken(db.prisma, (await createPerson(db.prisma)).id),
      );
    // 14 earlier commenters now hear of Dov's comment, in the statements that told 2 of Cat's (FEWEST)
    expect(await statementsOfComment('dov')).toBe(fewCommenters);
    expect(fewCommenters).toBeLessThanOrEqual(FEWEST);
    expect(await db.prisma.notification.count({ where: { entryId: entry, kind: 'reply' } })).toBe(14);
    await Promise.all(['ann', 'ben', 'cat', 'dov'].map(readAll));
  });

  it('answer the new comment as written, with no statement more than an answer without it', async () => {
    const entry = await post('ann', 'message: "Answered", visibility: EVERYONE');
    await comment('ben', entry, 'First');
    const answered = async (selection: string) => {
      let statements = 0;
      const stop = db.onQuery(() => {
        statements += 1;
      });
      const result = await gql('cat', `mutation { createComment(input: { entryId: ${entry}, body: "Seen" }) { ${selection} } }`);
      stop();
      return { statements, result: result.data.createComment };
    };
    // a token's first use records it (then at most hourly): not a statement of the comments compared
    await answered('error { __typename }');
    const bare = await answered('error { __typename }');
    const full = await answered('comment { databaseId body createdAt } commentEdge { cursor node { databaseId } }');
    expect(full.statements).toBe(bare.statements);
    // what a read of the entry's comments answers for it, and the edge's cursor the one they page on from
    const read = await gql('cat', `{ entry(id: ${entry}) { comments(last: 1) { edges { cursor node { databaseId body createdAt } } } } }`);
    expect(read.data.entry.comments.edges).toEqual([{ cursor: full.result.commentEdge.cursor, node: full.result.comment }]);
    expect(full.result.comment.databaseId).toBe(full.result.commentEdge.node.databaseId);
    await Promise.all(['ann', 'ben', 'cat'].map(readAll));
  });

  it('tell with a reply only the earlier commenters who may still see the entry, have no block with the commenter and want replies', async () => {
    const names = ['fay', 'gus', 'hal', 'ida', 'jon', 'kim', 'lea'];
    const people: Record<string, number> = {};
    for (const name of names) {
      people[name] = (await createPerson(db.prisma, { username: name, displayName: name.toUpperCase() })).id;
      tokens[name] = await createToken(db.prisma, people[name]!);
    }
    for (const name of names.slice(1)) await makeFriends(db.prisma, people.fay!, people[name]!);
    const entry = await post('fay', 'message: "Friends only", visibility: FRIENDS');
    for (const name of ['hal', 'ida', 'jon', 'kim', 'lea']) await comment(name, entry, 'Earlier');
    await Promise.all(names.map(readAll));
    // Hal is no longer Fay's friend, Fay blocked Ida, Jon blocked Gus, Kim turned replies off
    await db.prisma.friendship.deleteMany({
      where: {
        OR: [
          { personId: people.fay!, friendId: people.hal! },
          { personId: people.hal!, friendId: people.fay! },
        ],
      },
    });
    await db.prisma.block.create({ data: { blockerId: people.fay!, blockedId: people.ida! } });
    await db.prisma.block.create({ data: { blockerId: people.jon!, blockedId: people.gus! } });
    await gql('kim', 'mutation { setNotificationPreference(input: { kind: REPLY, inApp: false }) { inApp } }');
    await comment('gus', entry, 'Late to this @lea');
    const kinds = async (name: string) => (await inbox(name, '(unread: true)')).notifications.edges.map((e) => e.node.kind);
    expect(await kinds('fay')).toEqual(['COMMENT']);
    // a reply and a mention of the same person: one notification, the reply
    expect(await kinds('lea')).toEqual(['REPLY']);
    for (const name of ['hal', 'ida', 'jon', 'kim']) expect(await kinds(name), name).toEqual([]);
  });

  it('tell a person mentioned, if they may see the entry', async () => {
    await post('ann', 'message: "Thanks @ben and @dov for the run", visibility: FRIENDS');
    // Ben is Ann's friend; Dov is not and may not see a friends-only entry
    expect((await inbox('ben', '(unread: true)')).notifications.edges.map((e) => e.node.kind)).toEqual(['MENTION']);
    expect((await inbox('dov', '(unread: true)')).notifications.edges).toEqual([]);
    const open = await post('ann', 'message: "Open to all", visibility: EVERYONE');
    await comment('ben', open, 'Come along @dov!');
    expect((await inbox('dov', '(unread: true)')).notifications.edges.map((e) => e.node)).toMatchObject([
      { kind: 'MENTION', actor: { username: 'ben' } },
    ]);
    await Promise.all(['ann', 'ben', 'dov'].map(readAll));
  });

  it('show their entry only while the person may see it', async () => {
    const entry = await post('ann', 'message: "Hello @dov", visibility: EVERYONE');
    expect((await inbox('dov', '(unread: true)')).notifications.edges.map((e) => e.node.entry)).toEqual([{ databaseId: entry }]);
    await gql('ann', `mutation { updateEntry(input: { id: ${entry}, visibility: ONLY_ME }) { error { __typename } } }`);
    expect((await inbox('dov', '(unread: true)')).notifications.edges.map((e) => e.node.entry)).toEqual([null]);
    await readAll('dov');
  });

  it('tell of a friend request and of its acceptance', async () => {
    await gql('cat', 'mutation { requestFriend(input: { username: "eve" }) { error { __typename } } }');
    expect((await inbox('eve')).notifications.edges.map((e) => e.node)).toMatchObject([
      { kind: 'FRIEND_REQUEST', actor: { username: 'cat' }, entry: null },
    ]);
    await gql('eve', 'mutation { acceptFriend(input: { username: "cat" }) { error { __typename } } }');
    expect((await inbox('cat', '(unread: true)')).notifications.edges.map((e) => e.node)).toMatchObject([
      { kind: 'FRIEND_ACCEPTED', actor: { username: 'eve' } },
    ]);
  });

  it('heed a kind turned off', async () => {
    const off = await gql('eve', 'mutation { setNotificationPreference(input: { kind: LIKE, inApp: false }) { inApp } }');
    expect(off.data.setNotificationPreference.inApp).toBe(false);
    const prefs = await gql('eve', '{ notificationPreferences { kind inApp } }');
    expect(prefs.data.notificationPreferences).toContainEqual({ kind: 'LIKE', inApp: false });
    expect(prefs.data.notificationPreferences).toHaveLength(6);
    const entry = await post('eve', 'message: "Quiet", visibility: EVERYONE');
    await like('cat', entry);
    await comment('cat', entry, 'Hi');
    expect((await inbox('eve', '(unread: true)')).notifications.edges.map((e) => e.node.kind)).toEqual(['COMMENT', 'FRIEND_REQUEST']);
  });

  it('are the viewer’s own: none without a token, nobody else’s by id', async () => {
    expect((await gql(null, '{ unreadNotificationCount }')).errors[0].extensions.type).toBe('NotAuthorizedError');
    const [mine] = (await inbox('eve')).notifications.edges;
    expect((await gql('ann', `{ node(id: "${mine!.node.id}") { id } }`)).data.node).toBeNull();
    expect((await gql('eve', `{ node(id: "${mine!.node.id}") { id } }`)).data.node).toEqual({ id: mine!.node.id });
    expect(
      (await gql('eve', 'mutation { markNotificationsRead(input: {}) { error { __typename } } }')).data.markNotificationsRead.error
        .__typename,
    ).toBe('ValidationError');
  });

  it('arrive live through the notifications subscription', async () => {
    const entry = await post('dov', 'message: "Live", visibility: EVERYONE');
    const response = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${tokens.dov}` },
      body: JSON.stringify({ query: 'subscription { notifications { kind text } }' }),
    });
    const reader = response.body!.getReader();
    const read = (async () => {
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('liked your entry')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
      return text;
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await like('eve', entry);
    expect(await read).toContain('"kind":"LIKE","text":"EVE liked your entry"');
  });
});
