// Stream pages keep each entry's document between requests (db/kept-documents.ts) and read it again
// only when the entry's revision, or the people's, moved. Triggers move them, so every write shows in
// the very next page, whoever wrote: here through the API, and straight into the database as the
// CLI, an import or another process would.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PERSON_COLUMNS } from '../../src/db/entry-rows.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createPlacedWorkout, createToken, makeFriends } from '../support/factories.ts';

const PERSON = 'username displayName location timeZone photoUrl goal units';
const PAGE = `{ publicStream(first: 5) { ... on EntryConnection { edges { node {
  id: databaseId message visibility geo { latitude longitude } commentCount likeCount
  author { ${PERSON} }
  workout { activityType duration title }
  comments { edges { node { body author { ${PERSON} } } } }
  likes { edges { node { person { ${PERSON} } } } }
} } } } }`;

interface Shown {
  id: number;
  message: string | null;
  visibility: string;
  geo: { latitude: number; longitude: number } | null;
  commentCount: number;
  likeCount: number;
  author: Record<string, unknown>;
  workout: { activityType: string; duration: number | null; title: string | null } | null;
  comments: Array<{ body: string; author: Record<string, unknown> }>;
  likes: Array<{ person: Record<string, unknown> }>;
}

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let author: { id: number; username: string };
let reader: { id: number; username: string };
let readerToken: string;
let entryId: number;

beforeAll(async () => {
  db = await createTestDatabase('kept');
  // with a token the response cache never answers; entries' JSON is not kept either (ENTRY_JSON_MB=0,
  // test/db/spliced-pages.test.ts), so that every page reads its documents: these are what is tested here
  api = testApp(db, { ENTRY_JSON_MB: '0' });
  author = await createPerson(db.prisma);
  reader = await createPerson(db.prisma);
  readerToken = await createToken(db.prisma, reader.id);
  // a token's first use records when it was used: keep that write out of the statement counts
  await api.graphql('{ me { username } }', {}, readerToken);
});
afterAll(() => db.destroy());

beforeEach(async () => {
  entryId = (await createPlacedWorkout(db.prisma, author.id)).id;
});

/** The entry of this test as the reader's next public stream page shows it (undefined: not shown). */
async function shown(token = readerToken): Promise<Shown | undefined> {
  const result = await api.graphql<{ publicStream: { edges: Array<{ node: Shown }> } }>(PAGE, {}, token);
  expect(result.errors).toBeUndefined();
  const node = result.data!.publicStream.edges.map((edge) => edge.node).find((candidate) => candidate.id === entryId);
  // the entry's comments and likes come as connections; this file compares their items
  const items = <T>(list: unknown) => (list as { edges: Array<{ node: T }> }).edges.map((edge) => edge.node);
  return node && { ...node, comments: items(node.comments), likes: items(node.likes) };
}

/**
 * Reads the page until its documents are kept (a document is kept the second time it is read), then
 * writes, then reads: the write must show.
 */
async function afterWrite(write: () => Promise<unknown>): Promise<Shown | undefined> {
  db.documents.clear();
  const count = async () => {
    const before = db.queryCount();
    await shown();
    return db.queryCount() - before;
  };
  const cold = await count();
  expect(await count()).toBe(cold);
  // the third read takes the entry's document as kept: one statement fewer
  expect(await count()).toBe(cold - 1);
  await write();
  return shown();
}

