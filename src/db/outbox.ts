// The outbox: an event row written in the same transaction as the write it announces, so that no
// commit is ever without its event, even if the process dies right after it. The webhook worker
// takes them in order and queues their deliveries (src/webhooks/deliveries.ts).
import type { EventName, EventPayloads } from '../events/bus.ts';
import type { Prisma, Transaction } from './database.ts';

/**
 * Runs `write` and records the event it announces in one transaction; returns what `write` returned.
 * `event` sees that result (the new row's id).
 */
export async function withOutboxEvent<T, K extends EventName>(
  prisma: Prisma,
  write: (tx: Transaction) => Promise<T>,
  event: (result: T) => { name: K; payload: EventPayloads[K] },
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    const result = await write(tx);
    const { name, payload } = event(result);
    await recordEvent(tx, name, payload);
    return result;
  });
}

/** Writes an event into the outbox, inside the transaction `tx` of the write it announces. */
export async function recordEvent<K extends EventName>(tx: Transaction, name: K, payload: EventPayloads[K]): Promise<void> {
  await tx.outboxEvent.create({ data: { name, payload: JSON.stringify(payload) } });
}

export interface OutboxEvent {
  id: number;
  name: EventName;
  payload: EventPayloads[EventName];
}

/**
 * Hands the waiting events, oldest first, to `handle` inside one transaction that also removes them:
 * an event is handled once, by one process (the delete is the claim: rows another process deleted
 * first are not returned to this one), and a failure leaves the whole batch for the next round.
 * One transaction a batch, not one an event: at 20 writes a second the relay's twenty commits a
 * second held the single SQLite writer, and every write queued behind them, for 50-90 ms a second.
 * The batch is handed whole, so that what its events share is read once for all of them.
 */
export async function drainOutbox(
  prisma: Prisma,
  handle: (tx: Transaction, events: OutboxEvent[]) => Promise<void>,
  limit = 100,
): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ id: number; name: string; payload: string }>>`
      DELETE FROM "OutboxEvent" WHERE "id" IN (SELECT "id" FROM "OutboxEvent" ORDER BY "id" LIMIT ${limit})
      RETURNING "id", "name", "payload"`;
    rows.sort((a, b) => a.id - b.id);
    if (rows.length > 0)
      await handle(
        tx,
        rows.map((row) => ({ id: row.id, name: row.name as EventName, payload: JSON.parse(row.payload) as EventPayloads[EventName] })),
      );
    return rows.length;
  });
}
