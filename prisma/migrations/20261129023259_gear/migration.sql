-- Written by hand: Prisma would redefine "Person" and "Workout" (copy, drop, rename), which drops the
-- triggers on both tables (db/kept-stats.ts, db/entry-documents.ts). Adding the columns keeps them.

-- CreateTable
CREATE TABLE "Gear" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "brand" TEXT,
    "model" TEXT,
    "kind" TEXT NOT NULL,
    "retired" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Gear_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable
ALTER TABLE "Person" ADD COLUMN "defaultGear" TEXT NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "Workout" ADD COLUMN "gearId" INTEGER REFERENCES "Gear" ("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "Workout_gearId_idx" ON "Workout"("gearId");

-- CreateIndex
CREATE INDEX "Gear_ownerId_createdAt_idx" ON "Gear"("ownerId", "createdAt");
