// Brings every stored track's moving time and best efforts up to the current rules of
// domain/records.ts: the tracks stored before records existed (the training_records migration
// leaves them at version 0), and all of them again whenever RECORDS_VERSION is raised. The server
// runs it in the background once it listens (a large database must not hold its start), and
// `milepost migrate` runs it to the end. A batch is computed outside any transaction, yielding to
// the event loop between tracks, then written in one short transaction; a crash loses at most a
// batch, and the next run goes on from there. A track written meanwhile carries the current version.
import { setImmediate as nextTick } from 'node:timers/promises';
import { RECORDS_VERSION, trackEfforts, type TrackEfforts } from '../domain/records.ts';
import { decodePoints } from '../domain/track-codec.ts';
import type { Prisma } from './database.ts';

/** Tracks a batch: a batch of long tracks decodes some tens of megabytes at most. */
const BATCH = 20;

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
    const computed: Array<TrackEfforts & { id: number }> = [];
    for (const track of tracks) {
      computed.push({ id: track.id, ...trackEfforts(decodePoints(track.pointData)) });
      await nextTick();
    }
    try {
      await prisma.$transaction(async (tx) => {
        for (const { id, efforts, movingSeconds } of computed) {
          // only if no newer write replaced it meanwhile (that one computed its own)
          const current = await tx.track.updateMany({
            where: { id, recordsVersion: { lt: RECORDS_VERSION } },
            data: { movingSeconds, recordsVersion: RECORDS_VERSION },
          });
          if (current.count === 0) continue;
          await tx.bestEffort.deleteMany({ where: { trackId: id } });
          if (efforts.length) await tx.bestEffort.createMany({ data: efforts.map((effort) => ({ trackId: id, ...effort })) });
        }
      });
      updated += computed.length;
    } catch {
      // another process deleted one of them meanwhile: these stay behind for the next run
    }
    after = tracks.at(-1)!.id;
  }
}
