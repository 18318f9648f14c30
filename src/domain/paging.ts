// Stream paging rules (SPEC 4.2) and Relay cursors, as plain data: callers turn a StreamWindow into a query.
//
// Streams are ordered newest first by (createdAt, id). `at` is shown to clients at second precision,
// so `since`/`until` compare against whole seconds: an entry shown as `at = T` matches `until = T`
// and does not match `since = T`.
import { type FieldIssue, ValidationError } from './errors.ts';

export const PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Deep offset paging is a table scan; cursors (`after`) have no such limit. */
export const MAX_PAGE = 10_000;

export interface StreamArgs {
  page?: number | null;
  since?: number | null;
  until?: number | null;
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface Position {
  /** createdAt in epoch milliseconds */
  at: number;
  id: number;
}

export interface StreamWindow {
  /** createdAt >= sinceMs (exclusive `since`, in whole seconds) */
  sinceMs: number | null;
  /** createdAt < untilMs (inclusive `until`, in whole seconds) */
  untilMs: number | null;
  /** only rows strictly older than this position (Relay `after`) */
  olderThan: Position | null;
  /** only rows strictly newer than this position (Relay `before`) */
  newerThan: Position | null;
  /** 'newest' reads forwards from the top; 'oldest' reads backwards (Relay `last`) and is reversed after. */
  direction: 'newest' | 'oldest';
  skip: number;
  take: number;
  /** A page past MAX_PAGE: empty, as a page past the last one is, and read without a query (COMPAT.md). */
  pastEnd: boolean;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.at}:${position.id}`, 'utf8').toString('base64url');
}

/** The latest time a cursor may hold (9999-12-31), and the largest id a database integer holds. */
const LATEST_CURSOR_MS = 253_402_300_799_999;
const LARGEST_ID = 2_147_483_647;

export function decodeCursor(cursor: string): Position | null {
  const match = /^(\d{1,15}):(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const position = { at: Number(match[1]), id: Number(match[2]) };
  // a forged cursor must not reach the database as an Invalid Date or an integer it cannot hold
  return position.at <= LATEST_CURSOR_MS && position.id <= LARGEST_ID ? position : null;
}

function checkInteger(issues: FieldIssue[], name: string, value: number | null | undefined, min: number, max: number) {
  if (value === null || value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    issues.push({ path: name, message: `must be an integer from ${min} to ${max}` });
  }
}

/** Whether `page` is past the deepest page any stream is read to (MAX_PAGE). */
const pastLastPage = (args: StreamArgs) => args.page != null && args.page > MAX_PAGE;

/** The issues of the arguments every stream shares: `page`, `since`, `until`, `first`. */
function pagingIssues(args: StreamArgs): FieldIssue[] {
  const issues: FieldIssue[] = [];
  // a page past MAX_PAGE is past the last one, which COMPAT.md answers empty, not refused
  checkInteger(issues, 'page', args.page, 1, Number.MAX_SAFE_INTEGER);
  // UNIX seconds up to the year 9999
  checkInteger(issues, 'since', args.since, 0, 253_402_300_799);
  checkInteger(issues, 'until', args.until, 0, 253_402_300_799);
  checkInteger(issues, 'first', args.first, 1, MAX_PAGE_SIZE);
  return issues;
}

/** Validates the stream arguments and turns them into a window. Throws ValidationError naming each bad field. */
export function streamWindow(args: StreamArgs): StreamWindow {
  const issues = pagingIssues(args);
  checkInteger(issues, 'last', args.last, 1, MAX_PAGE_SIZE);
  const after = args.after ? decodeCursor(args.after) : null;
  const before = args.before ? decodeCursor(args.before) : null;
  if (args.after && !after) issues.push({ path: 'after', message: 'is not a cursor this API issued' });
  if (args.before && !before) issues.push({ path: 'before', message: 'is not a cursor this API issued' });
  if (args.first != null && args.last != null) issues.push({ path: 'last', message: 'cannot be combined with first' });
  if (args.page != null && (args.after || args.before || args.last != null)) {
    issues.push({ path: 'page', message: 'cannot be combined with the cursor arguments after, before or last' });
  }
  if (issues.length > 0) throw new ValidationError(issues);

  const backwards = args.last != null;
  const size = (backwards ? args.last : args.first) ?? PAGE_SIZE;
  return {
    sinceMs: args.since == null ? null : (args.since + 1) * 1000,
    untilMs: args.until == null ? null : (args.until + 1) * 1000,
    olderThan: after,
    newerThan: before,
    direction: backwards ? 'oldest' : 'newest',
    skip: args.page ? (args.page - 1) * size : 0,
    take: size,
    pastEnd: pastLastPage(args),
  };
}

export interface PageOf<T> {
  items: T[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * Cuts the rows fetched for a window (the query asks for `take + 1` to learn whether more follow)
 * and puts them newest first.
 */
export function pageFromRows<T>(rows: T[], window: StreamWindow): PageOf<T> {
  const more = rows.length > window.take;
  const kept = rows.slice(0, window.take);
  if (window.direction === 'oldest') {
    return { items: kept.reverse(), hasNextPage: window.newerThan !== null, hasPreviousPage: more };
  }
  return { items: kept, hasNextPage: more, hasPreviousPage: window.olderThan !== null || window.skip > 0 };
}

/** The popular stream ranks the entries of this many days before its moment. */
export const POPULAR_DAYS = 7;
/** The popular stream's moment, without `until`: the start of the current hour, the same for everyone. */
export const POPULAR_MOMENT_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * A page of the popular stream. Entries posted in the POPULAR_DAYS before `asOfMs` are ranked by the
 * likes and comments they had received by then, most first; ties newest first. Everything is counted
 * as of one moment, so pages read at different times rank alike: likes arriving meanwhile neither
 * repeat nor skip an entry.
 */
export interface PopularWindow {
  asOfMs: number;
  /** createdAt >= fromMs: the start of the days ranked, or `since` when later */
  fromMs: number;
  skip: number;
  take: number;
  /** A page past MAX_PAGE: empty, read without a query. */
  pastEnd: boolean;
}

export function encodePopularCursor(asOfMs: number, offset: number): string {
  return Buffer.from(`popular:${asOfMs}:${offset}`, 'utf8').toString('base64url');
}

function decodePopularCursor(cursor: string): { asOfMs: number; offset: number } | null {
  const match = /^popular:(\d{1,15}):(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const decoded = { asOfMs: Number(match[1]), offset: Number(match[2]) };
  return decoded.asOfMs <= LATEST_CURSOR_MS && decoded.offset <= MAX_PAGE * MAX_PAGE_SIZE ? decoded : null;
}

/**
 * Validates the popular stream's arguments. Its moment is the cursor's (`after`), else `until`, else
 * the start of the current hour: pages read within the hour, or with the same `until`, rank alike.
 * It is ranked, not in time order, so `last` and `before` do not apply.
 */
export function popularWindow(args: StreamArgs, nowMs: number): PopularWindow {
  const issues = pagingIssues(args);
  for (const name of ['last', 'before'] as const) {
    if (args[name] != null)
      issues.push({ path: name, message: 'does not apply: the popular stream is ranked, page forwards with after or page' });
  }
  const after = args.after ? decodePopularCursor(args.after) : null;
  if (args.after && !after) issues.push({ path: 'after', message: 'is not a cursor of the popular stream' });
  if (args.page != null && args.after) issues.push({ path: 'page', message: 'cannot be combined with after' });
  if (issues.length > 0) throw new ValidationError(issues);

  const asOfMs =
    after?.asOfMs ?? (args.until != null ? (args.until + 1) * 1000 : Math.floor(nowMs / POPULAR_MOMENT_MS) * POPULAR_MOMENT_MS);
  const take = args.first ?? PAGE_SIZE;
  const sinceMs = args.since == null ? null : (args.since + 1) * 1000;
  return {
    asOfMs,
    fromMs: Math.max(asOfMs - POPULAR_DAYS * DAY_MS, sinceMs ?? 0),
    skip: after ? after.offset : args.page ? (args.page - 1) * take : 0,
    take,
    pastEnd: pastLastPage(args),
  };
}