describe('a page read after a write to one of its entries', () => {
  it('shows a comment added or deleted through the API', async () => {
    const body = JSON.stringify({ body: 'Nice pace!' });
    const added = await afterWrite(async () => {
      const response = await api.fetch(`/entries/${entryId}/comments.json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${readerToken}`, 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(201);
    });
    expect(added!.comments.map((c) => c.body)).toEqual(['Nice pace!']);
    expect(added!.commentCount).toBe(1);

    const removed = await afterWrite(() => db.prisma.comment.deleteMany({ where: { entryId } }));
    expect(removed!.comments).toEqual([]);
    expect(removed!.commentCount).toBe(0);
  });

  it('shows a comment edited in the database', async () => {
    const comment = await db.prisma.comment.create({ data: { entryId, authorId: reader.id, body: 'first words' } });
    const edited = await afterWrite(() => db.prisma.comment.update({ where: { id: comment.id }, data: { body: 'second thoughts' } }));
    expect(edited!.comments.map((c) => c.body)).toEqual(['second thoughts']);
  });

  it('shows a like given and taken back', async () => {
    const liked = await afterWrite(() => db.prisma.like.create({ data: { entryId, personId: reader.id } }));
    expect(liked!.likes.map((l) => l.person.username)).toEqual([reader.username]);
    expect(liked!.likeCount).toBe(1);
    const unliked = await afterWrite(() => db.prisma.like.deleteMany({ where: { entryId } }));
    expect(unliked!.likes).toEqual([]);
  });

  it("shows the entry's own columns and its workout as changed", async () => {
    const edited = await afterWrite(() => db.prisma.entry.update({ where: { id: entryId }, data: { message: 'edited later' } }));
    expect(edited!.message).toBe('edited later');
    const workout = await afterWrite(() => db.prisma.workout.update({ where: { entryId }, data: { duration: 2400, title: 'Tempo' } }));
    expect(workout!.workout).toMatchObject({ duration: 2400, title: 'Tempo' });
    const gone = await afterWrite(() => db.prisma.workout.delete({ where: { entryId } }));
    expect(gone!.workout).toBeNull();
  });

  it('leaves out an entry made private or deleted', async () => {
    const hidden = await afterWrite(() => db.prisma.entry.update({ where: { id: entryId }, data: { visibility: 'only_me' } }));
    expect(hidden).toBeUndefined();
    await db.prisma.entry.update({ where: { id: entryId }, data: { visibility: 'everyone' } });
    const deleted = await afterWrite(() => db.prisma.entry.delete({ where: { id: entryId } }));
    expect(deleted).toBeUndefined();
  });

  it('shows each column a page carries of a person, as changed, wherever the person appears', async () => {
    await db.prisma.comment.create({ data: { entryId, authorId: author.id, body: 'my own note' } });
    await db.prisma.like.create({ data: { entryId, personId: author.id } });
    const changes: Record<string, unknown> = {
      username: `renamed${entryId}`,
      displayName: 'Renamed Runner',
      location: 'Fort Collins, CO',
      timeZone: 'America/Denver',
      photoUrl: 'https://images.example/renamed.png',
      goal: 'A sub-3 marathon',
      units: 'kilometers',
    };
    // every column but `id` that a page may carry is covered here: one added to the page needs a trigger too
    expect(Object.keys(changes).sort()).toEqual(PERSON_COLUMNS.filter((c) => c !== 'id').sort());
    for (const [column, value] of Object.entries(changes)) {
      const data =
        column === 'username' ? { username: value as string, usernameKey: (value as string).toLowerCase() } : { [column]: value };
      const page = await afterWrite(() => db.prisma.person.update({ where: { id: author.id }, data }));
      const shownAs = (person: Record<string, unknown>) => (column === 'units' ? person.units !== 'MILES' : person[column] === value);
      expect([page!.author, page!.comments[0]!.author, page!.likes[0]!.person].map(shownAs), column).toEqual([true, true, true]);
    }
  });

  it("hides the entry's place from others once its author draws a privacy zone around it", async () => {
    const zoned = await afterWrite(() =>
      db.prisma.privacyZone.create({ data: { personId: author.id, lat: 40.0, lon: -105.0, radiusMeters: 500 } }),
    );
    expect(zoned!.geo).toBeNull();
    const unzoned = await afterWrite(() => db.prisma.privacyZone.deleteMany({ where: { personId: author.id } }));
    expect(unzoned!.geo).toEqual({ latitude: 40, longitude: -105 });
  });
});

describe('documents kept for one viewer', () => {
  it('show another viewer only what that viewer may see', async () => {
    const friend = await createPerson(db.prisma);
    await makeFriends(db.prisma, author.id, friend.id);
    const friendToken = await createToken(db.prisma, friend.id);
    await db.prisma.entry.update({ where: { id: entryId }, data: { visibility: 'friends' } });
    // the friend's read keeps the document; the stranger's next read must still leave the entry out
    expect((await shown(friendToken))?.visibility).toBe('FRIENDS');
    expect(await shown(readerToken)).toBeUndefined();
    expect((await shown(friendToken))?.visibility).toBe('FRIENDS');
  });
});

describe('pages whose entries are read for the first time, one after another', () => {
  it('read their documents with their ids, in one statement, once few such pages found theirs kept', async () => {
    db.documents.clear();
    const people = [];
    for (let i = 0; i < 10; i++) {
      const person = await createPerson(db.prisma);
      await createEntry(db.prisma, person.id, { message: `the only entry of ${person.username}` });
      people.push(person);
    }
    const statements: number[] = [];
    for (const person of people) {
      const before = db.queryCount();
      const result = await api.graphql<{ personStream: { edges: Array<{ node: { message: string } }> } }>(
        `{ personStream(username: "${person.username}") { ... on EntryConnection { edges { node { message } } } } }`,
      );
      expect(result.data!.personStream.edges.map((edge) => edge.node.message)).toEqual([`the only entry of ${person.username}`]);
      statements.push(db.queryCount() - before);
    }
    // ids, then the documents not kept: a second trip on every page; then both in one
    expect(statements.slice(0, 3)).toEqual([2, 2, 2]);
    expect(statements.slice(-3)).toEqual([1, 1, 1]);
  });
});
