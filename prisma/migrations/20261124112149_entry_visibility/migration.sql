-- Who sees an entry, and a person's default for new entries (issue 21). Columns added in place:
-- existing entries and people get "everyone", and no table is rebuilt.
ALTER TABLE "Entry" ADD COLUMN "visibility" TEXT NOT NULL DEFAULT 'everyone';
ALTER TABLE "Person" ADD COLUMN "defaultVisibility" TEXT NOT NULL DEFAULT 'everyone';
