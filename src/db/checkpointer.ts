// SQLite's checkpoints off the server's thread. In WAL mode a commit appends to the log, and by default
// the commit that takes the log past 1,000 pages also copies them into the database file and syncs it,
// synchronously, on the connection that committed: Prisma's, on the event loop. Measured under 20
// comments/s on the bench's data, those commits held the loop for 40–230 ms each, and every read
// waiting behind them showed it (anonymous `GET /entries.json` p99 54–141 ms; 11–24 ms without them).
//
// Here the server's connection does not checkpoint; a worker thread does (PASSIVE: it waits for no
// reader or writer), every second, on its own connection. The thread costs about 7 MB, so it runs
// only while writes come: started once 100 commits wait for a checkpoint (the log then holds about as
// much as SQLite's own threshold, 1,000 pages), stopped after a last checkpoint once fewer than 100
// came in 5 s (a trickle of writes waits for the next start instead). A commit is durable before it is acknowledged (db/durable-commits.ts), checkpointed or
// not. Should the thread fail, `onStopped` hands the checkpoints back to the server's connection for
// good, so the log never grows without bound.
import { Worker } from 'node:worker_threads';
import type { CheckpointMessage, CheckpointResult, CheckpointWorkerData } from './checkpoint-worker.ts';

export type { CheckpointResult } from './checkpoint-worker.ts';

export interface Checkpointer {
  /** A commit happened: the thread runs (started once enough wait) while commits keep coming. */
  written(): void;
  /** Whether the thread is running or starting now. */
  readonly running: boolean;
  /** Checkpoints now, on the thread (tests, and the bench's clean-up; the thread does it every interval). */
  checkpoint(): Promise<CheckpointResult | null>;
  /** Ends the thread's work (after a last checkpoint) and closes its connection. */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** The window in which the thread must see `startAfter` commits, or stop. */
  windowMs?: number;
  /** Commits waiting for a checkpoint that start the thread, and that keep it running in each window. */
  startAfter?: number;
  /** Called once if the thread fails or exits unbidden: checkpoint elsewhere from then on. */
  onStopped(reason: string): void;
}

/** One running thread. */
interface Thread {
  checkpoint(): Promise<CheckpointResult>;
  close(): Promise<void>;
}

const INTERVAL_MS = 1_000;
const WINDOW_MS = 5_000;
const START_AFTER_COMMITS = 100;
/** A thread's first code, from the sources: tsx's loader is registered before the module is imported. */
const typescriptEntry = (script: URL) =>
  `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); })`;
const CLOSE_DEADLINE_MS = 5_000;

/** The checkpoints of `file`, on a thread that runs while commits come. */
export function checkpointer(file: string, options: CheckpointerOptions): Checkpointer {
  let thread: Promise<Thread | null> | null = null;
  let failed = false;
  let closed = false;
  const stopThread = () => {
    const stopping = thread;
    thread = null;
    return stopping?.then((running) => running?.close());
  };
  const enough = options.startAfter ?? START_AFTER_COMMITS;
  /** Commits since the last start (none running) or in the current window (one running). */
  let commits = 0;
  const watch = setInterval(() => {
    if (!thread) return;
    // a last checkpoint takes what the window's few commits wrote
    if (commits < enough) void stopThread();
    commits = 0;
  }, options.windowMs ?? WINDOW_MS);
  watch.unref();
  const started = () => {
    if (failed || closed) return null;
    const stopped = (reason: string) => {
      failed = true;
      thread = null;
      options.onStopped(reason);
    };
    // a thread that cannot even be made (its script missing, no memory) stops the checkpoints here as a
    // failed one does: the connection takes them back, and nothing is left rejected for nobody
    thread ??= startThread(file, options.intervalMs ?? INTERVAL_MS, stopped).catch((error: unknown) => {
      stopped(`the checkpoint thread could not start: ${(error as Error).message}`);
      return null;
    });
    return thread;
  };
  return {
    written() {
      if (++commits >= enough) void started();
    },
    get running() {
      return thread !== null;
    },
    async checkpoint() {
      const running = await started();
      return running ? running.checkpoint() : null;
    },
    async close() {
      closed = true;
      clearInterval(watch);
      await stopThread();
    },
  };
}

/** Starts a thread on `file`; resolves once its connection is open, or with null if it cannot start. */
async function startThread(file: string, intervalMs: number, onStopped: (reason: string) => void): Promise<Thread | null> {
  // from dist/ the worker is JavaScript; from the sources (tests, `npm run dev`) TypeScript through tsx
  const typescript = import.meta.url.endsWith('.ts');
  const script = new URL(`./checkpoint-worker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  const worker = new Worker(typescript ? typescriptEntry(script) : script, {
    eval: typescript,
    workerData: { file, intervalMs } satisfies CheckpointWorkerData,
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
    if (!closing) onStopped(reason);
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
