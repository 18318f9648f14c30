// Server-sent events carry the id of the event each result came from, and a client that comes back
// with Last-Event-ID within the replay window is given what it missed, once, then the live events:
// within one process, and across processes through Redis.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let token = '';
const started: Array<{ app: App; server: Server }> = [];

/** A server on its own port (with Redis, when `env` names one). */
async function serve(env: Record<string, string> = {}): Promise<string> {
  const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0', ...env });
  const app = createApp(config, db);
  const server = await listen(app, config);
  started.push({ app, server });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  db = await createTestDatabase('resume');
  const person = await createPerson(db.prisma, { username: 'poster' });
  token = await createToken(db.prisma, person.id);
});

afterAll(async () => {
  for (const { app, server } of started) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  }
  await db.destroy();
});

interface Received {
  id: string | null;
  message: string;
}

/** A subscription to new public entries over SSE, from `lastEventId` when given. */
async function subscribe(base: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    body: JSON.stringify({ query: 'subscription { publicEntries { message } }' }),
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const received: Received[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
        let end = text.indexOf('\n\n');
        while (end !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (block.startsWith('event: next') && data) {
            const result = JSON.parse(data) as { data: { publicEntries: { message: string } } };
            received.push({ id: /^id: (.+)$/m.exec(block)?.[1] ?? null, message: result.data.publicEntries.message });
          }
          end = text.indexOf('\n\n');
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    received,
    /** Waits until `count` events arrived (or 5 s). */
    async until(count: number) {
      for (let i = 0; i < 100 && received.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return received.map((event) => event.message);
    },
    close: () => controller.abort(),
  };
}

const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(base: string, message: string): Promise<number> {
  const response = await fetch(`${base}/entries.json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(201);
  return Number(response.headers.get('location')!.split('/entries/')[1]!.replace('.json', ''));
}

async function mutate(base: string, query: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
}

describe('SSE subscriptions', () => {
  it('give each event the id of the event it came from, in order', async () => {
    const base = await serve();
    const stream = await subscribe(base);
    await settle();
    await post(base, 'first');
    await post(base, 'second');
    expect(await stream.until(2)).toEqual(['first', 'second']);
    stream.close();
    const [first, second] = stream.received.map((event) => event.id);
    expect(first).toMatch(/^\d+-\d+$/);
    expect(second).toMatch(/^\d+-\d+$/);
    expect(first).not.toBe(second);
  });

  it('give a client back with Last-Event-ID what it missed, once, then the live events', async () => {
    const base = await serve();
    const before = await subscribe(base);
    await settle();
    await post(base, 'seen');
    expect(await before.until(1)).toEqual(['seen']);
    before.close();
    await post(base, 'missed 1');
    await post(base, 'missed 2');
    const after = await subscribe(base, before.received[0]!.id!);
    expect(await after.until(2)).toEqual(['missed 1', 'missed 2']);
    await settle();
    await post(base, 'live');
    expect(await after.until(3)).toEqual(['missed 1', 'missed 2', 'live']);
    await settle();
    expect(after.received.map((event) => event.message)).toEqual(['missed 1', 'missed 2', 'live']);
    after.close();
  });

  it('replay what was missed as it is now: an entry hidden or deleted since is not sent', async () => {
    const base = await serve();
    const before = await subscribe(base);
    await settle();
    await post(base, 'seen first');
    expect(await before.until(1)).toEqual(['seen first']);
    before.close();
    const hidden = await post(base, 'made only-me since');
    const deleted = await post(base, 'deleted since');
    await post(base, 'still public');
    await mutate(base, `mutation { updateEntry(input: { id: ${hidden}, visibility: ONLY_ME }) { error { __typename } } }`);
    await mutate(base, `mutation { deleteEntry(input: { id: ${deleted} }) { error { __typename } } }`);
    const after = await subscribe(base, before.received[0]!.id!);
    expect(await after.until(1)).toEqual(['still public']);
    await settle();
    expect(after.received.map((event) => event.message)).toEqual(['still public']);
    after.close();
  });

  it('treat a Last-Event-ID that is no event id as none', async () => {
    const base = await serve();
    const stream = await subscribe(base, 'not-an-id');
    await settle();
    await post(base, 'fresh');
    expect(await stream.until(1)).toEqual(['fresh']);
    stream.close();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('across processes through Redis', () => {
  it('a client that comes back to another process is given what it missed there', async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `resume-${randomBytes(6).toString('hex')}` };
    const [a, b] = [await serve(env), await serve(env)];
    const before = await subscribe(a);
    await settle(500);
    await post(a, 'seen on A');
    expect(await before.until(1)).toEqual(['seen on A']);
    before.close();
    await post(a, 'missed, written on A');
    const after = await subscribe(b, before.received[0]!.id!);
    expect(await after.until(1)).toEqual(['missed, written on A']);
    after.close();
  });
});
