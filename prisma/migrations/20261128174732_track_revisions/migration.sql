-- An entry's track is part of what its revision covers (issue 60): a page that shows an entry's track
-- (the generated REST API's streams do) keeps the entry's JSON with it, as it keeps its workout's. For
-- anyone but its author, what a track shows follows from its row and the author's privacy settings, which
-- move the people revision (*_entry_revisions); these triggers move the entry's revision on every write
-- to its track: a new or replaced track, its shown figures computed later, its removal.
CREATE TRIGGER "Track_revision_insert" AFTER INSERT ON "Track" WHEN NEW."entryId" IS NOT NULL
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = NEW."entryId";
END;
CREATE TRIGGER "Track_revision_update" AFTER UPDATE ON "Track" WHEN NEW."entryId" IS NOT NULL OR OLD."entryId" IS NOT NULL
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" IN (OLD."entryId", NEW."entryId");
END;
CREATE TRIGGER "Track_revision_delete" AFTER DELETE ON "Track" WHEN OLD."entryId" IS NOT NULL
BEGIN
    UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" = OLD."entryId";
END;
