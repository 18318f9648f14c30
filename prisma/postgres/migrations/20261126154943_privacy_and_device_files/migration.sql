-- Issue 39. Privacy zones cut a circle shifted off their centre by a stable random 20-50% of the radius,
-- so that tracks cut at its edge do not point at the home. Zones made before get a shift of 20-42% of
-- their radius (an independent random share north and east, with random signs).
ALTER TABLE "PrivacyZone" ADD COLUMN     "shiftEastMeters" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "shiftNorthMeters" DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE "PrivacyZone" SET
  "shiftNorthMeters" = "radiusMeters" * (0.1414 + 0.1556 * random()) * (CASE WHEN random() < 0.5 THEN 1 ELSE -1 END),
  "shiftEastMeters" = "radiusMeters" * (0.1414 + 0.1556 * random()) * (CASE WHEN random() < 0.5 THEN 1 ELSE -1 END);

-- who may have an uploaded photo (Query.photo): the entries that show it
CREATE INDEX "Entry_mediaUrl_idx" ON "Entry"("mediaUrl");
CREATE INDEX "Entry_mediaPreviewUrl_idx" ON "Entry"("mediaPreviewUrl");

-- what was salvaged or dropped from an uploaded file; a best effort's start past 2^31 milliseconds (issue 39)
ALTER TABLE "BestEffort" ALTER COLUMN "startOffsetMs" SET DATA TYPE DOUBLE PRECISION;
ALTER TABLE "Track" ADD COLUMN     "repairs" TEXT;
