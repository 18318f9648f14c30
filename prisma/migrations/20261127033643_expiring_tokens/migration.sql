-- AlterTable
ALTER TABLE "OAuthAccessToken" ADD COLUMN "expiresAt" DATETIME;
ALTER TABLE "OAuthAccessToken" ADD COLUMN "familyId" TEXT;
ALTER TABLE "OAuthAccessToken" ADD COLUMN "refreshExpiresAt" DATETIME;
ALTER TABLE "OAuthAccessToken" ADD COLUMN "refreshTokenHash" TEXT;
ALTER TABLE "OAuthAccessToken" ADD COLUMN "refreshedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OAuthClient" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "clientId" TEXT NOT NULL,
    "secretHash" TEXT,
    "name" TEXT NOT NULL,
    "confidential" BOOLEAN NOT NULL DEFAULT true,
    "allowImplicit" BOOLEAN NOT NULL DEFAULT false,
    "allowPlainHttp" BOOLEAN NOT NULL DEFAULT false,
    "legacyTokens" BOOLEAN NOT NULL DEFAULT false,
    "ownerId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "webhookUrl" TEXT,
    "webhookSecret" TEXT,
    CONSTRAINT "OAuthClient_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Person" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_OAuthClient" ("allowImplicit", "allowPlainHttp", "clientId", "confidential", "createdAt", "id", "name", "ownerId", "secretHash", "webhookSecret", "webhookUrl") SELECT "allowImplicit", "allowPlainHttp", "clientId", "confidential", "createdAt", "id", "name", "ownerId", "secretHash", "webhookSecret", "webhookUrl" FROM "OAuthClient";
DROP TABLE "OAuthClient";
ALTER TABLE "new_OAuthClient" RENAME TO "OAuthClient";
CREATE UNIQUE INDEX "OAuthClient_clientId_key" ON "OAuthClient"("clientId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "OAuthAccessToken_refreshTokenHash_key" ON "OAuthAccessToken"("refreshTokenHash");

-- CreateIndex
CREATE INDEX "OAuthAccessToken_familyId_idx" ON "OAuthAccessToken"("familyId");

-- apps registered before tokens expired keep tokens that never expire: their clients may not refresh
UPDATE "OAuthClient" SET "legacyTokens" = true;
