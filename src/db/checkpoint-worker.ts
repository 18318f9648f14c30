// Runs in a worker thread of checkpointer.ts: moves the SQLite write-ahead log's committed pages into
// the database file, on a connection of its own, so that the server's thread never does it. A PASSIVE
// checkpoint waits for no reader or writer: the server goes on reading and committing meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

export interface CheckpointWorkerData {
  file: string;
  intervalMs: number;
}

/** What a checkpoint found: frames in the log, and how many of them are now in the database file. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export type CheckpointMessage =
  | { kind: 'ready' }
  | { kind: 'checkpointed'; id: number; result: CheckpointResult }
  | { kind: 'failed'; message: string };

const { file, intervalMs } = workerData as CheckpointWorkerData;
const port = parentPort!;

function failed(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  port.postMessage({ kind: 'failed', message } satisfies CheckpointMessage);
}

let connection: BetterSqlite3.Database;
let checkpoint: BetterSqlite3.Statement;
try {
  connection = new BetterSqlite3(file, { fileMustExist: true });
  // FULL: the checkpoint syncs the log before it copies and the database file after, so a power cut
  // mid-way loses nothing the log held
  connection.pragma('synchronous = FULL');
  checkpoint = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');
} catch (error) {
  failed(error);
  process.exit(1);
}

/** One checkpoint; after a failure the thread stops and the server checkpoints on its own connection again. */
function run(): CheckpointResult | null {
  try {
    return checkpoint.get() as CheckpointResult;
  } catch (error) {
    failed(error);
    stop();
    return null;
  }
}

const timer = setInterval(run, intervalMs);

function stop(): void {
  clearInterval(timer);
  port.close();
  connection.close();
}

port.on('message', (message: { kind: 'checkpoint'; id: number } | { kind: 'close' }) => {
  if (message.kind === 'close') {
    // what the last commits wrote goes into the database file before the thread ends
    run();
    return stop();
  }
  const result = run();
  if (result) port.postMessage({ kind: 'checkpointed', id: message.id, result } satisfies CheckpointMessage);
});
port.postMessage({ kind: 'ready' } satisfies CheckpointMessage);
