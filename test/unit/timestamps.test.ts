// Timestamps in answers: ISO 8601 in UTC with whole seconds, whatever the date, however many a page holds.
import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../src/graphql/types/scalars.ts';

/** What every answer must carry: toISOString without its fraction, cut (never rounded). */
const expected = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('formatTimestamp', () => {
  it('gives whole seconds in UTC, cutting the milliseconds', () => {
    expect(formatTimestamp(new Date('2013-09-16T00:30:39.999Z'))).toBe('2013-09-16T00:30:39Z');
    expect(formatTimestamp(new Date('2024-02-29T23:59:59.500+00:00'))).toBe('2024-02-29T23:59:59Z');
    expect(formatTimestamp(new Date('2024-03-01T00:59:59.000+01:00'))).toBe('2024-02-29T23:59:59Z');
  });

  it('agrees with toISOString across days, before 1970, and outside four-digit years', () => {
    const edges = [
      0,
      -1,
      -999,
      -1000,
      -86_400_000,
      -86_400_001,
      Date.UTC(-5, 0, 1),
      Date.UTC(20_000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (const ms of edges) expect(formatTimestamp(new Date(ms)), String(ms)).toBe(expected(new Date(ms)));
    // a walk of uneven steps over seventy years, so that days are met again after others were kept
    for (let ms = Date.UTC(1960, 0, 1), step = 1; ms < Date.UTC(2030, 0, 1); ms += step * 3_607_001, step = (step % 97) + 1) {
      expect(formatTimestamp(new Date(ms))).toBe(expected(new Date(ms)));
    }
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
