-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "statsVisibility" TEXT NOT NULL DEFAULT 'everyone',
ADD COLUMN     "weekStart" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "movingSeconds" INTEGER,
ADD COLUMN     "recordsVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "BestEffort" (
    "trackId" INTEGER NOT NULL,
    "distance" TEXT NOT NULL,
    "seconds" DOUBLE PRECISION NOT NULL,
    "startOffsetMs" INTEGER NOT NULL,

    CONSTRAINT "BestEffort_pkey" PRIMARY KEY ("trackId","distance")
);

-- AddForeignKey
ALTER TABLE "BestEffort" ADD CONSTRAINT "BestEffort_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track"("id") ON DELETE CASCADE ON UPDATE CASCADE;
