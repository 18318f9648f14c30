// Stores a parsed GPX document as the track of an entry or a route, replacing any earlier one, in one
// transaction: a failure leaves the previous track as it was.
import type { ParsedGpx } from '../domain/gpx.ts';
import { encodePolyline, summarizeTrack, thin } from '../domain/track.ts';
import { encodePoints } from '../domain/track-codec.ts';
import { bulkInsert } from './bulk.ts';
import type { Prisma } from './database.ts';

export type TrackOwner = { entryId: number } | { routeId: number };

export async function replaceTrack(prisma: Prisma, provider: 'sqlite' | 'postgresql', owner: TrackOwner, gpx: ParsedGpx): Promise<number> {
  const summary = summarizeTrack(gpx.points);
  return prisma.$transaction(
    async (tx) => {
      await tx.track.deleteMany({ where: owner });
      const track = await tx.track.create({
        data: {
          ...owner,
          ...summary,
          name: gpx.name,
          polyline: encodePolyline(thin(gpx.points)),
          pointData: encodePoints(gpx.points) as Uint8Array<ArrayBuffer>,
          routePointData: gpx.routePoints.length ? (encodePoints(gpx.routePoints) as Uint8Array<ArrayBuffer>) : null,
          updatedAt: new Date(),
        },
        select: { id: true },
      });
      await bulkInsert(
        { provider, client: tx },
        'TrackWaypoint',
        gpx.waypoints.map((w, seq) => ({ trackId: track.id, seq, ...w })),
      );
      return track.id;
    },
    // a 200k-point track is a 7 MB value: allow a slow disk more than the default five seconds
    { timeout: 30_000, maxWait: 10_000 },
  );
}
