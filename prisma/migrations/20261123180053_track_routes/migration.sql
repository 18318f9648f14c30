-- AlterTable
ALTER TABLE "Track" ADD COLUMN "routePointData" BLOB;
