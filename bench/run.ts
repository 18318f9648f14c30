// npm run bench [-- --db sqlite|postgres] [--scale N] [--connections C] [--duration S] [--heap=--max-old-space-size=192]
//
// Seeds a data set (scale 100: 10k people, 100k entries, ~300k comments, ~500k likes; reused between
// runs), starts the server as a separate process in production mode, warms it up, and drives load
// with wrk when it is installed (else autocannon). Each read is also measured against a bare
// node:http server sending the same bytes. Prints a table and writes bench/results/<time>-<db>.json.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import WebSocket from 'ws';
import { parseDatabaseUrl } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { toGpx } from '../src/domain/gpx.ts';
import { fitFile, pointsAlong } from '../test/support/activity-files.ts';
import { PEER_FEED, PEER_VERSION, startPeer } from './peer.ts';

/** Thrown to end a run with `--only` after its targets. */
class Skip extends Error {}

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    scale: { type: 'string', default: '100' },
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '10' },
    // V8 flags for the server process, e.g. --heap=--max-old-space-size=192
    heap: { type: 'string', default: '' },
    // only the targets whose name holds this text, and none of the later phases (a quick A/B);
    // `--only peer` only PostGraphile (PostgreSQL), `--only training` measures only the stats of a person with 10,000 workouts, `--only upload` only
    // the GPX upload, `--only fan-out` only the WebSocket fan-out, `--only mixed` only the reads under
    // writes, `--only hostile` only the longest event-loop stall under hostile inputs (each with the
    // server's RSS), `--only deep` only each stream's deep pages beside its first (run it at --scale 1000),
    // `--only workout` only the pages and the analysis of a 100,000-point ride with laps, heart rate and power
    only: { type: 'string', default: '' },
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
  return spawn(process.execPath, ['--max-semi-space-size=16', `${root}bin/milepost.js`, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
  // the server runs the compiled dist/ (bin/milepost.js): compile the sources first (incremental), or
  // a run measures whatever was built last: an A/B run without a build measures the code before the change
  execFileSync(process.execPath, [`${root}scripts/build.mjs`], { stdio: 'inherit' });
  // the request log (a line a request, as in production) goes to a file: through a pipe to this
  // busy process, a full pipe would stall the server's writes and show up as latency
  const logFile = `${root}bench/data/server.log`;
  const child = spawn(
    process.execPath,
    // as bin/milepost.js's shebang and `npm start` give it (the young generation's size, see there)
    ['--max-semi-space-size=16', ...(values.heap ? values.heap.split(/\s+/) : []), `${root}bin/milepost.js`, 'serve', '--no-seed'],
    {
      env: {
        ...process.env,
        DATABASE_URL: url,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        // the load generator is one client: measure the server, not the rate limit
        RATE_LIMIT_PER_HOUR: '10000000',
        // the hostile phase reads the server's own event-loop delay there
        METRICS_PUBLIC: 'true',
      },
      stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
    },
  );
  let exited = false;
  child.on('exit', () => (exited = true));
  for (let waited = 0; waited < 60_000; waited += 100) {
    const match = /listening on (http:\/\/[^/\s]+)/.exec(readFileSync(logFile, 'utf8'));
    if (match) return { child, base: match[1]! };
    if (exited) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: see ${logFile}`);
}

const FEED = `edges { node { id url at message location { name } geo { coordinates }
  author { username displayName photoUrl url }
  workout { activityType distance { value units } duration felt title }
  comments { edges { node { body createdAt author { username displayName photoUrl url } } } }
  likes { edges { node { createdAt person { username displayName photoUrl url } } } } } }`;

/** The feed as Apollo or urql clients send it: variables, a page of each list, type names and ids for their caches. */
const CLIENT_FEED = `query Feed($first: Int, $reactions: Int) { publicStream(first: $first) { __typename ... on EntryConnection {
  edges { cursor node { __typename id url at message location { name } geo { coordinates }
    author { __typename id username displayName photoUrl url }
    workout { activityType distance { value units } duration felt title }
    comments(first: $reactions) { totalCount edges { node { __typename id body createdAt author { __typename id username displayName photoUrl url } } } }
    likes(first: $reactions) { totalCount edges { node { __typename id createdAt person { __typename id username displayName photoUrl url } } } } } }
  pageInfo { hasNextPage endCursor } } } }`;

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Reads are compared with a bare node:http server sending the same bytes. */
  read: boolean;
}

/** The targets; `u` is a seeded person with entries, `token` theirs, `entryId` one of the seeded entries. */
function targets(u: string, token: string, entryId: number): Target[] {
  const auth = { authorization: `Bearer ${token}` };
  const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
  return [
    { name: 'REST public stream GET /entries.json', method: 'GET', path: '/entries.json', read: true },
    // what browsers and most HTTP clients ask for: the cached answer compressed once, then served as bytes
    {
      name: 'REST public stream, Accept-Encoding: br (cached)',
      method: 'GET',
      path: '/entries.json',
      headers: { 'accept-encoding': 'br' },
      read: true,
    },
    {
      name: 'REST public stream, Accept-Encoding: gzip (cached)',
      method: 'GET',
      path: '/entries.json',
      headers: { 'accept-encoding': 'gzip' },
      read: true,
    },
    {
      name: 'REST public stream with a token, Accept-Encoding: gzip (uncached)',
      method: 'GET',
      path: '/entries.json',
      headers: { ...auth, 'accept-encoding': 'gzip' },
      read: true,
    },
    { name: 'REST person stream GET /people/<u>/entries.json', method: 'GET', path: `/people/${u}/entries.json`, read: true },
    {
      name: 'REST person stream with a token (uncached)',
      method: 'GET',
      path: `/people/${u}/entries.json`,
      headers: auth,
      read: true,
    },
    {
      name: 'REST nearby stream GET /entries/nearby/<lat>,<lon>.json',
      method: 'GET',
      path: '/entries/nearby/37.8044,-122.2712.json',
      read: true,
    },
    {
      name: 'REST friends stream GET /entries/friends.json (token)',
      method: 'GET',
      path: '/entries/friends.json',
      headers: auth,
      read: true,
    },
    // a token makes every read private: computed each time, never from the response cache
    { name: 'REST public stream with a token (uncached)', method: 'GET', path: '/entries.json', headers: auth, read: true },
    {
      name: 'REST nearby stream with a token (uncached)',
      method: 'GET',
      path: '/entries/nearby/37.8044,-122.2712.json',
      headers: auth,
      read: true,
    },
    {
      name: 'GraphQL public stream (20 entries, author, workout, comments, likes)',
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ publicStream { ... on EntryConnection { ${FEED} } } }` }),
      read: true,
    },
    {
      name: 'GraphQL public stream with a token (uncached)',
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: `{ publicStream { ... on EntryConnection { ${FEED} } } }` }),
      read: true,
    },
    {
      name: 'GraphQL feed as a client asks for it (variables, a page of comments and likes, ids) with a token (uncached)',
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: CLIENT_FEED, variables: { first: 20, reactions: 20 }, operationName: 'Feed' }),
      read: true,
    },
    // search, with a token (never cached): a common pair of words, and a name's start (issue 45's p99 < 50 ms)
    {
      name: 'Search entries with a token (GraphQL searchEntries "tempo hills")',
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: `{ searchEntries(query: "tempo hills") { ${FEED} } }` }),
      read: true,
    },
    {
      name: "Search people with a token (GraphQL searchPeople by a name's first letters)",
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({
        query: `{ searchPeople(query: "${u.slice(0, 3)}") { totalCount edges { node { username displayName photoUrl } } } }`,
      }),
      read: true,
    },
    // the pages a browser opens: rendered for each request (a page is never kept by the response cache)
    { name: 'Web page: the home page (anonymous)', method: 'GET', path: '/', headers: { accept: 'text/html' }, read: true },
    { name: 'Web page: an entry (anonymous)', method: 'GET', path: `/entries/${entryId}`, headers: { accept: 'text/html' }, read: true },
    { name: 'Web page: a person (anonymous)', method: 'GET', path: `/people/${u}`, headers: { accept: 'text/html' }, read: true },
    // the generated REST API: the same read as GraphQL's, through sofa's routing
    { name: 'REST API v1 public stream GET /api/v1/entries (cached)', method: 'GET', path: '/api/v1/entries', read: true },
    {
      name: 'REST API v1 public stream with a token (uncached)',
      method: 'GET',
      path: '/api/v1/entries',
      headers: auth,
      read: true,
    },
    {
      name: 'REST create entry POST /entries.json',
      method: 'POST',
      path: '/entries.json',
      headers: form,
      body: new URLSearchParams({
        message: 'bench',
        'workout[activity_type]': 'running',
        'workout[distance][value]': '5',
        'workout[duration]': '1500',
      }).toString(),
      read: false,
    },
    {
      name: 'REST create comment POST /entries/<id>/comments.json',
      method: 'POST',
      path: `/entries/${entryId}/comments.json`,
      headers: form,
      body: 'body=bench',
      read: false,
    },
  ];
}

interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
}

const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((path) => existsSync(path)) ?? null;

/**
 * Drives `target` for `seconds`: with wrk (one thread) when it is installed and the target is fast,
 * else with autocannon. wrk alone can saturate the cached reads, but at a few hundred requests a
 * second its one thread reported p99 over a second (and "timeouts") where autocannon, and the
 * server's own log, saw at most half a second.
 */
async function drive(
  base: string,
  target: Pick<Target, 'method' | 'path' | 'headers' | 'body'>,
  seconds: number,
  fast = true,
): Promise<Load & { tool: string }> {
  if (WRK && fast) return { ...(await driveWrk(base, target, seconds)), tool: 'wrk' };
  const result = await autocannon({
    url: `${base}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.non2xx + result.timeouts,
    tool: 'autocannon',
  };
}

async function driveWrk(base: string, target: Pick<Target, 'method' | 'path' | 'headers' | 'body'>, seconds: number): Promise<Load> {
  const script = `${root}bench/data/request.lua`;
  const lua = [
    `wrk.method = ${JSON.stringify(target.method)}`,
    ...(target.body ? [`wrk.body = ${JSON.stringify(target.body)}`] : []),
    ...Object.entries(target.headers ?? {}).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`),
  ];
  writeFileSync(script, `${lua.join('\n')}\n`);
  const child = spawn(WRK!, ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `${base}${target.path}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  await new Promise((resolve) => child.on('exit', resolve));
  const ms = (label: string) => {
    const match = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!match) return NaN;
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    requestsPerSecond: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
    p50Ms: Math.round(ms('50') * 100) / 100,
    p99Ms: Math.round(ms('99') * 100) / 100,
    requests,
    errors: non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
  };
}

/** The same bytes from a bare node:http server: what this machine can do with no work per request. */
async function ceiling(body: Buffer, contentType: string, target: Target): Promise<Load> {
  const file = `${root}bench/data/ceiling-body`;
  writeFileSync(file, body);
  const source = `const body = require('node:fs').readFileSync(${JSON.stringify(file)});
require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': ${JSON.stringify(contentType)}, 'content-length': body.length }); res.end(body); }); })
  .listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.on('data', (chunk) => resolve(/port (\d+)/.exec(String(chunk))![1]!)));
  try {
    await drive(`http://127.0.0.1:${port}`, target, 1);
    return await drive(`http://127.0.0.1:${port}`, target, duration);
  } finally {
    child.kill();
  }
}

