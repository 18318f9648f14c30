// Which entries a page reads, as SQL over the entry table `e`: the scope (everyone, an author, the friends
// stream, some ids), the window of the stream, and the visibility rule for the reader.

import { ftsMatch, tsTerms } from '../domain/search.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import { type Dialect, jsonSql } from './sql-json.ts';

/** Which entries: all of them, some authors' (a person's or the friends stream), or these ids. */
export type EntryScope =
  | { kind: 'everyone' }
  | { kind: 'author'; usernameKey: string }
  | { kind: 'authorId'; authorId: number }
  | { kind: 'friendsOf'; personId: number }
  | { kind: 'ids'; ids: readonly number[] }
  | { kind: 'gear'; gearId: number }
  | { kind: 'search'; terms: readonly string[]; dense?: boolean };

/** A window of a stream in the time order (see domain/paging.ts), as the SQL applies it. */
export interface EntryRange {
  sinceMs: number | null;
  untilMs: number | null;
  olderThan: { at: number; id: number } | null;
  newerThan: { at: number; id: number } | null;
  direction: 'newest' | 'oldest';
  skip: number;
  limit: number;
  /** Whom the entries are read for: only those this reader may see (domain/visibility.ts); null without a token. */
  reader: EntryReader;
}

/**
 * Who reads entries: the person a token speaks for, and whether it may read what only they see (the
 * scope `read_all`: their only-me entries); null without a token.
 */
export type EntryReader = {
  readonly id: number;
  readonly ownPrivate: boolean;
  /** A stream of many people's entries (not one person's, nor one by id): the people the reader muted are left out. */
  readonly muting?: boolean;
  /** Whether the reader is in any block or mute (Person.keptApart); false spares the statement the look-up. */
  readonly keptApart?: boolean;
} | null;

export function scopeCondition(dialect: Dialect, scope: EntryScope): Sql.Sql {
  switch (scope.kind) {
    case 'everyone':
      return Sql.sql`1 = 1`;
    case 'author':
      return Sql.sql`e."authorId" = (SELECT "id" FROM "Person" WHERE "usernameKey" = ${scope.usernameKey})`;
    case 'authorId':
      return Sql.sql`e."authorId" = ${scope.authorId}`;
    case 'friendsOf':
      // one list of authors, so that both planners read each author's newest entries from the
      // (authorId, createdAt) index; with an OR, PostgreSQL walked the whole stream's index and filtered
      return Sql.sql`e."authorId" IN (SELECT "friendId" FROM "Friendship" WHERE "personId" = ${scope.personId} UNION ALL SELECT ${scope.personId})`;
    case 'gear':
      return Sql.sql`e."id" IN (SELECT "entryId" FROM "Workout" WHERE "gearId" = ${scope.gearId})`;
    case 'ids':
      return scope.ids.length > 0 ? jsonSql(dialect).idIn(scope.ids) : Sql.sql`1 = 0`;
    case 'search':
      // SQLite: a dense match (denseSearch) is read along the stream's time index, each entry looked up
      // in the matches (`+` keeps the id's own index out); a sparse one from its matches, then sorted
      return Sql.sql`${scope.dense && dialect === 'sqlite' ? Sql.raw('+') : Sql.empty}e."id" IN (${matchingEntryIds(dialect, scope.terms)})`;
  }
}

/** Matches past which a SQLite search reads along the time index: a page of them lies among its newest rows. */
export const DENSE_MATCHES = 500;

/**
 * Whether `terms` match so many entries that a page of them is found sooner by reading the newest
 * entries than by sorting every match (SQLite; PostgreSQL's planner weighs this itself). One count,
 * stopped at DENSE_MATCHES.
 */
export async function denseSearch(database: Pick<Database, 'provider' | 'read'>, terms: readonly string[]): Promise<boolean> {
  if (database.provider !== 'sqlite') return false;
  const [row] = await database.read<{ n: number }>(Sql.sql`SELECT count(*) AS "n" FROM (SELECT 1 FROM "EntrySearch"
    WHERE "EntrySearch" MATCH ${ftsMatch(terms)} LIMIT ${DENSE_MATCHES})`);
  return Number(row?.n ?? 0) >= DENSE_MATCHES;
}

const PG_ENTRY_TEXT = Sql.sql`"milepost_search_text"(coalesce(e."message", ''))`;
const PG_TITLE_TEXT = Sql.sql`"milepost_search_text"(coalesce(w."title", ''))`;
/**
 * PostgreSQL: the terms as a tsquery, unaccented as the indexes' words are (people's and entries' alike).
 * Each term is unaccented first and then quoted as a lexeme: unaccent turns some letters into tsquery
 * syntax (U+02D0 into ':', U+0149 into "'n", U+2474 into '(1)'), which unquoted made to_tsquery fail.
 * The terms travel as one parameter, space-separated (they hold only letters, digits and marks).
 */
export const pgSearchQuery = (terms: readonly string[]) =>
  Sql.sql`to_tsquery('simple', (SELECT string_agg('''' || replace(replace("public"."unaccent"('"public"."unaccent"'::regdictionary, term),
    '\\', '\\\\'), '''', '''''') || ''':*', ' & ') FROM regexp_split_to_table(${tsTerms(terms)}, ' ') AS term))`;

/**
 * PostgreSQL: the ids of a page of the entries whose message or workout title hold every term, inside
 * `range`, in its order. Each index's matches are read with the entry's row and the page taken from
 * them: reading the matches' ids first and then each entry by id cost a lookup per match (12 of 22 ms
 * for 2,574 matches), and walking the stream's time index recomputes each row's words (0.6 s for none).
 */
