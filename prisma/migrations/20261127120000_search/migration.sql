-- Search (issue 45): full-text indexes of people (username, display name) and entries (message,
-- workout title), ignoring case and accents, searched by word prefix. Triggers keep them in step with
-- every writer (this service, the CLI, an import, a cascade). Each index's rowid is its row's id.
CREATE VIRTUAL TABLE "PersonSearch" USING fts5("username", "displayName", tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
CREATE VIRTUAL TABLE "EntrySearch" USING fts5("message", "title", tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');

INSERT INTO "PersonSearch" ("rowid", "username", "displayName") SELECT "id", "username", "displayName" FROM "Person";
INSERT INTO "EntrySearch" ("rowid", "message", "title")
    SELECT e."id", coalesce(e."message", ''), coalesce(w."title", '') FROM "Entry" e LEFT JOIN "Workout" w ON w."entryId" = e."id";

CREATE TRIGGER "Person_search_insert" AFTER INSERT ON "Person"
BEGIN
    INSERT INTO "PersonSearch" ("rowid", "username", "displayName") VALUES (NEW."id", NEW."username", NEW."displayName");
END;
CREATE TRIGGER "Person_search_update" AFTER UPDATE OF "username", "displayName" ON "Person"
BEGIN
    UPDATE "PersonSearch" SET "username" = NEW."username", "displayName" = NEW."displayName" WHERE "rowid" = NEW."id";
END;
CREATE TRIGGER "Person_search_delete" AFTER DELETE ON "Person"
BEGIN
    DELETE FROM "PersonSearch" WHERE "rowid" = OLD."id";
END;

CREATE TRIGGER "Entry_search_insert" AFTER INSERT ON "Entry"
BEGIN
    INSERT INTO "EntrySearch" ("rowid", "message", "title") VALUES (NEW."id", coalesce(NEW."message", ''), '');
END;
CREATE TRIGGER "Entry_search_update" AFTER UPDATE OF "message" ON "Entry"
BEGIN
    UPDATE "EntrySearch" SET "message" = coalesce(NEW."message", '') WHERE "rowid" = NEW."id";
END;
CREATE TRIGGER "Entry_search_delete" AFTER DELETE ON "Entry"
BEGIN
    DELETE FROM "EntrySearch" WHERE "rowid" = OLD."id";
END;
CREATE TRIGGER "Workout_search_insert" AFTER INSERT ON "Workout"
BEGIN
    UPDATE "EntrySearch" SET "title" = coalesce(NEW."title", '') WHERE "rowid" = NEW."entryId";
END;
CREATE TRIGGER "Workout_search_update" AFTER UPDATE OF "title" ON "Workout"
BEGIN
    UPDATE "EntrySearch" SET "title" = coalesce(NEW."title", '') WHERE "rowid" = NEW."entryId";
END;
CREATE TRIGGER "Workout_search_delete" AFTER DELETE ON "Workout"
BEGIN
    UPDATE "EntrySearch" SET "title" = '' WHERE "rowid" = OLD."entryId";
END;
