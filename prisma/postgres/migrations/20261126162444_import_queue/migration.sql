-- Archive import jobs as a queue (issue 40): attempts with a backoff, a lease a runner holds and renews, and
-- one active job a person (activeFor, unique). Jobs queued before keep activeFor null.
-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN     "activeFor" INTEGER,
ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "leaseUntil" TIMESTAMP(3),
ADD COLUMN     "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE UNIQUE INDEX "ImportJob_activeFor_key" ON "ImportJob"("activeFor");
