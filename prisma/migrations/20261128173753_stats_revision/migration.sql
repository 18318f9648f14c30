-- Kept stats (issue 60): a person's stats, records and streak are kept per revision of what they count
-- (graphql/types/stats.ts), and read again only when it moved. Triggers move the revision, so every
-- writer is covered: this service, the CLI, an import, a cascade, a track's records computed later.
-- What a total counts: the person's entries (their author, time and visibility), workouts, tracks and
-- best efforts; and, for a reader signed in, whether the two are friends or in a block. The column is
-- added in place (a table rebuild would drop "Person"'s revision, search and kept-apart triggers).
ALTER TABLE "Person" ADD COLUMN "statsRevision" INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER "Entry_stats_insert" AFTER INSERT ON "Entry"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" = NEW."authorId";
END;
CREATE TRIGGER "Entry_stats_update" AFTER UPDATE OF "authorId", "visibility", "createdAt" ON "Entry"
WHEN NEW."authorId" IS NOT OLD."authorId" OR NEW."visibility" IS NOT OLD."visibility" OR NEW."createdAt" IS NOT OLD."createdAt"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (OLD."authorId", NEW."authorId");
END;
CREATE TRIGGER "Entry_stats_delete" AFTER DELETE ON "Entry"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" = OLD."authorId";
END;

-- an entry's workout and track
CREATE TRIGGER "Workout_stats_insert" AFTER INSERT ON "Workout"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "authorId" FROM "Entry" WHERE "id" = NEW."entryId");
END;
CREATE TRIGGER "Workout_stats_update" AFTER UPDATE ON "Workout"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "authorId" FROM "Entry" WHERE "id" IN (OLD."entryId", NEW."entryId"));
END;
CREATE TRIGGER "Workout_stats_delete" AFTER DELETE ON "Workout"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "authorId" FROM "Entry" WHERE "id" = OLD."entryId");
END;
CREATE TRIGGER "Track_stats_insert" AFTER INSERT ON "Track" WHEN NEW."entryId" IS NOT NULL
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "authorId" FROM "Entry" WHERE "id" = NEW."entryId");
END;
CREATE TRIGGER "Track_stats_update" AFTER UPDATE ON "Track" WHEN NEW."entryId" IS NOT NULL OR OLD."entryId" IS NOT NULL
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "authorId" FROM "Entry" WHERE "id" IN (OLD."entryId", NEW."entryId"));
END;
CREATE TRIGGER "Track_stats_delete" AFTER DELETE ON "Track" WHEN OLD."entryId" IS NOT NULL
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "authorId" FROM "Entry" WHERE "id" = OLD."entryId");
END;

-- a track's best efforts (its running records, which may be computed after the track was stored)
CREATE TRIGGER "BestEffort_stats_insert" AFTER INSERT ON "BestEffort"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN
        (SELECT e."authorId" FROM "Track" t JOIN "Entry" e ON e."id" = t."entryId" WHERE t."id" = NEW."trackId");
END;
CREATE TRIGGER "BestEffort_stats_update" AFTER UPDATE ON "BestEffort"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN
        (SELECT e."authorId" FROM "Track" t JOIN "Entry" e ON e."id" = t."entryId" WHERE t."id" IN (OLD."trackId", NEW."trackId"));
END;
CREATE TRIGGER "BestEffort_stats_delete" AFTER DELETE ON "BestEffort"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN
        (SELECT e."authorId" FROM "Track" t JOIN "Entry" e ON e."id" = t."entryId" WHERE t."id" = OLD."trackId");
END;

-- who sees what: friendships and blocks, of both people
CREATE TRIGGER "Friendship_stats_insert" AFTER INSERT ON "Friendship"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (NEW."personId", NEW."friendId");
END;
CREATE TRIGGER "Friendship_stats_delete" AFTER DELETE ON "Friendship"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (OLD."personId", OLD."friendId");
END;
CREATE TRIGGER "Block_stats_insert" AFTER INSERT ON "Block"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (NEW."blockerId", NEW."blockedId");
END;
CREATE TRIGGER "Block_stats_delete" AFTER DELETE ON "Block"
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (OLD."blockerId", OLD."blockedId");
END;
