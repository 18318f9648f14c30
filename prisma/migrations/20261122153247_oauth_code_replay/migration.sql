-- AlterTable
ALTER TABLE "OAuthAuthorizationCode" ADD COLUMN "usedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OAuthAccessToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tokenHash" TEXT NOT NULL,
    "clientId" INTEGER NOT NULL,
    "personId" INTEGER NOT NULL,
    "scope" TEXT,
    "authorizationCodeId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME,
    "lastUsedAt" DATETIME,
    CONSTRAINT "OAuthAccessToken_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OAuthAccessToken_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OAuthAccessToken_authorizationCodeId_fkey" FOREIGN KEY ("authorizationCodeId") REFERENCES "OAuthAuthorizationCode" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_OAuthAccessToken" ("clientId", "createdAt", "id", "lastUsedAt", "personId", "revokedAt", "scope", "tokenHash") SELECT "clientId", "createdAt", "id", "lastUsedAt", "personId", "revokedAt", "scope", "tokenHash" FROM "OAuthAccessToken";
DROP TABLE "OAuthAccessToken";
ALTER TABLE "new_OAuthAccessToken" RENAME TO "OAuthAccessToken";
CREATE UNIQUE INDEX "OAuthAccessToken_tokenHash_key" ON "OAuthAccessToken"("tokenHash");
CREATE INDEX "OAuthAccessToken_personId_idx" ON "OAuthAccessToken"("personId");
CREATE INDEX "OAuthAccessToken_clientId_idx" ON "OAuthAccessToken"("clientId");
CREATE INDEX "OAuthAccessToken_authorizationCodeId_idx" ON "OAuthAccessToken"("authorizationCodeId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
