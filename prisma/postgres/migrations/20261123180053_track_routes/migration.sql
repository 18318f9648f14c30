-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "routePointData" BYTEA;
