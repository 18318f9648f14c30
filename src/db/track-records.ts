// Brings every stored track's moving time and best efforts up to the current rules of
// domain/records.ts: the tracks stored before records existed (the training_records migration
// leaves them at version 0), and all of them again whenever RECORDS_VERSION is raised. The server
// runs it in the background once it listens (a large database must not hold its start), and
// `milepost migrate` runs it to the end. A batch is computed outside any transaction, yielding to
// the event loop between tracks, then written in one short transaction; a crash loses at most a
// batch, and the next run goes on from there. A track written meanwhile carries the current version.
// Several processes on one database share the work: each claims a batch (a lease on its tracks)
// before computing it, so no track is computed twice, and a batch whose process stopped is taken up
// by another once its lease has run out.
import { setImmediate as nextTick } from 'node:timers/promises';
import type { Analysis, Recorded } from '../domain/analysis.ts';
import { RECORDS_VERSION, type TrackEfforts, trackEfforts } from '../domain/records.ts';
import { decodePoints } from '../domain/track-codec.ts';
import { analysisOf } from '../tracks/prepare.ts';
import type { Prisma } from './database.ts';

/** Tracks a batch: a batch of long tracks decodes some tens of megabytes at most. */
const BATCH = 20;
/** How long a claimed batch is its process's: far more than computing 20 tracks takes. */
export const RECORDS_LEASE_MS = 5 * 60_000;

/**
 * Claims up to a batch of tracks still to compute, none claimed by a live lease: each by a conditional
 * update, so that of two processes reaching for one track, one gets it. Answers the claimed ids.
 */
async function claimBatch(prisma: Prisma, after: number): Promise<number[]> {
  const now = new Date();
  const due = { recordsVersion: { lt: RECORDS_VERSION }, OR: [{ recordsClaimedUntil: null }, { recordsClaimedUntil: { lt: now } }] };
  const candidates = await prisma.track.findMany({
    where: { ...due, id: { gt: after } },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: BATCH,
  });
  if (candidates.length === 0) return [];
  const until = new Date(now.getTime() + RECORDS_LEASE_MS);
  return prisma.$transaction(async (tx) => {
    const claimed: number[] = [];
    for (const { id } of candidates) {
      const { count } = await tx.track.updateMany({ where: { ...due, id }, data: { recordsClaimedUntil: until } });
      if (count === 1) claimed.push(id);
    }
    return claimed;
  });
}

/** Recomputes the tracks left behind; answers how many it updated. */
export async function backfillTrackRecords(prisma: Prisma): Promise<number> {
  let updated = 0;
  let after = 0;
  for (;;) {
    const ids = await claimBatch(prisma, after);
    // none left to claim: done, or the rest is another process's
    if (ids.length === 0) return updated;
    const tracks = await prisma.track.findMany({
      where: { id: { in: ids } },
      select: { id: true, pointData: true, recorded: true },
      orderBy: { id: 'asc' },
    });
    const computed: Array<TrackEfforts & { id: number; analysis: Analysis | null }> = [];
    for (const track of tracks) {
      const points = decodePoints(track.pointData);
      const recorded = track.recorded ? (JSON.parse(track.recorded) as Recorded) : null;
      const records = trackEfforts(points);
      computed.push({ id: track.id, ...records, analysis: analysisOf(points, recorded, records.efforts) });
      await nextTick();
    }
    try {
      updated += await prisma.$transaction(async (tx) => {
        let written = 0;
        for (const { id, efforts, movingSeconds, analysis } of computed) {
          // only if no newer write replaced it meanwhile (that one computed its own)
          const current = await tx.track.updateMany({
            where: { id, recordsVersion: { lt: RECORDS_VERSION } },
            data: {
              movingSeconds,
              analysis: analysis && JSON.stringify(analysis),
              recordsVersion: RECORDS_VERSION,
              recordsClaimedUntil: null,
            },
          });
          if (current.count === 0) continue;
          await tx.bestEffort.deleteMany({ where: { trackId: id } });
          if (efforts.length) await tx.bestEffort.createMany({ data: efforts.map((effort) => ({ trackId: id, ...effort })) });
          await tx.powerEffort.deleteMany({ where: { trackId: id } });
          const power = analysis?.powerEfforts ?? [];
          if (power.length) await tx.powerEffort.createMany({ data: power.map((effort) => ({ trackId: id, ...effort })) });
          written += 1;
        }
        return written;
      });
    } catch {
      // another process deleted one of them meanwhile: these stay behind, claimed until the lease ends, for the next run
    }
    after = ids.at(-1)!;
  }
}
