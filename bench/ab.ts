// npx tsx bench/ab.ts <builtCheckoutA> <builtCheckoutB> [--path /entries.json | --paths FILE | --graphql] [--rounds 12] [--batch 200]
//
// The CPU a computed read costs, compared between two builds of Milepost in ONE process: each
// checkout's compiled dist/ is loaded with its own app over the same database (DATABASE_URL), and the
// two are driven in alternating batches of in-process requests with a token (TOKEN, or TOKEN_FILE).
// On a shared machine whose speed drifts by tens of percent from one minute to the next, whole runs of
// `npm run bench` cannot tell a 10% change; batches a few hundred milliseconds apart meet the same
// drift. Prints each build's CPU milliseconds a request (process user + system), minimum and median.
// `--html` asks for pages (Accept: text/html). `--paths FILE` takes one path a request from the file's lines, in turn, the same sequence for each
// build: pages whose entries a build has not read before (person streams of many people, say).
//
// A checkout for the other side: git worktree add /tmp/base <commit>, link node_modules into it,
// copy src/generated, then `node scripts/build.mjs` there.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    path: { type: 'string', default: '/entries.json' },
    paths: { type: 'string' },
    graphql: { type: 'boolean', default: false },
    html: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '12' },
    batch: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
  },
});
if (positionals.length !== 2) throw new Error('usage: bench/ab.ts <checkoutA> <checkoutB> [--path P | --graphql]');
const token = process.env.TOKEN ?? readFileSync(process.env.TOKEN_FILE ?? '', 'utf8').trim();
const rounds = Number(values.rounds);
const batch = Number(values.batch);
const concurrency = Number(values.concurrency);
const FEED = `edges { node { id url at message location { name } geo { coordinates }
  author { username displayName photoUrl url }
  workout { activityType distance { value units } duration felt title }
  comments { edges { node { body createdAt author { username displayName photoUrl url } } } }
  likes { edges { node { createdAt person { username displayName photoUrl url } } } } } }`;
const paths = values.paths ? readFileSync(values.paths, 'utf8').split('\n').filter(Boolean) : [values.path];
const graphqlBody = JSON.stringify({ query: `{ publicStream { ... on EntryConnection { ${FEED} } } }` });

interface Side {
  root: string;
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
  samples: number[];
  /** The next of `paths` this build asks for. */
  next: number;
}

async function load(root: string): Promise<Side> {
  const dist = new URL(`file://${root.replace(/\/$/, '')}/dist/`);
  const { loadConfig } = await import(new URL('config.js', dist).href);
  const { openDatabase } = await import(new URL('db/database.js', dist).href);
  const { createApp } = await import(new URL('app/server.js', dist).href);
  const { createLogger } = await import(new URL('log.js', dist).href);
  const config = loadConfig();
  // as `milepost serve` opens it (an older build ignores what it does not know)
  const database = await openDatabase(config.database, { migrate: false, freezeKeptDocuments: config.env !== 'production' });
  const app = createApp(config, database, { logger: createLogger({ ...config, logLevel: 'silent' }) });
  return {
    root,
    fetch: (input, init) => app.fetch(input, init),
    close: async () => {
      await app.close();
      await database.close();
    },
    samples: [],
    next: 0,
  };
}

function request(side: Side): Promise<Response> {
  const authorization = `Bearer ${token}`;
  if (values.graphql)
    return side.fetch('http://milepost/graphql', {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: graphqlBody,
    });
  const path = paths[side.next++ % paths.length]!;
  return side.fetch(`http://milepost${path}`, { headers: { authorization, ...(values.html && { accept: 'text/html' }) } });
}

/** `count` requests, `concurrency` at a time; any answer but 200 ends the comparison. */
async function drive(side: Side, count: number): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent++ < count) {
      const response = await request(side);
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${side.root}: ${response.status} ${body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const sides = [await load(positionals[0]!), await load(positionals[1]!)];
try {
  for (const side of sides) await drive(side, 300); // warm-up: compiled documents, prepared statements, JIT
  for (let round = 0; round < rounds; round++) {
    // alternate which goes first, so that neither always follows the other's garbage
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const before = process.cpuUsage();
      await drive(side, batch);
      const used = process.cpuUsage(before);
      side.samples.push((used.user + used.system) / 1000 / batch);
    }
  }
  for (const side of sides) {
    const sorted = [...side.samples].sort((a, b) => a - b);
    console.log(
      `${side.root}: ${sorted[0]!.toFixed(3)} ms of CPU a request at least, ${sorted[sorted.length >> 1]!.toFixed(3)} the median (${rounds} batches of ${batch})`,
    );
  }
} finally {
  for (const side of sides) await side.close();
}