/** PostGraphile's answer to the same feed, on the same Node and the same tables (bench/peer.ts). */
async function peerFeed(url: string): Promise<Record<string, unknown>> {
  const schema = new URL(url).searchParams.get('schema')!;
  const connectionString = new URL(url);
  connectionString.search = '';
  const peer = await startPeer({
    folder: `${root}bench/data/peer`,
    node: process.execPath,
    nodeFlags: ['--max-semi-space-size=16', ...(values.heap ? values.heap.split(/\s+/) : [])],
    connectionString: connectionString.toString(),
    schema,
  });
  try {
    const target: Target = {
      name: `peer: PostGraphile ${PEER_VERSION}, the same feed (anonymous, the table without privacy rules)`,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PEER_FEED }),
      read: true,
    };
    await drive(peer.base, target, 2);
    const result = await drive(peer.base, target, duration);
    const row = {
      target: target.name,
      requestsPerSecond: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      errors: result.errors,
      sqlPerRequest: null,
      loadGenerator: result.tool,
      peerPeakRssMb: peakRssMb(peer.child.pid!),
    };
    console.log(
      `${target.name}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.errors} errors`,
    );
    return row;
  } finally {
    const exited = peer.child.exitCode !== null || new Promise((resolve) => peer.child.once('exit', resolve));
    peer.child.kill('SIGTERM');
    await exited;
  }
}

/** SQL statements the server has run, from its own /metrics. */
async function sqlCount(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^milepost_db_queries_total (\d+)/m.exec(text)?.[1] ?? NaN);
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
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
  const created = await graphql(
    base,
    token,
    'mutation { createEntry(input: { workout: { activityType: RUNNING } }) { entry { id: databaseId } } }',
  );
  const entryId = (created.data.createEntry!.entry as { id: number }).id;
  const document = bigGpx();
  const rssBefore = peakRssMb(child.pid!);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.set(
      'operations',
      JSON.stringify({
        query: `mutation ($gpx: GpxDocument!) { setEntryTrack(input: { entryId: ${entryId}, gpx: $gpx }) { entry { track { pointCount } } } }`,
        variables: { gpx: null },
      }),
    );
    form.set('map', JSON.stringify({ 0: ['variables.gpx'] }));
    form.set('0', new Blob([document], { type: 'application/gpx+xml' }), 'big.gpx');
    const started = performance.now();
    const response = await fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const body = (await response.json()) as { data?: { setEntryTrack?: { entry?: { track?: { pointCount: number } } } } };
    times.push(performance.now() - started);
    if (body.data?.setEntryTrack?.entry?.track?.pointCount !== 200_000)
      throw new Error(`GPX upload failed: ${JSON.stringify(body).slice(0, 300)}`);
  }
  times.sort((a, b) => a - b);
  return {
    bytes: Buffer.byteLength(document),
    medianMs: Math.round(times[1]!),
    maxMs: Math.round(times[2]!),
    serverPeakRssMbBefore: rssBefore,
    serverPeakRssMbAfter: peakRssMb(child.pid!),
  };
}

/**
 * The longest the server's event loop is held while hostile or merely big requests run, seen
 * from outside: /healthz is asked one request after another meanwhile, and its slowest answer is the
 * stall (target < 50 ms). Each input runs four at once.
 */
