// SQLite's commits are synced off the event loop (db/durable-commits.ts) and checkpointed by a thread
// of their own (db/checkpointer.ts). A client is told a write is done only once a sync of the log that
// began after the commit has finished: a power cut after the answer loses nothing.
import { writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../src/config.ts';
import { checkpointer } from '../../src/db/checkpointer.ts';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { testApp } from '../support/app.ts';
import { freshDatabaseConfig, provider } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

/** Comments in the file as another connection sees them (what a power cut would leave, once synced). */
function commentsInFile(file: string): string[] {
  const connection = new BetterSqlite3(file, { readonly: true });
  try {
    return (connection.prepare('SELECT body FROM Comment ORDER BY id').pluck().all() as string[]) ?? [];
  } finally {
    connection.close();
  }
}

async function until(condition: () => boolean) {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.skipIf(provider !== 'sqlite')('durable commits (SQLite)', () => {
  let database: Database & { config: DatabaseConfig };
  let destroy: () => Promise<void>;
  let file = '';
  /** Each sync: the comments already committed when it began, and how to finish it. */
  const syncs: Array<{ committed: string[]; finish(error?: Error): void }> = [];
  let token = '';
  let entryId = 0;
  /** Finishes every sync begun so far. */
  const release = () => {
    for (const sync of syncs.splice(0)) sync.finish();
  };

  beforeAll(async () => {
    const fresh = freshDatabaseConfig('durable');
    destroy = fresh.destroy;
    file = (fresh.config as { file: string }).file;
    // the set-up's own writes are synced at once
    const releasing = setInterval(() => release(), 1);
    const opened = await openDatabase(fresh.config, {
      syncLog: (log) => {
        expect(log).toBe(`${file}-wal`);
        return new Promise((resolve, reject) =>
          syncs.push({ committed: commentsInFile(file), finish: (error) => (error ? reject(error) : resolve()) }),
        );
      },
    });
    database = Object.assign(opened, { config: fresh.config });
    const person = await createPerson(database.prisma, { username: 'durable' });
    token = await createToken(database.prisma, person.id);
    entryId = (await createEntry(database.prisma, person.id, { message: 'synced' })).id;
    clearInterval(releasing);
    release();
  });
  afterEach(release);
  afterAll(async () => {
    await database?.close();
    await destroy?.();
  });

  const post = (body: string) =>
    testApp(database).fetch(`/entries/${entryId}/comments.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `body=${body}`,
    });

  it('answers a write only after a sync of the log that began once it was committed', async () => {
    let answered = false;
    const response = post('first').then((r) => {
      answered = true;
      return r;
    });
    // the request's earlier writes (the token's use) are synced as they come
    await until(() => {
      for (const sync of syncs.splice(0)) {
        if (sync.committed.includes('first')) return syncs.push(sync) > 0;
        sync.finish();
      }
      return false;
    });
    // committed, visible to other connections, and not yet acknowledged
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    // the write's own later statements (its events) sync too: release them as they come
    const releasing = setInterval(() => release(), 1);
    try {
      expect((await response).status).toBe(201);
    } finally {
      clearInterval(releasing);
    }
  });

  it('waits for the sync after a transaction, not inside it', async () => {
    let done = false;
    const written = database.prisma
      .$transaction(async (tx) => {
        await tx.comment.create({ data: { entryId, authorId: (await tx.person.findFirstOrThrow()).id, body: 'in a transaction' } });
        // nothing is synced before the commit
        expect(syncs).toHaveLength(0);
      })
      .then(() => (done = true));
    await until(() => syncs.length > 0);
    expect(syncs[0]!.committed).toContain('in a transaction');
    expect(done).toBe(false);
    release();
    await written;
  });

  it('syncs nothing for a read', async () => {
    await database.prisma.comment.findMany({ where: { entryId } });
    await database.read(database.prisma.$queryRaw`SELECT 1` as never).catch(() => undefined);
    expect(syncs).toHaveLength(0);
  });

  it('reports a write whose sync failed as failed, never as done', async () => {
    const response = post('unsynced');
    await until(() => syncs.length > 0);
    for (const sync of syncs.splice(0)) sync.finish(new Error('EIO: the disk failed'));
    const answer = await response;
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(await answer.json()).toHaveProperty('error');
  });

  it('checkpoints the log on its own thread, not on the connection that commits', async () => {
    const releasing = setInterval(() => release(), 1);
    try {
      const [setting] = await database.prisma.$queryRawUnsafe<Array<{ wal_autocheckpoint: bigint }>>('PRAGMA wal_autocheckpoint');
      expect(Number(setting!.wal_autocheckpoint)).toBe(0);
      for (let i = 0; i < 20; i++) expect((await post(`more-${i}`)).status).toBe(201);
    } finally {
      clearInterval(releasing);
    }
    const result = await database.checkpoint();
    expect(result!.log).toBeGreaterThan(0);
    expect(result!.checkpointed).toBe(result!.log);
  });
});

describe.skipIf(provider !== 'sqlite')('the checkpoint thread', () => {
  it('says so when it cannot work, so that the connection checkpoints again', async () => {
    const { config, destroy } = freshDatabaseConfig('checkpoint');
    const file = (config as { file: string }).file;
    writeFileSync(file, 'not a database, just text that is long enough to be read as a header of some sort');
    const reasons: string[] = [];
    const checkpoints = checkpointer(file, { onStopped: (reason) => reasons.push(reason) });
    expect(await checkpoints.checkpoint()).toBeNull();
    expect(reasons).toEqual(['the checkpoint thread failed: file is not a database']);
    // it does not try again with every commit
    checkpoints.written();
    expect(await checkpoints.checkpoint()).toBeNull();
    expect(reasons).toHaveLength(1);
    await checkpoints.close();
    await destroy();
  });

  it('starts once commits wait for it, stops when too few came in a while, and starts again', async () => {
    const { config, destroy } = freshDatabaseConfig('checkpoint');
    const file = (config as { file: string }).file;
    const writer = new BetterSqlite3(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (x TEXT)');
    const reasons: string[] = [];
    const checkpoints = checkpointer(file, { windowMs: 50, startAfter: 3, onStopped: (reason) => reasons.push(reason) });
    for (const round of [1, 2]) {
      for (let i = 1; i <= 3; i++) {
        writer.prepare('INSERT INTO t VALUES (?)').run(`round ${round}`);
        checkpoints.written();
        // two commits do not start it; the third does
        expect(checkpoints.running).toBe(i === 3);
      }
      const result = await checkpoints.checkpoint();
      expect(result!.log).toBeGreaterThan(0);
      expect(result!.checkpointed).toBe(result!.log);
      // idle: the thread ends (after a last checkpoint), which is no failure
      await until(() => !checkpoints.running);
    }
    expect(reasons).toEqual([]);
    await checkpoints.close();
    writer.close();
    await destroy();
  });
});
