import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { createApp, listen } from '../http/server.ts';
import { attachWebSocket } from '../http/websocket.ts';
import { startWebhookWorker } from '../webhooks/deliveries.ts';
import { seedIfEmpty } from '../seed/seed.ts';
import { parseOptions } from './args.ts';

const HELP = `Usage: milepost serve [--no-seed]

Starts the HTTP server on HOST:PORT (default 0.0.0.0:3000). Pending migrations are applied first.
On an empty SQLite database the demo community is seeded, so a first start has something to show;
--no-seed (or a PostgreSQL database) skips that.`;

export async function run(argv: string[]) {
  const { values } = parseOptions(argv, { 'no-seed': { type: 'boolean' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const config = loadConfig();
  const database = await openDatabase(config.database, {
    onQuery: config.logQueries ? (sql, ms) => console.log(`[sql ${ms}ms] ${sql}`) : undefined,
  });
  if (!values['no-seed'] && database.provider === 'sqlite') {
    const seeded = await seedIfEmpty(database);
    if (seeded) console.log(`seeded a demo community: ${seeded.people} people, ${seeded.entries} entries`);
  }
  const app = createApp(config, database);
  if (!(await app.ready())) console.error('Redis did not answer within 5 s: rate limits count per process until it does');
  const server = await listen(app, config);
  const websocket = attachWebSocket(server, app, config, database);
  const webhooks = startWebhookWorker(database.prisma, config.webhooks);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Milepost listening on ${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}/graphql (${database.provider})`);

  const shutdown = (signal: string) => {
    console.log(`${signal}: closing`);
    void websocket.close();
    void webhooks.stop();
    server.close(() => void Promise.all([app.close(), database.close()]).then(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return 0;
}
