-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "elevationGain" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "name" TEXT,
ADD COLUMN     "polyline" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "TrackPoint" ADD COLUMN     "cadence" INTEGER,
ADD COLUMN     "heartRate" INTEGER,
ADD COLUMN     "segment" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "TrackWaypoint" (
    "trackId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,
    "elevation" DOUBLE PRECISION,
    "time" TIMESTAMP(3),
    "name" TEXT,

    CONSTRAINT "TrackWaypoint_pkey" PRIMARY KEY ("trackId","seq")
);

-- AddForeignKey
ALTER TABLE "TrackWaypoint" ADD CONSTRAINT "TrackWaypoint_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track"("id") ON DELETE CASCADE ON UPDATE CASCADE;
