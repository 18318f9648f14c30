-- CreateTable
CREATE TABLE "TrackWaypoint" (
    "trackId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "lat" REAL NOT NULL,
    "lon" REAL NOT NULL,
    "elevation" REAL,
    "time" DATETIME,
    "name" TEXT,

    PRIMARY KEY ("trackId", "seq"),
    CONSTRAINT "TrackWaypoint_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Track" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "entryId" INTEGER,
    "routeId" INTEGER,
    "name" TEXT,
    "pointCount" INTEGER NOT NULL DEFAULT 0,
    "distanceMeters" REAL NOT NULL DEFAULT 0,
    "elevationGain" REAL NOT NULL DEFAULT 0,
    "polyline" TEXT NOT NULL DEFAULT '',
    "minLat" REAL,
    "minLon" REAL,
    "maxLat" REAL,
    "maxLon" REAL,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Track_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Track_routeId_fkey" FOREIGN KEY ("routeId") REFERENCES "Route" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Track" ("distanceMeters", "endedAt", "entryId", "id", "maxLat", "maxLon", "minLat", "minLon", "pointCount", "routeId", "startedAt", "updatedAt") SELECT "distanceMeters", "endedAt", "entryId", "id", "maxLat", "maxLon", "minLat", "minLon", "pointCount", "routeId", "startedAt", "updatedAt" FROM "Track";
DROP TABLE "Track";
ALTER TABLE "new_Track" RENAME TO "Track";
CREATE UNIQUE INDEX "Track_entryId_key" ON "Track"("entryId");
CREATE UNIQUE INDEX "Track_routeId_key" ON "Track"("routeId");
CREATE TABLE "new_TrackPoint" (
    "trackId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "segment" INTEGER NOT NULL DEFAULT 0,
    "lat" REAL NOT NULL,
    "lon" REAL NOT NULL,
    "elevation" REAL,
    "time" DATETIME,
    "heartRate" INTEGER,
    "cadence" INTEGER,

    PRIMARY KEY ("trackId", "seq"),
    CONSTRAINT "TrackPoint_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_TrackPoint" ("elevation", "lat", "lon", "seq", "time", "trackId") SELECT "elevation", "lat", "lon", "seq", "time", "trackId" FROM "TrackPoint";
DROP TABLE "TrackPoint";
ALTER TABLE "new_TrackPoint" RENAME TO "TrackPoint";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
