-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "defaultGear" TEXT NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "Workout" ADD COLUMN     "gearId" INTEGER;

-- CreateTable
CREATE TABLE "Gear" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "brand" TEXT,
    "model" TEXT,
    "kind" TEXT NOT NULL,
    "retired" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Gear_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Gear_ownerId_createdAt_idx" ON "Gear"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "Workout_gearId_idx" ON "Workout"("gearId");

-- AddForeignKey
ALTER TABLE "Workout" ADD CONSTRAINT "Workout_gearId_fkey" FOREIGN KEY ("gearId") REFERENCES "Gear"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Gear" ADD CONSTRAINT "Gear_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;
