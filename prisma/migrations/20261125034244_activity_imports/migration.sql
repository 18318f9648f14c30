-- AlterTable
ALTER TABLE "Entry" ADD COLUMN "importHash" TEXT;

-- CreateTable
CREATE TABLE "ImportJob" (
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
    CONSTRAINT "ImportJob_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ImportJob_personId_id_idx" ON "ImportJob"("personId", "id");

-- CreateIndex
CREATE INDEX "ImportJob_status_id_idx" ON "ImportJob"("status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Entry_authorId_importHash_key" ON "Entry"("authorId", "importHash");
