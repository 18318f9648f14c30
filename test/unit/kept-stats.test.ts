// The kept stats' rules: one read however many ask at once, read again when the revision moved, never an
// answer older than the revision asked at, a failure not kept, each reader's answers apart.
import { describe, expect, it } from 'vitest';
import { KeptStats, type KeptStatsReader as StatsReader } from '../../src/db/kept-stats.ts';

const anyone: StatsReader = { entries: null, shownVersion: null };
const counting = () => {
  let reads = 0;
  return {
    read: async () => ({ workouts: ++reads }),
    get reads() {
      return reads;
    },
  };
};

describe('KeptStats', () => {
  it('reads once for everyone asking at the same revision, at the same time or later', async () => {
    const kept = new KeptStats();
    const source = counting();
    const answers = await Promise.all([1, 2, 3].map(() => kept.keep(7, 5, anyone, 'totals', source.read)));
    expect(answers).toEqual([{ workouts: 1 }, { workouts: 1 }, { workouts: 1 }]);
    expect(await kept.keep(7, 5, anyone, 'totals', source.read)).toEqual({ workouts: 1 });
    expect(source.reads).toBe(1);
    expect(Object.isFrozen(answers[0])).toBe(true);
  });

  it('reads again when the revision moved, and gives a request that read an older one the newer answer', async () => {
    const kept = new KeptStats();
    const source = counting();
    await kept.keep(7, 5, anyone, 'totals', source.read);
    expect(await kept.keep(7, 6, anyone, 'totals', source.read)).toEqual({ workouts: 2 });
    expect(await kept.keep(7, 5, anyone, 'totals', source.read)).toEqual({ workouts: 2 });
    expect(source.reads).toBe(2);
  });

  it('keeps each person, reader, version of the shown figures and question apart', async () => {
    const kept = new KeptStats();
    const source = counting();
    const readers: StatsReader[] = [
      anyone,
      { entries: { id: 7, ownPrivate: true }, shownVersion: null },
      { entries: { id: 7, ownPrivate: false }, shownVersion: null },
      { entries: { id: 8, ownPrivate: true }, shownVersion: null },
      { entries: { id: 9, ownPrivate: true }, shownVersion: 3 },
      { entries: null, shownVersion: 3 },
    ];
    for (const reader of readers) await kept.keep(7, 1, reader, 'totals', source.read);
    await kept.keep(8, 1, anyone, 'totals', source.read);
    await kept.keep(7, 1, anyone, 'streak', source.read);
    expect(source.reads).toBe(readers.length + 2);
  });

  it('keeps no failure: the next view reads again', async () => {
    const kept = new KeptStats();
    await expect(kept.keep(7, 1, anyone, 'totals', () => Promise.reject(new Error('lost connection')))).rejects.toThrow('lost');
    expect(await kept.keep(7, 1, anyone, 'totals', async () => 'read again')).toBe('read again');
  });
});
