-- A refresh token used again within the reuse window (two tabs refreshing at once) answers the pair it
-- was exchanged for, sealed with a key only that refresh token gives (src/db/refresh-reuse.ts).
-- AlterTable
ALTER TABLE "OAuthAccessToken" ADD COLUMN "reissue" TEXT;
