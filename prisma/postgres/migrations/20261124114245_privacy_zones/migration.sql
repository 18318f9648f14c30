-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "hiddenEndsMeters" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PrivacyZone" (
    "id" SERIAL NOT NULL,
    "personId" INTEGER NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,
    "radiusMeters" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrivacyZone_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PrivacyZone_personId_idx" ON "PrivacyZone"("personId");

-- AddForeignKey
ALTER TABLE "PrivacyZone" ADD CONSTRAINT "PrivacyZone_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;
