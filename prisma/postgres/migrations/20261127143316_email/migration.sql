-- Mailed notifications (issue 45): an address per person, how often they are mailed, per kind whether
-- it is mailed, the mail outbox (src/mail/), and one unread notification per group and person.
-- DropIndex
DROP INDEX "Notification_personId_groupKey_idx";

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "unreadKey" TEXT;

-- AlterTable
ALTER TABLE "NotificationPreference" ADD COLUMN     "email" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "digestQueuedAt" TIMESTAMP(3),
ADD COLUMN     "email" TEXT,
ADD COLUMN     "emailFrequency" TEXT NOT NULL DEFAULT 'immediate',
ADD COLUMN     "emailVerifiedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Mail" (
    "id" SERIAL NOT NULL,
    "personId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "notificationId" INTEGER,
    "since" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Mail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Mail_status_nextAttemptAt_idx" ON "Mail"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Mail_personId_kind_createdAt_idx" ON "Mail"("personId", "kind", "createdAt");

-- CreateIndex
CREATE INDEX "Mail_notificationId_idx" ON "Mail"("notificationId");

-- An unread notification's group is unique per person: of unread rows already split, the newest keeps it
UPDATE "Notification" SET "unreadKey" = "groupKey"
WHERE "readAt" IS NULL AND "id" = (
    SELECT max(n."id") FROM "Notification" n
    WHERE n."personId" = "Notification"."personId" AND n."groupKey" = "Notification"."groupKey" AND n."readAt" IS NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Notification_personId_unreadKey_key" ON "Notification"("personId", "unreadKey");

-- CreateIndex
CREATE INDEX "Person_emailFrequency_digestQueuedAt_idx" ON "Person"("emailFrequency", "digestQueuedAt");

-- AddForeignKey
ALTER TABLE "Mail" ADD CONSTRAINT "Mail_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mail" ADD CONSTRAINT "Mail_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;
