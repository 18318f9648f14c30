// People the viewer may know, in one statement: friends of their friends (one point for each friend
// they share), people who commented on the viewer's entries in the last 90 days, and people who posted
// in public near the viewer's latest placed entry in the last 30 days, and, weakest, those who posted the most in
// public in the last 14 days (so that a new athlete meets someone). Never the viewer, a friend, anyone
// a request waits on either way, nor anyone on either side of a block. Ranked by points, then newest account.
//
// "Near" counts only the positions others are shown: each candidate entry's place is put to the caller's
// `placeShown` (the rule every other way out of a position follows), so a place inside its author's
// privacy zone, or by a hidden track end, tells nobody that its author is active there (bisected, the
// raw positions once located a person's home in 18 probes).
import { boundingBox, type Point } from '../domain/geo.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';

export type SuggestionReason = 'friendOfFriend' | 'commentsOnYours' | 'activeNearby' | 'activeLately';

export interface Suggestion {
  personId: number;
  mutualFriends: number;
  reasons: SuggestionReason[];
}

/** Miles around the viewer's latest placed entry that count as near. */
export const NEAR_MILES = 25;
const DAY_MS = 86_400_000;

/** A public entry placed near the viewer: its place is put to the gate before it counts. */
export interface PlacedEntry {
  id: number;
  authorId: number;
  lat: number;
  lon: number;
}

/** Recent public entries near the viewer read for "active nearby", newest first, at most: a bounded look. */
const NEARBY_CANDIDATES = 200;
/** The most active public posters of the last two weeks considered for anyone. */
const LATELY_CANDIDATES = 20;

export async function suggestPeople(
  database: Pick<Database, 'read' | 'prisma'>,
  viewerId: number,
  limit: number,
  placeShown: (entry: PlacedEntry) => Promise<boolean>,
  now = Date.now(),
): Promise<Suggestion[]> {
  const placed = await database.prisma.entry.findFirst({
    where: { authorId: viewerId, lat: { not: null }, lon: { not: null } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { lat: true, lon: true },
  });
  const near = placed ? boundingBox({ lat: placed.lat!, lon: placed.lon! } satisfies Point, NEAR_MILES) : null;
  const candidates = near
    ? await database.read<PlacedEntry>(Sql.sql`SELECT n."id", n."authorId", n."lat", n."lon" FROM "Entry" n
        WHERE n."createdAt" > ${new Date(now - 30 * DAY_MS)} AND n."visibility" = 'everyone' AND n."authorId" <> ${viewerId}
          AND n."lat" BETWEEN ${near.minLat} AND ${near.maxLat}
          AND (${Sql.join(
            near.lonRanges.map(([west, east]) => Sql.sql`n."lon" BETWEEN ${west} AND ${east}`),
            ' OR ',
          )})
        ORDER BY n."createdAt" DESC, n."id" DESC LIMIT ${NEARBY_CANDIDATES}`)
    : [];
  // one shown place is enough to count an author as active nearby; asked together, so that what the
  // gate reads of them (their authors' settings, their tracks) is read in one batch, not one a candidate
  const entries = candidates.map((row) => ({
    id: Number(row.id),
    authorId: Number(row.authorId),
    lat: Number(row.lat),
    lon: Number(row.lon),
  }));
  const shown = await Promise.all(entries.map(placeShown));
  const active = new Set(entries.filter((_, i) => shown[i]).map((entry) => entry.authorId));
  const nearby = active.size
    ? Sql.sql`UNION ALL SELECT p."id", 0 AS "mutual", 0 AS "commented", 1 AS "nearby", 0 AS "lately" FROM "Person" p WHERE p."id" IN (${Sql.join([...active])})`
    : Sql.empty;
  // the weakest reason, so that a new athlete (no friends, no comments, no place yet) meets someone: the
  // people who posted the most in public lately
  const lately = Sql.sql`UNION ALL SELECT a."authorId", 0, 0, 0, 1 FROM (SELECT e."authorId" FROM "Entry" e
      JOIN "Person" p ON p."id" = e."authorId" AND p."suspendedAt" IS NULL
      WHERE e."visibility" = 'everyone' AND e."createdAt" > ${new Date(now - 14 * DAY_MS)} AND e."authorId" <> ${viewerId}
      GROUP BY e."authorId" ORDER BY COUNT(*) DESC, e."authorId" DESC LIMIT ${LATELY_CANDIDATES}) a`;
  const rows = await database.read<{ id: number; mutual: number; commented: number; nearby: number; lately: number }>(Sql.sql`
    SELECT c."id", SUM(c."mutual") AS "mutual", MAX(c."commented") AS "commented", MAX(c."nearby") AS "nearby", MAX(c."lately") AS "lately" FROM (
      SELECT f2."friendId" AS "id", 1 AS "mutual", 0 AS "commented", 0 AS "nearby", 0 AS "lately" FROM "Friendship" f1
        JOIN "Friendship" f2 ON f2."personId" = f1."friendId" WHERE f1."personId" = ${viewerId}
      UNION ALL SELECT DISTINCT k."authorId", 0, 1, 0, 0 FROM "Comment" k JOIN "Entry" e ON e."id" = k."entryId"
        WHERE e."authorId" = ${viewerId} AND k."createdAt" > ${new Date(now - 90 * DAY_MS)}
      ${nearby}
      ${lately}
    ) c
    WHERE c."id" <> ${viewerId}
      AND c."id" NOT IN (SELECT "friendId" FROM "Friendship" WHERE "personId" = ${viewerId})
      AND c."id" NOT IN (SELECT "toId" FROM "FriendRequest" WHERE "fromId" = ${viewerId}
        UNION ALL SELECT "fromId" FROM "FriendRequest" WHERE "toId" = ${viewerId})
      AND c."id" NOT IN (SELECT "blockedId" FROM "Block" WHERE "blockerId" = ${viewerId}
        UNION ALL SELECT "blockerId" FROM "Block" WHERE "blockedId" = ${viewerId})
    GROUP BY c."id"
    ORDER BY 6 * SUM(c."mutual") + 4 * MAX(c."commented") + 2 * MAX(c."nearby") + MAX(c."lately") DESC, c."id" DESC
    LIMIT ${limit}`);
  return rows.map((row) => ({
    personId: Number(row.id),
    mutualFriends: Number(row.mutual),
    reasons: [
      ...(Number(row.mutual) > 0 ? (['friendOfFriend'] as const) : []),
      ...(Number(row.commented) > 0 ? (['commentsOnYours'] as const) : []),
      ...(Number(row.nearby) > 0 ? (['activeNearby'] as const) : []),
      ...(Number(row.lately) > 0 ? (['activeLately'] as const) : []),
    ],
  }));
}
