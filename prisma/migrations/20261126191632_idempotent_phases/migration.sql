-- AlterTable
ALTER TABLE "IdempotencyKey" ADD COLUMN "lockedUntil" DATETIME;
ALTER TABLE "IdempotencyKey" ADD COLUMN "phases" TEXT;
