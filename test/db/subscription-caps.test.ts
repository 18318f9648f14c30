// One cap on live subscriptions for every transport: an athlete (or, without a token, a client address,
// the forwarded one behind a trusted proxy) holds at most so many over WebSockets and server-sent events
// together. Server-sent events were once uncapped: one token held 1,400 streams, each costing every post.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { attachWebSocket } from '../../src/app/websocket.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

const CAP = 3;
let db: TestDatabase;
let app: App;
let server: Server;
let websocket: ReturnType<typeof attachWebSocket>;
let httpUrl = '';
let wsUrl = '';
let token = '';
const open: Array<() => void> = [];

beforeAll(async () => {
  db = await createTestDatabase('caps');
  const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0', TRUST_PROXY: '1' });
  app = createApp(config, db, { maxSubscriptionsPerOwner: CAP });
  server = await listen(app, config);
  websocket = attachWebSocket(server, app, db);
  const { port } = server.address() as AddressInfo;
  httpUrl = `http://127.0.0.1:${port}`;
  wsUrl = `ws://127.0.0.1:${port}/graphql`;
  const person = await createPerson(db.prisma, { username: 'holder' });
  token = await createToken(db.prisma, person.id);
});

afterAll(async () => {
  for (const close of open) close();
  await websocket.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
  await db.destroy();
});

const QUERY = 'subscription { publicEntries { id: databaseId } }';
const REFUSED = /TOO_MANY_SUBSCRIPTIONS/;

/**
 * Waits until `said` holds something, for a refusal as long as a slow machine may take, for a held
 * subscription a moment (it says nothing until an event comes): what it said, or ''.
 */
async function heard(said: () => string, expecting: 'held' | 'refused'): Promise<string> {
  const deadline = Date.now() + (expecting === 'refused' ? 10_000 : 300);
  while (!said() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return said();
}

/** A subscription over server-sent events: what it said first (or '' while it waits for events), and how to end it. */
async function overSse(headers: Record<string, string>, expecting: 'held' | 'refused' = 'held') {
  const controller = new AbortController();
  const response = await fetch(`${httpUrl}/graphql`, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query: QUERY }),
  });
  let text = '';
  const reader = response.body!.getReader();
  void (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += new TextDecoder().decode(read.value);
  })().catch(() => undefined);
  const close = () => controller.abort();
  open.push(close);
  // only `data:` lines count: the stream's keep-alive comments say nothing
  return { first: await heard(() => (text.includes('data:') ? text : ''), expecting), close };
}

/** A subscription over a WebSocket of its own: what it said first ('' while it waits), and how to end it. */
async function overWebSocket(init: Record<string, unknown>, headers: Record<string, string> = {}, expecting: 'held' | 'refused' = 'held') {
  const ws = new WebSocket(wsUrl, 'graphql-transport-ws', { headers });
  const messages: string[] = [];
  ws.on('message', (data) => messages.push(String(data)));
  await new Promise((resolve) => ws.on('open', resolve));
  ws.send(JSON.stringify({ type: 'connection_init', payload: init }));
  await heard(() => messages.join(''), 'refused');
  ws.send(JSON.stringify({ id: 'one', type: 'subscribe', payload: { query: QUERY } }));
  const close = () => ws.close(1000);
  open.push(close);
  return { first: await heard(() => messages.filter((m) => !m.includes('connection_ack')).join(''), expecting), close };
}

describe('live subscriptions of one owner, over every transport', () => {
  it('an athlete holds at most the cap over WebSockets and server-sent events together; ending one frees its place', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const held = [await overWebSocket({ oauth_token: token }), await overWebSocket({ oauth_token: token }), await overSse(auth)];
    expect(held.map((h) => h.first)).toEqual(['', '', '']);
    expect((await overSse(auth, 'refused')).first).toMatch(REFUSED);
    expect((await overWebSocket({ oauth_token: token }, {}, 'refused')).first).toMatch(REFUSED);
    held[2]!.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await overSse(auth);
    expect(again.first).toBe('');
    again.close();
    held[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await overWebSocket({ oauth_token: token })).first).toBe('');
  });

  it('without a token, per client address: behind a trusted proxy, the forwarded one', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < CAP; i++) expect((await overSse(from('198.51.100.7'))).first).toBe('');
    expect((await overSse(from('198.51.100.7'), 'refused')).first).toMatch(REFUSED);
    expect((await overWebSocket({}, from('198.51.100.7'), 'refused')).first).toMatch(REFUSED);
    // another client behind the same proxy has places of its own
    expect((await overSse(from('203.0.113.9'))).first).toBe('');
    expect((await overWebSocket({}, from('203.0.113.9'))).first).toBe('');
  });
});
