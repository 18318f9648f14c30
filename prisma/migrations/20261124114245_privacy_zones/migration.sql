-- Privacy zones (issue 21): the places a person hides, and how much of every track's start and
-- finish. The column is added in place (no table rebuild); everyone starts with nothing hidden.
CREATE TABLE "PrivacyZone" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "lat" REAL NOT NULL,
    "lon" REAL NOT NULL,
    "radiusMeters" REAL NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PrivacyZone_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "PrivacyZone_personId_idx" ON "PrivacyZone"("personId");
ALTER TABLE "Person" ADD COLUMN "hiddenEndsMeters" INTEGER NOT NULL DEFAULT 0;
