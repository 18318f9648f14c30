-- The streams' time index holds who may see each entry and its place (issue 60): a deep page skips the
-- entries before it in the index alone, and the nearby stream's walk in time order tests its box there.
-- DropIndex
DROP INDEX "Entry_createdAt_id_idx";

-- CreateIndex
CREATE INDEX "Entry_createdAt_id_visibility_authorId_lat_lon_idx" ON "Entry"("createdAt", "id", "visibility", "authorId", "lat", "lon");
