// Global object identification (Relay): every object with an identity has an opaque global `id`,
// `node`/`nodes` fetch any of them again, but only what the viewer could reach by another path, and
// every argument naming an object takes the global id or the number.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken, makeFriends } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens: Record<'author' | 'friend' | 'stranger', string> = { author: '', friend: '', stranger: '' };
const ids = { open: 0, friendsOnly: 0, onlyMe: 0, comment: 0, hiddenComment: 0, zone: 0, author: 0 };

beforeAll(async () => {
  db = await createTestDatabase('global_ids');
  api = testApp(db);
  const author = await createPerson(db.prisma, { username: 'gia' });
  const friend = await createPerson(db.prisma, { username: 'fred' });
  const stranger = await createPerson(db.prisma, { username: 'stan' });
  await makeFriends(db.prisma, author.id, friend.id);
  ids.author = author.id;
  for (const who of ['author', 'friend', 'stranger'] as const)
    tokens[who] = await createToken(db.prisma, { author, friend, stranger }[who].id);
  ids.open = (await createEntry(db.prisma, author.id, { message: 'open' })).id;
  ids.friendsOnly = (await createEntry(db.prisma, author.id, { message: 'friends', visibility: 'friends' })).id;
  ids.onlyMe = (await createEntry(db.prisma, author.id, { message: 'mine', visibility: 'only_me' })).id;
  ids.comment = (await db.prisma.comment.create({ data: { entryId: ids.open, authorId: friend.id, body: 'hi' } })).id;
  ids.hiddenComment = (await db.prisma.comment.create({ data: { entryId: ids.onlyMe, authorId: author.id, body: 'note' } })).id;
  ids.zone = (await db.prisma.privacyZone.create({ data: { personId: author.id, lat: 1, lon: 2, radiusMeters: 200 } })).id;
});
afterAll(() => db.destroy());

const node = async (id: string, token?: string) =>
  (
    await api.graphql<{ node: Record<string, unknown> | null }>(
      'query ($id: ID!) { node(id: $id) { __typename id ... on Entry { message } ... on Comment { body } ... on PrivacyZone { radiusMeters } ... on Person { username } } }',
      { id },
      token,
    )
  ).data!.node;

