-- What a workout's file and track tell beyond their totals (issue 62): the athlete's thresholds for zones,
-- the laps and thresholds a file recorded, and the analysis computed with a track's records. Tracks stored
-- before it are computed again at start-up (RECORDS_VERSION 2, db/track-records.ts).
-- AlterTable
ALTER TABLE "Person" ADD COLUMN "maxHeartRate" INTEGER;
ALTER TABLE "Person" ADD COLUMN "restingHeartRate" INTEGER;
ALTER TABLE "Person" ADD COLUMN "thresholdPower" INTEGER;

-- AlterTable
ALTER TABLE "Track" ADD COLUMN "analysis" TEXT;
ALTER TABLE "Track" ADD COLUMN "recorded" TEXT;
