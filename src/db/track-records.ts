// Brings every stored track's moving time and best efforts up to the current rules of
// domain/records.ts: the tracks stored before records existed (the training_records migration
// leaves them at version 0), and all of them again whenever RECORDS_VERSION is raised. Runs at
// start-up after the migrations, a batch of tracks a transaction, so a crash loses at most one batch
// and the next start goes on from there; a track written meanwhile carries the current version.
import { RECORDS_VERSION, trackEfforts } from '../domain/records.ts';
import { decodePoints } from '../domain/track-codec.ts';
import type { Prisma } from './database.ts';

/** Tracks a transaction: a batch of long tracks decodes some tens of megabytes at most. */
const BATCH = 50;

/** Recomputes the tracks left behind; answers how many it updated. */
export async function backfillTrackRecords(prisma: Prisma): Promise<number> {
  let updated = 0;
  let after = 0;
  for (;;) {
    const tracks = await prisma.track.findMany({
      where: { recordsVersion: { lt: RECORDS_VERSION }, id: { gt: after } },
      select: { id: true, pointData: true },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    if (tracks.length === 0) return updated;
    try {
      await prisma.$transaction(async (tx) => {
        for (const track of tracks) {
          const { efforts, movingSeconds } = trackEfforts(decodePoints(track.pointData));
          await tx.bestEffort.deleteMany({ where: { trackId: track.id } });
          if (efforts.length) await tx.bestEffort.createMany({ data: efforts.map((effort) => ({ trackId: track.id, ...effort })) });
          // only if no newer write replaced it meanwhile (that one computed its own)
          await tx.track.updateMany({
            where: { id: track.id, recordsVersion: { lt: RECORDS_VERSION } },
            data: { movingSeconds, recordsVersion: RECORDS_VERSION },
          });
        }
      });
      updated += tracks.length;
    } catch {
      // another process deleted one of them meanwhile: these stay behind for the next start
    }
    after = tracks.at(-1)!.id;
  }
}
