// SQLite commits synced off the server's thread. With `synchronous = FULL` every commit calls fsync on
// the write-ahead log from inside better-sqlite3, on the event loop: fractions of a millisecond on an
// idle disk, tens of milliseconds while the disk is busy (a checkpoint, another process), and every
// request in flight waits for it. Measured under 20 comments/s on the bench's data, such commits
// held the loop for 20–80 ms even with checkpoints on their own thread.
//
// Here Prisma's connection commits with `synchronous = NORMAL` (the log is written, not synced) and
// the driver adapter is wrapped so that nothing Prisma wrote is reported done until the log has been
// synced (`fdatasync`, in libuv's thread pool): a write is acknowledged only once it would survive a
// power cut, as with FULL, while the event loop goes on serving. Writes that wait together share one
// sync. Until then other readers may already see the commit: what can be lost to a power cut is a
// write no client was told was done.
import { open } from 'node:fs/promises';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { wrapAdapter, wrapTransaction } from './driver-wrappers.ts';

/**
 * Resolves once everything committed to `file` before the call is on disk: one sync of its log at a
 * time; a call that arrives while one runs waits for the next, which all such calls share.
 */
export function logSync(file: string, sync: (path: string) => Promise<void> = datasync): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = () => {
    running = sync(`${file}-wal`).finally(() => (running = null));
    return running;
  };
  return () => {
    if (!running) return start();
    // the sync under way may have begun before this commit was written: the next one covers it
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return running ?? start();
      });
    return queued;
  };
}

/**
 * `fdatasync` of the log at `path` as it is now (opened each time: SQLite recreates a log it removed);
 * with no log, the database file, which a commit then wrote.
 */
async function datasync(path: string): Promise<void> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return open(path.slice(0, -'-wal'.length), 'r');
    throw error;
  });
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Only statements that begin so are known to write nothing (a SELECT in SQLite cannot write). */
const READ = /^\s*SELECT\b/i;

/**
 * The adapter factory whose connections report a write done only once `durable` resolves after it;
 * `written` hears of every commit (the checkpoints' thread runs while there are some).
 */
export function durableCommits(
  factory: SqlDriverAdapterFactory,
  durable: () => Promise<void>,
  written: () => void = () => undefined,
): SqlDriverAdapterFactory {
  const committed = () => {
    written();
    return durable();
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => durableAdapter(await factory.connect(), committed),
  };
}

function durableAdapter(adapter: SqlDriverAdapter, durable: () => Promise<void>): SqlDriverAdapter {
  // outside a transaction every statement commits on its own
  const synced = async <T>(query: SqlQuery, result: Promise<T>): Promise<T> => {
    const value = await result;
    if (!READ.test(query.sql)) await durable();
    return value;
  };
  return wrapAdapter(adapter, {
    queryRaw: (query) => synced(query, adapter.queryRaw(query)),
    executeRaw: (query) => synced(query, adapter.executeRaw(query)),
    async executeScript(script) {
      await adapter.executeScript(script);
      await durable();
    },
    startTransaction: async (isolationLevel) => durableTransaction(await adapter.startTransaction(isolationLevel), durable),
  });
}

function durableTransaction(transaction: Transaction, durable: () => Promise<void>): Transaction {
  return wrapTransaction(transaction, {
    // Prisma has sent COMMIT before this; the connection is free for the next transaction meanwhile
    async commit() {
      await transaction.commit();
      await durable();
    },
  });
}
