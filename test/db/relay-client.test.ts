// Relay as a frontend team uses it: relay-compiler compiles examples/relay/operations.ts against the
// committed schema (fragments paged with @connection, the public stream among them; fragments
// @refetchable through `node(id:)`; a subscription), and relay-runtime runs the compiled operations
// against the server (the subscription over server-sent events) and normalizes the answers into its
// store, by global id.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  ConnectionHandler,
  commitMutation,
  Environment,
  fetchQuery,
  Network,
  Observable,
  RecordSource,
  ROOT_ID,
  requestSubscription,
  Store,
} from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AddCommentMutation from '../../examples/relay/__generated__/operationsAddCommentMutation.graphql.ts';
import CommentsSubscription from '../../examples/relay/__generated__/operationsCommentsSubscription.graphql.ts';
import DeleteEntryMutation from '../../examples/relay/__generated__/operationsDeleteEntryMutation.graphql.ts';
import EntryQuery from '../../examples/relay/__generated__/operationsEntryQuery.graphql.ts';
import EntryRefetchQuery from '../../examples/relay/__generated__/operationsEntryRefetchQuery.graphql.ts';
import FeedCommentsPaginationQuery from '../../examples/relay/__generated__/operationsFeedCommentsPaginationQuery.graphql.ts';
import FeedPaginationQuery from '../../examples/relay/__generated__/operationsFeedPaginationQuery.graphql.ts';
import FeedQuery from '../../examples/relay/__generated__/operationsFeedQuery.graphql.ts';
import FriendsPaginationQuery from '../../examples/relay/__generated__/operationsFriendsPaginationQuery.graphql.ts';
import PersonQuery from '../../examples/relay/__generated__/operationsPersonQuery.graphql.ts';
import PostMutation from '../../examples/relay/__generated__/operationsPostMutation.graphql.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

const examples = fileURLToPath(new URL('../../examples/relay/', import.meta.url));
const compiler = fileURLToPath(new URL('../../node_modules/.bin/relay-compiler', import.meta.url));
let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let entryId = 0;
let ritaToken = '';

beforeAll(async () => {
  db = await createTestDatabase('relay');
  api = testApp(db);
  const rita = await createPerson(db.prisma, { username: 'rita', displayName: 'Rita' });
  for (const name of ['ann', 'bo', 'cy']) await makeFriends(db.prisma, rita.id, (await createPerson(db.prisma, { username: name })).id);
  entryId = (await createEntry(db.prisma, rita.id, { message: 'relayed' })).id;
  ritaToken = await createToken(db.prisma, rita.id);
  // the feed: three newer entries, the newest with three comments
  for (const message of ['feed 1', 'feed 2', 'feed 3']) await createEntry(db.prisma, rita.id, { message });
  const newest = await db.prisma.entry.findFirstOrThrow({ where: { message: 'feed 3' } });
  for (const body of ['c1', 'c2', 'c3']) await db.prisma.comment.create({ data: { entryId: newest.id, authorId: rita.id, body } });
});
afterAll(() => db.destroy());

