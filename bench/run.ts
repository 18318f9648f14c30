// npm run bench [-- --db sqlite|postgres] [--scale N] [--connections C] [--duration S]
//
// Seeds a data set (scale 100: 10k people, 100k entries, ~300k comments, ~500k likes; reused between
// runs), starts the server as a separate process in production mode, warms it up, and drives load
// with autocannon. Prints a table and writes bench/results/<time>-<db>.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    scale: { type: 'string', default: '100' },
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '10' },
  },
});
const scale = Number(values.scale);
const connections = Number(values.connections);
const duration = Number(values.duration);
if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
if (!Number.isInteger(scale) || scale < 1) throw new Error('--scale must be a positive integer');

const postgresBase = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
function databaseUrl(): string {
  if (values.db === 'sqlite') return `file:${root}bench/data/milepost-scale${scale}.db`;
  const url = new URL(postgresBase);
  url.searchParams.set('schema', `bench_scale${scale}`);
  return url.toString();
}

function run(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [`${root}bin/milepost.js`, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

async function seeded(): Promise<boolean> {
  if (values.db === 'sqlite') return existsSync(`${root}bench/data/scale${scale}.done`);
  const client = new pg.Client({ connectionString: postgresBase });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT to_regclass('"bench_scale${scale}"."Entry"') AS t`);
    if (!rows[0].t) return false;
    const count = await client.query(`SELECT count(*)::int AS n FROM "bench_scale${scale}"."Entry"`);
    return count.rows[0].n >= scale * 1000;
  } finally {
    await client.end();
  }
}

async function ensureData(url: string) {
  mkdirSync(`${root}bench/data`, { recursive: true });
  if (await seeded()) return console.log(`reusing the scale-${scale} data set (${values.db})`);
  console.log(`seeding scale ${scale} on ${values.db} (once; later runs reuse it)…`);
  const child = run(['seed', '--scale', String(scale)], { DATABASE_URL: url });
  child.stdout!.pipe(process.stdout);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`seed failed with ${code}`);
  if (values.db === 'sqlite') writeFileSync(`${root}bench/data/scale${scale}.done`, new Date().toISOString());
}

async function startServer(url: string): Promise<{ child: ChildProcess; base: string }> {
  const child = run(['serve', '--no-seed'], {
    DATABASE_URL: url,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^/\s]+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, base };
}

const FEED = `edges { node { id url at message location { name } geo { coordinates }
  author { username displayName photoUrl url }
  workout { activityType distance { value units } duration felt title }
  comments { body createdAt author { username displayName photoUrl url } }
  likes { createdAt person { username displayName photoUrl url } } } }`;

const TARGETS = [
  { name: 'GraphQL public stream (20 entries, author, workout, comments, likes)', query: `{ publicStream { ... on EntryConnection { ${FEED} } } }` },
  { name: 'GraphQL nearby stream (Oakland, 50 miles)', query: `{ nearbyStream(lat: 37.8044, lon: -122.2712) { ... on EntryConnection { ${FEED} } } }` },
];

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function load(base: string, query: string, seconds: number) {
  return autocannon({
    url: `${base}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    connections,
    duration: seconds,
  });
}

const url = databaseUrl();
await ensureData(url);
const { child, base } = await startServer(url);
const rows = [];
try {
  for (const target of TARGETS) {
    const probe = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: target.query }) });
    const body = await probe.text();
    if (probe.status !== 200 || body.includes('"errors"')) throw new Error(`${target.name}: ${probe.status} ${body.slice(0, 300)}`);
    await load(base, target.query, 2); // warm-up
    const result = await load(base, target.query, duration);
    rows.push({
      target: target.name,
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.non2xx + result.timeouts,
      responseBytes: body.length,
    });
  }
} finally {
  const peak = peakRssMb(child.pid!);
  child.kill('SIGTERM');
  const report = { at: new Date().toISOString(), db: values.db, scale, connections, durationSeconds: duration, node: process.version, serverPeakRssMb: peak, results: rows };
  console.table(rows);
  console.log(`server peak RSS: ${peak} MB`);
  const file = `${root}bench/results/${report.at.replace(/[:.]/g, '-')}-${values.db}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${file.slice(root.length)}`);
}
