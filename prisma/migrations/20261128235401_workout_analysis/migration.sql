-- What a workout's file and track tell beyond their totals (issue 62): the athlete's thresholds for zones,
-- the laps and thresholds a file recorded, the analysis computed with a track's records, and its best
-- power for the records. Tracks stored before it are analysed at start-up (RECORDS_VERSION 2,
-- db/track-records.ts).
-- AlterTable
ALTER TABLE "Person" ADD COLUMN "maxHeartRate" INTEGER;
ALTER TABLE "Person" ADD COLUMN "restingHeartRate" INTEGER;
ALTER TABLE "Person" ADD COLUMN "thresholdPower" INTEGER;

-- AlterTable
ALTER TABLE "Track" ADD COLUMN "analysis" TEXT;
ALTER TABLE "Track" ADD COLUMN "recorded" TEXT;

-- CreateTable
CREATE TABLE "PowerEffort" (
    "trackId" INTEGER NOT NULL,
    "seconds" INTEGER NOT NULL,
    "watts" INTEGER NOT NULL,
    "startOffsetMs" REAL NOT NULL,

    PRIMARY KEY ("trackId", "seconds"),
    CONSTRAINT "PowerEffort_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
