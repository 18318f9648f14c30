-- Issue 39. Privacy zones cut a circle shifted off their centre by a stable random 20-50% of the radius,
-- so that tracks cut at its edge do not point at the home. The columns are added in place: a rebuilt
-- table would drop the zone's revision triggers (entry_revisions). Zones made before get a shift of
-- 20-42% of their radius (an independent random share north and east, with random signs).
ALTER TABLE "PrivacyZone" ADD COLUMN "shiftNorthMeters" REAL NOT NULL DEFAULT 0;
ALTER TABLE "PrivacyZone" ADD COLUMN "shiftEastMeters" REAL NOT NULL DEFAULT 0;
UPDATE "PrivacyZone" SET
  "shiftNorthMeters" = "radiusMeters" * (0.1414 + 0.1556 * ((random() & 1048575) / 1048576.0)) * (CASE WHEN random() & 1 THEN 1 ELSE -1 END),
  "shiftEastMeters" = "radiusMeters" * (0.1414 + 0.1556 * ((random() & 1048575) / 1048576.0)) * (CASE WHEN random() & 1 THEN 1 ELSE -1 END);

-- who may have an uploaded photo (Query.photo): the entries that show it
CREATE INDEX "Entry_mediaUrl_idx" ON "Entry"("mediaUrl");
CREATE INDEX "Entry_mediaPreviewUrl_idx" ON "Entry"("mediaPreviewUrl");

-- what was salvaged or dropped from an uploaded file; a best effort's start past 2^31 milliseconds (issue 39)
ALTER TABLE "Track" ADD COLUMN "repairs" TEXT;
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_BestEffort" (
    "trackId" INTEGER NOT NULL,
    "distance" TEXT NOT NULL,
    "seconds" REAL NOT NULL,
    "startOffsetMs" REAL NOT NULL,
    PRIMARY KEY ("trackId", "distance"),
    CONSTRAINT "BestEffort_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_BestEffort" ("distance", "seconds", "startOffsetMs", "trackId") SELECT "distance", "seconds", "startOffsetMs", "trackId" FROM "BestEffort";
DROP TABLE "BestEffort";
ALTER TABLE "new_BestEffort" RENAME TO "BestEffort";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
