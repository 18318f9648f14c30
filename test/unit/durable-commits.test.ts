// The log's syncs (db/durable-commits.ts): a write waits for a sync that began after it committed, and
// writes that wait together share one.
import { describe, expect, it } from 'vitest';
import { logSync } from '../../src/db/durable-commits.ts';

/** A sync function whose calls finish when the test says so. */
function gatedSync() {
  const calls: Array<{ path: string; finish(error?: Error): void }> = [];
  const sync = (path: string) =>
    new Promise<void>((resolve, reject) => calls.push({ path, finish: (error) => (error ? reject(error) : resolve()) }));
  return { calls, sync };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('the log sync', () => {
  it('syncs the write-ahead log of the file', async () => {
    const { calls, sync } = gatedSync();
    const durable = logSync('/data/milepost.db', sync);
    const first = durable();
    expect(calls.map((call) => call.path)).toEqual(['/data/milepost.db-wal']);
    calls[0]!.finish();
    await first;
  });

  it('makes a write that arrives during a sync wait for the next one, shared by all such writes', async () => {
    const { calls, sync } = gatedSync();
    const durable = logSync('/data/milepost.db', sync);
    const first = durable();
    // committed while the first sync runs, which may have begun before their commits
    const second = durable();
    const third = durable();
    expect(calls).toHaveLength(1);
    calls[0]!.finish();
    await first;
    expect(await settled(second)).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    calls[1]!.finish();
    await Promise.all([second, third]);
    // nothing waits: the next write starts a sync of its own
    const fourth = durable();
    expect(calls).toHaveLength(3);
    calls[2]!.finish();
    await fourth;
  });

  it('reports a failed sync to the writes that waited for it, and tries again for the next', async () => {
    const { calls, sync } = gatedSync();
    const durable = logSync('/data/milepost.db', sync);
    const failed = durable();
    const queued = durable();
    calls[0]!.finish(new Error('EIO'));
    await expect(failed).rejects.toThrow('EIO');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    calls[1]!.finish();
    await queued;
  });
});
