// Timestamps in answers: ISO 8601 in UTC with whole seconds, whatever the date, however many a page holds; and
// timestamps as the database gives them back, read as UTC.
import { describe, expect, it } from 'vitest';
import { storedDate } from '../../src/db/entry-rows.ts';
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

describe('storedDate', () => {
  /** What the database's text means: UTC, with or without an offset, with or without a fraction. */
  const meant = (text: string) => new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text.replace(' ', 'T') : `${text.replace(' ', 'T')}Z`);

  it('reads both stored forms as UTC, to the millisecond, across leap days and centuries', () => {
    // a walk of uneven steps over four centuries, each moment in SQLite's form and in PostgreSQL's
    for (let ms = Date.UTC(1800, 0, 1), step = 1; ms < Date.UTC(2200, 0, 1); ms += step * 86_399_917, step = (step % 89) + 1) {
      const iso = new Date(ms).toISOString().slice(0, 23);
      expect(storedDate(`${iso}+00:00`).getTime(), iso).toBe(ms);
      expect(storedDate(iso).getTime(), iso).toBe(ms);
    }
    expect(storedDate('2024-02-29T23:59:59.999+00:00').toISOString()).toBe('2024-02-29T23:59:59.999Z');
    expect(storedDate('2000-03-01T00:00:00.000').toISOString()).toBe('2000-03-01T00:00:00.000Z');
  });

  it('reads any other form the long way, the same as the database means it', () => {
    for (const text of [
      '2026-11-25T08:56:04',
      '2026-11-25T08:56:04.12',
      '2026-11-25 08:56:04.123',
      '2026-11-25T08:56:04.123Z',
      '2026-11-25T09:56:04.123+01:00',
      '2026-11-25T08:56:04.123+0000',
    ]) {
      expect(storedDate(text).getTime(), text).toBe(meant(text).getTime());
    }
    // a digit that is not one, or a month out of range, is never counted into a wrong date
    expect(Number.isNaN(storedDate('2026-13-25T08:56:04.123+00:00').getTime())).toBe(true);
    expect(Number.isNaN(storedDate('2026-1a-25T08:56:04.123+00:00').getTime())).toBe(true);
  });
});
