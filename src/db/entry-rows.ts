// An entry as a page carries it, and the stored timestamps in it: the shapes db/entry-pages.ts reads
// and db/kept-documents.ts keeps, apart from both so that neither needs the other's module.

import type { PrivacySettings } from '../domain/privacy-zones.ts';
import type { Comment, Entry, Like, Person, Workout } from '../generated/prisma-sqlite/client.ts';
import { columnsOf } from './sql-json.ts';

/** The columns of each table a page reads, in the order its rows carry them; each row's type follows. */
export const ENTRY_COLUMNS = columnsOf<Entry>()(
  'id',
  'visibility',
  'authorId',
  'kind',
  'message',
  'lat',
  'lon',
  'placeName',
  'mediaType',
  'mediaUrl',
  'mediaPreviewUrl',
  'createdAt',
);
export const WORKOUT_COLUMNS = columnsOf<Workout>()(
  'entryId',
  'activityType',
  'completedAt',
  'distanceValue',
  'distanceUnits',
  'duration',
  'felt',
  'calories',
  'title',
  'routeId',
  'gearId',
);
/** An entry's comments and likes: their entry is the one they are read with. */
export const COMMENT_COLUMNS = columnsOf<Comment>()('id', 'authorId', 'body', 'createdAt');
export const LIKE_COLUMNS = columnsOf<Like>()('id', 'personId', 'createdAt');

/** Columns of a person a page may carry: the public ones only (never the password hash). */
export const PERSON_COLUMNS = ['id', 'username', 'displayName', 'location', 'timeZone', 'photoUrl', 'goal', 'units'] as const;
export type PersonColumn = (typeof PERSON_COLUMNS)[number];

/** The parts of an entry a page should carry besides its own columns. */
export interface EntryParts {
  author: boolean;
  workout: boolean;
  comments: boolean;
  likes: boolean;
  counts: boolean;
  /** The author's privacy settings (their zones and hidden track ends), for the places the entry shows others. */
  privacy: boolean;
  /** Of each person carried (author, commenters, likers): `id` and `username` always, the rest as asked. */
  personColumns: readonly PersonColumn[];
}

export const ALL_PARTS: EntryParts = {
  author: true,
  workout: true,
  comments: true,
  likes: true,
  counts: true,
  privacy: true,
  personColumns: PERSON_COLUMNS,
};

/** A person as a page carries them: the columns the selection asked for. */
export type PersonSummary = Pick<Person, PersonColumn>;

/** An entry's own columns as a page reads them. */
export type EntryRow = ReturnType<typeof ENTRY_COLUMNS.read>;

/**
 * An entry with the parts that were asked for; a part not asked for is absent (not null). It stands for
 * Prisma's Entry, the GraphQL type's model, of which a page leaves out the two columns no field shows
 * (`importHash`, `revision`): see entry-documents.ts `readEntry`.
 */
export interface LoadedEntry extends Entry {
  author?: PersonSummary;
  workout?: Workout | null;
  comments?: Array<Comment & { author: PersonSummary }>;
  likes?: Array<Like & { person: PersonSummary }>;
  commentCount?: number;
  likeCount?: number;
  /** The author's privacy settings, when the page carried them. */
  authorPrivacy?: PrivacySettings;
}

/**
 * A stored timestamp as JSON carries it: ISO 8601, with an offset on SQLite (as Prisma writes it) and
 * without one on PostgreSQL (`timestamp(3)`, kept in UTC). Both are UTC.
 */
export function storedDate(text: string): Date {
  const ms = millisecondsOfStored(text);
  if (ms !== null) return new Date(ms);
  const iso = text.includes('T') ? text : text.replace(' ', 'T');
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
}

/** The digit at `at` of `text` as a number. */
const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * The milliseconds of the commonest stored form, `2026-11-25T08:56:04.123` with `+00:00` (SQLite) or
 * without (PostgreSQL), counted from the digits; null for any other form. A page holds a hundred and
 * more timestamps, and `new Date(text)` with its checks cost 0.64 µs each here, this 0.27.
 */
function millisecondsOfStored(text: string): number | null {
  if (!(text.length === 23 || (text.length === 29 && text.endsWith('+00:00')))) return null;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(19) !== 46) return null;
  for (const at of DIGIT_POSITIONS) if (!(digit(text, at) >= 0 && digit(text, at) <= 9)) return null;
  const month = twoDigits(text, 5);
  if (month < 1 || month > 12) return null;
  return (
    daysFromCivil(twoDigits(text, 0) * 100 + twoDigits(text, 2), month, twoDigits(text, 8)) * 86_400_000 +
    twoDigits(text, 11) * 3_600_000 +
    twoDigits(text, 14) * 60_000 +
    twoDigits(text, 17) * 1000 +
    digit(text, 20) * 100 +
    twoDigits(text, 21)
  );
}

/** Where `2026-11-25T08:56:04.123` has its digits. */
const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/**
 * Where a page's reader tells the version each of its entries was read at (db/entry-pages.ts versionOf).
 * The HTTP fast path owns the one recorder (cache/entry-fragments.ts EntryVersions): it keeps each
 * entry's JSON by that version.
 */
export interface VersionRecorder {
  record(entryId: number, version: string): void;
}
