// A new entry on PostgreSQL as one statement: the entry, its workout and its outbox event, committing on
// their own. Every insert of an entry moves its author's stats revision (a trigger: db/kept-stats.ts),
// which locks the author's row until the transaction ends; written as Prisma writes it (the entry, the
// workout, a read of the entry, the event, then COMMIT: five round trips), an athlete's (or an app's)
// concurrent posts waited for one another's round trips. In one statement the lock is held for the
// statement alone. The caller keeps a transaction where one must be (a retry's Idempotency-Key records
// it; mentions write notifications beside it) and on SQLite, where one writer has the file anyway.

import type { ValidEntry } from '../domain/entry-input.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Prisma } from './database.ts';

/** A new entry as the field rules made it (domain/entry-input.ts), with its author and who sees it. */
export type NewEntryRow = ValidEntry & { authorId: number; visibility: string };

/** Inserts `entry`, its workout and its `entryCreated` event in one statement; answers the entry's id. */
export async function insertEntryAtOnce(prisma: Prisma, entry: NewEntryRow): Promise<number> {
  const now = new Date();
  const { workout } = entry;
  const rows = await prisma.$queryRaw<Array<{ id: number }>>`
    WITH "e" AS (
      INSERT INTO "Entry" ("authorId", "visibility", "kind", "message", "lat", "lon", "placeName", "mediaType", "mediaUrl", "mediaPreviewUrl", "createdAt")
      VALUES (${entry.authorId}, ${entry.visibility}, ${entry.kind}, ${entry.message}, CAST(${entry.lat} AS DOUBLE PRECISION),
        CAST(${entry.lon} AS DOUBLE PRECISION), ${entry.placeName}, ${entry.mediaType}, ${entry.mediaUrl}, ${entry.mediaPreviewUrl}, ${now})
      RETURNING "id", "authorId", "lat", "lon", "visibility"
    )${
      workout
        ? Sql.sql`, "w" AS (
      INSERT INTO "Workout" ("entryId", "activityType", "completedAt", "distanceValue", "distanceUnits", "duration", "felt", "calories", "title", "routeId", "gearId")
      SELECT "e"."id", CAST(${workout.activityType} AS TEXT), CAST(${workout.completedAt} AS TIMESTAMP(3)),
        CAST(${workout.distanceValue} AS DOUBLE PRECISION), CAST(${workout.distanceUnits} AS TEXT), CAST(${workout.duration} AS INTEGER),
        CAST(${workout.felt} AS TEXT), CAST(${workout.calories} AS INTEGER), CAST(${workout.title} AS TEXT), CAST(${workout.routeId} AS INTEGER),
        CAST(${workout.gearId} AS INTEGER)
      FROM "e"
    )`
        : Sql.empty
    }, "o" AS (
      INSERT INTO "OutboxEvent" ("name", "payload", "createdAt")
      SELECT 'entryCreated', json_build_object('entryId', "id", 'authorId', "authorId", 'lat', "lat", 'lon', "lon", 'visibility', "visibility")::text, ${now}
      FROM "e"
    )
    SELECT "id" FROM "e"`;
  return Number(rows[0]!.id);
}
