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
import WebSocket from 'ws';
import { toGpx } from '../src/domain/gpx.ts';

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
    // the load generator is one client: measure the server, not the rate limit
    RATE_LIMIT_PER_HOUR: '10000000',
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

/** A 200,000-point GPX document (lat, lon, elevation, time), about 19 MB: under the 20 MB limit. */
function bigGpx(): string {
  const points = Array.from({ length: 200_000 }, (_, i) => ({
    // seven decimals, as devices write them (about a centimetre)
    lat: Math.round((37.8 + Math.sin(i / 5000) / 50) * 1e7) / 1e7,
    lon: Math.round((-122.27 + Math.cos(i / 5000) / 50) * 1e7) / 1e7,
    elevation: Math.round(100 + 50 * Math.sin(i / 700)),
    time: new Date(Date.UTC(2024, 4, 12, 7) + i * 1000),
    heartRate: null,
    cadence: null,
    segment: 0,
  }));
  return toGpx({ name: 'Bench 200k', points, waypoints: [] }).replace(/\n\s*/g, '');
}

async function graphql(base: string, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data: Record<string, Record<string, unknown>>; errors?: unknown[] };
}

/** Uploads the big track as a multipart file, the way a client sends a file: a few times, keeping each time. */
async function gpxUpload(base: string, url: string, child: ChildProcess) {
  const token = await mintToken(base, url);
  const created = await graphql(base, token, 'mutation { createEntry(input: { workout: { activityType: RUNNING } }) { ... on Entry { id } } }');
  const entryId = created.data.createEntry!.id as number;
  createdByRun.push(entryId);
  const document = bigGpx();
  const rssBefore = peakRssMb(child.pid!);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: `mutation ($gpx: GpxDocument!) { setEntryTrack(entryId: ${entryId}, gpx: $gpx) { __typename ... on Entry { track { pointCount } } } }`, variables: { gpx: null } }));
    form.set('map', JSON.stringify({ 0: ['variables.gpx'] }));
    form.set('0', new Blob([document], { type: 'application/gpx+xml' }), 'big.gpx');
    const started = performance.now();
    const response = await fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const body = (await response.json()) as { data?: { setEntryTrack?: { track?: { pointCount: number } } } };
    times.push(performance.now() - started);
    if (body.data?.setEntryTrack?.track?.pointCount !== 200_000) throw new Error(`GPX upload failed: ${JSON.stringify(body).slice(0, 300)}`);
  }
  times.sort((a, b) => a - b);
  return { bytes: Buffer.byteLength(document), medianMs: Math.round(times[1]!), maxMs: Math.round(times[2]!), serverPeakRssMbBefore: rssBefore, serverPeakRssMbAfter: peakRssMb(child.pid!) };
}

/** One event reaching 1,000 subscribers on one process: how long until each, and until all, have it. */
async function fanOut(base: string, url: string) {
  const wsUrl = `${base.replace(/^http/, 'ws')}/graphql`;
  const subscribers = 1000;
  const sockets: WebSocket[] = [];
  const arrivals = new Map<number, number[]>();
  await Promise.all(
    Array.from({ length: subscribers }, () =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
        sockets.push(ws);
        ws.on('error', reject);
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
        ws.on('message', (data) => {
          const message = JSON.parse(String(data)) as { type: string; payload?: { data?: { publicEntries?: { id: number } } } };
          if (message.type === 'connection_ack') {
            ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { publicEntries { id } }' } }));
            setTimeout(resolve, 50);
          } else if (message.type === 'next') {
            const id = message.payload!.data!.publicEntries!.id;
            const list = arrivals.get(id) ?? [];
            list.push(performance.now());
            arrivals.set(id, list);
          }
        });
      }),
    ),
  );
  const token = await mintToken(base, url);
  const deliveries: number[] = [];
  const toAll: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const created = await graphql(base, token, 'mutation { createEntry(input: { message: "fan-out" }) { ... on Entry { id } } }');
    const id = created.data.createEntry!.id as number;
    createdByRun.push(id);
    for (let wait = 0; wait < 200 && (arrivals.get(id)?.length ?? 0) < subscribers; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    const times = (arrivals.get(id) ?? []).map((t) => t - started);
    if (times.length < subscribers) throw new Error(`fan-out: only ${times.length} of ${subscribers} subscribers got event ${id}`);
    deliveries.push(...times);
    toAll.push(Math.max(...times));
  }
  for (const ws of sockets) ws.close();
  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
  return { subscribers, events: toAll.length, deliveryP50Ms: Math.round(pct(deliveries, 50)), deliveryP99Ms: Math.round(pct(deliveries, 99)), allReachedP99Ms: Math.round(pct(toAll, 99)) };
}

async function mintToken(base: string, url: string): Promise<string> {
  const minted = run(['tokens', 'create', '--username', await firstUsername(base)], { DATABASE_URL: url });
  let token = '';
  minted.stdout!.on('data', (chunk) => (token += chunk));
  await new Promise((resolve) => minted.on('exit', resolve));
  return token.trim();
}

async function firstUsername(base: string): Promise<string> {
  const response = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ publicStream(first: 1) { ... on EntryConnection { edges { node { author { username } } } } } }' }) });
  const body = (await response.json()) as { data: { publicStream: { edges: Array<{ node: { author: { username: string } } }> } } };
  return body.data.publicStream.edges[0]!.node.author.username;
}

/** Entries this run created; deleted at the end, so that every run reads the same seeded streams. */
const createdByRun: number[] = [];

async function cleanUp(base: string, url: string) {
  if (createdByRun.length === 0) return;
  const token = await mintToken(base, url);
  for (const id of createdByRun) await graphql(base, token, `mutation { deleteEntry(id: ${id}) { __typename } }`);
}

const url = databaseUrl();
await ensureData(url);
const { child, base } = await startServer(url);
const rows = [];
let upload: Awaited<ReturnType<typeof gpxUpload>> | null = null;
let fanout: Awaited<ReturnType<typeof fanOut>> | null = null;
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
  upload = await gpxUpload(base, url, child);
  fanout = await fanOut(base, url);
} finally {
  await cleanUp(base, url).catch((error) => console.error('could not delete the entries this run created:', error));
  const peak = peakRssMb(child.pid!);
  child.kill('SIGTERM');
  const report = { at: new Date().toISOString(), db: values.db, scale, connections, durationSeconds: duration, node: process.version, serverPeakRssMb: peak, results: rows, gpxUpload200k: upload, fanOut1000: fanout };
  console.table(rows);
  if (fanout) console.log(`one event to ${fanout.subscribers} WebSocket subscribers (${fanout.events} events): delivery p50 ${fanout.deliveryP50Ms} ms, p99 ${fanout.deliveryP99Ms} ms; all reached, p99 ${fanout.allReachedP99Ms} ms`);
  if (upload) console.log(`200k-point GPX upload (${(upload.bytes / 1e6).toFixed(1)} MB, multipart): median ${upload.medianMs} ms, max ${upload.maxMs} ms; server peak RSS ${upload.serverPeakRssMbBefore} → ${upload.serverPeakRssMbAfter} MB`);
  console.log(`server peak RSS: ${peak} MB`);
  const file = `${root}bench/results/${report.at.replace(/[:.]/g, '-')}-${values.db}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${file.slice(root.length)}`);
}
