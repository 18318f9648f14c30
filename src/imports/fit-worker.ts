// Runs in a worker thread of fit-pool.ts: decodes one FIT file and sends its activity back with the
// track points packed (one transferable buffer instead of thousands of cloned objects).
import { parseFit } from '../domain/fit.ts';
import { packPoints } from '../domain/track-codec.ts';
import { ValidationError } from '../domain/errors.ts';

export type FitWorkerResult =
  | { ok: true; activity: Omit<ReturnType<typeof parseFit>, 'points'>; pointData: Uint8Array }
  | { ok: false; message: string };

export default function decodeFit(bytes: Uint8Array): FitWorkerResult {
  try {
    const { points, ...activity } = parseFit(bytes);
    // uncompressed: the main thread reads them back at once, and compressing is for storing
    return { ok: true, activity, pointData: packPoints(points) };
  } catch (error) {
    // a refusal travels as its message: errors lose their class crossing threads
    if (error instanceof ValidationError) return { ok: false, message: error.issues[0]?.message ?? error.message };
    throw error;
  }
}
