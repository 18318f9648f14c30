// The peer the GraphQL core is measured beside: PostGraphile 5 over Milepost's own PostgreSQL tables
// (the bench's seeded schema), on the same Node as the server, answering the same feed. It is installed
// on demand into bench/data/peer (not a dependency of Milepost) and started as its CLI starts it.
//
// What it answers is less than Milepost's feed: the table as it is, for anyone (no token, no visibility,
// blocks or privacy zones), ordered by its indexes, with no URLs, units or global ids worked out. It is
// the cost of a GraphQL page of the same rows and relations, planned into SQL by a well-made server.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const PEER_VERSION = '5.1.5';

/** The feed, as PostGraphile names it: 20 entries, each with its author, workout, 20 comments and 20 likes with their people. */
export const PEER_FEED = `{ allEntries(first: 20, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) { nodes { id rowId createdAt message placeName lat lon
  personByAuthorId { username displayName photoUrl }
  workoutByEntryId { activityType distanceValue distanceUnits duration felt title }
  commentsByEntryId(first: 20, orderBy: [CREATED_AT_ASC, PRIMARY_KEY_ASC]) { nodes { body createdAt personByAuthorId { username displayName photoUrl } } }
  likesByEntryId(first: 20, orderBy: [PRIMARY_KEY_ASC]) { nodes { createdAt personByPersonId { username displayName photoUrl } } } } } }`;

/** Installs PostGraphile into `folder` unless that version is there. */
function install(folder: string): string {
  const cli = `${folder}/node_modules/postgraphile/dist/cli-run.js`;
  const installed = `${folder}/node_modules/postgraphile/package.json`;
  if (existsSync(installed) && (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version === PEER_VERSION) return cli;
  mkdirSync(folder, { recursive: true });
  console.log(`installing PostGraphile ${PEER_VERSION} into ${folder} (once)…`);
  execFileSync('npm', ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', `postgraphile@${PEER_VERSION}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return cli;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts PostGraphile on `connectionString`'s database, exposing `schema`, with `node` (the server's
 * Node and its flags); answers its base URL and the process. `folder` holds the installation and its log.
 */
export async function startPeer(options: {
  folder: string;
  node: string;
  nodeFlags: string[];
  connectionString: string;
  schema: string;
}): Promise<{ child: ChildProcess; base: string }> {
  const cli = install(options.folder);
  const port = await freePort();
  const log = `${options.folder}/server.log`;
  const child = spawn(
    options.node,
    [
      ...options.nodeFlags,
      cli,
      ...['-P', 'postgraphile/presets/amber', '-c', options.connectionString, '-s', options.schema, '-p', String(port), '-n', '127.0.0.1'],
    ],
    // production mode, as its CLI runs without GRAPHILE_ENV
    { cwd: options.folder, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', openSync(log, 'w'), openSync(log, 'a')] },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 60_000; waited += 200) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: PEER_FEED }),
      });
      const body = (await response.json()) as { data?: { allEntries?: { nodes: unknown[] } | null }; errors?: unknown };
      if (!body.errors && body.data?.allEntries?.nodes.length === 20) return { child, base };
      throw new Error(`PostGraphile answered the feed with ${JSON.stringify(body).slice(0, 300)}: see ${log}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('PostGraphile answered')) {
        child.kill();
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  child.kill();
  throw new Error(`PostGraphile did not start: see ${log}`);
}
