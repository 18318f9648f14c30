-- What a workout's file and track tell beyond their totals (issue 62): the athlete's thresholds for zones,
-- the laps and thresholds a file recorded, the analysis computed with a track's records, and its best
-- power for the records. Tracks stored before it are analysed at start-up (RECORDS_VERSION 2,
-- db/track-records.ts).
-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "maxHeartRate" INTEGER,
ADD COLUMN     "restingHeartRate" INTEGER,
ADD COLUMN     "thresholdPower" INTEGER;

-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "analysis" TEXT,
ADD COLUMN     "recorded" TEXT;

-- CreateTable
CREATE TABLE "PowerEffort" (
    "trackId" INTEGER NOT NULL,
    "seconds" INTEGER NOT NULL,
    "watts" INTEGER NOT NULL,
    "startOffsetMs" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "PowerEffort_pkey" PRIMARY KEY ("trackId","seconds")
);

-- AddForeignKey
ALTER TABLE "PowerEffort" ADD CONSTRAINT "PowerEffort_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track"("id") ON DELETE CASCADE ON UPDATE CASCADE;
