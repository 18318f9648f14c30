-- AlterTable
ALTER TABLE "OAuthAccessToken" ADD COLUMN     "authorizationCodeId" INTEGER;

-- AlterTable
ALTER TABLE "OAuthAuthorizationCode" ADD COLUMN     "usedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "OAuthAccessToken_authorizationCodeId_idx" ON "OAuthAccessToken"("authorizationCodeId");

-- AddForeignKey
ALTER TABLE "OAuthAccessToken" ADD CONSTRAINT "OAuthAccessToken_authorizationCodeId_fkey" FOREIGN KEY ("authorizationCodeId") REFERENCES "OAuthAuthorizationCode"("id") ON DELETE SET NULL ON UPDATE CASCADE;