async function hostileStalls(base: string, url: string) {
  const token = await mintToken(base, url);
  const created = await fetch(`${base}/routes.json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench 200k' }),
  });
  const routeId = ((await created.json()) as { id: number }).id;
  const upload = await fetch(`${base}/routes/${routeId}/track.json`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gpx+xml' },
    body: bigGpx(),
  });
  if (upload.status !== 200) throw new Error(`hostile phase: the route's track was refused (${upload.status})`);
  const entry = await graphql(
    base,
    token,
    'mutation { createEntry(input: { workout: { activityType: RUNNING } }) { entry { id: databaseId } } }',
  );
  const entryId = (entry.data.createEntry!.entry as { id: number }).id;
  await fetch(`${base}/entries/${entryId}/track.json`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gpx+xml' },
    body: bigGpx(),
  });
  const attributes = `<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="2" ${Array.from({ length: 1_100_000 }, (_, i) => `a${i}="1"`).join(' ')}/></trkseg></trk></gpx>`;
  const namespaces = `<gpx xmlns="http://www.topografix.com/GPX/1/1" ${Array.from({ length: 800_000 }, (_, i) => `xmlns:n${i}="u:${i}"`).join(' ')}></gpx>`;
  let query = 0;
  const inputs: Array<[string, () => Promise<unknown>]> = [
    [
      'GET /routes/<id>.gpx of 200k points, a new query string each',
      () => fetch(`${base}/routes/${routeId}.gpx?q=${query++}`).then((r) => r.arrayBuffer()),
    ],
    [
      'the page of an entry of 200k points',
      () => fetch(`${base}/entries/${entryId}?q=${query++}`, { headers: { accept: 'text/html' } }).then((r) => r.text()),
    ],
    [
      "the nearby stream's page 10,000 in a city (every entry of its box counted), a new query string each",
      () =>
        fetch(`${base}/entries/nearby/37.8044,-122.2712.json?page=10000&q=${query++}`, {
          headers: { authorization: `Bearer ${token}` },
        }).then((r) => r.text()),
    ],
    ['a GPX upload of one element with 1.1M attributes (19 MB)', () => putTrack(base, token, routeId, attributes)],
    ['a GPX upload of 800,000 namespace declarations (17 MB)', () => putTrack(base, token, routeId, namespaces)],
  ];
  const stalls: Array<{ input: string; longestStallMs: number; loopDelayMs: number; ms: number }> = [];
  for (const [input, request] of inputs) {
    // the server's own longest event-loop delay (prom-client's, reset at each scrape): the target;
    // the probe's slowest answer adds what two cores shared with the track thread and this client cost it
    await loopDelayMs(base);
    // the probe runs in a process of its own: this one is busy sending and reading the big bodies
    const probe = spawn(process.execPath, ['-e', HEALTH_PROBE, `${base}/healthz`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let report = '';
    probe.stdout.on('data', (chunk) => (report += String(chunk)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    await Promise.all([request(), request(), request(), request()]);
    const ms = performance.now() - started;
    const ended = new Promise((resolve) => probe.once('exit', resolve));
    probe.stdin.end();
    await ended;
    const longest = Number(report.trim());
    const loopDelay = await loopDelayMs(base);
    stalls.push({ input, longestStallMs: Math.round(longest), loopDelayMs: Math.round(loopDelay), ms: Math.round(ms) });
    console.log(
      `${input}, four at once: ${Math.round(ms)} ms; longest event-loop delay ${Math.round(loopDelay)} ms; longest /healthz answer meanwhile ${Math.round(longest)} ms`,
    );
  }
  return stalls;
}

/** The server's longest event-loop delay since the last scrape, in milliseconds (10 ms resolution). */
async function loopDelayMs(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = /^milepost_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  if (!match) throw new Error('hostile phase: /metrics has no milepost_nodejs_eventloop_lag_max_seconds');
  return Number(match[1]) * 1000;
}

/** Asks a URL one request after another until its stdin closes, then prints the slowest answer's milliseconds. */
const HEALTH_PROBE = `
let longest = 0, going = true;
process.stdin.on('end', () => { going = false; }).resume();
(async () => {
  while (going) {
    const started = performance.now();
    await fetch(process.argv[1]).then((r) => r.arrayBuffer()).catch(() => undefined);
    longest = Math.max(longest, performance.now() - started);
  }
  console.log(Math.round(longest));
})();
`;

/** A hostile upload: refused early, the server may close the connection while the body is still going (EPIPE). */
async function putTrack(base: string, token: string, routeId: number, body: string) {
  try {
    const response = await fetch(`${base}/routes/${routeId}/track.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gpx+xml' },
      body,
    });
    return await response.arrayBuffer();
  } catch {
    return null;
  }
}

/**
 * A person with 10,000 workouts over five years (every 4.5 hours), and how long their year of
 * weekly totals, their records and their streak take to answer, one request at a time.
 */
async function trainingStats(base: string, token: string) {
  const username = 'bench-10k-workouts';
  await database.prisma.person.deleteMany({ where: { usernameKey: username } });
  const person = await database.prisma.person.create({
    data: { username, usernameKey: username, displayName: 'Ten Thousand', timeZone: 'Europe/Berlin', units: 'kilometers' },
  });
  const now = Date.now();
  const count = 10_000;
  const times = Array.from({ length: count }, (_, i) => new Date(now - i * 4.5 * 3_600_000));
  // in slices: on SQLite one write of 10,000 rows (and their entries' revisions) held the database's
  // lock for seconds, and the server, waiting for it to relay its outbox, held its event loop as long
  const SLICE = 500;
  for (let at = 0; at < count; at += SLICE) {
    const slice = times.slice(at, at + SLICE);
    await database.prisma.entry.createMany({ data: slice.map((createdAt) => ({ authorId: person.id, kind: 'workout', createdAt })) });
  }
  const entries = await database.prisma.entry.findMany({ where: { authorId: person.id }, select: { id: true, createdAt: true } });
  const activities = ['running', 'cycling', 'swimming', 'walking'];
  for (let at = 0; at < entries.length; at += SLICE) {
    await database.prisma.workout.createMany({
      data: entries.slice(at, at + SLICE).map((entry, i) => ({
        entryId: entry.id,
        activityType: activities[(at + i) % activities.length]!,
        completedAt: entry.createdAt,
        distanceValue: 5 + ((at + i) % 20),
        distanceUnits: 'kilometers',
        duration: 1800 + ((at + i) % 60) * 30,
      })),
    });
  }
  const measure = async (query: string) => {
    const times: number[] = [];
    for (let i = 0; i < 120; i++) {
      const started = performance.now();
      const body = await graphql(base, token, query);
      if (body.errors || !body.data.person) throw new Error(`training stats: ${JSON.stringify(body).slice(0, 300)}`);
      if (i >= 20) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return {
      p50Ms: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
      p99Ms: Math.round(times[Math.floor(times.length * 0.99)]! * 10) / 10,
    };
  };
  try {
    return {
      workouts: count,
      yearOfWeeks: await measure(
        `{ person(username: "${username}") { stats(period: WEEK) { ... on TrainingStats { periods { firstDay workouts meters movingSeconds byActivity { activityType meters } } } } } }`,
      ),
      fiveYearsOfMonths: await measure(
        `{ person(username: "${username}") { stats(period: MONTH, from: "${new Date(now - 5 * 365 * 86_400_000).toISOString().slice(0, 19)}Z") { ... on TrainingStats { periods { workouts meters } } } } }`,
      ),
      records: await measure(
        `{ person(username: "${username}") { records { running { seconds } longestRide { meters } longestSwim { meters } } } }`,
      ),
      streak: await measure(`{ person(username: "${username}") { streak { currentDays longestDays longestWeeks } } }`),
    };
  } finally {
    await database.prisma.person.delete({ where: { id: person.id } });
  }
}

/** One event reaching 1,000 subscribers on one process: how long until each, and until all, have it. */
async function fanOut(base: string, url: string) {
  const wsUrl = `${base.replace(/^http/, 'ws')}/graphql`;
  const subscribers = 1000;
  const sockets: WebSocket[] = [];
  const arrivals = new Map<number, number[]>();
  await Promise.all(
    Array.from(
      { length: subscribers },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          // a hundred subscribers an address, as many clients are: the server holds at most
          // MAX_SUBSCRIPTIONS_PER_OWNER subscriptions of one address (Linux answers all of 127/8)
          const ws = new WebSocket(wsUrl, 'graphql-transport-ws', { localAddress: `127.0.0.${2 + Math.floor(i / 100)}` });
          sockets.push(ws);
          ws.on('error', reject);
          ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
          ws.on('message', (data) => {
            const message = JSON.parse(String(data)) as { type: string; payload?: { data?: { publicEntries?: { id: number } } } };
            if (message.type === 'connection_ack') {
              ws.send(
                JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { publicEntries { id: databaseId } }' } }),
              );
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
    const created = await graphql(base, token, 'mutation { createEntry(input: { message: "fan-out" }) { entry { id: databaseId } } }');
    const id = (created.data.createEntry!.entry as { id: number }).id;
    for (let wait = 0; wait < 200 && (arrivals.get(id)?.length ?? 0) < subscribers; wait++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const times = (arrivals.get(id) ?? []).map((t) => t - started);
    if (times.length < subscribers) throw new Error(`fan-out: only ${times.length} of ${subscribers} subscribers got event ${id}`);
    deliveries.push(...times);
    toAll.push(Math.max(...times));
  }
  for (const ws of sockets) ws.close();
  const pct = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
  return {
    subscribers,
    events: toAll.length,
    deliveryP50Ms: Math.round(pct(deliveries, 50)),
    deliveryP99Ms: Math.round(pct(deliveries, 99)),
    allReachedP99Ms: Math.round(pct(toAll, 99)),
  };
}

/**
 * Reads while a writer posts `rate` comments a second through the API, each on a random seeded entry
 * (so that no page grows without end): every commit changes what the next read must show.
 */
async function underWrites(base: string, token: string, entryIds: { min: number; max: number }, rate: number, read: Target) {
  let written = 0;
  let failed = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    const id = entryIds.min + Math.floor(Math.random() * (entryIds.max - entryIds.min));
    fetch(`${base}/entries/${id}/comments.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'body=under%20load',
    })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 201) written += 1;
        else failed += 1;
      })
      .catch(() => (failed += 1));
  }, 1000 / rate);
  try {
    const result = await drive(base, read, duration);
    return { ...result, writesPerSecond: Math.round((written / ((performance.now() - started) / 1000)) * 10) / 10, writesFailed: failed };
  } finally {
    clearInterval(timer);
  }
}

