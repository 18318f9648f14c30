-- AlterTable
ALTER TABLE "FederationJob" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0;
