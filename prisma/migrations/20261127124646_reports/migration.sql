-- Reports and moderation (issue 45): a person's report of an entry or a comment, moderators (Person.role),
-- suspended accounts (Person.suspendedAt) and hidden entries (Entry.hiddenAt).
-- AlterTable
ALTER TABLE "Entry" ADD COLUMN "hiddenAt" DATETIME;

-- CreateTable
CREATE TABLE "Report" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "reporterId" INTEGER NOT NULL,
    "targetKind" TEXT NOT NULL,
    "targetId" INTEGER NOT NULL,
    "excerpt" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    "resolution" TEXT,
    "resolvedBy" INTEGER,
    CONSTRAINT "Report_reporterId_fkey" FOREIGN KEY ("reporterId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- "Person"'s new columns in place (a table rebuild would drop its revision, search and kept-apart triggers)
ALTER TABLE "Person" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'member';
ALTER TABLE "Person" ADD COLUMN "suspendedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Report_resolvedAt_createdAt_idx" ON "Report"("resolvedAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Report_reporterId_targetKind_targetId_key" ON "Report"("reporterId", "targetKind", "targetId");
