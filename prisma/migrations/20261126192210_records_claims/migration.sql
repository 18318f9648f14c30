-- AlterTable
ALTER TABLE "Track" ADD COLUMN "recordsClaimedUntil" DATETIME;
