-- AlterTable
ALTER TABLE "OAuthAccessToken" ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "familyId" TEXT,
ADD COLUMN     "refreshExpiresAt" TIMESTAMP(3),
ADD COLUMN     "refreshTokenHash" TEXT,
ADD COLUMN     "refreshedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "legacyTokens" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "OAuthAccessToken_refreshTokenHash_key" ON "OAuthAccessToken"("refreshTokenHash");

-- CreateIndex
CREATE INDEX "OAuthAccessToken_familyId_idx" ON "OAuthAccessToken"("familyId");

-- apps registered before tokens expired keep tokens that never expire: their clients may not refresh
UPDATE "OAuthClient" SET "legacyTokens" = true;
