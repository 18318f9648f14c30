// The in-process event bus (src/events/bus.ts): a write's event reaches its subscribers in slices, so
// the writer waits for a bounded number of them, however many there are.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createEvents, eventIdOf, FAN_OUT_SLICE, REPLAY_MAX_DELIVERED } from '../../src/events/bus.ts';

describe('fan-out', () => {
  it('reaches FAN_OUT_SLICE subscribers while the publisher runs, and every one of 2,000 soon after', async () => {
    const events = createEvents({ redisUrl: null, prefix: 'test' });
    const received: number[] = [];
    const subscriptions = Array.from({ length: 2_000 }, (_, i) => {
      const iterator = events.subscribe('entryDeleted');
      void iterator.next().then(() => received.push(i));
      return iterator;
    });
    events.publish('entryDeleted', { entryId: 1, authorId: 1, visibility: 'everyone' });
    // only the microtasks of the publishing turn: the first slice
    await Promise.resolve();
    await Promise.resolve();
    expect(received.length).toBe(FAN_OUT_SLICE);
    for (let turn = 0; turn < 2_000 / FAN_OUT_SLICE + 2; turn++) await nextTurn();
    expect(received).toHaveLength(2_000);
    expect(new Set(received).size).toBe(2_000);
    for (const subscription of subscriptions) await subscription.return?.();
    await events.close();
  });
});

describe('resuming after the last event seen', () => {
  const deleted = (entryId: number) => ({ entryId, authorId: 1, visibility: 'everyone' });

  it('gives what was missed of that topic, once and in order, then the live events', async () => {
    const events = createEvents({ redisUrl: null, prefix: 'test' });
    const first = events.subscribe('entryDeleted');
    events.publish('entryDeleted', deleted(1));
    const seen = (await first.next()).value!;
    const lastId = eventIdOf(seen)!;
    await first.return?.();
    events.publish('entryDeleted', deleted(2));
    events.publish('commentAdded', { entryId: 9, commentId: 9, authorId: 1 });
    events.publish('entryDeleted', deleted(3));
    const resumed = events.subscribe('entryDeleted', { after: lastId });
    events.publish('entryDeleted', deleted(4));
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await resumed.next()).value!.entryId);
    expect(ids).toEqual([2, 3, 4]);
    await resumed.return?.();
    await events.close();
  });

  it(`gives a client far behind the newest ${REPLAY_MAX_DELIVERED} it missed, not all of them`, async () => {
    const events = createEvents({ redisUrl: null, prefix: 'test' });
    for (let i = 1; i <= REPLAY_MAX_DELIVERED + 500; i++) events.publish('entryDeleted', deleted(i));
    const resumed = events.subscribe('entryDeleted', { after: '0-0' });
    const first = (await resumed.next()).value!;
    expect(first.entryId).toBe(501);
    await resumed.return?.();
    await events.close();
  });

  it('treats an id it did not issue as none: live events only', async () => {
    const events = createEvents({ redisUrl: null, prefix: 'test' });
    events.publish('entryDeleted', deleted(1));
    const resumed = events.subscribe('entryDeleted', { after: '99999999999999999999-0' });
    events.publish('entryDeleted', deleted(2));
    expect((await resumed.next()).value!.entryId).toBe(2);
    await resumed.return?.();
    await events.close();
  });
});
