// A person's calendar: where their days, weeks, months and years begin, as instants, in their IANA
// time zone. Stats group workouts by these instants; a DST change makes a day 23 or 25 hours long and
// a week 167 or 169, never a missing or doubled day. No I/O: Intl knows the zones.
import railsTimeZones from 'rails-timezone';
import { ValidationError } from './errors.ts';

export const STATS_PERIODS = ['week', 'month', 'year'] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** ISO weekday numbers: 1 is Monday, 7 is Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

const DAY_MS = 86_400_000;

/** Formatters by zone: building one costs more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Zones Intl does not know, remembered: trying one throws, and that cost a person page 3.5% of its CPU. */
const unknownZones = new Set<string>();
const UNKNOWN_ZONES_MAX = 10_000;

/** Whether Intl knows the zone (`Europe/Paris`, `UTC`); a person's stored zone may be free text. */
export function isTimeZone(value: string): boolean {
  if (unknownZones.has(value)) return false;
  try {
    formatter(value);
    return true;
  } catch {
    if (unknownZones.size < UNKNOWN_ZONES_MAX) unknownZones.add(value);
    return false;
  }
}

/**
 * Rails' zone names (ActiveSupport::TimeZone: `Pacific Time (US & Canada)`, `Tokyo`), which the original
 * service and its clients use, with the IANA zone each stands for.
 */
const RAILS_ZONES = new Map(railsTimeZones.list().map((name) => [name, railsTimeZones.from(name)]));

/** The zone a person's calendar uses: theirs when Intl knows it or it is a Rails zone name, else UTC. */
export function calendarZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  if (isTimeZone(timeZone)) return timeZone;
  const iana = RAILS_ZONES.get(timeZone);
  return iana && isTimeZone(iana) ? iana : 'UTC';
}

/** Minutes the zone's wall clock is ahead of UTC at this instant (-60 in New York's winter is -300). */
export function offsetMinutes(timeZone: string, ms: number): number {
  if (timeZone === 'UTC') return 0;
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((wall - (ms - (((ms % 1000) + 1000) % 1000))) / 60_000);
}

/**
 * The instant a wall-clock time of the zone names (`wall` read as if it were UTC). A time a spring
 * change skips is taken at the offset before it; one an autumn change repeats, at its first.
 */
export function zonedInstant(timeZone: string, wall: number): number {
  // the zone's offsets a day either side: an instant is one of them where that offset holds
  const before = offsetMinutes(timeZone, wall - DAY_MS);
  const after = offsetMinutes(timeZone, wall + DAY_MS);
  const valid = [before, after]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => wall - instant === offsetMinutes(timeZone, instant) * 60_000);
  return valid.length > 0 ? Math.min(...valid) : wall - before * 60_000;
}

/** A civil date, as the days since 1970-01-01 (the day number). */
export interface CivilDate {
  year: number;
  /** 1 to 12 */
  month: number;
  day: number;
}

const dayNumber = (date: CivilDate) => Math.floor(Date.UTC(date.year, date.month - 1, date.day) / DAY_MS);

function civil(day: number): CivilDate {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Offsets at the starts of UTC days, by zone and day: streaks place thousands of workouts. */
const dayOffsets = new Map<string, number>();

function offsetAtDayStart(timeZone: string, day: number): number {
  const key = `${timeZone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    if (dayOffsets.size >= 100_000) dayOffsets.clear();
    dayOffsets.set(key, (offset = offsetMinutes(timeZone, day * DAY_MS)));
  }
  return offset;
}

/**
 * The day number of the instant on the zone's calendar. A zone changes its offset at most a few
 * times a year, so when a UTC day begins and ends on the same offset, that offset holds all day.
 */
export function localDay(timeZone: string, ms: number): number {
  const utcDay = Math.floor(ms / DAY_MS);
  const before = offsetAtDayStart(timeZone, utcDay);
  const offset = before === offsetAtDayStart(timeZone, utcDay + 1) ? before : offsetMinutes(timeZone, ms);
  return Math.floor((ms + offset * 60_000) / DAY_MS);
}

/**
 * The instant the zone's day begins: its midnight, or the first minute after it where a DST change
 * skips midnight (America/Santiago, Asia/Beirut).
 */
export function dayStart(timeZone: string, day: number): number {
  const key = `${timeZone}|${day}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    if (dayStarts.size >= 100_000) dayStarts.clear();
    dayStarts.set(key, (start = findDayStart(timeZone, day)));
  }
  return start;
}

/** Starts of days, by zone and day: every stats answer asks for the same few hundred. */
const dayStarts = new Map<string, number>();