/** Server-sent events of a subscription, as relay-runtime's network layer hands them on. */
function sseSubscribe(text: string, variables: Record<string, unknown>) {
  return Observable.create<Record<string, unknown>>((sink) => {
    const controller = new AbortController();
    void (async () => {
      const response = await api.app.fetch('http://milepost.test/graphql', {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${ritaToken}` },
        body: JSON.stringify({ query: text, variables }),
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return sink.complete();
        buffered += decoder.decode(value, { stream: true });
        for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (block.startsWith('event: next') && data) sink.next(JSON.parse(data));
        }
      }
    })().catch(() => sink.complete());
    return () => controller.abort();
  });
}

function environment(token?: string) {
  const answers: Array<Record<string, unknown>> = [];
  const network = Network.create(
    async (params, variables) => {
      const response = await api.app.fetch('http://milepost.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query: params.text, variables }),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      answers.push(answer);
      return answer as never;
    },
    (params, variables) => sseSubscribe(params.text!, variables) as never,
  );
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

  it("pages the public stream with @connection (the stream is the connection), and an entry's comments too", async () => {
    const { env, answers } = environment();
    await fetchQuery(env, FeedQuery, {}).toPromise();
    type Page = { edges: Array<{ node: { id: string; message: string } }>; pageInfo: { endCursor: string; hasNextPage: boolean } };
    const first = (answers[0] as { data: { publicStream: Page } }).data.publicStream;
    expect(first.edges.map((edge) => edge.node.message)).toEqual(['feed 3', 'feed 2']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    await fetchQuery(env, FeedPaginationQuery, { count: 2, cursor: first.pageInfo.endCursor }).toPromise();
    expect(answers[1]).not.toHaveProperty('errors');
    const messages = () =>
      records(env)
        .filter((record) => record.__typename === 'Entry')
        .map((record) => record.message)
        .sort();
    expect(messages()).toEqual(['feed 1', 'feed 2', 'feed 3', 'relayed']);
    // the newest entry's comments: two, then the third through node(id:), counted the same on every page
    const newest = first.edges[0]!.node as unknown as { id: string; comments: Page & { totalCount: number } };
    expect(newest.comments.totalCount).toBe(3);
    await fetchQuery(env, FeedCommentsPaginationQuery, { id: newest.id, count: 2, cursor: newest.comments.pageInfo.endCursor }).toPromise();
    expect(answers[2]).not.toHaveProperty('errors');
    const bodies = records(env)
      .filter((record) => record.__typename === 'Comment')
      .map((record) => record.body)
      .sort();
    expect(bodies).toEqual(['c1', 'c2', 'c3']);
  });

  it('runs a subscription: a new comment reaches the store, normalized by its global id', async () => {
    const { env } = environment();
    const received: unknown[] = [];
    const subscription = requestSubscription(env, {
      subscription: CommentsSubscription,
      variables: { entryId: String(entryId) },
      onNext: (response) => received.push(response),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const posted = await api.fetch(`/entries/${entryId}/comments.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ritaToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'live through Relay' }),
    });
    expect(posted.status).toBe(201);
    for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    subscription.dispose();
    const comment = records(env).find((record) => record.__typename === 'Comment' && record.body === 'live through Relay');
    expect(comment?.__id).toMatch(/^[A-Za-z0-9_-]+={0,2}$/);
  });

  it('posts with @prependEdge and comments with @appendEdge: the payload’s edges join the connections; a refused post adds nothing', async () => {
    const { env, answers } = environment(ritaToken);
    await fetchQuery(env, FeedQuery, {}).toPromise();
    const feed = ConnectionHandler.getConnectionID(ROOT_ID, 'operations_feed_publicStream');
    const source = env.getStore().getSource();
    /** The records a connection's edges point at, in order. */
    const nodesOf = (connection: string) => {
      const edges = (source.get(connection)?.edges as { __refs: string[] } | undefined)?.__refs ?? [];
      return edges.map((edge) => source.get((source.get(edge)!.node as { __ref: string }).__ref)!);
    };
    const before = nodesOf(feed).map((node) => node.message);
    const mutate = <R>(mutation: typeof PostMutation | typeof AddCommentMutation, variables: Record<string, unknown>) =>
      new Promise<R>((resolve, reject) =>
        commitMutation(env, { mutation: mutation as never, variables, onCompleted: (response) => resolve(response as R), onError: reject }),
      );

    const refused = await mutate<{ createEntry: { entryEdge: unknown; error: { __typename: string } } }>(PostMutation, {
      input: { lat: 91, lon: 0 },
      connections: [feed],
    });
    expect(refused.createEntry).toMatchObject({ entryEdge: null, error: { __typename: 'ValidationError' } });
    expect(nodesOf(feed).map((node) => node.message)).toEqual(before);

    const posted = await mutate<{ createEntry: { clientMutationId: string; entryEdge: { node: { id: string } } } }>(PostMutation, {
      input: { message: 'posted through Relay', clientMutationId: 'relay-1' },
      connections: [feed],
    });
    expect(posted.createEntry.clientMutationId).toBe('relay-1');
    expect(nodesOf(feed).map((node) => node.message)).toEqual(['posted through Relay', ...before]);
    expect(nodesOf(feed)[0]!.__typename).toBe('Entry');

    // the newest entry of the first page holds the comments the feed fragment paged
    const newest = nodesOf(feed)[1]!;
    const comments = ConnectionHandler.getConnectionID(String(newest.__id), 'operations_feedComments_comments');
    const shown = nodesOf(comments).length;
    expect(shown).toBeGreaterThan(0);
    await mutate(AddCommentMutation, { input: { entryId: newest.__id, body: 'appended by Relay' }, connections: [comments] });
    expect(
      nodesOf(comments)
        .map((node) => node.body)
        .at(-1),
    ).toBe('appended by Relay');
    expect(nodesOf(comments)).toHaveLength(shown + 1);
    expect(source.get(String(newest.__id))?.commentCount).toBe(4);
    for (const answer of answers) expect(answer).not.toHaveProperty('errors');
  });

  it('deletes with @deleteRecord: the entry leaves the store, and no record holds its id under another type', async () => {
    const { env, answers } = environment(ritaToken);
    await fetchQuery(env, FeedQuery, {}).toPromise();
    const source = env.getStore().getSource();
    // an entry the feed put in the store
    const shown = records(env).find((record) => record.__typename === 'Entry' && typeof record.message === 'string')!;
    const id = String(shown.__id);
    const doomed = { id: Number(Buffer.from(id, 'base64').toString('utf8').split(':')[1]) };
    expect(source.get(id)?.__typename).toBe('Entry');
    const deleted = await new Promise<{ deleteEntry: { deletedEntry: { entryId: string; databaseId: number } } }>((resolve, reject) =>
      commitMutation(env, {
        mutation: DeleteEntryMutation as never,
        variables: { input: { id } },
        onCompleted: (response) => resolve(response as never),
        onError: reject,
      }),
    );
    expect(deleted.deleteEntry.deletedEntry).toEqual({ entryId: id, databaseId: doomed.id });
    expect(source.get(id)).toBeNull();
    // no record of another type under the entry's id (Relay warned of conflicting types and kept its fields)
    expect(records(env).filter((record) => record?.__id === id)).toEqual([]);
    for (const answer of answers) expect(answer).not.toHaveProperty('errors');
  });
});
