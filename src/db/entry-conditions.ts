// Which entries a page reads, as SQL over the entry table `e`: the scope (everyone, an author, the friends
// stream, some ids), the window of the stream, and the visibility rule for the reader.
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import { type Dialect, jsonSql } from './sql-json.ts';

/** Which entries: all of them, some authors' (a person's or the friends stream), or these ids. */
export type EntryScope =
  | { kind: 'everyone' }
  | { kind: 'author'; usernameKey: string }
  | { kind: 'authorId'; authorId: number }
  | { kind: 'friendsOf'; personId: number }
  | { kind: 'ids'; ids: readonly number[] };

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
export type EntryReader = { readonly id: number; readonly ownPrivate: boolean } | null;

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
    case 'ids':
      return scope.ids.length > 0 ? jsonSql(dialect).idIn(scope.ids) : Sql.sql`1 = 0`;
  }
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
  return Sql.sql`(e."visibility" = 'everyone' OR ${own}
    OR (e."visibility" = 'friends' AND e."authorId" IN (SELECT "friendId" FROM "Friendship" WHERE "personId" = ${reader.id})))`;
}

export function rangeConditions(range: EntryRange): Sql.Sql[] {
  const where: Sql.Sql[] = [visibleCondition(range.reader)];
  if (range.sinceMs !== null) where.push(Sql.sql`e."createdAt" >= ${new Date(range.sinceMs)}`);
  if (range.untilMs !== null) where.push(Sql.sql`e."createdAt" < ${new Date(range.untilMs)}`);
  if (range.olderThan) {
    const at = new Date(range.olderThan.at);
    where.push(Sql.sql`(e."createdAt" < ${at} OR (e."createdAt" = ${at} AND e."id" < ${range.olderThan.id}))`);
  }
  if (range.newerThan) {
    const at = new Date(range.newerThan.at);
    where.push(Sql.sql`(e."createdAt" > ${at} OR (e."createdAt" = ${at} AND e."id" > ${range.newerThan.id}))`);
  }
  return where;
}
