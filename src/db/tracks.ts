// Stores a parsed GPX document as the track of an entry or a route, replacing any earlier one, in one
// transaction: a failure leaves the previous track as it was.

import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { PreparedTrack } from '../tracks/prepare.ts';
import { bulkInsert } from './bulk.ts';
import { type Database, forgetStatementArguments, type Prisma, type Transaction } from './database.ts';
import { storedDate } from './entry-rows.ts';

export type TrackOwner = { entryId: number } | { routeId: number };

export async function replaceTrack(
  prisma: Prisma,
  provider: 'sqlite' | 'postgresql',
  owner: TrackOwner,
  track: PreparedTrack,
  also?: (tx: Transaction) => Promise<void>,
): Promise<number> {
  return prisma.$transaction(
    async (tx) => {
      await tx.track.deleteMany({ where: owner });
      const id = await writeTrack(tx, provider, owner, track);
      await also?.(tx);
      return id;
    },
    // a 200k-point track is a 7 MB value: allow a slow disk more than the default five seconds
    TRACK_TRANSACTION,
  );
}

/** Room for a slow disk to write a 7 MB track (200,000 points) inside a transaction. */
export const TRACK_TRANSACTION = { timeout: 30_000, maxWait: 10_000 };

/** Stores a track for an owner that has none, inside the caller's transaction. */
export async function writeTrack(
  tx: Transaction,
  provider: 'sqlite' | 'postgresql',
  owner: TrackOwner,
  track: PreparedTrack,
): Promise<number> {
  const { id } = await tx.track.create({ data: { ...owner, ...track.data }, select: { id: true } });
  forgetStatementArguments();
  // the entry's position is hidden near its track's ends (Entry.geo): a kept document of it is stale
  if ('entryId' in owner && owner.entryId !== undefined)
    await tx.entry.updateMany({ where: { id: owner.entryId }, data: { revision: { increment: 1 } } });
  if (track.efforts.length) await tx.bestEffort.createMany({ data: track.efforts.map((effort) => ({ trackId: id, ...effort })) });
  if (track.powerEfforts.length)
    await tx.powerEffort.createMany({ data: track.powerEfforts.map((effort) => ({ trackId: id, ...effort })) });
  await bulkInsert(
    { provider, client: tx },
    'TrackWaypoint',
    track.waypoints.map((w, seq) => ({ trackId: id, seq, ...w })),
  );
  return id;
}

/** What a list of entries shows of each one's track: every column but the packed points. */
export interface TrackSummary {
  id: number;
  entryId: number | null;
  routeId: number | null;
  name: string | null;
  pointCount: number;
  distanceMeters: number;
  elevationGain: number;
  polyline: string;
  startedAt: Date | null;
  endedAt: Date | null;
  updatedAt: Date;
  repairs: string | null;
}

const asDate = (value: Date | string | null): Date | null => (value === null || value instanceof Date ? value : storedDate(value));

/**
 * The tracks of these entries (or routes, `by: 'routeId'`), on the hot read path (Database.read): one
 * statement, without the packed points, which only `points`, `outline` and `gpx` read (through Prisma,
 * a page's tracks cost two statements and about 2.4 ms of CPU).
 */
export async function readTrackSummaries(
  database: Pick<Database, 'read'>,
  ids: readonly number[],
  by: 'entryId' | 'routeId' = 'entryId',
): Promise<TrackSummary[]> {
  if (ids.length === 0) return [];
  const rows = await database.read<
    TrackSummary & { startedAt: Date | string | null; endedAt: Date | string | null; updatedAt: Date | string }
  >(
    Sql.sql`SELECT "id", "entryId", "routeId", "name", "pointCount", "distanceMeters", "elevationGain", "polyline",
      "startedAt", "endedAt", "updatedAt", "repairs" FROM "Track" WHERE ${Sql.raw(`"${by}"`)} IN (${Sql.join([...new Set(ids)])})`,
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    entryId: row.entryId === null ? null : Number(row.entryId),
    routeId: row.routeId === null ? null : Number(row.routeId),
    pointCount: Number(row.pointCount),
    distanceMeters: Number(row.distanceMeters),
    elevationGain: Number(row.elevationGain),
    startedAt: asDate(row.startedAt),
    endedAt: asDate(row.endedAt),
    updatedAt: asDate(row.updatedAt)!,
  }));
}
