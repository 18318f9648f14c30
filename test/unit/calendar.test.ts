// A person's calendar (src/domain/calendar.ts): where periods begin in a time zone, across DST and
// year ends, and how streaks are counted.
import { describe, expect, it } from 'vitest';
import {
  calendarPeriods,
  calendarZone,
  dayStart,
  localDay,
  offsetMinutes,
  periodFirstDay,
  streaks,
  zonedInstant,
} from '../../src/domain/calendar.ts';
import { ValidationError } from '../../src/domain/errors.ts';

const at = (iso: string) => Date.parse(iso);
const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
const iso = (ms: number) => new Date(ms).toISOString();

describe('a wall-clock time of a zone (what a form’s “When” names)', () => {
  it('is the instant of that time there, in winter and in summer', () => {
    expect(iso(zonedInstant('Europe/Berlin', at('2026-01-15T08:00:00Z')))).toBe('2026-01-15T07:00:00.000Z');
    expect(iso(zonedInstant('Europe/Berlin', at('2026-06-01T08:00:00Z')))).toBe('2026-06-01T06:00:00.000Z');
    expect(iso(zonedInstant('America/New_York', at('2026-06-01T08:00:00Z')))).toBe('2026-06-01T12:00:00.000Z');
    expect(iso(zonedInstant('UTC', at('2026-06-01T08:00:00Z')))).toBe('2026-06-01T08:00:00.000Z');
  });

  it('takes a time the spring change skips at the offset before it, and a repeated one at its first', () => {
    // 02:30 does not exist in Berlin on 2026-03-29 (clocks go from 02:00 to 03:00)
    expect(iso(zonedInstant('Europe/Berlin', at('2026-03-29T02:30:00Z')))).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 2026-10-25: the first, still in summer time
    expect(iso(zonedInstant('Europe/Berlin', at('2026-10-25T02:30:00Z')))).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('offsets and days', () => {
  it('reads a zone offset on either side of a DST change', () => {
    expect(offsetMinutes('Europe/Berlin', at('2026-03-29T00:30:00Z'))).toBe(60);
    expect(offsetMinutes('Europe/Berlin', at('2026-03-29T01:30:00Z'))).toBe(120);
    expect(offsetMinutes('America/Los_Angeles', at('2026-07-01T12:00:00Z'))).toBe(-420);
    expect(offsetMinutes('Asia/Kathmandu', at('2026-07-01T12:00:00Z'))).toBe(345);
  });

  it('places an instant on the local calendar, not the UTC one', () => {
    // 23:30 on 31 December in Los Angeles is already the new year in UTC
    expect(localDay('America/Los_Angeles', at('2027-01-01T07:30:00Z'))).toBe(day('2026-12-31'));
    expect(localDay('Pacific/Auckland', at('2026-12-31T11:30:00Z'))).toBe(day('2027-01-01'));
    expect(localDay('Asia/Kathmandu', at('2026-06-30T18:20:00Z'))).toBe(day('2026-07-01'));
    expect(localDay('UTC', at('2026-06-30T23:59:59Z'))).toBe(day('2026-06-30'));
  });

  it('places instants right beside a DST change on the right day', () => {
    // New York falls back at 06:00 UTC on 1 November 2026: 04:30 UTC is 00:30 EDT, the same day
    expect(localDay('America/New_York', at('2026-11-01T04:30:00Z'))).toBe(day('2026-11-01'));
    expect(localDay('America/New_York', at('2026-11-01T03:59:00Z'))).toBe(day('2026-10-31'));
    expect(localDay('America/New_York', at('2026-11-02T04:59:00Z'))).toBe(day('2026-11-01'));
  });

  it('begins a day at its midnight, or where the clock jumps past a missing one', () => {
    expect(iso(dayStart('Europe/Berlin', day('2026-03-29')))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(dayStart('Europe/Berlin', day('2026-03-30')))).toBe('2026-03-29T22:00:00.000Z');
    // Chile springs forward at 24:00 on 5 September 2026: 6 September begins at 01:00 (-03)
    expect(iso(dayStart('America/Santiago', day('2026-09-06')))).toBe('2026-09-06T04:00:00.000Z');
  });
});

describe('calendarPeriods', () => {
  it('makes the week of a spring DST change 167 hours long, and of the autumn one 169', () => {
    const spring = calendarPeriods('Europe/Berlin', 'week', 1, at('2026-03-25T12:00:00Z'), at('2026-03-25T12:00:00Z'));
    expect(spring).toHaveLength(1);
    expect(iso(spring[0]!.start)).toBe('2026-03-22T23:00:00.000Z');
    expect((spring[0]!.end - spring[0]!.start) / 3_600_000).toBe(167);
    const autumn = calendarPeriods('Europe/Berlin', 'week', 1, at('2026-10-22T12:00:00Z'), at('2026-10-22T12:00:00Z'));
    expect((autumn[0]!.end - autumn[0]!.start) / 3_600_000).toBe(169);
  });

  it('gives every week of a year with 53 Monday weeks, and one that spans the year end', () => {
    // 2026 begins on a Thursday: its ISO year has 53 weeks, the last from 28 December to 3 January
    const weeks = calendarPeriods('UTC', 'week', 1, at('2026-01-01T00:00:00Z'), at('2026-12-31T23:59:59Z'));
    expect(weeks).toHaveLength(53);
    expect(weeks[0]!.firstDay).toEqual({ year: 2025, month: 12, day: 29 });
    expect(weeks.at(-1)!.firstDay).toEqual({ year: 2026, month: 12, day: 28 });
    expect(iso(weeks.at(-1)!.end)).toBe('2027-01-04T00:00:00.000Z');
    // consecutive, no gap and no overlap
    for (let i = 1; i < weeks.length; i++) expect(weeks[i]!.start).toBe(weeks[i - 1]!.end);
  });

  it('begins weeks on the day the person chose', () => {
    const sunday = calendarPeriods('UTC', 'week', 7, at('2026-11-25T12:00:00Z'), at('2026-11-25T12:00:00Z'));
    expect(sunday[0]!.firstDay).toEqual({ year: 2026, month: 11, day: 22 });
    expect(periodFirstDay('week', day('2026-11-22'), 7)).toBe(day('2026-11-22'));
    expect(periodFirstDay('week', day('2026-11-22'), 1)).toBe(day('2026-11-16'));
  });

  it('gives months and years in the zone', () => {
    const months = calendarPeriods('America/New_York', 'month', 1, at('2026-01-15T00:00:00Z'), at('2026-03-15T00:00:00Z'));
    expect(months.map((m) => iso(m.start))).toEqual(['2026-01-01T05:00:00.000Z', '2026-02-01T05:00:00.000Z', '2026-03-01T05:00:00.000Z']);
    expect(iso(months.at(-1)!.end)).toBe('2026-04-01T04:00:00.000Z');
    const years = calendarPeriods('Pacific/Auckland', 'year', 1, at('2026-06-01T00:00:00Z'), at('2026-06-01T00:00:00Z'));
    expect(iso(years[0]!.start)).toBe('2025-12-31T11:00:00.000Z');
  });

  it('refuses a range that is backwards or too long, naming `from`', () => {
    expect(() => calendarPeriods('UTC', 'week', 1, at('2026-02-01T00:00:00Z'), at('2026-01-01T00:00:00Z'))).toThrow(ValidationError);
    expect(() => calendarPeriods('UTC', 'week', 1, at('2000-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'))).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: 'from' })] }),
    );
  });
});

