import cluster from 'node:cluster';
import type { Server as HttpServer } from 'node:http';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { type App, createApp, listen } from '../app/server.ts';
import { attachWebSocket } from '../app/websocket.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { backfillTrackRecords } from '../db/track-records.ts';
import { startImportJobs } from '../imports/jobs.ts';
import { mailTokens } from '../mail/tokens.ts';
import { startMailWorker } from '../mail/worker.ts';
import { seedIfEmpty } from '../seed/seed.ts';
import { startWebhookWorker } from '../webhooks/deliveries.ts';
import { parseOptions, positiveInteger, UsageError } from './args.ts';
import { noteServer } from './server-lock.ts';

const HELP = `Usage: milepost serve [--no-seed] [--workers N]

Starts the HTTP server on HOST:PORT (default 0.0.0.0:3000). Pending migrations are applied first.
On an empty SQLite database the demo community is seeded, so a first start has something to show;
--no-seed (or a PostgreSQL database) skips that.

  --workers N   run N server processes sharing the port (node:cluster); "auto" uses every core.
                Meant for PostgreSQL with REDIS_URL, so that rate limits and events are shared;
                on SQLite the processes take turns to write.`;

/** Seconds a stopping server waits for requests in flight before it gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;
/** After SIGTERM, connections still idle this much later are closed. */
const DRAIN_IDLE_AFTER_MS = 1_000;

