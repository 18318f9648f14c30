// A SQLite file locked by another process (an import from the CLI, an operator's sqlite3 shell): the
// server waits for the lock on timers, so everything else goes on being served meanwhile, and the
// write lands once the lock is let go.
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitingForLocks } from '../../src/db/lock-waits.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, provider, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

describe.skipIf(provider !== 'sqlite')('another connection holding the SQLite write lock', () => {
  let db: TestDatabase;
  let api: ReturnType<typeof testApp>;
  let token = '';
  let entryId = 0;

  beforeAll(async () => {
    db = await createTestDatabase('locks');
    api = testApp(db);
    const person = await createPerson(db.prisma, { username: 'locked' });
    token = await createToken(db.prisma, person.id);
    entryId = (await createEntry(db.prisma, person.id)).id;
  });
  afterAll(() => db.destroy());

  it('a write waits for it without holding the server: health, reads and pages answer meanwhile', async () => {
    const other = new Sqlite((db.config as { file: string }).file);
    other.exec('BEGIN IMMEDIATE');
    other.exec(`UPDATE "Person" SET "location" = 'held' WHERE "username" = 'locked'`);
    let settled = false;
    const write = api
      .fetch(`/entries/${entryId}/comments.json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'behind a lock' }),
      })
      .finally(() => (settled = true));
    // a synchronous busy wait would have answered the write (with an error) before any of these
    expect((await api.fetch('/healthz')).status).toBe(200);
    expect((await api.fetch(`/entries/${entryId}.json`)).status).toBe(200);
    expect((await api.fetch('/entries.json')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    other.exec('COMMIT');
    other.close();
    const answer = await write;
    expect(answer.status).toBe(201);
    expect(await db.prisma.comment.count({ where: { entryId, body: 'behind a lock' } })).toBe(1);
    // the other connection's write stands too
    expect((await db.prisma.person.findFirstOrThrow({ where: { username: 'locked' } })).location).toBe('held');
  });

  it('a transaction that reads, then writes, while another connection commits meanwhile: it goes through', async () => {
    const other = new Sqlite((db.config as { file: string }).file);
    other.exec('BEGIN IMMEDIATE');
    other.exec(`UPDATE "Person" SET "goal" = 'from the shell' WHERE "username" = 'locked'`);
    // the other writer commits while this transaction waits: begun deferred, its read would have kept
    // a snapshot from before that commit, and its write would fail (SQLITE_BUSY_SNAPSHOT)
    setTimeout(() => {
      other.exec('COMMIT');
      other.close();
    }, 150);
    const written = await db.prisma.$transaction(async (tx) => {
      const person = await tx.person.findFirstOrThrow({ where: { username: 'locked' }, select: { id: true, goal: true } });
      await tx.person.update({ where: { id: person.id }, data: { location: `after ${person.goal}` } });
      return person.goal;
    });
    expect(written).toBe('from the shell');
    expect((await db.prisma.person.findFirstOrThrow({ where: { username: 'locked' } })).location).toBe('after from the shell');
  });
});

describe('waiting for a lock', () => {
  const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  it('tries again until the lock is free', async () => {
    let tries = 0;
    const result = await waitingForLocks(() => {
      if (++tries < 4) throw busy;
      return 'done';
    });
    expect(result).toBe('done');
    expect(tries).toBe(4);
  });

  it('gives up after its bound with the lock error, and never retries any other failure', async () => {
    let tries = 0;
    await expect(
      waitingForLocks(() => {
        tries++;
        throw busy;
      }, 30),
    ).rejects.toBe(busy);
    expect(tries).toBeGreaterThan(1);
    const other = new Error('no such table');
    let once = 0;
    await expect(
      waitingForLocks(() => {
        once++;
        throw other;
      }),
    ).rejects.toBe(other);
    expect(once).toBe(1);
  });
});
