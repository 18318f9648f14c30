-- What anyone but a track's owner is told of it when the owner's privacy hides part of it (issue 57): the
-- shown part's figures, kept per track for one version of the owner's settings, which every change of
-- their hidden ends or zones raises (db/shown-figures.ts). Columns are added in place (a rebuild of
-- "Person" would drop its revision and search triggers).
ALTER TABLE "Person" ADD COLUMN "privacyVersion" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Track" ADD COLUMN "shownVersion" INTEGER NOT NULL DEFAULT -1;
ALTER TABLE "Track" ADD COLUMN "shownMeters" REAL;
ALTER TABLE "Track" ADD COLUMN "shownMovingSeconds" INTEGER;
ALTER TABLE "Track" ADD COLUMN "shownGain" REAL;
ALTER TABLE "Track" ADD COLUMN "shownFromMs" REAL;
ALTER TABLE "Track" ADD COLUMN "shownToMs" REAL;
