// The legacy stream pages put together from each entry's JSON kept per version (cache/entry-fragments.ts).
// A page served from kept JSON must be the very page a fresh read makes: after every kind of write
// (through the API or straight into the database, as the CLI or another process would), for every
// stream, at every origin. The reference is a second app over the same database, whose first read of
// each page is a whole one.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { authorAndReader, commentedWorkout } from '../support/factories.ts';

let db: TestDatabase;
let author: { id: number; username: string };
let reader: { id: number; username: string };
let readerToken: string;
let authorToken: string;
let entryId: number;

beforeAll(async () => {
  db = await createTestDatabase('fragments');
  const people = await authorAndReader(db.prisma);
  ({ author, reader } = people);
  ({ author: authorToken, reader: readerToken } = people.tokens);
});
afterAll(() => db.destroy());

beforeEach(async () => {
  entryId = await commentedWorkout(db.prisma, author.id, reader.id);
});

/** A GET with a token (never answered by the response cache: the reader's unless told), at `origin`. */
async function read(api: ReturnType<typeof testApp>, path: string, origin = 'http://milepost.test', token = readerToken): Promise<string> {
  const response = await api.app.fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.text();
}

const PATHS = () => [
  '/entries.json',
  '/entries/friends.json',
  `/people/${author.username}/entries.json`,
  '/entries/nearby/40.0,-105.0.json',
  '/entries/popular.json',
  '/entries.json?callback=show',
];

/**
 * Reads every stream, as the author and as the reader, until its entries' JSON is kept; writes; reads
 * again: each page must be the one an app that never read it before answers, for each of them (the
 * author sees the places of their own entries that a privacy zone hides from others).
 */
async function afterWrite(write: () => Promise<unknown>): Promise<Record<string, string>> {
  const warm = testApp(db);
  for (const path of PATHS()) {
    for (const token of [authorToken, readerToken, authorToken]) await read(warm, path, undefined, token);
  }
  await write();
  const fresh = testApp(db);
  const pages: Record<string, string> = {};
  for (const path of PATHS()) {
    for (const token of [authorToken, readerToken]) {
      const page = await read(warm, path, undefined, token);
      expect(page, path).toBe(await read(fresh, path, undefined, token));
      if (token === readerToken) pages[path] = page;
    }
  }
  return pages;
}

const entryOf = (page: string) =>
  (JSON.parse(page) as { entries: Array<Record<string, unknown> & { id: number }> }).entries.find((e) => e.id === entryId);

describe('a legacy stream page after a write to one of its entries', () => {
  it('shows a comment added through the API, and one deleted in the database', async () => {
    const added = await afterWrite(async () => {
      const response = await testApp(db).fetch(`/entries/${entryId}/comments.json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${readerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'Nice pace!' }),
      });
      expect(response.status).toBe(201);
    });
    expect((entryOf(added['/entries.json']!)!.comments as Array<{ body: string }>).map((c) => c.body)).toEqual(['first!', 'Nice pace!']);
    const removed = await afterWrite(() => db.prisma.comment.deleteMany({ where: { entryId } }));
    expect(entryOf(removed['/entries/friends.json']!)!.comments).toEqual([]);
  });

  it('shows a like taken back, a message and a workout edited', async () => {
    const unliked = await afterWrite(() => db.prisma.like.deleteMany({ where: { entryId } }));
    expect(entryOf(unliked['/entries.json']!)!.likes).toEqual([]);
    const edited = await afterWrite(() => db.prisma.entry.update({ where: { id: entryId }, data: { message: 'edited later' } }));
    expect(entryOf(edited[`/people/${author.username}/entries.json`]!)!.message).toBe('edited later');
    const workout = await afterWrite(() => db.prisma.workout.update({ where: { entryId }, data: { duration: 2400 } }));
    expect(entryOf(workout['/entries.json']!)!.workout).toMatchObject({ duration: 2400 });
  });

  it('shows a person renamed wherever they appear, and a place hidden by a new privacy zone', async () => {
    const renamed = await afterWrite(() => db.prisma.person.update({ where: { id: reader.id }, data: { displayName: 'Renamed Reader' } }));
    const comment = (entryOf(renamed['/entries.json']!)!.comments as Array<{ user: { display_name: string } }>)[0]!;
    expect(comment.user.display_name).toBe('Renamed Reader');
    const zoned = await afterWrite(() =>
      db.prisma.privacyZone.create({ data: { personId: author.id, lat: 40.0, lon: -105.0, radiusMeters: 500 } }),
    );
    expect(entryOf(zoned['/entries.json']!)!.geo).toBeUndefined();
    await db.prisma.privacyZone.deleteMany({ where: { personId: author.id } });
  });

  it('leaves out an entry made private or deleted', async () => {
    const hidden = await afterWrite(() => db.prisma.entry.update({ where: { id: entryId }, data: { visibility: 'only_me' } }));
    expect(entryOf(hidden['/entries.json']!)).toBeUndefined();
    const deleted = await afterWrite(() => db.prisma.entry.delete({ where: { id: entryId } }));
    expect(entryOf(deleted['/entries/friends.json']!)).toBeUndefined();
  });
});

describe('an entry kept for one origin', () => {
  it('is shown at another origin with that origin in its URLs', async () => {
    const api = testApp(db);
    await read(api, '/entries.json');
    await read(api, '/entries.json');
    const elsewhere = entryOf(await read(api, '/entries.json', 'http://elsewhere.test'))!;
    expect(elsewhere.url).toBe(`http://elsewhere.test/entries/${entryId}`);
    expect((elsewhere.user as { url: string }).url).toBe(`http://elsewhere.test/people/${author.username}`);
    expect(entryOf(await read(api, '/entries.json'))!.url).toBe(`http://milepost.test/entries/${entryId}`);
  });
});
