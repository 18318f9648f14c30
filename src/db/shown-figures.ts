// What a person's totals and records are made of for anyone but them, when their privacy zones or
// hidden ends cut their tracks: each track's shown figures (tracks/work.ts, ShownFigures), the same
// numbers its workout answers them (Workout.distance and duration). Decoding every track for each
// stats read would cost seconds for a long history, so the figures are kept on the track for one
// version of the owner's settings (Person.privacyVersion, raised by every change of them) and brought
// up to date by the reads that need them, a bounded number per read. A track not yet brought up to
// date counts nothing for others (stats.ts): stale figures never stand in for the shown ones.
import { setImmediate as nextTick } from 'node:timers/promises';
import { hidesAnything } from '../domain/privacy-zones.ts';
import { trackWork } from '../tracks/pool.ts';
import type { Database } from './database.ts';
import { readPrivacy } from './privacy.ts';

/** Tracks a read brings up to date at most: some tens of milliseconds for usual tracks. */
const PER_READ = 200;
/** Tracks whose points are loaded at once. */
const BATCH = 20;

/**
 * For a reader other than the person: the version of the person's settings whose shown figures stand
 * in for their tracks' own, after bringing up to PER_READ of their tracks up to date; null when their
 * settings hide nothing (then a track's own figures are what others are told).
 */
export async function shownFiguresVersion(database: Pick<Database, 'prisma' | 'read'>, personId: number): Promise<number | null> {
  const person = await database.prisma.person.findUnique({ where: { id: personId }, select: { privacyVersion: true } });
  if (!person) return null;
  const version = person.privacyVersion;
  // read after the version: the settings are that version's or newer, and a newer one is not written below
  const settings = (await readPrivacy(database, [personId])).get(personId)!;
  if (!hidesAnything(settings)) return null;
  const stale = { entry: { authorId: personId }, shownVersion: { not: version } };
  let after = 0;
  for (let done = 0; done < PER_READ; ) {
    const tracks = await database.prisma.track.findMany({
      where: { ...stale, id: { gt: after } },
      select: { id: true, pointData: true, pointCount: true },
      orderBy: { id: 'asc' },
      take: Math.min(BATCH, PER_READ - done),
    });
    if (tracks.length === 0) break;
    for (const track of tracks) {
      const figures = await trackWork({ kind: 'shownFigures', pointData: track.pointData, settings }, track.pointCount);
      // only while the settings are still that version: figures of older settings never stand
      await database.prisma.track.updateMany({
        where: { id: track.id, shownVersion: { not: version }, entry: { author: { privacyVersion: version } } },
        data: {
          shownVersion: version,
          shownMeters: figures.meters,
          shownMovingSeconds: figures.movingSeconds,
          shownGain: figures.gain,
          shownFromMs: figures.fromMs,
          shownToMs: figures.toMs,
        },
      });
      await nextTick();
    }
    done += tracks.length;
    after = tracks.at(-1)!.id;
  }
  return version;
}
