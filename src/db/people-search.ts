// People by the words of their username and display name (domain/search.ts), from the full-text
// indexes of migration 20261127120000_search: FTS5 in SQLite, a GIN index over a tsvector in PostgreSQL.
// Ranked: the person whose username the query is, then the index's relevance (a username counts four
// times a display name in SQLite), then the oldest account.
import { ftsMatch } from '../domain/search.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import { pgSearchQuery } from './entry-conditions.ts';

type Source = Pick<Database, 'read' | 'provider'>;

const PERSON_TEXT = Sql.sql`"milepost_search_text"(p."username" || ' ' || p."displayName")`;
/** The people matching `terms`, but for those who blocked `viewerId` (to them, nobody by that name). */
function matching(
  database: Source,
  terms: readonly string[],
  viewerId: number | null,
): { from: Sql.Sql; where: Sql.Sql; relevance: Sql.Sql } {
  const unblocked =
    viewerId === null ? Sql.empty : Sql.sql` AND p."id" NOT IN (SELECT "blockerId" FROM "Block" WHERE "blockedId" = ${viewerId})`;
  if (database.provider === 'sqlite')
    return {
      from: Sql.sql`"PersonSearch" JOIN "Person" p ON p."id" = "PersonSearch"."rowid"`,
      where: Sql.sql`"PersonSearch" MATCH ${ftsMatch(terms)}${unblocked}`,
      relevance: Sql.sql`bm25("PersonSearch", 4.0, 1.0)`,
    };
  const query = pgSearchQuery(terms);
  return {
    from: Sql.sql`"Person" p`,
    where: Sql.sql`${PERSON_TEXT} @@ ${query}${unblocked}`,
    relevance: Sql.sql`-ts_rank(${PERSON_TEXT}, ${query})`,
  };
}

/** Ids of the people matching `terms`, best first; `usernameKey` (the query as a username) comes first. */
export async function searchPersonIds(
  database: Source,
  terms: readonly string[],
  usernameKey: string,
  page: { limit: number; offset: number; viewerId: number | null },
): Promise<number[]> {
  const { from, where, relevance } = matching(database, terms, page.viewerId);
  const rows = await database.read<{ id: number }>(Sql.sql`SELECT p."id" FROM ${from} WHERE ${where}
    ORDER BY CASE WHEN p."usernameKey" = ${usernameKey} THEN 0 ELSE 1 END, ${relevance}, p."id"
    LIMIT ${page.limit} OFFSET ${page.offset}`);
  return rows.map((row) => Number(row.id));
}

/** How many people match `terms`. */
export async function countPeopleMatching(database: Source, terms: readonly string[], viewerId: number | null): Promise<number> {
  const { from, where } = matching(database, terms, viewerId);
  const [row] = await database.read<{ n: number }>(Sql.sql`SELECT count(*) AS "n" FROM ${from} WHERE ${where}`);
  return Number(row?.n ?? 0);
}
