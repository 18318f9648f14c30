-- AlterTable
ALTER TABLE "Track" ADD COLUMN "pointData" BLOB;

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "TrackPoint";
PRAGMA foreign_keys=on;
