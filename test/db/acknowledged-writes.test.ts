// Nothing answered as done is lost. Many people's writes at once, some in transactions (a friendship is
// two rows and a request's removal), some single statements (a request, a profile edit), while another
// connection takes the write lock now and then, as a second worker or the CLI does: every write a
// client was told was done is stored. On SQLite the single statements once ran inside whichever
// transaction was open on the shared connection and were undone with it.
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, provider, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

const PEOPLE = 50;
const PAIRS = 20;
const ROUNDS = 4;

/** Another connection that holds the write lock for a few milliseconds, again and again, until stopped. */
async function otherWriter(db: TestDatabase): Promise<() => Promise<void>> {
  let running = true;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  if (provider === 'sqlite') {
    const other = new Sqlite((db.config as { file: string }).file, { timeout: 0 });
    const loop = (async () => {
      while (running) {
        try {
          other.exec('BEGIN IMMEDIATE');
          other.exec(`UPDATE "Person" SET "goal" = 'held' WHERE "username" = 'carol'`);
          await pause(15);
          other.exec('COMMIT');
        } catch {
          if (other.inTransaction) other.exec('ROLLBACK');
        }
        await pause(10);
      }
    })();
    return async () => {
      running = false;
      await loop;
      other.close();
    };
  }
  const { connectionString, schema } = db.config as { connectionString: string; schema: string };
  const other = new pg.Client({ connectionString });
  await other.connect();
  await other.query(`SET search_path TO "${schema}"`);
  const loop = (async () => {
    while (running) {
      await other.query('BEGIN');
      await other.query('LOCK TABLE "FriendRequest", "Friendship", "Person" IN EXCLUSIVE MODE');
      await pause(15);
      await other.query('COMMIT');
      await pause(10);
    }
  })();
  return async () => {
    running = false;
    await loop;
    await other.end();
  };
}

describe('writes answered as done, racing transactions and another writer', () => {
  let db: TestDatabase;
  let api: ReturnType<typeof testApp>;
  const people: Array<{ id: number; username: string; token: string }> = [];

  beforeAll(async () => {
    db = await createTestDatabase('acknowledged');
    api = testApp(db);
    await createPerson(db.prisma, { username: 'carol' });
    for (let i = 0; i < PEOPLE; i++) {
      const person = await createPerson(db.prisma, { username: `asker${i}` });
      people.push({ id: person.id, username: person.username, token: await createToken(db.prisma, person.id) });
    }
  });
  afterAll(() => db.destroy());

  const ask = async (from: (typeof people)[number], username: string) => {
    const result = await api.graphql<{ requestFriend: { error: unknown; friendship: { status: string } } }>(
      'mutation ($username: String!) { requestFriend(input: { username: $username }) { error { __typename } friendship { status } } }',
      { username },
      from.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.requestFriend.error).toBeNull();
    return result.data!.requestFriend.friendship.status;
  };
  const locate = async (from: (typeof people)[number], location: string) => {
    const result = await api.graphql<{ updateProfile: { error: unknown; person: { location: string } } }>(
      'mutation ($location: String!) { updateProfile(input: { location: $location }) { error { __typename } person { location } } }',
      { location },
      from.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.updateProfile.error).toBeNull();
    return result.data!.updateProfile.person.location;
  };

  for (let round = 1; round <= ROUNDS; round++) {
    it(`stores every request, friendship and edit it answered (round ${round} of ${ROUNDS})`, async () => {
      await db.prisma.friendRequest.deleteMany({});
      await db.prisma.friendship.deleteMany({});
      const stop = await otherWriter(db);
      const answers = await Promise.all([
        // people i and i + 25 ask each other: one transaction makes them friends
        ...people.slice(0, PAIRS).flatMap((person, i) => [ask(person, people[i + 25]!.username), ask(people[i + 25]!, person.username)]),
        // everyone asks carol: single inserts
        ...people.map((person) => ask(person, 'carol')),
        // and edits their profile: single updates
        ...people.map((person) => locate(person, `round ${round}`)),
      ]).finally(stop);
      expect(answers.filter((answer) => answer === 'REQUESTED' || answer === 'FRIENDS')).toHaveLength(PAIRS * 2 + PEOPLE);
      const carol = await db.prisma.person.findFirstOrThrow({ where: { username: 'carol' } });
      expect(await db.prisma.friendRequest.count({ where: { toId: carol.id } })).toBe(PEOPLE);
      // each pair answered one REQUESTED and one FRIENDS, or two FRIENDS: friends both ways, no request left
      const pairIds = people.slice(0, PAIRS).flatMap((person, i) => [person.id, people[i + 25]!.id]);
      expect(await db.prisma.friendship.count({ where: { personId: { in: pairIds } } })).toBe(PAIRS * 2);
      expect(await db.prisma.friendRequest.count({ where: { toId: { in: pairIds } } })).toBe(0);
      expect(await db.prisma.person.count({ where: { username: { startsWith: 'asker' }, location: `round ${round}` } })).toBe(PEOPLE);
    });
  }
});
