-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_FederationJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_FederationJob" ("createdAt", "id", "lockedUntil", "nextAttemptAt", "payload", "status") SELECT "createdAt", "id", "lockedUntil", "nextAttemptAt", "payload", "status" FROM "FederationJob";
DROP TABLE "FederationJob";
ALTER TABLE "new_FederationJob" RENAME TO "FederationJob";
CREATE INDEX "FederationJob_status_nextAttemptAt_idx" ON "FederationJob"("status", "nextAttemptAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
