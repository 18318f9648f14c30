-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "recordsClaimedUntil" TIMESTAMP(3);
