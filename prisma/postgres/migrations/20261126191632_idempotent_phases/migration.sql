-- AlterTable
ALTER TABLE "IdempotencyKey" ADD COLUMN     "lockedUntil" TIMESTAMP(3),
ADD COLUMN     "phases" TEXT;