/** How deep the deep pages are: 5,000 entries in, REST's `page=251`. */
const DEEP_ENTRIES = 5_000;

/**
 * Each stream's first page and a page 5,000 entries in, with a token (uncached), one after the other:
 * the legacy paths by `page` (the offset their clients send), GraphQL by the cursor a client holds there
 * (found by paging to it, 100 at a time). The ratio is what a client reading deep keeps of the first
 * page's rate.
 */
async function deepPages(base: string, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const deepPage = DEEP_ENTRIES / 20 + 1;
  type Request = Pick<Target, 'method' | 'path' | 'headers' | 'body'>;
  /** A stream field with its arguments (`nearbyStream(lat: 1, lon: 2`, without the closing parenthesis). */
  const gql = (stream: string, after: string | null): Request => ({
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({
      query: `query ($after: String) { ${stream}first: 20, after: $after) { ... on EntryConnection { ${FEED} pageInfo { endCursor } } } }`,
      variables: { after },
    }),
  });
  const cursorAt = async (stream: string): Promise<string> => {
    let after: string | null = null;
    for (let read = 0; read < DEEP_ENTRIES; read += 100) {
      const body = await graphql(
        base,
        token,
        `query ($after: String) { ${stream}first: 100, after: $after) { ... on EntryConnection { pageInfo { endCursor } } } }`,
        { after },
      );
      if (!body.data) throw new Error(`${stream}: ${JSON.stringify(body).slice(0, 300)}`);
      after = (Object.values(body.data)[0] as { pageInfo: { endCursor: string | null } }).pageInfo.endCursor;
      if (!after) throw new Error(`${stream} holds fewer than ${DEEP_ENTRIES} entries: run the deep pages at --scale 1000`);
    }
    return after!;
  };
  const rest = (name: string, path: string) => ({
    name: `REST ${name}`,
    first: { method: 'GET', path, headers: auth } as Request,
    deep: { method: 'GET', path: `${path}?page=${deepPage}`, headers: auth } as Request,
  });
  const streams = [
    rest('public stream', '/entries.json'),
    rest('nearby stream', '/entries/nearby/37.8044,-122.2712.json'),
    rest('popular stream', '/entries/popular.json'),
  ];
  for (const stream of ['publicStream(', 'nearbyStream(lat: 37.8044, lon: -122.2712, ']) {
    streams.push({
      name: `GraphQL ${stream.slice(0, stream.indexOf('('))}`,
      first: gql(stream, null),
      deep: gql(stream, await cursorAt(stream)),
    });
  }
  const results: Array<Record<string, unknown>> = [];
  // the server's first minutes of work compile what every page runs: each stream once before any is measured
  for (const { first } of streams) await drive(base, first, 3);
  for (const { name, first, deep } of streams) {
    const probe = await fetch(`${base}${deep.path}`, { method: deep.method, headers: deep.headers, body: deep.body });
    const text = await probe.text();
    if (probe.status !== 200 || text.includes('"errors"')) throw new Error(`${name}, deep: ${probe.status} ${text.slice(0, 300)}`);
    if (text.length < 1000) {
      console.log(`${name}: fewer than ${DEEP_ENTRIES} entries, no deep page`);
      continue;
    }
    await drive(base, first, 2);
    const top = await drive(base, first, duration);
    await drive(base, deep, 2);
    const down = await drive(base, deep, duration);
    const row = {
      stream: name,
      firstPage: top.requestsPerSecond,
      deepPage: down.requestsPerSecond,
      ratio: Math.round((100 * down.requestsPerSecond) / top.requestsPerSecond) / 100,
      deepP99Ms: down.p99Ms,
    };
    results.push(row);
    console.log(
      `${name}: first page ${row.firstPage} req/s, ${DEEP_ENTRIES} entries in ${row.deepPage} req/s (${row.ratio}×), p99 ${row.deepP99Ms} ms`,
    );
  }
  return results;
}

