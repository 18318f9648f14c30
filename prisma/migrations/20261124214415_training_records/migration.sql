-- CreateTable
CREATE TABLE "BestEffort" (
    "trackId" INTEGER NOT NULL,
    "distance" TEXT NOT NULL,
    "seconds" REAL NOT NULL,
    "startOffsetMs" INTEGER NOT NULL,

    PRIMARY KEY ("trackId", "distance"),
    CONSTRAINT "BestEffort_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (columns with defaults: added in place, no table rebuild)
ALTER TABLE "Person" ADD COLUMN "statsVisibility" TEXT NOT NULL DEFAULT 'everyone';
ALTER TABLE "Person" ADD COLUMN "weekStart" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Track" ADD COLUMN "movingSeconds" INTEGER;
ALTER TABLE "Track" ADD COLUMN "recordsVersion" INTEGER NOT NULL DEFAULT 0;
