-- DropIndex
DROP INDEX "Entry_lat_lon_idx";

-- CreateIndex
CREATE INDEX "Entry_lat_lon_createdAt_id_idx" ON "Entry"("lat", "lon", "createdAt", "id");
