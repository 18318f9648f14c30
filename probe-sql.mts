import { loadConfig } from './src/config.ts';
import { openDatabase } from './src/db/database.ts';
import { createApp } from './src/app/server.ts';
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: 'file:/work/main/bench/data/milepost-scale100.db', RATE_LIMIT_PER_HOUR: '10000000' } as never);
const database = await openDatabase(config.database);
const app = createApp(config, database);
const log: Array<[number, string]> = [];
database.onQuery((ms, sql) => log.push([ms, sql]));
const go = async () => (await app.fetch('http://localhost/entries.json', { headers: { authorization: 'Bearer Jf7jnVGg1lT0Np63yDR1dzadKK5QbFd7F1VBN6qE3-s' } })).text();
for (let i = 0; i < 50; i++) { log.length = 0; await go(); }
for (const [ms, sql] of log) console.log('SQL', ms.toFixed(3), sql.replace(/\s+/g, ' ').slice(0, 120));
const t0 = performance.now(); for (let i = 0; i < 500; i++) await go(); console.log('MEAN', ((performance.now() - t0) / 500).toFixed(3));
await app.close();