describe('global ids', () => {
  it('are opaque, name their type, and give the same object back through node', async () => {
    const { data } = await api.graphql<{ entry: { id: string; databaseId: number; author: { id: string } } }>(
      `{ entry(id: ${ids.open}) { id databaseId author { id } } }`,
    );
    expect(data!.entry.id).toBe(encodeGlobalID('Entry', ids.open));
    expect(data!.entry.databaseId).toBe(ids.open);
    expect(data!.entry.author.id).toBe(encodeGlobalID('Person', ids.author));
    expect(await node(data!.entry.id)).toEqual({ __typename: 'Entry', id: data!.entry.id, message: 'open' });
    expect(await node(data!.entry.author.id)).toMatchObject({ __typename: 'Person', username: 'gia' });
    // an entry and a comment with the same number are different objects
    expect(encodeGlobalID('Comment', ids.open)).not.toBe(data!.entry.id);
  });

  it('node answers only what the viewer may see: a hidden entry, its comments, another’s zone are null', async () => {
    const friendsOnly = encodeGlobalID('Entry', ids.friendsOnly);
    expect(await node(friendsOnly)).toBeNull();
    expect(await node(friendsOnly, tokens.stranger)).toBeNull();
    expect(await node(friendsOnly, tokens.friend)).toMatchObject({ message: 'friends' });
    expect(await node(encodeGlobalID('Entry', ids.onlyMe), tokens.friend)).toBeNull();
    expect(await node(encodeGlobalID('Comment', ids.hiddenComment), tokens.friend)).toBeNull();
    expect(await node(encodeGlobalID('Comment', ids.hiddenComment), tokens.author)).toMatchObject({ body: 'note' });
    expect(await node(encodeGlobalID('Comment', ids.comment))).toMatchObject({ body: 'hi' });
    expect(await node(encodeGlobalID('PrivacyZone', ids.zone), tokens.friend)).toBeNull();
    expect(await node(encodeGlobalID('PrivacyZone', ids.zone), tokens.author)).toMatchObject({ radiusMeters: 200 });
  });

  it('a malformed id, an unknown type or a missing row is null, never an error', async () => {
    for (const id of ['abc', '', '%%%', encodeGlobalID('Track', 1), encodeGlobalID('Entry', 999_999), encodeGlobalID('Entry', 'x')]) {
      const result = await api.graphql<{ node: unknown }>('query ($id: ID!) { node(id: $id) { id } }', { id });
      expect(result.errors, id).toBeUndefined();
      expect(result.data!.node, id).toBeNull();
    }
  });

  it('nodes answers in the order asked, null where hidden, and at most 100 ids', async () => {
    const { data } = await api.graphql<{ nodes: Array<{ id: string } | null> }>(
      'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      { ids: [encodeGlobalID('Entry', ids.onlyMe), encodeGlobalID('Entry', ids.open), 'nonsense'] },
      tokens.stranger,
    );
    expect(data!.nodes).toEqual([null, { id: encodeGlobalID('Entry', ids.open) }, null]);
    const tooMany = await api.graphql('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, (_, i) => encodeGlobalID('Entry', i + 1)),
    });
    expect(tooMany.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' } });
  });

  it('arguments take the global id or the number; another type’s id names nothing', async () => {
    const byGlobal = await api.graphql<{ entry: { message: string } | null }>(
      `{ entry(id: "${encodeGlobalID('Entry', ids.open)}") { message } }`,
    );
    const byNumber = await api.graphql<{ entry: { message: string } | null }>(`{ entry(id: ${ids.open}) { message } }`);
    expect(byGlobal.data!.entry).toEqual({ message: 'open' });
    expect(byNumber.data!.entry).toEqual({ message: 'open' });
    const wrongType = await api.graphql<{ entry: unknown }>(`{ entry(id: "${encodeGlobalID('Comment', ids.open)}") { message } }`);
    expect(wrongType.data!.entry).toBeNull();
    const liked = await api.graphql<{ likeEntry: { error: { __typename: string } | null } }>(
      `mutation { likeEntry(input: { entryId: "${encodeGlobalID('Entry', ids.open)}" }) { error { __typename } } }`,
      {},
      tokens.stranger,
    );
    expect(liked.data!.likeEntry.error).toBeNull();
    const refused = await api.graphql<{ createComment: { error: { __typename: string } | null } }>(
      `mutation { createComment(input: { entryId: "${encodeGlobalID('Person', ids.open)}", body: "x" }) { error { __typename } } }`,
      {},
      tokens.stranger,
    );
    expect(refused.data!.createComment.error?.__typename).toBe('NotFoundError');
  });

  it('a NotFoundError names the id the client sent, never the database number behind it', async () => {
    // a hidden entry is missing to the stranger, so each of these answers NotFound; the message must
    // name the global id the client holds (it has no other way to tell which of its ids failed)
    const hidden = encodeGlobalID('Entry', ids.onlyMe);
    const hiddenComment = encodeGlobalID('Comment', ids.hiddenComment);
    const zone = encodeGlobalID('PrivacyZone', ids.zone);
    const route = encodeGlobalID('Route', 999_999);
    const mutations = [
      `likeEntry(input: { entryId: "${hidden}" })`,
      `unlikeEntry(input: { entryId: "${hidden}" })`,
      `createComment(input: { entryId: "${hidden}", body: "x" })`,
      `updateEntry(input: { id: "${hidden}", message: "x" })`,
      `deleteEntry(input: { id: "${hidden}" })`,
      `deleteComment(input: { id: "${hiddenComment}" })`,
      `updateComment(input: { id: "${hiddenComment}", body: "x" })`,
      `reportContent(input: { entryId: "${hidden}", reason: "spam" })`,
      `removePrivacyZone(input: { id: "${zone}" })`,
      `updateRoute(input: { id: "${route}", name: "x" })`,
      `deleteRoute(input: { id: "${route}" })`,
    ];
    for (const mutation of mutations) {
      const sent = /(?:entryId|id): "([^"]+)"/.exec(mutation)![1]!;
      const name = mutation.slice(0, mutation.indexOf('('));
      const result = await api.graphql<Record<string, { error: { __typename: string; message: string } | null }>>(
        `mutation { ${mutation} { error { __typename ... on NotFoundError { message } } } }`,
        {},
        tokens.stranger,
      );
      expect(result.errors, mutation).toBeUndefined();
      expect(result.data![name]!.error, mutation).toEqual({ __typename: 'NotFoundError', message: expect.stringContaining(sent) });
      expect(result.data![name]!.error!.message, mutation).not.toMatch(
        new RegExp(`\\b(${ids.onlyMe}|${ids.hiddenComment}|${ids.zone})\\b`),
      );
    }
    // the number, when that is what the client sent, is named as sent
    const byNumber = await api.graphql<{ likeEntry: { error: { message: string } } }>(
      `mutation { likeEntry(input: { entryId: ${ids.onlyMe} }) { error { ... on NotFoundError { message } } } }`,
      {},
      tokens.stranger,
    );
    expect(byNumber.data!.likeEntry.error.message).toBe(`entry ${ids.onlyMe} does not exist`);
  });

  it('the REST paths keep their numbers', async () => {
    const entry = (await (await api.fetch(`/entries/${ids.open}.json`)).json()) as { id: unknown };
    expect(entry.id).toBe(ids.open);
  });
});