export async function searchEntryIds(database: Pick<Database, 'read'>, terms: readonly string[], range: EntryRange): Promise<number[]> {
  const query = pgSearchQuery(terms);
  const where = Sql.join(rangeConditions(range), ' AND ');
  const order = range.direction === 'oldest' ? Sql.sql`ASC` : Sql.sql`DESC`;
  const rows = await database.read<{ id: number }>(Sql.sql`SELECT m."id" FROM (
      SELECT e."id", e."createdAt" FROM "Entry" e WHERE ${PG_ENTRY_TEXT} @@ ${query} AND ${where}
      UNION SELECT e."id", e."createdAt" FROM "Workout" w JOIN "Entry" e ON e."id" = w."entryId" WHERE ${PG_TITLE_TEXT} @@ ${query} AND ${where}
    ) m ORDER BY m."createdAt" ${order}, m."id" ${order} LIMIT ${range.limit} OFFSET ${range.skip}`);
  return rows.map((row) => Number(row.id));
}

/**
 * Ids of the entries whose message or workout title hold every term (a word prefix), from the
 * full-text indexes of migration 20261127120000_search: FTS5 in SQLite, GIN over tsvectors in PostgreSQL.
 */
function matchingEntryIds(dialect: Dialect, terms: readonly string[]): Sql.Sql {
  if (dialect === 'sqlite') return Sql.sql`SELECT "rowid" FROM "EntrySearch" WHERE "EntrySearch" MATCH ${ftsMatch(terms)}`;
  // (PostgreSQL's streams read a page of ids first: searchEntryIds)
  const query = pgSearchQuery(terms);
  return Sql.sql`SELECT e."id" FROM "Entry" e WHERE ${PG_ENTRY_TEXT} @@ ${query}
    UNION SELECT w."entryId" FROM "Workout" w WHERE ${PG_TITLE_TEXT} @@ ${query}`;
}

/**
 * domain/visibility.ts's maySee as SQL over `e`: every entry for everyone, the viewer's own, and the
 * friends-only entries of the viewer's friends. The read-path test holds the two to the same answers.
 */
export function visibleCondition(reader: EntryReader): Sql.Sql {
  if (reader === null) return Sql.sql`e."visibility" = 'everyone'`;
  // without read_all, a person's own only-me entries are hidden from the app reading for them
  const own = reader.ownPrivate
    ? Sql.sql`e."authorId" = ${reader.id}`
    : Sql.sql`(e."authorId" = ${reader.id} AND e."visibility" <> 'only_me')`;
  const visible = Sql.sql`(e."visibility" = 'everyone' OR ${own}
    OR (e."visibility" = 'friends' AND e."authorId" IN (SELECT "friendId" FROM "Friendship" WHERE "personId" = ${reader.id})))`;
  // a block hides each one's entries from the other, a mute the muted person's from a stream: one list
  // of authors to leave out, read once a statement, for a reader in any block or mute (+15% of a
  // computed page's CPU for everyone else otherwise)
  if (reader.keptApart === false) return visible;
  const muted = reader.muting ? Sql.sql` UNION ALL SELECT "mutedId" FROM "Mute" WHERE "muterId" = ${reader.id}` : Sql.empty;
  return Sql.sql`(${visible} AND e."authorId" NOT IN (SELECT "blockerId" FROM "Block" WHERE "blockedId" = ${reader.id}
    UNION ALL SELECT "blockedId" FROM "Block" WHERE "blockerId" = ${reader.id}${muted}))`;
}

/**
 * Entries the person may see now, as visibleCondition has it for their own session (read_all), as a
 * Prisma filter: their own, public ones and their friends' friends-only ones, of nobody in a block with
 * them. For what leaves without a request, at the moment it leaves (an export, a mail): what they wrote
 * or were told of an entry hidden from them since would tell that it is still there.
 */
export function seenBy(personId: number) {
  return {
    OR: [
      { authorId: personId },
      {
        author: { blocks: { none: { blockedId: personId } }, blockedBy: { none: { blockerId: personId } } },
        OR: [{ visibility: 'everyone' }, { visibility: 'friends', author: { friendships: { some: { friendId: personId } } } }],
      },
    ],
  };
}

export function rangeConditions(range: EntryRange): Sql.Sql[] {
  const where: Sql.Sql[] = [visibleCondition(range.reader)];
  if (range.sinceMs !== null) where.push(Sql.sql`e."createdAt" >= ${new Date(range.sinceMs)}`);
  if (range.untilMs !== null) where.push(Sql.sql`e."createdAt" < ${new Date(range.untilMs)}`);
  // a cursor's bound twice: alone, where the time index starts the page (behind the OR, both planners
  // walked the index from its end, all the entries before a deep cursor); then exactly
  if (range.olderThan) {
    const at = new Date(range.olderThan.at);
    where.push(Sql.sql`e."createdAt" <= ${at} AND (e."createdAt" < ${at} OR (e."createdAt" = ${at} AND e."id" < ${range.olderThan.id}))`);
  }
  if (range.newerThan) {
    const at = new Date(range.newerThan.at);
    where.push(Sql.sql`e."createdAt" >= ${at} AND (e."createdAt" > ${at} OR (e."createdAt" = ${at} AND e."id" > ${range.newerThan.id}))`);
  }
  return where;
}
