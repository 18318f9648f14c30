// The popular stream's ranking, read in one statement (the page then reads its entries by id).
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import { visibleCondition } from './entry-conditions.ts';

/**
 * The popular stream's ranking (domain/paging.ts, popularWindow): the ids of the entries posted from
 * `fromMs` until `asOfMs`, most liked and commented first by what they had received until `asOfMs`,
 * ties newest first. One statement; a page then reads its entries by id.
 */
export async function readPopularRanking(database: Pick<Database, 'read'>, window: { fromMs: number; asOfMs: number }): Promise<number[]> {
  const from = new Date(window.fromMs);
  const asOf = new Date(window.asOfMs);
  const score = Sql.sql`(SELECT count(*) FROM "Like" pl WHERE pl."entryId" = e."id" AND pl."createdAt" < ${asOf})
    + (SELECT count(*) FROM "Comment" pc WHERE pc."entryId" = e."id" AND pc."createdAt" < ${asOf})`;
  // one ranking serves every viewer: it ranks the entries everyone may see
  const rows = await database.read<{ id: number }>(Sql.sql`SELECT e."id" FROM "Entry" e
    WHERE e."createdAt" >= ${from} AND e."createdAt" < ${asOf} AND ${visibleCondition(null)}
    ORDER BY ${score} DESC, e."createdAt" DESC, e."id" DESC`);
  return rows.map((row) => Number(row.id));
}
