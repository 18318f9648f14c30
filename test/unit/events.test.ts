// The in-process event bus (src/events/bus.ts): a write's event reaches its subscribers in slices, so
// the writer waits for a bounded number of them, however many there are.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createEvents, FAN_OUT_SLICE } from '../../src/events/bus.ts';

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