export async function run(argv: string[]) {
  const { values } = parseOptions(argv, { 'no-seed': { type: 'boolean' }, workers: { type: 'string' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const workers = values.workers === 'auto' ? availableParallelism() : positiveInteger('workers', values.workers, 1);
  if (workers > 64) throw new UsageError('--workers must be at most 64');
  const config = loadConfig();
  // read by V8 at every full collection, so it holds from here on
  if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  // Prisma's query compiler is WebAssembly, compiled when the client opens: V8's optimizing tier for it
  // held about 45 MB of the process for good, and writes ran 0-5% faster with it
  setFlagsFromString('--liftoff-only');

  if (cluster.isPrimary) warnOfAnotherServer(config.database);

  if (workers > 1 && cluster.isPrimary) {
    // migrate and seed once, before any worker starts
    const database = await openDatabase(config.database, { onMigrated: (name, ms) => console.log(`applied migration ${name} (${ms} ms)`) });
    if (!values['no-seed'] && database.provider === 'sqlite') await seedIfEmpty(database);
    await database.close();
    return runPrimary(workers, argv);
  }

  // kept entry documents are frozen in development and tests, which prove that nothing changes them
  const database = await openDatabase(config.database, {
    migrate: cluster.isPrimary,
    freezeKeptDocuments: config.env !== 'production',
    onMigrated: (name, ms) => console.log(`applied migration ${name} (${ms} ms)`),
  });
  if (config.logQueries) database.onQuery((ms, sql) => console.log(`[sql ${ms}ms] ${sql}`));
  if (cluster.isPrimary && !values['no-seed'] && database.provider === 'sqlite') {
    const seeded = await seedIfEmpty(database);
    if (seeded) console.log(`seeded a demo community: ${seeded.people} people, ${seeded.entries} entries`);
  }
  const app = createApp(config, database);
  if (!(await app.ready())) console.error('Redis did not answer within 5 s: rate limits count per process until it does');
  const server = await listen(app, config);
  const websocket = attachWebSocket(server, app, database);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // events and mails carry links to this service: without PUBLIC_URL they name localhost, which no
  // receiver or reader can follow
  if (config.env === 'production' && !config.publicUrl)
    app.logger.warn(
      { origin: `http://localhost:${port}` },
      'PUBLIC_URL is not set: webhook events and mails will link to localhost; set it to the address people and apps reach',
    );
  const background = startBackgroundWork(config, database, app, config.publicUrl ?? `http://localhost:${port}`);
  const worker = cluster.isWorker ? ` worker ${cluster.worker?.id}` : '';
  console.log(
    `Milepost${worker} listening on ${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}/ (GraphQL at /graphql; ${database.provider}, process ${process.pid})`,
  );

  stopOnSignals(server, {
    stopping() {
      app.drain();
      void websocket.close();
      background.stop();
    },
    closed: () => Promise.all([app.close(), database.close()]),
  });
  return 0;
}

/** On SQLite, says so when another server already serves the same file (both would answer). */
function warnOfAnotherServer(database: Config['database']): void {
  if (database.provider !== 'sqlite' || database.file === ':memory:') return;
  const { otherPid, release } = noteServer(database.file);
  process.once('exit', release);
  if (otherPid === null) return;
  console.error(
    `milepost serve: another Milepost server (process ${otherPid}) already serves ${database.file}. ` +
      `Both will answer, taking turns to write; to restart it, stop the other first (kill ${otherPid}). ` +
      'To run several servers, use PostgreSQL with REDIS_URL.',
  );
}

/**
 * What a server does beside answering requests: webhook deliveries and mails in every process; in one
 * process (the housekeeper), the archive imports uploaded from the account page (imports/jobs.ts) and
 * the records of stored tracks brought up to date (db/track-records.ts). `origin` is the address the
 * events and mails link to.
 */
function startBackgroundWork(config: Config, database: Database, app: App, origin: string): { stop(): void } {
  const fediverse = app.fediverse;
  const webhooks = startWebhookWorker(database.prisma, {
    ...config.webhooks,
    origin,
    logger: app.logger,
    ...(fediverse ? { alsoRelay: fediverse.relay } : {}),
  });
  // the fediverse's deliveries and received activities, in every process (the jobs are leased rows)
  const federating = fediverse?.start();
  const mail = config.mail
    ? startMailWorker(database.prisma, {
        ...config.mail,
        origin,
        tokens: mailTokens(config.sessionSecret),
        logger: app.logger,
      })
    : null;
  const housekeeper = cluster.isPrimary || cluster.worker?.id === 1;
  const imports = housekeeper ? startImportJobs(database, app.media, app.logger) : null;
  if (housekeeper) {
    backfillTrackRecords(database.prisma).then(
      (count) => count && app.logger.info({ tracks: count }, 'records of stored tracks computed'),
      (error: unknown) => app.logger.error({ err: error }, 'computing the records of stored tracks stopped; the next start goes on'),
    );
  }
  return {
    stop() {
      void webhooks.stop();
      void federating?.stop();
      void mail?.stop();
      void imports?.stop();
    },
  };
}

/**
 * Graceful: on a signal, `stopping` (answers say Connection: close, background work stops), then the
 * listener stops accepting, requests in flight finish and sockets close; then `closed` closes the stores
 * and the process exits.
 */
function stopOnSignals(server: HttpServer, steps: { stopping(): void; closed(): Promise<unknown> }): void {
  const shutdown = (signal: string) => {
    console.log(`${signal}: closing`);
    steps.stopping();
    // stop accepting; each connection ends after its next answer (which says Connection: close) or its
    // keep-alive timeout. http.Server#close would also close idle keep-alive connections at once, and a
    // client sending on one at that moment got a reset
    net.Server.prototype.close.call(server, () => void steps.closed().then(() => process.exit(0)));
    // a client at work has had its answer with Connection: close by then; one idle since goes now
    // rather than at its keep-alive timeout
    setTimeout(() => server.closeIdleConnections(), DRAIN_IDLE_AFTER_MS).unref();
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

/** Keeps `count` workers running; a worker that dies unasked is replaced; SIGTERM stops them all. */
function runPrimary(count: number, argv: string[]): number {
  let stopping = false;
  // the workers accept connections themselves, from the one listening socket: handed out by this
  // process (round robin), a connection given to a worker that had just died stayed open here with
  // nobody to answer it, until the client gave up. Accepted by the workers, one waiting in the queue
  // goes to a live worker, and one a dying worker had accepted is closed with it.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ args: ['serve', ...argv] });
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.id} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    console.log(`${signal}: stopping ${count} workers`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 2_000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  console.log(`Milepost primary started ${count} workers`);
  return 0;
}
