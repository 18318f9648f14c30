// The driver adapter's objects as this service wraps them (lock-waits.ts, one-writer.ts,
// durable-commits.ts): each wrapper changes a few methods and passes the rest through as they are.
import type { SqlDriverAdapter, Transaction } from '@prisma/driver-adapter-utils';

/** `transaction` with `changes` in place of its own methods; every other member passed through. */
export function wrapTransaction(
  transaction: Transaction,
  changes: Partial<Pick<Transaction, 'queryRaw' | 'executeRaw' | 'commit' | 'rollback'>>,
): Transaction {
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query) => transaction.queryRaw(query),
    executeRaw: (query) => transaction.executeRaw(query),
    commit: () => transaction.commit(),
    rollback: () => transaction.rollback(),
    createSavepoint: transaction.createSavepoint?.bind(transaction),
    rollbackToSavepoint: transaction.rollbackToSavepoint?.bind(transaction),
    releaseSavepoint: transaction.releaseSavepoint?.bind(transaction),
    ...changes,
  };
}

/** `adapter` with `changes` in place of its statements and transactions; every other member passed through. */
export function wrapAdapter(
  adapter: SqlDriverAdapter,
  changes: Pick<SqlDriverAdapter, 'queryRaw' | 'executeRaw' | 'executeScript' | 'startTransaction'>,
): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    ...changes,
  };
}
