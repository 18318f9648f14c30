// Fedify's store and queue in the service's database: a job whose handler fails (the database away for
// a moment, a bug) is tried again rather than lost, and dropped only after its last try; the key-value
// store lists more entries than one page reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseKvStore, DatabaseMessageQueue, MAX_JOB_ATTEMPTS } from '../../src/federation/store.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('federation-store');
});

afterAll(async () => {
  await db.destroy();
});

async function until(done: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the federation queue', () => {
  it('tries a job whose handler failed again, and runs it once it succeeds', async () => {
    const queue = new DatabaseMessageQueue(db.prisma, { pollMs: 20, retryBaseMs: 20 });
    const seen: unknown[] = [];
    const controller = new AbortController();
    const listening = queue.listen(
      async (message) => {
        seen.push(message);
        if (seen.length === 1) throw new Error('the database went away for a moment');
      },
      { signal: controller.signal },
    );
    await queue.enqueue({ milepost: 'publish', entryId: 1, authorId: 1 });
    await until(async () => seen.length === 2 && (await db.prisma.federationJob.count()) === 0);
    expect(seen).toEqual([
      { milepost: 'publish', entryId: 1, authorId: 1 },
      { milepost: 'publish', entryId: 1, authorId: 1 },
    ]);
    controller.abort();
    await listening;
  });

  it('drops a job only after its last try', async () => {
    const queue = new DatabaseMessageQueue(db.prisma, { pollMs: 20, retryBaseMs: 5 });
    let tries = 0;
    const controller = new AbortController();
    const listening = queue.listen(
      () => {
        tries += 1;
        throw new Error('always fails');
      },
      { signal: controller.signal },
    );
    await queue.enqueue({ milepost: 'accept', followerId: 1 });
    await until(async () => (await db.prisma.federationJob.count()) === 0, 20_000);
    expect(tries).toBe(MAX_JOB_ATTEMPTS);
    controller.abort();
    await listening;
  }, 30_000);
});

describe('the federation key-value store', () => {
  it('lists every entry under a prefix, past one page, and none of another prefix or expired', async () => {
    const kv = new DatabaseKvStore(db.prisma);
    await db.prisma.federationKv.createMany({
      data: Array.from({ length: 1_203 }, (_, i) => ({
        key: JSON.stringify(['circuit', `host${String(i).padStart(5, '0')}`]),
        value: JSON.stringify(i),
      })),
    });
    await kv.set(['other', 'x'], 1);
    await db.prisma.federationKv.create({
      data: { key: JSON.stringify(['circuit', 'gone']), value: '0', expiresAt: new Date(Date.now() - 1_000) },
    });
    const listed: unknown[] = [];
    for await (const entry of kv.list(['circuit'])) listed.push(entry.value);
    expect(listed).toHaveLength(1_203);
    expect(new Set(listed).size).toBe(1_203);
  });
});
