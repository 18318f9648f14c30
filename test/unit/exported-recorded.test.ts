// What a Milepost export says its device recorded (laps, thresholds) is read as warily as a device file:
// a hostile or damaged line gives what is sound of it, or nothing, never a failure.
import { describe, expect, it } from 'vitest';
import { exportedGear, exportedRecorded } from '../../src/domain/archive.ts';

const lap = (startMs: number, endMs: number) => ({ startMs, endMs, distanceMeters: 1000, averageHeartRate: 140 });

describe('an export’s recorded laps and thresholds', () => {
  it('keeps sound laps and thresholds, with the figures it knows', () => {
    const recorded = exportedRecorded({
      laps: [lap(0, 60_000), lap(60_000, 120_000)],
      thresholds: { maxHeartRate: 190, restingHeartRate: 50, thresholdPower: 250 },
      notes: ['lap 3 left out: it overlaps lap 2'],
    });
    expect(recorded!.laps).toHaveLength(2);
    expect(recorded!.laps[0]).toMatchObject({ startMs: 0, endMs: 60_000, distanceMeters: 1000, averageHeartRate: 140, maxPower: null });
    expect(recorded!.thresholds).toEqual({ maxHeartRate: 190, restingHeartRate: 50, thresholdPower: 250 });
    expect(recorded!.notes).toEqual(['lap 3 left out: it overlaps lap 2']);
  });

  it('leaves out what contradicts itself or is not a number, and says so', () => {
    const recorded = exportedRecorded({
      laps: [lap(0, 60_000), lap(30_000, 90_000), { startMs: 'soon', endMs: 1 }, lap(200_000, 100_000), null, 7],
      thresholds: { maxHeartRate: 100, restingHeartRate: 110, thresholdPower: '300' },
      notes: [42, 'x'.repeat(1000)],
    });
    expect(recorded!.laps).toHaveLength(1);
    expect(recorded!.thresholds).toBeNull();
    expect(recorded!.notes).toEqual(
      expect.arrayContaining(['lap 2 left out: it overlaps lap 1', 'lap 3 left out: it ends before it starts', 'x'.repeat(300)]),
    );
  });

  it('is nothing when it holds nothing usable, and bounded when it holds too much', () => {
    for (const junk of [null, 'laps', [], {}, { laps: 'many' }, { laps: [], thresholds: null }]) expect(exportedRecorded(junk)).toBeNull();
    const many = exportedRecorded({ laps: Array.from({ length: 5000 }, (_, i) => lap(i * 1000, i * 1000 + 999)) });
    expect(many!.laps).toHaveLength(1000);
  });
});

describe('an export’s gear', () => {
  it('keeps each piece it can read, at most 100, retired gear the default of nothing', () => {
    const gear = exportedGear([
      { id: 3, name: ' Pegasus ', kind: 'shoes', defaultFor: ['running', 'flying'], retired: false },
      { id: 4, name: 'Old bike', kind: 'boat', defaultFor: ['cycling'], retired: true },
      { id: -1, name: 'no id' },
      { id: 5 },
      'gear',
    ]);
    expect(gear).toEqual([
      { id: 3, name: 'Pegasus', brand: null, model: null, kind: 'shoes', retired: false, defaultFor: ['running'] },
      { id: 4, name: 'Old bike', brand: null, model: null, kind: 'other', retired: true, defaultFor: [] },
    ]);
    expect(exportedGear(Array.from({ length: 500 }, (_, i) => ({ id: i + 1, name: `g${i}`, kind: 'bike' })))).toHaveLength(100);
    expect(exportedGear({ not: 'a list' })).toEqual([]);
  });
});
