-- Kept entry documents (issue 18): a page keeps the part of each entry that is the same for every
-- viewer, and reads it again only when its revision moved. Triggers move the revisions, so every
-- writer is covered: this service, the CLI, an import, a cascade. Statement-level triggers with
-- transition tables: a bulk insert of comments moves each entry once per statement, not once per row.
-- The functions keep this schema's search_path, whoever's session writes.
ALTER TABLE "Entry" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0;

-- one row; it starts anywhere, so that a kept document never matches another database's
CREATE TABLE "PeopleRevision" (
    "id" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL,

    CONSTRAINT "PeopleRevision_pkey" PRIMARY KEY ("id")
);
INSERT INTO "PeopleRevision" ("id", "revision") VALUES (1, floor(random() * 1000000000)::integer);

-- an entry's own columns (a bump by the triggers below already changed the revision)
CREATE FUNCTION "entry_revision_own"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    IF NEW."revision" = OLD."revision" THEN
        NEW."revision" := OLD."revision" + 1;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER "Entry_revision" BEFORE UPDATE ON "Entry" FOR EACH ROW EXECUTE FUNCTION "entry_revision_own"();

-- its workout, comments and likes: the rows a statement added, removed or changed (`changed`, and
-- for an update also `was`)
CREATE FUNCTION "entry_revision_of_rows"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" IN (SELECT "entryId" FROM changed);
    RETURN NULL;
END $$;
CREATE FUNCTION "entry_revision_of_updated_rows"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1
    WHERE "id" IN (SELECT "entryId" FROM changed UNION SELECT "entryId" FROM was);
    RETURN NULL;
END $$;
CREATE TRIGGER "Workout_revision_insert" AFTER INSERT ON "Workout" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
CREATE TRIGGER "Workout_revision_update" AFTER UPDATE ON "Workout" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_updated_rows"();
CREATE TRIGGER "Workout_revision_delete" AFTER DELETE ON "Workout" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
CREATE TRIGGER "Comment_revision_insert" AFTER INSERT ON "Comment" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
CREATE TRIGGER "Comment_revision_update" AFTER UPDATE ON "Comment" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_updated_rows"();
CREATE TRIGGER "Comment_revision_delete" AFTER DELETE ON "Comment" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
CREATE TRIGGER "Like_revision_insert" AFTER INSERT ON "Like" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
CREATE TRIGGER "Like_revision_update" AFTER UPDATE ON "Like" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_updated_rows"();
CREATE TRIGGER "Like_revision_delete" AFTER DELETE ON "Like" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();

-- the people a page names (authors, commenters, likers: the columns of db/entry-pages.ts's
-- PERSON_COLUMNS) and an author's privacy settings
CREATE FUNCTION "people_revision_bump"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE "PeopleRevision" SET "revision" = "revision" + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER "Person_people_revision_update" AFTER UPDATE ON "Person" FOR EACH ROW
    WHEN (NEW."username" IS DISTINCT FROM OLD."username" OR NEW."displayName" IS DISTINCT FROM OLD."displayName"
        OR NEW."location" IS DISTINCT FROM OLD."location" OR NEW."timeZone" IS DISTINCT FROM OLD."timeZone"
        OR NEW."photoUrl" IS DISTINCT FROM OLD."photoUrl" OR NEW."goal" IS DISTINCT FROM OLD."goal"
        OR NEW."units" IS DISTINCT FROM OLD."units" OR NEW."hiddenEndsMeters" IS DISTINCT FROM OLD."hiddenEndsMeters"
        OR NEW."id" IS DISTINCT FROM OLD."id")
    EXECUTE FUNCTION "people_revision_bump"();
CREATE TRIGGER "Person_people_revision_delete" AFTER DELETE ON "Person" FOR EACH STATEMENT EXECUTE FUNCTION "people_revision_bump"();
CREATE TRIGGER "PrivacyZone_people_revision" AFTER INSERT OR UPDATE OR DELETE ON "PrivacyZone" FOR EACH STATEMENT
    EXECUTE FUNCTION "people_revision_bump"();
