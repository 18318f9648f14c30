// Runs in a worker thread of fit-pool.ts: decodes one FIT file and prepares its track for storing
// (summary, outline, records, compressed points), so that a 700,000-record file costs the main thread
// nothing but the write; the compressed points come back as one buffer, not thousands of objects.

import { ValidationError } from '../domain/errors.ts';
import { parseFit } from '../domain/fit.ts';
import { packPoints } from '../domain/track-codec.ts';
import { type PreparedTrack, prepareTrack } from '../tracks/prepare.ts';

export type FitWorkerResult =
  | { ok: true; activity: Omit<ReturnType<typeof parseFit>, 'points'>; prepared: PreparedTrack | null }
  | { ok: false; message: string };

export default function decodeFit(bytes: Uint8Array): FitWorkerResult {
  try {
    const { points, ...activity } = parseFit(bytes);
    const prepared = points.length
      ? prepareTrack({
          name: activity.name,
          pointData: packPoints(points),
          routePoints: [],
          waypoints: [],
          repairs: activity.repairs,
          recorded: activity.recorded,
        })
      : null;
    return { ok: true, activity, prepared };
  } catch (error) {
    // a refusal travels as its message: errors lose their class crossing threads
    if (error instanceof ValidationError) return { ok: false, message: error.issues[0]?.message ?? error.message };
    throw error;
  }
}
