-- AlterTable
ALTER TABLE "OAuthAccessToken" ADD COLUMN     "name" TEXT;