function findDayStart(timeZone: string, day: number): number {
  const wall = day * DAY_MS;
  // two passes: the offset at the first guess may be the other side of a change
  let instant = wall - offsetMinutes(timeZone, wall) * 60_000;
  instant = wall - offsetMinutes(timeZone, instant) * 60_000;
  if (localDay(timeZone, instant) < day) {
    // midnight does not exist that day: the day begins where the clock jumps past it
    let low = instant;
    let high = instant + 3 * 3_600_000;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (localDay(timeZone, middle) < day) low = middle;
      else high = middle;
    }
    return high;
  }
  return instant;
}

/** The day number on which the period holding `day` begins. */
export function periodFirstDay(period: StatsPeriod, day: number, weekStart: Weekday): number {
  if (period === 'week') {
    // 1970-01-01 was a Thursday (ISO 4)
    const weekday = ((((day + 3) % 7) + 7) % 7) + 1;
    return day - ((weekday - weekStart + 7) % 7);
  }
  const date = civil(day);
  return dayNumber({ year: date.year, month: period === 'month' ? date.month : 1, day: 1 });
}

function nextPeriodDay(period: StatsPeriod, first: number): number {
  if (period === 'week') return first + 7;
  const date = civil(first);
  return period === 'month'
    ? dayNumber({ year: date.year + Math.floor(date.month / 12), month: (date.month % 12) + 1, day: 1 })
    : dayNumber({ year: date.year + 1, month: 1, day: 1 });
}

export interface CalendarPeriod {
  /** The instant it begins, inclusive. */
  start: number;
  /** The instant the next begins, exclusive. */
  end: number;
  /** Its first day on the zone's calendar. */
  firstDay: CivilDate;
}

/** At most this many periods an answer: ten years of months, four of weeks. */
export const MAX_PERIODS = 210;

/**
 * The periods of the zone's calendar that hold any instant from `from` to `to`, oldest first: the
 * first begins at or before `from`, the last ends after `to`. More than MAX_PERIODS is refused.
 */
export function calendarPeriods(timeZone: string, period: StatsPeriod, weekStart: Weekday, from: number, to: number): CalendarPeriod[] {
  if (!(from <= to)) throw ValidationError.field('from', 'must not be after `to`');
  const last = localDay(timeZone, to);
  const periods: CalendarPeriod[] = [];
  let first = periodFirstDay(period, localDay(timeZone, from), weekStart);
  let start = dayStart(timeZone, first);
  while (first <= last) {
    if (periods.length === MAX_PERIODS) {
      throw ValidationError.field('from', `spans more than ${MAX_PERIODS} ${period}s; ask for a shorter range`);
    }
    const next = nextPeriodDay(period, first);
    const end = dayStart(timeZone, next);
    periods.push({ start, end, firstDay: civil(first) });
    first = next;
    start = end;
  }
  return periods;
}

/** The range an answer covers when none is given: a year of weeks, a year of months, five years. */
export function defaultRange(period: StatsPeriod, now: number): { from: number; to: number } {
  const span = period === 'week' ? 52 * 7 * DAY_MS : period === 'month' ? 334 * DAY_MS : 4 * 366 * DAY_MS;
  return { from: now - span, to: now };
}

export interface Streaks {
  /** Consecutive days with a workout, ending today or yesterday (0 when the last one was earlier). */
  currentDays: number;
  longestDays: number;
  currentWeeks: number;
  longestWeeks: number;
}

/**
 * Runs of consecutive days and weeks with at least one workout, from the day numbers of the
 * workouts (any order, repeats allowed). A run is current while it can still go on: it ends today or
 * yesterday (this week or last week).
 */
export function streaks(days: readonly number[], today: number, weekStart: Weekday): Streaks {
  const run = (values: number[], now: number) => {
    const sorted = [...new Set(values)].sort((a, b) => a - b);
    let longest = 0;
    let length = 0;
    for (let i = 0; i < sorted.length; i++) {
      length = i > 0 && sorted[i] === sorted[i - 1]! + 1 ? length + 1 : 1;
      longest = Math.max(longest, length);
    }
    const lastValue = sorted.at(-1);
    const current = lastValue !== undefined && lastValue >= now - 1 && lastValue <= now ? length : 0;
    return { current, longest };
  };
  const week = (day: number) => Math.floor((periodFirstDay('week', day, weekStart) + 3) / 7);
  const byDay = run([...days], today);
  const byWeek = run(
    days.map((day) => week(day)),
    week(today),
  );
  return { currentDays: byDay.current, longestDays: byDay.longest, currentWeeks: byWeek.current, longestWeeks: byWeek.longest };
}
