-- Archive import jobs as a queue (issue 40): attempts with a backoff, a lease a runner holds and renews, and
-- one active job a person (activeFor, unique). Jobs queued before keep activeFor null.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ImportJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "fileName" TEXT NOT NULL,
    "storedName" TEXT NOT NULL,
    "total" INTEGER NOT NULL DEFAULT 0,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    "skipped" TEXT NOT NULL DEFAULT '[]',
    "skippedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runAfter" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" DATETIME,
    "activeFor" INTEGER,
    CONSTRAINT "ImportJob_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ImportJob" ("created", "createdAt", "duplicates", "error", "fileName", "id", "personId", "processed", "skipped", "skippedCount", "status", "storedName", "total", "updatedAt") SELECT "created", "createdAt", "duplicates", "error", "fileName", "id", "personId", "processed", "skipped", "skippedCount", "status", "storedName", "total", "updatedAt" FROM "ImportJob";
DROP TABLE "ImportJob";
ALTER TABLE "new_ImportJob" RENAME TO "ImportJob";
CREATE UNIQUE INDEX "ImportJob_activeFor_key" ON "ImportJob"("activeFor");
CREATE INDEX "ImportJob_personId_id_idx" ON "ImportJob"("personId", "id");
CREATE INDEX "ImportJob_status_id_idx" ON "ImportJob"("status", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
