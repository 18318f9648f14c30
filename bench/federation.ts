// npx tsx bench/federation.ts [--followers 200] [--posts 10] [--dead 50] [--likes 200] [--db sqlite|postgres]
//
// What the fediverse costs, on one instance with FEDERATION=true (SQLite by default; `--db postgres`
// takes TEST_POSTGRES_URL's server, in a schema of its own):
// - fan-out: an athlete with `--followers` remote followers, each at an inbox of its own on a sink
//   server here (it answers 202 and counts), and `--dead` more whose server is down; `--posts` public
//   entries posted through GraphQL: deliveries a second, and from the post's answer to its last delivery;
// - inbound: `--likes` Likes signed by another instance's actor, sent at once: how fast the inbox takes
//   them (202s a second) and when the last one is stored.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signRequest } from '@fedify/fedify';
import { Like } from '@fedify/vocab';
import { createApp, listen } from '../src/app/server.ts';
import { generateToken, hashToken } from '../src/auth/tokens.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { startWebhookWorker } from '../src/webhooks/deliveries.ts';

const { values } = parseArgs({
  options: {
    followers: { type: 'string', default: '200' },
    posts: { type: 'string', default: '10' },
    dead: { type: 'string', default: '50' },
    likes: { type: 'string', default: '200' },
    db: { type: 'string', default: 'sqlite' },
    statements: { type: 'boolean', default: false },
  },
});
const followers = Number(values.followers);
const posts = Number(values.posts);
const dead = Number(values.dead);
const likes = Number(values.likes);

const freePort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

/** One instance on a port of its own, its relay and queue running. */
async function instance(label: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `milepost-fed-${label}-`));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const databaseUrl =
    values.db === 'postgres'
      ? `${process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test'}?schema=fedbench_${label}_${randomBytes(3).toString('hex')}`
      : `file:${dir}/m.db`;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    FEDERATION: 'true',
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_POLL_MS: '100',
    FEDERATION_RETRY_ATTEMPTS: '1',
    RATE_LIMIT_PER_HOUR: '10000000',
    MEDIA_DIR: `${dir}/media`,
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase(config.database);
  const shapes = new Map<string, number>();
  database.onQuery((_ms, sql) => {
    const shape = sql.replace(/\s+/g, ' ').slice(0, 140);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  });
  const app = createApp(config, database);
  const server = await listen(app, config);
  const relay = startWebhookWorker(database.prisma, { pollMs: 100, retryBaseSeconds: 1, origin, alsoRelay: app.fediverse!.relay });
  const queue = app.fediverse!.start();
  const person = await database.prisma.person.create({ data: { username: label, usernameKey: label, displayName: label } });
  const token = generateToken();
  const client = await database.prisma.oAuthClient.create({
    data: { clientId: `bench-${label}`, name: 'bench', secretHash: hashToken('x') },
  });
  await database.prisma.oAuthAccessToken.create({
    data: { tokenHash: hashToken(token), clientId: client.id, personId: person.id, scope: 'read read_all entries:write profile:write' },
  });
  return {
    origin,
    app,
    prisma: database.prisma,
    shapes,
    person,
    token,
    async stop() {
      await queue.stop();
      await relay.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const a = await instance('ann');
const b = await instance('bob');

// the sink: every follower's inbox, counting deliveries
const arrivals: number[] = [];
const sink = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    arrivals.push(performance.now());
    response.writeHead(202).end();
  });
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkPort = (sink.address() as AddressInfo).port;
const deadPort = await freePort();

for (let i = 0; i < followers + dead; i++) {
  const base = i < followers ? `http://127.0.0.1:${sinkPort}` : `http://127.0.0.1:${deadPort}`;
  const actor = await a.prisma.remoteActor.create({
    data: { uri: `${base}/users/f${i}`, handle: `f${i}@127.0.0.1`, host: '127.0.0.1', inbox: `${base}/users/f${i}/inbox` },
  });
  await a.prisma.remoteFollower.create({
    data: { personId: a.person.id, actorId: actor.id, followId: `${base}/f/${i}`, status: 'accepted' },
  });
}

const graphql = async (query: string, variables: Record<string, unknown>) =>
  (await fetch(`${a.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${a.token}` },
    body: JSON.stringify({ query, variables }),
  }).then((response) => response.json())) as { data?: { createEntry: { entry: { id: number } } } };

const POST =
  'mutation ($m: String!) { createEntry(input: { message: $m, workout: { activityType: RUNNING, distance: { value: 10, units: KILOMETERS }, duration: 2700 } }) { entry { id: databaseId } } }';
const started = performance.now();
const posted: number[] = [];
for (let i = 0; i < posts; i++) {
  await graphql(POST, { m: `bench run ${i}` });
  posted.push(performance.now());
}
const expected = posts * followers;
while (arrivals.length < expected && performance.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 50));
const last = arrivals.at(-1) ?? started;
console.log(
  JSON.stringify({
    fanout: {
      followers,
      deadFollowers: dead,
      posts,
      delivered: arrivals.length,
      expected,
      deliveriesPerSecond: Math.round((arrivals.length / (last - posted[0]!)) * 1000),
      firstPostToLastDeliveryMs: Math.round(last - posted[0]!),
      lastPostToLastDeliveryMs: Math.round(last - posted.at(-1)!),
    },
  }),
);

// inbound: Likes signed with bob's key (on the other instance) ahead of time, then sent to ann's inbox
// at once, so that only the receiving side is timed
const entries = await a.prisma.entry.findMany({ select: { id: true }, take: 1 });
const ctx = b.app.fediverse!.federation.createContext(new URL(b.origin), undefined);
const bobUri = ctx.getActorUri('bob');
const [bobKey] = await ctx.getActorKeyPairs('bob');
const signed = await Promise.all(
  Array.from({ length: likes }, async (_, i) => {
    const like = new Like({
      id: new URL(`${bobUri.href}#likes/${i}`),
      actor: bobUri,
      object: new URL(`${a.origin}/entries/${entries[0]!.id}`),
    });
    const request = new Request(`${a.origin}/people/ann/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify(await like.toJsonLd()),
    });
    return signRequest(request, bobKey!.privateKey, bobKey!.keyId);
  }),
);
a.shapes.clear();
const sendStart = performance.now();
const statuses = await Promise.all(signed.map(async (request) => (await fetch(request)).status));
const accepted = performance.now();
while ((await a.prisma.remoteReaction.count()) < likes && performance.now() - sendStart < 120_000)
  await new Promise((resolve) => setTimeout(resolve, 20));
const stored = performance.now();
console.log(
  JSON.stringify({
    inbound: {
      likes,
      answered202: statuses.filter((status) => status === 202).length,
      stored: await a.prisma.remoteReaction.count(),
      acceptedPerSecond: Math.round((likes / (accepted - sendStart)) * 1000),
      storedPerSecond: Math.round((likes / (stored - sendStart)) * 1000),
      lastStoredMs: Math.round(stored - sendStart),
    },
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
    statementsPerLike: Number(([...a.shapes.values()].reduce((sum, n) => sum + n, 0) / likes).toFixed(1)),
  }),
);
if (values.statements)
  console.log(
    [...a.shapes]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 25)
      .map(([shape, n]) => `${n}\t${shape}`)
      .join('\n'),
  );
sink.close();
await Promise.all([a.stop(), b.stop()]);
process.exit(0);
