-- Mailed notifications (issue 45): an address per person, verified by a link mailed to it; how often they
-- are mailed; per kind whether it is mailed; and the mail outbox (src/mail/). Person's and
-- NotificationPreference's columns are added in place (a rebuild of "Person" would drop its revision and
-- search triggers).
ALTER TABLE "Person" ADD COLUMN "email" TEXT;
ALTER TABLE "Person" ADD COLUMN "emailVerifiedAt" DATETIME;
ALTER TABLE "Person" ADD COLUMN "emailFrequency" TEXT NOT NULL DEFAULT 'immediate';
ALTER TABLE "Person" ADD COLUMN "digestQueuedAt" DATETIME;
CREATE INDEX "Person_emailFrequency_digestQueuedAt_idx" ON "Person"("emailFrequency", "digestQueuedAt");

ALTER TABLE "NotificationPreference" ADD COLUMN "email" BOOLEAN NOT NULL DEFAULT true;

-- An unread notification's group is unique per person (its "unreadKey", null once read): concurrent acts
-- grow one row rather than each writing their own. Of unread rows already split, the newest keeps it.
DROP INDEX "Notification_personId_groupKey_idx";
ALTER TABLE "Notification" ADD COLUMN "unreadKey" TEXT;
UPDATE "Notification" SET "unreadKey" = "groupKey"
WHERE "readAt" IS NULL AND "id" = (
    SELECT max(n."id") FROM "Notification" n
    WHERE n."personId" = "Notification"."personId" AND n."groupKey" = "Notification"."groupKey" AND n."readAt" IS NULL
);
CREATE UNIQUE INDEX "Notification_personId_unreadKey_key" ON "Notification"("personId", "unreadKey");

CREATE TABLE "Mail" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "notificationId" INTEGER,
    "since" DATETIME,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" DATETIME,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Mail_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Mail_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Mail_status_nextAttemptAt_idx" ON "Mail"("status", "nextAttemptAt");
CREATE INDEX "Mail_personId_kind_createdAt_idx" ON "Mail"("personId", "kind", "createdAt");
CREATE INDEX "Mail_notificationId_idx" ON "Mail"("notificationId");
