-- DropForeignKey
ALTER TABLE "TrackPoint" DROP CONSTRAINT "TrackPoint_trackId_fkey";

-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "pointData" BYTEA;

-- DropTable
DROP TABLE "TrackPoint";