/**
 * A ride of 100,000 points (28 hours at a point a second: a device's longest), with heart rate, power
 * and a lap every 10,000 points, imported as a FIT file by the person of `token`: the targets read its
 * entry page, its analysis over GraphQL and its owner's page.
 */
async function workoutTargets(base: string, token: string, username: string): Promise<Target[]> {
  const points = pointsAlong(100_000, { speed: 7 }).map((point, i) => ({
    ...point,
    power: 150 + (i % 600) / 4,
    heartRate: 110 + (i % 900) / 20,
  }));
  const fit = fitFile({
    points,
    sport: 'cycling',
    lapsAt: Array.from({ length: 9 }, (_, i) => (i + 1) * 10_000),
    thresholds: { maxHeartRate: 190, restingHeartRate: 50, functionalThresholdPower: 250 },
  });
  const form = new FormData();
  form.set('file', new Blob([fit as Uint8Array<ArrayBuffer>]), 'ride.fit');
  const imported = await fetch(`${base}/entries/import.json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (imported.status !== 201)
    throw new Error(`workout: the FIT import was refused (${imported.status}): ${(await imported.text()).slice(0, 300)}`);
  const entryId = ((await imported.json()) as { id: number }).id;
  const query = `{ entry(id: ${entryId}) { track { laps { distanceMeters movingSeconds averagePower } splits { distanceMeters movingSeconds paceSeconds } heartRateZones { zones { seconds } } powerZones { zones { seconds } } powerEfforts { seconds watts } bestEfforts { distance seconds } } } }`;
  return [
    {
      name: 'Web page: an entry with a 100,000-point ride (anonymous)',
      method: 'GET',
      path: `/entries/${entryId}`,
      headers: { accept: 'text/html' },
      read: true,
    },
    { name: 'Web page: its athlete (anonymous)', method: 'GET', path: `/people/${username}`, headers: { accept: 'text/html' }, read: true },
    {
      name: 'GraphQL: its laps, splits, zones and efforts, with a token',
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
      read: true,
    },
    {
      name: 'GraphQL: its streams at 1,000 points, with a token',
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ entry(id: ${entryId}) { track { streams(resolution: 1000) { time distance heartRate power speed } } } }`,
      }),
      read: true,
    },
  ];
}

