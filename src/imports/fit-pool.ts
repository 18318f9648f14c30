// FIT files are decoded in a worker thread: Garmin's SDK decodes synchronously, about 8 µs a record,
// so a long ride would hold the event loop for a second. One thread (the other core serves requests),
// started when the first file arrives and stopped after a minute idle. Its heap is capped and each
// file has a deadline: a file crafted to expand or to spin costs the worker, which is replaced, and
// answers 422 naming `file`, never the server's memory or time.
import { Piscina } from 'piscina';
import type { ImportedActivity } from '../domain/activity-file.ts';
import { ValidationError } from '../domain/errors.ts';
import type { PreparedTrack } from '../tracks/prepare.ts';
import type { FitWorkerResult } from './fit-worker.ts';

const WORKER_HEAP_MB = 384;
const DEADLINE_MS = 30_000;
/** Files waiting for the thread beyond this are refused (429-like, as a 422 would mislead): see decodeFitOffThread. */
const MAX_WAITING = 64;

let pool: Piscina | null = null;

function fitPool(): Piscina {
  if (pool) return pool;
  // from dist/ the worker is JavaScript; from the sources (tests, `npm run dev`) TypeScript through tsx
  const typescript = import.meta.url.endsWith('.ts');
  pool = new Piscina({
    filename: new URL(`./fit-worker.${typescript ? 'ts' : 'js'}`, import.meta.url).href,
    execArgv: typescript ? ['--import', 'tsx'] : [],
    minThreads: 0,
    // two: one athlete's big file does not hold everyone else's small one behind it (8 s, measured)
    maxThreads: 2,
    idleTimeout: 60_000,
    maxQueue: MAX_WAITING,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

export class ImportBusyError extends Error {
  override name = 'ImportBusyError';
}

/** An activity as read from a file, with its track already prepared for storing when a thread read it. */
export type ReadActivity = ImportedActivity & { prepared?: PreparedTrack | null };

/** The activity in a FIT file's bytes, its track prepared; a refusal is a ValidationError on `file`. */
export async function decodeFitOffThread(bytes: Uint8Array): Promise<ReadActivity> {
  let result: FitWorkerResult;
  try {
    result = (await fitPool().run(bytes, { signal: AbortSignal.timeout(DEADLINE_MS) })) as FitWorkerResult;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/queue is at limit/i.test(message)) throw new ImportBusyError('too many activity files are being read; try again shortly');
    if (error instanceof Error && (error.name === 'AbortError' || /abort/i.test(message)))
      throw ValidationError.field('file', `took more than ${DEADLINE_MS / 1000} s to read; it is refused`);
    if (/out of memory|ERR_WORKER_OUT_OF_MEMORY/i.test(message))
      throw ValidationError.field('file', 'needs more memory to read than any activity file should; it is refused');
    throw error;
  }
  if (!result.ok) throw ValidationError.field('file', result.message);
  // the points stay packed in the prepared track: none is decoded on the main thread
  return { ...result.activity, points: [], prepared: result.prepared };
}

/** Stops the thread (at shutdown). */
export async function closeFitPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
