// Runs in a thread of pool.ts: one piece of track work (work.ts), its bytes handed back without a copy.
import { Piscina } from 'piscina';
import { doTrackWork, type TrackWork } from './work.ts';

export default function trackWorker(work: TrackWork): unknown {
  const result = doTrackWork(work);
  return result instanceof Uint8Array ? Piscina.move(result) : result;
}
