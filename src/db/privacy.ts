// Reads of people's privacy settings (domain/privacy-zones.ts) on the hot read path: one statement for
// every person an operation shows places of.
import { cutCircle, NO_PRIVACY, type PrivacySettings } from '../domain/privacy-zones.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';

/** Each person's settings, by id, with each zone as the circle cut (cutCircle); a person with none set answers NO_PRIVACY. */
export async function readPrivacy(database: Pick<Database, 'read'>, personIds: readonly number[]): Promise<Map<number, PrivacySettings>> {
  const settings = new Map<number, PrivacySettings>();
  if (personIds.length === 0) return settings;
  const rows = await database.read<{
    id: number;
    ends: number;
    lat: number | null;
    lon: number | null;
    radius: number | null;
    north: number | null;
    east: number | null;
  }>(
    Sql.sql`SELECT p."id", p."hiddenEndsMeters" AS ends, z."lat", z."lon", z."radiusMeters" AS radius,
      z."shiftNorthMeters" AS north, z."shiftEastMeters" AS east FROM "Person" p LEFT JOIN "PrivacyZone" z ON z."personId" = p."id" WHERE p."id" IN (${Sql.join([...new Set(personIds)])})`,
  );
  for (const row of rows) {
    const id = Number(row.id);
    const known = settings.get(id) ?? { endsMeters: Number(row.ends), zones: [] };
    if (row.lat !== null && row.lon !== null && row.radius !== null)
      known.zones = [
        ...known.zones,
        cutCircle({
          lat: Number(row.lat),
          lon: Number(row.lon),
          radiusMeters: Number(row.radius),
          shiftNorthMeters: Number(row.north ?? 0),
          shiftEastMeters: Number(row.east ?? 0),
        }),
      ];
    settings.set(id, known);
  }
  for (const id of personIds) if (!settings.has(id)) settings.set(id, NO_PRIVACY);
  return settings;
}

/** Each track's owner (the entry's author or the route's) and point count, by track id. */
export async function readTrackOwners(
  database: Pick<Database, 'read'>,
  trackIds: readonly number[],
): Promise<Map<number, { ownerId: number; pointCount: number }>> {
  if (trackIds.length === 0) return new Map();
  const rows = await database.read<{ id: number; owner: number; pointCount: number }>(
    Sql.sql`SELECT t."id", COALESCE(e."authorId", r."ownerId") AS owner, t."pointCount" FROM "Track" t
      LEFT JOIN "Entry" e ON e."id" = t."entryId" LEFT JOIN "Route" r ON r."id" = t."routeId"
      WHERE t."id" IN (${Sql.join([...new Set(trackIds)])})`,
  );
  return new Map(rows.map((row) => [Number(row.id), { ownerId: Number(row.owner), pointCount: Number(row.pointCount) }]));
}

/**
 * Each track's packed points and planned route, by track id: megabytes for a long track, so read only
 * when they are decoded, and by the raw reader (Prisma passes bytes through base64 and back).
 */
export async function readTrackPoints(
  database: Pick<Database, 'read'>,
  trackIds: readonly number[],
): Promise<Map<number, { pointData: Uint8Array | null; routePointData: Uint8Array | null }>> {
  if (trackIds.length === 0) return new Map();
  const rows = await database.read<{ id: number; pointData: Uint8Array | null; routePointData: Uint8Array | null }>(
    Sql.sql`SELECT "id", "pointData", "routePointData" FROM "Track" WHERE "id" IN (${Sql.join([...new Set(trackIds)])})`,
  );
  return new Map(rows.map((row) => [Number(row.id), { pointData: row.pointData, routePointData: row.routePointData }]));
}