async function mintToken(base: string, url: string): Promise<string> {
  const minted = run(['tokens', 'create', '--username', await firstUsername(base)], { DATABASE_URL: url });
  let token = '';
  minted.stdout!.on('data', (chunk) => (token += chunk));
  const code = await new Promise((resolve) => minted.on('exit', resolve));
  // without a token every write would fail with a 401 and the run would measure nothing it claims
  if (code !== 0 || !token.trim()) throw new Error(`tokens create failed (exit ${code})`);
  return token.trim();
}

async function firstUsername(base: string): Promise<string> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ publicStream(first: 1) { ... on EntryConnection { edges { node { author { username } } } } } }' }),
  });
  const body = (await response.json()) as { data: { publicStream: { edges: Array<{ node: { author: { username: string } } }> } } };
  return body.data.publicStream.edges[0]!.node.author.username;
}

const url = databaseUrl();
await ensureData(url);
// the bench's own connection: ids before the run, so that what the run wrote is deleted afterwards
// and every run reads the same seeded streams
const database = await openDatabase(parseDatabaseUrl(url), { migrate: false });
const watermark = {
  entry: (await database.prisma.entry.aggregate({ _max: { id: true } }))._max.id ?? 0,
  comment: (await database.prisma.comment.aggregate({ _max: { id: true } }))._max.id ?? 0,
  route: (await database.prisma.route.aggregate({ _max: { id: true } }))._max.id ?? 0,
};
const { child, base } = await startServer(url);
const rows: Array<Record<string, unknown>> = [];
const mixed: Array<Record<string, unknown>> = [];
const rss: Record<string, number> = { atStart: peakRssMb(child.pid!) };
let upload: Awaited<ReturnType<typeof gpxUpload>> | null = null;
let fanout: Awaited<ReturnType<typeof fanOut>> | null = null;
let training: Awaited<ReturnType<typeof trainingStats>> | null = null;
let hostile: Awaited<ReturnType<typeof hostileStalls>> | null = null;
let deep: Awaited<ReturnType<typeof deepPages>> | null = null;
try {
  const token = await mintToken(base, url);
  const username = await firstUsername(base);
  const entryId = (await database.prisma.entry.findFirstOrThrow({ orderBy: { id: 'asc' }, select: { id: true } })).id;
  const measured =
    values.only === 'workout'
      ? await workoutTargets(base, token, username)
      : values.only === 'mixed' || values.only === 'deep'
        ? []
        : targets(username, token, entryId).filter((t) => t.name.includes(values.only));
  for (const target of measured) {
    const probe = await fetch(`${base}${target.path}`, { method: target.method, headers: target.headers, body: target.body });
    const body = Buffer.from(await probe.arrayBuffer());
    const expected = target.read ? 200 : 201;
    if (probe.status !== expected || body.includes('"errors"'))
      throw new Error(`${target.name}: ${probe.status} ${body.toString().slice(0, 300)}`);
    const warm = await drive(base, target, 2); // warm-up
    const sqlBefore = await sqlCount(base);
    // reads are driven by wrk: autocannon is a Node process parsing every
    // answer on the same two cores as the server. Writes below 2,000 req/s stay with autocannon.
    const result = await drive(base, target, duration, target.read || warm.requestsPerSecond >= 2000);
    const sqlPerRequest = Math.round((((await sqlCount(base)) - sqlBefore) / Math.max(1, result.requests)) * 100) / 100;
    const bare = target.read ? await ceiling(body, probe.headers.get('content-type') ?? 'application/json', target) : null;
    rows.push({
      target: target.name,
      requestsPerSecond: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      errors: result.errors,
      sqlPerRequest,
      loadGenerator: result.tool,
      responseBytes: body.length,
      ceilingRequestsPerSecond: bare?.requestsPerSecond ?? null,
      ofCeiling: bare ? `${((100 * result.requestsPerSecond) / bare.requestsPerSecond).toFixed(1)}%` : null,
    });
    console.log(
      `${target.name}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.errors} errors, ${sqlPerRequest} SQL/request${bare ? `; bare node:http ${bare.requestsPerSecond} req/s` : ''}`,
    );
  }
  rss.afterStreamsAndWrites = peakRssMb(child.pid!);
  // the peer, in the same run as the GraphQL feeds it is compared with (PostgreSQL only)
  if (values.db === 'postgres' && (values.only === 'peer' || measured.some((target) => target.name.startsWith('GraphQL feed')))) {
    rows.push(await peerFeed(url));
    if (values.only === 'peer') throw new Skip();
  }
  if (values.only === 'deep') {
    deep = await deepPages(base, token);
    rss.afterPhase = peakRssMb(child.pid!);
    throw new Skip();
  }
  if (values.only === 'upload' || values.only === 'fan-out' || values.only === 'hostile') {
    if (values.only === 'upload') upload = await gpxUpload(base, url, child);
    else if (values.only === 'hostile') hostile = await hostileStalls(base, url);
    else fanout = await fanOut(base, url);
    rss.afterPhase = peakRssMb(child.pid!);
    console.log(`server peak RSS: start ${rss.atStart} MB, after ${values.only} ${rss.afterPhase} MB`);
    throw new Skip();
  }
  if (values.only && values.only !== 'training' && values.only !== 'mixed') throw new Skip();
  if (!values.only || values.only === 'mixed') {
    const seeded = await database.prisma.entry.aggregate({ _min: { id: true } });
    const entryIds = { min: seeded._min.id ?? 1, max: watermark.entry };
    const anonymous: Target = { name: 'anonymous GET /entries.json', method: 'GET', path: '/entries.json', read: true };
    const withToken: Target = { ...anonymous, name: 'GET /entries.json with a token', headers: { authorization: `Bearer ${token}` } };
    for (const rate of [20, 100]) {
      for (const read of [anonymous, withToken]) {
        await drive(base, read, 2); // warm-up
        const result = await underWrites(base, token, entryIds, rate, read);
        mixed.push({ read: read.name, commentsPerSecond: rate, ...result });
        console.log(
          `${read.name} while ${rate} comments/s are posted (${result.writesPerSecond}/s done, ${result.writesFailed} failed): ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.errors} errors`,
        );
      }
    }
    rss.afterReadsUnderWrites = peakRssMb(child.pid!);
    if (values.only === 'mixed') throw new Skip();
    upload = await gpxUpload(base, url, child);
    rss.afterGpxUpload = peakRssMb(child.pid!);
    fanout = await fanOut(base, url);
    rss.afterFanOut = peakRssMb(child.pid!);
    hostile = await hostileStalls(base, url);
    rss.afterHostile = peakRssMb(child.pid!);
  }
  // last: it writes 10,000 workouts through its own connection, and on SQLite a server still relaying the
  // events of the write targets then waits for the lock (two runs in a row lost every later phase to it)
  training = await trainingStats(base, token);
  console.log(`a person with 10,000 workouts: ${JSON.stringify(training)}`);
} catch (error) {
  if (!(error instanceof Skip)) throw error;
} finally {
  const peak = peakRssMb(child.pid!);
  // gone before the clean-up: a snapshot it still held kept VACUUM from removing the deleted rows
  const exited = child.exitCode !== null || new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  await database.prisma.comment.deleteMany({ where: { id: { gt: watermark.comment } } });
  await database.prisma.entry.deleteMany({ where: { id: { gt: watermark.entry } } });
  // the uploads' routes too: left behind, each run's 200,000-point route weighed on the next runs' person page
  await database.prisma.route.deleteMany({ where: { id: { gt: watermark.route } } });
  // on PostgreSQL with autovacuum off, the deleted rows (and every version the revision triggers left)
  // stayed in the indexes the next run's pages walk: one run's leftovers cost the next a third of its
  // reads with a token
  await database.analyze();
  await database.close();
  const report = {
    at: new Date().toISOString(),
    db: values.db,
    scale,
    connections,
    serverNodeFlags: values.heap || null,
    durationSeconds: duration,
    loadGenerator: WRK ? 'wrk -t1 for fast targets, autocannon for the rest' : 'autocannon',
    node: process.version,
    cpus: availableParallelism(),
    serverPeakRssMb: peak,
    serverPeakRssMbAt: rss,
    results: rows,
    readsUnderWrites: mixed,
    gpxUpload200k: upload,
    fanOut1000: fanout,
    trainingStats10k: training,
    hostileStalls: hostile,
    deepPages: deep,
  };
  console.table(
    rows.map(({ target, requestsPerSecond, p50Ms, p99Ms, errors, sqlPerRequest, ofCeiling, loadGenerator }) => ({
      target,
      'req/s': requestsPerSecond,
      p50Ms,
      p99Ms,
      errors,
      'SQL/req': sqlPerRequest,
      'of bare': ofCeiling,
      by: loadGenerator,
    })),
  );
  console.table(
    mixed.map(({ read, commentsPerSecond, writesPerSecond, requestsPerSecond, p50Ms, p99Ms, errors }) => ({
      read,
      'comments/s': `${commentsPerSecond} (${writesPerSecond} done)`,
      'req/s': requestsPerSecond,
      p50Ms,
      p99Ms,
      errors,
    })),
  );
  if (fanout)
    console.log(
      `one event to ${fanout.subscribers} WebSocket subscribers (${fanout.events} events): delivery p50 ${fanout.deliveryP50Ms} ms, p99 ${fanout.deliveryP99Ms} ms; all reached, p99 ${fanout.allReachedP99Ms} ms`,
    );
  if (upload)
    console.log(
      `200k-point GPX upload (${(upload.bytes / 1e6).toFixed(1)} MB, multipart): median ${upload.medianMs} ms, max ${upload.maxMs} ms; server peak RSS ${upload.serverPeakRssMbBefore} → ${upload.serverPeakRssMbAfter} MB`,
    );
  if (hostile)
    console.table(
      hostile.map(({ input, longestStallMs, loopDelayMs, ms }) => ({
        input,
        'event-loop delay ms': loopDelayMs,
        'slowest /healthz ms': longestStallMs,
        'four at once, ms': ms,
      })),
    );
  console.log(`server peak RSS: ${peak} MB (${JSON.stringify(rss)})`);
  const file = `${root}bench/results/${report.at.replace(/[:.]/g, '-')}-${values.db}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${file.slice(root.length)}`);
}
