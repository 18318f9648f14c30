// Work queued as rows (webhook deliveries, mails), done by a worker in every process: a row is claimed by
// a conditional update that moves it to "sending" with a lease, so two processes never take the same
// one, and a lease that lapses (its process died) lets the row be taken again. And the worker's loop:
// one round at a time, on a timer and on demand.
import type { Logger } from '../log.ts';

/** The rows a claim looks at: pending ones due now, and sending ones whose lease lapsed. */
type DueRows = {
  OR: [{ status: 'pending'; nextAttemptAt: { lte: Date } }, { status: 'sending'; lockedUntil: { lt: Date } }];
};
/** One row as it was read: the claim's condition, so that a row another process claimed since is left. */
type AsRead = { id: number; status: string; lockedUntil: Date | null };

/**
 * What a queue table offers: due rows by status, and a conditional update. Prisma's delegates of the
 * queue tables (`prisma.mail`, `prisma.webhookDelivery`) are such tables as they are.
 */
export interface LeasedTable {
  findMany(args: {
    where: DueRows;
    orderBy: { nextAttemptAt: 'asc' };
    take: number;
    select: { id: true; status: true; lockedUntil: true };
  }): Promise<AsRead[]>;
  updateMany(args: { where: AsRead; data: { status: 'sending'; lockedUntil: Date } }): Promise<{ count: number }>;
}

/** Claims up to `limit` due rows, one conditional update each: pending ones due now, and sending ones whose lease lapsed. */
export async function claimLeased(table: LeasedTable, limit: number, leaseMs: number, now = new Date()): Promise<number[]> {
  const due = await table.findMany({
    where: {
      OR: [
        { status: 'pending', nextAttemptAt: { lte: now } },
        { status: 'sending', lockedUntil: { lt: now } },
      ],
    },
    orderBy: { nextAttemptAt: 'asc' },
    take: limit,
    select: { id: true, status: true, lockedUntil: true },
  });
  const claimed: number[] = [];
  for (const row of due) {
    const { count } = await table.updateMany({
      where: { id: row.id, status: row.status, lockedUntil: row.lockedUntil },
      data: { status: 'sending', lockedUntil: new Date(now.getTime() + leaseMs) },
    });
    if (count === 1) claimed.push(row.id);
  }
  return claimed;
}

export interface Poller {
  /** Runs a round now (or waits for the one running); the timer calls it, and tests may too. */
  tick(): Promise<void>;
  /** Stops the timer and waits for the round running. */
  stop(): Promise<void>;
}

/**
 * Runs `round` every `pollMs`, never two at once. A failed round is logged (through the service's logger,
 * which censors credential fields, when there is one) as `failure`, and the next one tries again.
 */
export function startPoller(round: () => Promise<void>, pollMs: number, failure: string, logger?: Pick<Logger, 'error'>): Poller {
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= (async () => {
      try {
        await round();
      } catch (error) {
        if (logger) logger.error({ err: error }, failure);
        else console.error(`${failure}:`, error);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
