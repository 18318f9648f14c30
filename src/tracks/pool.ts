// Track work (work.ts) off the event loop: a 204,000-point route's GPX cost 1.4 s of the main thread,
// a 700,000-point entry's page 0.8 s, and a few such requests at once stalled every other request for
// seconds. A track of more than IN_PLACE_POINTS points is worked on a thread of its own (one: the other
// core serves requests), started when first needed and stopped after a minute idle; smaller ones, the
// usual case, in place, where handing them over would cost more than the work.
import { Piscina } from 'piscina';
import type { PackedGpx } from '../domain/gpx.ts';
import { packedCount } from '../domain/track-codec.ts';
import type { PreparedTrack } from './prepare.ts';
import { doTrackWork, type TrackWork, type TrackWorkResult } from './work.ts';

/** Points up to which a track is worked on in place: a few milliseconds of work. */
export const IN_PLACE_POINTS = 20_000;
const WORKER_HEAP_MB = 512;
const DEADLINE_MS = 30_000;

let pool: Piscina | null = null;
let worked = 0;

function trackPool(): Piscina {
  if (pool) return pool;
  // from dist/ the worker is JavaScript; from the sources (tests, `npm run dev`) TypeScript through tsx
  const typescript = import.meta.url.endsWith('.ts');
  pool = new Piscina({
    filename: new URL(`./worker.${typescript ? 'ts' : 'js'}`, import.meta.url).href,
    execArgv: typescript ? ['--import', 'tsx'] : [],
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

/** The work done, on the track thread when the track has more than IN_PLACE_POINTS points. */
export async function trackWork<W extends TrackWork>(work: W, pointCount: number): Promise<TrackWorkResult<W['kind']>> {
  if (pointCount <= IN_PLACE_POINTS) return doTrackWork(work);
  worked += 1;
  return (await trackPool().run(work, { signal: AbortSignal.timeout(DEADLINE_MS) })) as TrackWorkResult<W['kind']>;
}

/**
 * An upload's parsed track, prepared for storing (its summary, outline, records, compressed points):
 * 200,000 points took 85-130 ms of the main thread, on the track thread when that big.
 */
export function prepareUpload(gpx: PackedGpx): Promise<PreparedTrack> {
  return trackWork({ kind: 'prepare', gpx }, packedCount(gpx.pointData));
}

/** How many pieces of work went to the thread (for tests and metrics). */
export const workedOffThread = () => worked;

/**
 * What is made of a track's points for readers (its GPX document, its streams, its outline), kept by a
 * key naming the track's id, version and what is hidden: a big track's is made once a version, not per
 * request. Least recently used out first while what is kept weighs at most `limit` (by `weigh`);
 * requests for one being made wait for it.
 */
export class KeptWork<T> {
  private readonly kept = new Map<string, Promise<T>>();
  private readonly weights = new Map<string, number>();
  private weight = 0;

  constructor(
    private readonly limit: number,
    private readonly weigh: (value: T) => number,
  ) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    const known = this.kept.get(key);
    if (known) {
      this.kept.delete(key);
      this.kept.set(key, known);
      return known;
    }
    const made = make();
    this.kept.set(key, made);
    made.then(
      (value) => this.settle(key, made, this.weigh(value)),
      () => this.kept.get(key) === made && this.kept.delete(key),
    );
    return made;
  }

  private settle(key: string, made: Promise<T>, weight: number): void {
    if (this.kept.get(key) !== made) return;
    if (weight > this.limit / 2) return void this.kept.delete(key);
    this.weights.set(key, weight);
    this.weight += weight;
    for (const [oldest] of this.kept) {
      if (this.weight <= this.limit) break;
      if (!this.weights.has(oldest)) continue;
      this.weight -= this.weights.get(oldest)!;
      this.weights.delete(oldest);
      this.kept.delete(oldest);
    }
  }
}

/** GPX documents kept, in characters: a 200,000-point track's is 19 million, made in about a second. */
const keptDocuments = new KeptWork<string>(64_000_000, (document) => document.length);

/** The GPX document `key` names, made by `make` once and kept (KeptWork). */
export const keptGpx = (key: string, make: () => Promise<string>): Promise<string> => keptDocuments.get(key, make);

/** Stops the thread (at shutdown). */
export async function closeTrackPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
