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
 * Hands each waiting event, oldest first, to `handle` inside a transaction that also removes it: an
 * event is handled once, by one process, and a failure leaves it for the next round.
 */
export async function drainOutbox(
  prisma: Prisma,
  handle: (tx: Transaction, event: OutboxEvent) => Promise<void>,
  limit = 100,
): Promise<number> {
  const waiting = await prisma.outboxEvent.findMany({ orderBy: { id: 'asc' }, take: limit, select: { id: true } });
  let handled = 0;
  for (const { id } of waiting) {
    await prisma.$transaction(async (tx) => {
      // the delete is the claim: a process that lost the race to it finds nothing and moves on
      const row = await tx.outboxEvent.findUnique({ where: { id } });
      const { count } = await tx.outboxEvent.deleteMany({ where: { id } });
      if (count === 0 || !row) return;
      await handle(tx, { id, name: row.name as EventName, payload: JSON.parse(row.payload) as EventPayloads[EventName] });
      handled += 1;
    });
  }
  return handled;
}
