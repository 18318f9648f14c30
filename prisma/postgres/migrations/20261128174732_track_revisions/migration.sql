-- An entry's track is part of what its revision covers (issue 60): a page that shows an entry's track
-- (the generated REST API's streams do) keeps the entry's JSON with it, as it keeps its workout's. For
-- anyone but its author, what a track shows follows from its row and the author's privacy settings, which
-- move the people revision (*_entry_revisions); these triggers move the entry's revision on every write
-- to its track: a new or replaced track, its shown figures computed later, its removal (the functions of
-- *_entry_revisions, over the rows' `entryId`).
CREATE TRIGGER "Track_revision_insert" AFTER INSERT ON "Track" REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
CREATE TRIGGER "Track_revision_update" AFTER UPDATE ON "Track" REFERENCING OLD TABLE AS was NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_updated_rows"();
CREATE TRIGGER "Track_revision_delete" AFTER DELETE ON "Track" REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION "entry_revision_of_rows"();
