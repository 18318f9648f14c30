// Fedify's key-value store and message queue, kept in the service's own database (both SQLite and
// PostgreSQL, through Prisma): the queue's jobs are rows claimed with a lease like the webhook
// deliveries (db/leased-rows.ts), so that a delivery or a received activity survives a restart or a
// kill -9 of the process that was handling it, and every process of a deployment shares them.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions, MessageQueue, MessageQueueEnqueueOptions } from '@fedify/fedify';
import type { Prisma } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { claimLeased, type Poller, startPoller } from '../db/leased-rows.ts';
import type { Logger } from '../log.ts';

/** A key as stored: its parts as JSON, so that a prefix of parts is a prefix of the text. */
const keyText = (key: KvKey) => JSON.stringify(key);
const prefixText = (prefix: KvKey) => `${keyText(prefix).slice(0, -1)},`;

const expiryOf = (options?: KvStoreSetOptions) => (options?.ttl ? new Date(Date.now() + options.ttl.total({ unit: 'millisecond' })) : null);

/** Entries a page of `list` reads. */
const LIST_PAGE = 500;

const live = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

export class DatabaseKvStore implements KvStore {
  constructor(private readonly prisma: Prisma) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.prisma.federationKv.findFirst({ where: { key: keyText(key), ...live() }, select: { value: true } });
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const data = { value: JSON.stringify(value), expiresAt: expiryOf(options) };
    await this.prisma.federationKv.upsert({ where: { key: keyText(key) }, create: { key: keyText(key), ...data }, update: data });
  }

  async delete(key: KvKey): Promise<void> {
    await this.prisma.federationKv.deleteMany({ where: { key: keyText(key) } });
  }

  /** Sets `newValue` only if the key holds `expectedValue` (undefined: holds nothing). */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const data = { value: JSON.stringify(newValue), expiresAt: expiryOf(options) };
    if (expectedValue === undefined) {
      // an expired row counts as nothing: it goes first
      await this.prisma.federationKv.deleteMany({ where: { key: keyText(key), expiresAt: { lte: new Date() } } });
      try {
        await this.prisma.federationKv.create({ data: { key: keyText(key), ...data } });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    }
    const { count } = await this.prisma.federationKv.updateMany({
      where: { key: keyText(key), value: JSON.stringify(expectedValue), ...live() },
      data,
    });
    return count === 1;
  }

  /** Entries under a prefix, read a page of LIST_PAGE at a time (a store of every cached document is never read whole). */
  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const under = prefix ? { OR: [{ key: keyText(prefix) }, { key: { startsWith: prefixText(prefix) } }] } : {};
    let after: string | null = null;
    for (;;) {
      const rows: Array<{ key: string; value: string }> = await this.prisma.federationKv.findMany({
        where: { AND: [under, live(), after === null ? {} : { key: { gt: after } }] },
        select: { key: true, value: true },
        orderBy: { key: 'asc' },
        take: LIST_PAGE,
      });
      for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) as unknown };
      if (rows.length < LIST_PAGE) return;
      after = rows.at(-1)!.key;
    }
  }

  /** Removes what has expired (the worker's rounds call it now and then). */
  async sweep(): Promise<number> {
    const { count } = await this.prisma.federationKv.deleteMany({ where: { expiresAt: { lte: new Date() } } });
    return count;
  }
}

/** How long a claimed job is its process's: one that died holding it lets another take it after this. */
const LEASE_MS = 120_000;
/** A job whose handler failed is tried again after this, four times longer each time, MAX_JOB_ATTEMPTS in all. */
const JOB_RETRY_BASE_MS = 5_000;
export const MAX_JOB_ATTEMPTS = 5;
/** Jobs a round claims and runs side by side: one slow server holds one of them, not the queue. */
const ROUND_JOBS = 16;

export interface DatabaseQueueOptions {
  pollMs: number;
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** How long a failed job waits before its next try, growing fourfold (JOB_RETRY_BASE_MS by default). */
  retryBaseMs?: number;
  /** Called now and then from the worker's rounds (the key-value store's sweep). */
  housekeeping?: () => Promise<unknown>;
}

/**
 * Fedify's message queue over the FederationJob table: a message is a row until its handler has run
 * (then deleted); a handler that fails is tried again later (MAX_JOB_ATTEMPTS in all). Fedify retries
 * failed deliveries itself, by enqueuing them again with a delay (its outbox and inbox retry policies).
 */
export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  private poller: Poller | null = null;

  constructor(
    private readonly prisma: Prisma,
    private readonly options: DatabaseQueueOptions,
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delayMs = options?.delay ? Math.max(0, options.delay.total({ unit: 'millisecond' })) : 0;
    const nextAttemptAt = new Date(Date.now() + delayMs);
    await this.prisma.federationJob.createMany({ data: messages.map((message) => ({ payload: JSON.stringify(message), nextAttemptAt })) });
    if (delayMs === 0) this.wake();
  }

  async getDepth(): Promise<{ queued: number; ready: number; delayed: number }> {
    const now = new Date();
    const [queued, ready] = await Promise.all([
      this.prisma.federationJob.count(),
      this.prisma.federationJob.count({ where: { status: 'pending', nextAttemptAt: { lte: now } } }),
    ]);
    return { queued, ready, delayed: queued - ready };
  }

  /** Runs a round soon (after the enqueuing transaction has committed), rather than at the next poll. */
  wake(): void {
    if (this.poller) setImmediate(() => void this.poller?.tick());
  }

  /** Runs due jobs until `signal` aborts; resolves then, once the round running has ended. */
  listen(handler: (message: unknown) => Promise<void> | void, options?: { signal?: AbortSignal }): Promise<void> {
    let rounds = 0;
    const round = async () => {
      rounds += 1;
      if (rounds % 60 === 0) await this.options.housekeeping?.();
      for (;;) {
        const ids = await claimLeased(this.prisma.federationJob, ROUND_JOBS, LEASE_MS);
        if (ids.length === 0) return;
        await Promise.all(ids.map((id) => this.run(id, handler)));
        if (ids.length < ROUND_JOBS) return;
      }
    };
    this.poller = startPoller(round, this.options.pollMs, 'federation queue round failed', this.options.logger);
    const poller = this.poller;
    void poller.tick();
    return new Promise((resolve) => {
      const stop = () => void poller.stop().then(resolve);
      if (options?.signal?.aborted) stop();
      else options?.signal?.addEventListener('abort', stop, { once: true });
    });
  }

  private async run(id: number, handler: (message: unknown) => Promise<void> | void): Promise<void> {
    const job = await this.prisma.federationJob.findUnique({ where: { id }, select: { payload: true, attempts: true } });
    if (!job) return;
    try {
      await handler(JSON.parse(job.payload));
    } catch (error) {
      // a fault (the database away, a bug): tried again later, a few times, rather than lost; Fedify's own
      // failed deliveries come back as jobs of their own, so this is for what failed around them
      if (job.attempts + 1 < MAX_JOB_ATTEMPTS) {
        this.options.logger?.warn({ err: error, job: id }, 'a federation job failed; it is tried again');
        const delayMs = (this.options.retryBaseMs ?? JOB_RETRY_BASE_MS) * 4 ** job.attempts;
        await this.prisma.federationJob.update({
          where: { id },
          data: { status: 'pending', lockedUntil: null, attempts: { increment: 1 }, nextAttemptAt: new Date(Date.now() + delayMs) },
        });
        return;
      }
      this.options.logger?.error({ err: error, job: id }, 'a federation job failed for the last time; it is dropped');
    }
    await this.prisma.federationJob.deleteMany({ where: { id } });
  }
}
