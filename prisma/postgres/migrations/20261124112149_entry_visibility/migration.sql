-- AlterTable
ALTER TABLE "Entry" ADD COLUMN     "visibility" TEXT NOT NULL DEFAULT 'everyone';

-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "defaultVisibility" TEXT NOT NULL DEFAULT 'everyone';
