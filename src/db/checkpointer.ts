// SQLite's checkpoints off the server's thread. In WAL mode a commit appends to the log, and by default
// the commit that takes the log past 1,000 pages also copies them into the database file and syncs it,
// synchronously, on the connection that committed: Prisma's, on the event loop. Measured under 20
// comments/s on the bench's data, those commits held the loop for 40–230 ms each, and every read
// waiting behind them showed it (anonymous `GET /entries.json` p99 54–141 ms; 11–24 ms without them).
//
// Here a worker thread checkpoints (PASSIVE: it waits for no reader or writer) every second on its own
// connection, and the server's connection stops checkpointing. Commits stay synced (synchronous=FULL),
// so an acknowledged write survives a crash whether or not it was checkpointed yet. Should the thread
// fail or exit, `onStopped` hands the checkpoints back to the server's connection, so the log never
// grows without bound.
import { Worker } from 'node:worker_threads';
import type { CheckpointMessage, CheckpointResult, CheckpointWorkerData } from './checkpoint-worker.ts';

export type { CheckpointResult } from './checkpoint-worker.ts';

export interface Checkpointer {
  /** Checkpoints now, on the thread (tests; the thread also does it every interval). */
  checkpoint(): Promise<CheckpointResult>;
  /** Ends the thread's work and closes its connection. */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** Called once if the thread stops while it should be working (an error, an exit): checkpoint elsewhere. */
  onStopped(reason: string): void;
}

const INTERVAL_MS = 1_000;
const TYPESCRIPT_ENTRY = "import('tsx/esm/api').then(({ register }) => { register(); return import(SCRIPT); })";
const CLOSE_DEADLINE_MS = 5_000;

/** Starts the thread on `file`; resolves once its connection is open, or with null if it cannot start. */
export async function startCheckpointer(file: string, options: CheckpointerOptions): Promise<Checkpointer | null> {
  // from dist/ the worker is JavaScript; from the sources (tests, `npm run dev`) TypeScript through tsx
  const typescript = import.meta.url.endsWith('.ts');
  const script = new URL(`./checkpoint-worker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  // from the sources, tsx's loader is registered in the thread before its module is imported
  const worker = new Worker(typescript ? TYPESCRIPT_ENTRY.replace('SCRIPT', JSON.stringify(script.href)) : script, {
    eval: typescript,
    workerData: { file, intervalMs: options.intervalMs ?? INTERVAL_MS } satisfies CheckpointWorkerData,
    // it holds a prepared statement and a timer: a small heap is plenty
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
  });
  // never what keeps the process alive
  worker.unref();
  const waiting = new Map<number, { resolve(result: CheckpointResult): void; reject(error: Error): void }>();
  let next = 0;
  let closing = false;
  let stopped = false;
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = true;
    for (const { reject } of waiting.values()) reject(new Error(reason));
    waiting.clear();
    if (!closing) options.onStopped(reason);
  };
  const ready = new Promise<boolean>((resolve) => {
    worker.on('message', (message: CheckpointMessage) => {
      if (message.kind === 'ready') resolve(true);
      else if (message.kind === 'checkpointed') {
        waiting.get(message.id)?.resolve(message.result);
        waiting.delete(message.id);
      } else {
        resolve(false);
        stop(`the checkpoint thread failed: ${message.message}`);
      }
    });
    worker.on('error', (error) => {
      resolve(false);
      // SQLite's errors lose their message crossing threads; their code stays
      stop(`the checkpoint thread failed: ${error.message ?? (error as { code?: string }).code ?? String(error)}`);
    });
    worker.on('exit', (code) => {
      resolve(false);
      stop(`the checkpoint thread exited (${code})`);
    });
  });
  if (!(await ready)) return null;
  return {
    checkpoint() {
      if (stopped) return Promise.reject(new Error('the checkpoint thread has stopped'));
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ kind: 'checkpoint', id });
      });
    },
    async close() {
      if (stopped) return;
      closing = true;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ kind: 'close' });
      // the thread ends once its connection is closed; a thread stuck in a checkpoint is stopped
      const deadline = setTimeout(() => void worker.terminate(), CLOSE_DEADLINE_MS);
      await exited;
      clearTimeout(deadline);
    },
  };
}
