// Many processes, one service: servers sharing the database and Redis behave as one. Also the
// readiness probe, --workers, and a graceful stop.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const bin = fileURLToPath(new URL('../../bin/milepost.js', import.meta.url));
let db: TestDatabase;
let token = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase('scale');
  token = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'scaler' })).id);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await db.destroy();
});

function start(env: Record<string, string>, args: string[] = []): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--no-seed', ...args], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.config.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^/\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1]!.replace('localhost', '127.0.0.1'), output: () => out });
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!redisUrl)('two servers sharing the database and Redis', () => {
  it('read each other’s writes, count one rate limit, and carry each other’s events', async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `scale-${randomBytes(6).toString('hex')}`, RATE_LIMIT_PER_HOUR: '12' };
    const [a, b] = await Promise.all([start(env), start(env)]);

    // a subscriber on B
    const received: string[] = [];
    const subscriber = createClient({
      url: `${b.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
      connectionParams: { oauth_token: token },
    });
    subscriber.subscribe<{ publicEntries: { message: string } }>(
      { query: 'subscription { publicEntries { message } }' },
      { next: (v) => received.push(v.data!.publicEntries.message), error: () => {}, complete: () => {} },
    );
    await settle(500);

    // a write on A, read on B
    const created = await fetch(`${a.url}/entries.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=written on A',
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    const read = await fetch(`${b.url}/entries/${id}.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await read.json()) as { message: string }).message).toBe('written on A');
    for (let i = 0; i < 30 && received.length === 0; i++) await settle(100);
    expect(received).toEqual(['written on A']);

    // one budget: the token used 2 WebSocket calls (connect, subscribe) and 2 requests so far
    const remaining = Number(
      (await fetch(`${a.url}/people/me.json`, { headers: { authorization: `Bearer ${token}` } })).headers.get('x-ratelimit-remaining'),
    );
    expect(remaining).toBe(12 - 5);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await fetch(`${i % 2 ? a.url : b.url}/people/me.json`, { headers: { authorization: `Bearer ${token}` } })).status);
    expect(statuses).toEqual([...Array(7).fill(200), 503]);
    await subscriber.dispose();
  }, 60_000);
});

describe('probes and processes', () => {
  it('/readyz answers when the database (and Redis, if configured) answer', async () => {
    const api = testApp(db);
    const ready = await api.fetch('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'not configured' });
    // without Redis it serves, degraded (limits and events from memory): a load balancer keeps it
    const noRedis = testApp(db, { REDIS_URL: 'redis://127.0.0.1:1' });
    const down = await noRedis.fetch('/readyz');
    expect(down.status).toBe(200);
    expect(await down.json()).toMatchObject({ status: 'degraded', database: 'ok', redis: 'unavailable' });
    await noRedis.app.close();
  });

  it('--workers 2 runs two processes on one port, and SIGTERM stops them all', async () => {
    const cluster = await start({ RATE_LIMIT_PER_HOUR: '100000' }, ['--workers', '2']);
    for (let i = 0; i < 20 && (cluster.output().match(/listening on/g)?.length ?? 0) < 2; i++) await settle(200);
    expect(cluster.output().match(/Milepost worker \d+ listening/g)).toHaveLength(2);
    expect((await fetch(`${cluster.url}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => cluster.child.on('exit', resolve));
    cluster.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('--workers 2: a worker killed (kill -9) under load leaves no request unanswered; its place is taken', async () => {
    const cluster = await start({ RATE_LIMIT_PER_HOUR: '1000000' }, ['--workers', '2']);
    for (let i = 0; i < 50 && (cluster.output().match(/listening on/g)?.length ?? 0) < 2; i++) await settle(100);
    const pids = [...cluster.output().matchAll(/worker \d+ listening on .*process (\d+)\)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    // new connections each time, so that both workers are handed some while one dies
    const outcomes: string[] = [];
    let going = true;
    const client = async () => {
      while (going) {
        const outcome = await fetch(`${cluster.url}/entries.json`, {
          headers: { connection: 'close' },
          signal: AbortSignal.timeout(15_000),
        }).then(
          async (response) => {
            await response.text();
            return `status ${response.status}`;
          },
          (error: Error) => (error.name === 'TimeoutError' ? 'no answer' : 'closed'),
        );
        outcomes.push(outcome);
      }
    };
    const clients = [1, 2, 3, 4].map(client);
    await settle(300);
    process.kill(pids[0]!, 'SIGKILL');
    await settle(1_500);
    going = false;
    await Promise.all(clients);
    // a connection the dying worker held may be closed; none is left waiting for an answer
    expect(outcomes).not.toContain('no answer');
    expect(outcomes.filter((o) => o === 'status 200').length).toBeGreaterThan(10);
    for (let i = 0; i < 50 && !/starting another/.test(cluster.output()); i++) await settle(100);
    expect(cluster.output()).toMatch(/worker \d+ exited \(SIGKILL\); starting another/);
    expect((await fetch(`${cluster.url}/healthz`)).status).toBe(200);
    cluster.child.kill('SIGTERM');
  }, 60_000);

  it('drains keep-alive clients on SIGTERM: answers say Connection: close, and no request on an open connection is reset', async () => {
    const server = await start({ RATE_LIMIT_PER_HOUR: '1000000' });
    const { Agent, request } = await import('node:http');
    const url = new URL(server.url);
    const outcomes: Array<{ status?: number; connection?: string; error?: string; reused: boolean }> = [];
    let stopping = false;
    const client = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      let opened = 0;
      agent.on('free', () => {});
      for (let i = 0; i < 400 && !(stopping && outcomes.some((o) => o.error === 'ECONNREFUSED')); i++) {
        const outcome = await new Promise<(typeof outcomes)[number]>((resolve) => {
          const req = request({ host: url.hostname, port: url.port, path: '/healthz', agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, reused: req.reusedSocket }));
          });
          req.on('socket', (socket) => {
            if (!req.reusedSocket) opened += 1;
            socket.setNoDelay(true);
          });
          req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reused: req.reusedSocket }));
          req.end();
        });
        outcomes.push(outcome);
        if (outcome.error) break;
      }
      agent.destroy();
      return opened;
    };
    const clients = Array.from({ length: 8 }, () => client());
    await settle(300);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    stopping = true;
    server.child.kill('SIGTERM');
    await Promise.all(clients);
    expect(await exited).toBe(0);
    // a request sent on a connection the server had kept open is answered, never reset
    expect(outcomes.filter((o) => o.reused && o.error)).toEqual([]);
    // once stopping, answers tell keep-alive clients to reconnect
    expect(outcomes.some((o) => o.connection === 'close')).toBe(true);
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(8);
  }, 30_000);

  it('finishes a request in flight before stopping', async () => {
    const server = await start({ RATE_LIMIT_PER_HOUR: '100000' });
    // a slow upload: the request is in flight when SIGTERM arrives
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('message='));
        await settle(700);
        controller.enqueue(new TextEncoder().encode('in flight'));
        controller.close();
      },
    });
    const pending = fetch(`${server.url}/entries.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      duplex: 'half',
    } as RequestInit);
    await settle(300);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    server.child.kill('SIGTERM');
    const response = await pending;
    expect(response.status).toBe(201);
    expect(((await response.json()) as { message: string }).message).toBe('in flight');
    expect(await exited).toBe(0);
  }, 30_000);
});