describe('streaks', () => {
  const today = day('2026-11-24');

  it('counts the current run when it reaches today or yesterday, and the longest anywhere', () => {
    const days = [today, today - 1, today - 2, today - 10, today - 11, today - 12, today - 13, today - 1];
    expect(streaks(days, today, 1)).toMatchObject({ currentDays: 3, longestDays: 4 });
    expect(streaks([today - 1, today - 2], today, 1).currentDays).toBe(2);
    expect(streaks([today - 2, today - 3], today, 1).currentDays).toBe(0);
    expect(streaks([], today, 1)).toEqual({ currentDays: 0, longestDays: 0, currentWeeks: 0, longestWeeks: 0 });
  });

  it('counts weeks on the chosen week start', () => {
    // 2026-11-24 is a Tuesday; one workout in each of the last three Monday weeks
    const days = [day('2026-11-23'), day('2026-11-18'), day('2026-11-09')];
    expect(streaks(days, today, 1)).toMatchObject({ currentWeeks: 3, longestWeeks: 3 });
    // Sunday 15 and Monday 23 November: a week apart on Sunday weeks, with an empty week between on Monday weeks
    const boundary = [day('2026-11-23'), day('2026-11-15')];
    expect(streaks(boundary, today, 1)).toMatchObject({ currentWeeks: 1, longestWeeks: 1 });
    expect(streaks(boundary, today, 7)).toMatchObject({ currentWeeks: 2, longestWeeks: 2 });
  });
});

describe('a person’s zone', () => {
  it('is theirs when Intl knows it, the IANA zone of a Rails name (as the original service’s clients send), else UTC', () => {
    expect(calendarZone('Europe/Paris')).toBe('Europe/Paris');
    expect(calendarZone('Pacific Time (US & Canada)')).toBe('America/Los_Angeles');
    expect(calendarZone('Tokyo')).toBe('Asia/Tokyo');
    for (const text of ['Somewhere nice', 'constructor', '__proto__', '', null]) expect(calendarZone(text)).toBe('UTC');
    // a workout at 23:30 on a Monday in California counts on Monday there, not on Tuesday in UTC
    expect(localDay(calendarZone('Pacific Time (US & Canada)'), at('2026-11-24T07:30:00Z'))).toBe(day('2026-11-23'));
  });
});
