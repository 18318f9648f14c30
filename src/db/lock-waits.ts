// Waiting for another process's SQLite lock without holding the event loop. better-sqlite3 waits for a
// lock inside SQLite's busy handler, synchronously: with a busy timeout of 10 s, one write queued
// behind another process's write transaction (a CLI import, an operator's sqlite3 shell) froze every
// request, /healthz and cached reads included, for up to 10 s. Here the connections wait not at all
// (busy timeout 0) and a statement refused with SQLITE_BUSY is tried again after a timer, so the
// loop serves everything else meanwhile. The wait is bounded; past it the statement fails as a
// timeout, which the request answers 503 with Retry-After (db/errors.ts).
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';
import { wrapAdapter, wrapTransaction } from './driver-wrappers.ts';

/** The longest a statement waits for another process's lock. */
export const LOCK_WAIT_MS = 10_000;
/** Pauses between attempts: short at first (most locks are a commit's milliseconds), then steady. */
const PAUSES_MS = [1, 2, 5, 10, 20, 50, 100];

/**
 * Refused because another connection holds the lock, and so not run at all: safe to try again. Not
 * SQLITE_BUSY_SNAPSHOT, where a transaction that has read must start over to write, nor SQLITE_BUSY_RECOVERY
 * mid-statement: those fail at once, as before.
 */
export function isLockBusy(error: unknown): boolean {
  const code = (error as { cause?: { originalCode?: unknown } } | null)?.cause?.originalCode ?? (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY';
}

/** Runs `attempt` until it is not refused for a lock, pausing on a timer between tries, for up to `LOCK_WAIT_MS`. */
export async function waitingForLocks<T>(attempt: () => T | Promise<T>, limitMs = LOCK_WAIT_MS): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLockBusy(error) || Date.now() >= deadline) throw error;
      const pause = PAUSES_MS[Math.min(tries, PAUSES_MS.length - 1)]!;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
    }
  }
}

/** The adapter factory whose connections wait for other processes' locks on timers (see above). */
export function lockWaits(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => waitingAdapter(await factory.connect()),
  };
}

function waitingAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return wrapAdapter(adapter, {
    queryRaw: (query) => waitingForLocks(() => adapter.queryRaw(query)),
    executeRaw: (query) => waitingForLocks(() => adapter.executeRaw(query)),
    executeScript: (script) => waitingForLocks(() => adapter.executeScript(script)),
    startTransaction: async (isolationLevel) =>
      waitingTransaction(await immediate(await waitingForLocks(() => adapter.startTransaction(isolationLevel)))),
  });
}

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

/**
 * The adapter begins a deferred transaction: it reads from a snapshot and takes the write lock at its
 * first write. If another process committed in between, that write fails with SQLITE_BUSY_SNAPSHOT,
 * which no retry of the statement can mend (the whole transaction would have to run again): a CLI
 * command writing while the server did failed so. Begun IMMEDIATE instead, a transaction takes the
 * lock before it reads anything, waiting for it (on timers) as any statement does.
 */
async function immediate(transaction: Transaction): Promise<Transaction> {
  await transaction.executeRaw(statement('ROLLBACK'));
  try {
    await waitingForLocks(() => transaction.executeRaw(statement('BEGIN IMMEDIATE')));
  } catch (error) {
    // no transaction is open: let the connection go
    await transaction.rollback();
    throw error;
  }
  return transaction;
}

/**
 * Inside a transaction, begun IMMEDIATE (see above), no statement waits for the lock; should one be
 * refused for it all the same, it changed nothing and is tried again, with the transaction still open.
 */
function waitingTransaction(transaction: Transaction): Transaction {
  // Prisma sends COMMIT as a statement (above); commit() only lets the connection go
  return wrapTransaction(transaction, {
    queryRaw: (query) => waitingForLocks(() => transaction.queryRaw(query)),
    executeRaw: (query) => waitingForLocks(() => transaction.executeRaw(query)),
  });
}
