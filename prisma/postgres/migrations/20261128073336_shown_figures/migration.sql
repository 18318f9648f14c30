-- What anyone but a track's owner is told of it when the owner's privacy hides part of it (issue 57):
-- the shown part's figures, kept per track for one version of the owner's settings (db/shown-figures.ts).
-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "privacyVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "shownFromMs" DOUBLE PRECISION,
ADD COLUMN     "shownGain" DOUBLE PRECISION,
ADD COLUMN     "shownMeters" DOUBLE PRECISION,
ADD COLUMN     "shownMovingSeconds" INTEGER,
ADD COLUMN     "shownToMs" DOUBLE PRECISION,
ADD COLUMN     "shownVersion" INTEGER NOT NULL DEFAULT -1;
