-- Kept entry documents (issue 18): a page keeps the part of each entry that is the same for every
-- viewer, and reads it again only when its revision moved. Triggers move the revisions, so every
-- writer is covered: this service, the CLI, an import, a cascade. The column is added in place (no
-- table rebuild). A later migration that rebuilds "Entry", "Workout", "Comment", "Like", "Person" or
-- "PrivacyZone" drops its triggers with the old table and must create them again (the
-- entry-documents tests fail otherwise).
ALTER TABLE "Entry" ADD COLUMN "revision" INTEGER NOT NULL DEFAULT 0;

-- one row; it starts anywhere, so that a kept document never matches another database's
CREATE TABLE "PeopleRevision" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "revision" INTEGER NOT NULL
);
INSERT INTO "PeopleRevision" ("id", "revision") VALUES (1, abs(random() % 1000000000));

-- an entry's own columns (a bump by the triggers below changes the revision, and stops here)
CREATE TRIGGER "Entry_revision" AFTER UPDATE ON "Entry" WHEN NEW."revision" = OLD."revision"
BEGIN
    UPDATE "Entry" SET "revision" = OLD."revision" + 1 WHERE "id" = NEW."id";
END;

-- its workout, comments and likes
CREATE TRIGGER "Workout_revision_insert" AFTER INSERT ON "Workout"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = NEW."entryId";
END;
CREATE TRIGGER "Workout_revision_update" AFTER UPDATE ON "Workout"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" IN (OLD."entryId", NEW."entryId");
END;
CREATE TRIGGER "Workout_revision_delete" AFTER DELETE ON "Workout"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = OLD."entryId";
END;
CREATE TRIGGER "Comment_revision_insert" AFTER INSERT ON "Comment"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = NEW."entryId";
END;
CREATE TRIGGER "Comment_revision_update" AFTER UPDATE ON "Comment"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" IN (OLD."entryId", NEW."entryId");
END;
CREATE TRIGGER "Comment_revision_delete" AFTER DELETE ON "Comment"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = OLD."entryId";
END;
CREATE TRIGGER "Like_revision_insert" AFTER INSERT ON "Like"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = NEW."entryId";
END;
CREATE TRIGGER "Like_revision_update" AFTER UPDATE ON "Like"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" IN (OLD."entryId", NEW."entryId");
END;
CREATE TRIGGER "Like_revision_delete" AFTER DELETE ON "Like"
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = OLD."entryId";
END;

-- the people a page names (authors, commenters, likers: the columns of db/entry-pages.ts's
-- PERSON_COLUMNS) and an author's privacy settings
CREATE TRIGGER "Person_people_revision_update" AFTER UPDATE ON "Person"
WHEN NEW."username" IS NOT OLD."username" OR NEW."displayName" IS NOT OLD."displayName"
    OR NEW."location" IS NOT OLD."location" OR NEW."timeZone" IS NOT OLD."timeZone"
    OR NEW."photoUrl" IS NOT OLD."photoUrl" OR NEW."goal" IS NOT OLD."goal" OR NEW."units" IS NOT OLD."units"
    OR NEW."hiddenEndsMeters" IS NOT OLD."hiddenEndsMeters" OR NEW."id" IS NOT OLD."id"
BEGIN
    UPDATE "PeopleRevision" SET "revision" = "revision" + 1;
END;
CREATE TRIGGER "Person_people_revision_delete" AFTER DELETE ON "Person"
BEGIN
    UPDATE "PeopleRevision" SET "revision" = "revision" + 1;
END;
CREATE TRIGGER "PrivacyZone_people_revision_insert" AFTER INSERT ON "PrivacyZone"
BEGIN
    UPDATE "PeopleRevision" SET "revision" = "revision" + 1;
END;
CREATE TRIGGER "PrivacyZone_people_revision_update" AFTER UPDATE ON "PrivacyZone"
BEGIN
    UPDATE "PeopleRevision" SET "revision" = "revision" + 1;
END;
CREATE TRIGGER "PrivacyZone_people_revision_delete" AFTER DELETE ON "PrivacyZone"
BEGIN
    UPDATE "PeopleRevision" SET "revision" = "revision" + 1;
END;
