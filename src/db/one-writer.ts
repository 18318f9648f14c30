// One statement at a time on the one connection that writes a SQLite file. Prisma's better-sqlite3
// adapter serializes transactions among themselves, but runs a statement outside a transaction at
// once, even while an interactive transaction is open on the same connection and waiting between its
// statements: such a write joined that transaction and was undone with it (the ROLLBACK lock-waits.ts
// sends before BEGIN IMMEDIATE, or any failure), after its caller had been told it was done. Here a
// transaction holds the connection from its BEGIN to its COMMIT or ROLLBACK, and a statement outside
// one waits its turn, so no statement ever runs inside another caller's transaction.
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';
import { wrapAdapter, wrapTransaction } from './driver-wrappers.ts';

/** First come, first served: `take` resolves with the function that ends the turn. */
export class Turns {
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  take(): Promise<() => void> {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const previous = this.#tail;
    this.#tail = ended;
    this.#waiting += 1;
    return previous.then(() => {
      this.#waiting -= 1;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        end();
      };
    });
  }

  /** Callers waiting for their turn (tests and metrics read it). */
  get waiting(): number {
    return this.#waiting;
  }
}

/** The adapter factory whose connections run one caller's statements at a time (see above). */
export function oneWriter(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => turnTakingAdapter(await factory.connect(), new Turns()),
  };
}

function turnTakingAdapter(adapter: SqlDriverAdapter, turns: Turns): SqlDriverAdapter {
  const inTurn = async <T>(run: () => Promise<T>): Promise<T> => {
    const end = await turns.take();
    try {
      return await run();
    } finally {
      end();
    }
  };
  return wrapAdapter(adapter, {
    queryRaw: (query) => inTurn(() => adapter.queryRaw(query)),
    executeRaw: (query) => inTurn(() => adapter.executeRaw(query)),
    executeScript: (script) => inTurn(() => adapter.executeScript(script)),
    async startTransaction(isolationLevel) {
      const end = await turns.take();
      try {
        return heldTransaction(await adapter.startTransaction(isolationLevel), end);
      } catch (error) {
        end();
        throw error;
      }
    },
  });
}

/** A transaction that gives the connection's turn back once it has committed or rolled back. */
function heldTransaction(transaction: Transaction, end: () => void): Transaction {
  const ending = async (finish: () => Promise<void>) => {
    try {
      await finish();
    } finally {
      end();
    }
  };
  return wrapTransaction(transaction, {
    commit: () => ending(() => transaction.commit()),
    rollback: () => ending(() => transaction.rollback()),
  });
}
