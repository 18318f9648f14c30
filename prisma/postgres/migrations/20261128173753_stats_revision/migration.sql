-- Kept stats (issue 60): a person's stats, records and streak are kept per revision of what they count
-- (graphql/types/stats.ts), and read again only when it moved. Triggers move the revision, so every
-- writer is covered: this service, the CLI, an import, a cascade, a track's records computed later.
-- What a total counts: the person's entries (their author, time and visibility), workouts, tracks and
-- best efforts; and, for a reader signed in, whether the two are friends or in a block. Statement-level
-- triggers with transition tables (`changed`, and for an update also `was`): a bulk load moves each
-- person once per statement. The functions keep this schema's search_path, whoever's session writes.
ALTER TABLE "Person" ADD COLUMN     "statsRevision" INTEGER NOT NULL DEFAULT 0;

-- entries added or removed, and an entry moved in what counts it (one row at a time: a trigger with
-- a column list has no transition tables)
CREATE FUNCTION "stats_revision_of_entries"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (SELECT "authorId" FROM changed);
    RETURN NULL;
END $$;
CREATE FUNCTION "stats_revision_of_moved_entry"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1 WHERE "id" IN (OLD."authorId", NEW."authorId");
    RETURN NULL;
END $$;
CREATE TRIGGER "Entry_stats_insert" AFTER INSERT ON "Entry" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_entries"();
CREATE TRIGGER "Entry_stats_update" AFTER UPDATE OF "authorId", "visibility", "createdAt" ON "Entry" FOR EACH ROW
    WHEN (OLD."authorId" IS DISTINCT FROM NEW."authorId" OR OLD."visibility" IS DISTINCT FROM NEW."visibility"
        OR OLD."createdAt" IS DISTINCT FROM NEW."createdAt")
    EXECUTE FUNCTION "stats_revision_of_moved_entry"();
CREATE TRIGGER "Entry_stats_delete" AFTER DELETE ON "Entry" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_entries"();

-- an entry's workout and track
CREATE FUNCTION "stats_revision_of_entry_rows"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT e."authorId" FROM "Entry" e WHERE e."id" IN (SELECT "entryId" FROM changed));
    RETURN NULL;
END $$;
CREATE FUNCTION "stats_revision_of_updated_entry_rows"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT e."authorId" FROM "Entry" e
        WHERE e."id" IN (SELECT "entryId" FROM changed UNION SELECT "entryId" FROM was));
    RETURN NULL;
END $$;
CREATE TRIGGER "Workout_stats_insert" AFTER INSERT ON "Workout" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_entry_rows"();
CREATE TRIGGER "Workout_stats_update" AFTER UPDATE ON "Workout" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_updated_entry_rows"();
CREATE TRIGGER "Workout_stats_delete" AFTER DELETE ON "Workout" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_entry_rows"();
CREATE TRIGGER "Track_stats_insert" AFTER INSERT ON "Track" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_entry_rows"();
CREATE TRIGGER "Track_stats_update" AFTER UPDATE ON "Track" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_updated_entry_rows"();
CREATE TRIGGER "Track_stats_delete" AFTER DELETE ON "Track" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_entry_rows"();

-- a track's best efforts (its running records, which may be computed after the track was stored)
CREATE FUNCTION "stats_revision_of_efforts"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT e."authorId" FROM "Track" t JOIN "Entry" e ON e."id" = t."entryId"
        WHERE t."id" IN (SELECT "trackId" FROM changed));
    RETURN NULL;
END $$;
CREATE FUNCTION "stats_revision_of_updated_efforts"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT e."authorId" FROM "Track" t JOIN "Entry" e ON e."id" = t."entryId"
        WHERE t."id" IN (SELECT "trackId" FROM changed UNION SELECT "trackId" FROM was));
    RETURN NULL;
END $$;
CREATE TRIGGER "BestEffort_stats_insert" AFTER INSERT ON "BestEffort" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_efforts"();
CREATE TRIGGER "BestEffort_stats_update" AFTER UPDATE ON "BestEffort" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_updated_efforts"();
CREATE TRIGGER "BestEffort_stats_delete" AFTER DELETE ON "BestEffort" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_efforts"();

-- who sees what: friendships and blocks, of both people
CREATE FUNCTION "stats_revision_of_friendships"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "personId" FROM changed UNION SELECT "friendId" FROM changed);
    RETURN NULL;
END $$;
CREATE FUNCTION "stats_revision_of_blocks"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Person" SET "statsRevision" = "statsRevision" + 1
    WHERE "id" IN (SELECT "blockerId" FROM changed UNION SELECT "blockedId" FROM changed);
    RETURN NULL;
END $$;
CREATE TRIGGER "Friendship_stats_insert" AFTER INSERT ON "Friendship" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_friendships"();
CREATE TRIGGER "Friendship_stats_delete" AFTER DELETE ON "Friendship" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_friendships"();
CREATE TRIGGER "Block_stats_insert" AFTER INSERT ON "Block" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_blocks"();
CREATE TRIGGER "Block_stats_delete" AFTER DELETE ON "Block" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "stats_revision_of_blocks"();
