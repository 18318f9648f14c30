// Subscriptions as browsers and graphql-sse hold them: an EventSource (a GET that can carry no header
// of its own) in Debian's Chromium, resumed with Last-Event-ID, and graphql-sse's client in both of its
// modes, its single connection included (once a 405).
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-sse';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run should have installed Debian's chromium`);

let db: TestDatabase;
let app: App;
let server: Server;
let base = '';
let token = '';

beforeAll(async () => {
  db = await createTestDatabase('ssebrowsers');
  const config = testConfig(db.config, { HOST: '127.0.0.1', PORT: '0' });
  app = createApp(config, db);
  server = await listen(app, config);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  token = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'streamer' })).id);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
  await db.destroy();
});

const post = async (message: string) => {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: `mutation { createEntry(input: { message: "${message}" }) { entry { id } } }` }),
  });
  expect(response.status).toBe(200);
};
const until = async (done: () => boolean | Promise<boolean>, boundMs = 15_000) => {
  const end = Date.now() + boundMs;
  while (!(await done()) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
};
const SUBSCRIPTION = 'subscription { publicEntries { message } }';

describe.skipIf(!haveChromium)('an EventSource in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  }, 60_000);
  afterAll(() => browser?.close());

  it('subscribes with a GET (no header of its own, no preflight) and hears what happens', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/healthz`);
    await page.evaluate(
      (url) => {
        const heard: string[] = [];
        (window as unknown as { heard: string[] }).heard = heard;
        const source = new EventSource(url);
        source.addEventListener('next', (event) => heard.push((event as MessageEvent).data));
        source.onerror = () => heard.push('error');
      },
      `/graphql?query=${encodeURIComponent(SUBSCRIPTION)}`,
    );
    // the stream is open once its first ping arrived; then an entry is posted
    await new Promise((resolve) => setTimeout(resolve, 500));
    await post('heard by a browser');
    const heard = () => page.evaluate(() => (window as unknown as { heard: string[] }).heard);
    await until(async () => (await heard()).some((data) => data.includes('heard by a browser')));
    expect((await heard()).filter((data) => data !== 'error').map((data) => JSON.parse(data).data)).toEqual([
      { publicEntries: { message: 'heard by a browser' } },
    ]);
    await page.close();
  });
});

describe('a GET of server-sent events', () => {
  it('resumes after the Last-Event-ID an EventSource sends when it reconnects', async () => {
    const open = async (lastEventId?: string) => {
      const response = await fetch(`${base}/graphql?query=${encodeURIComponent(SUBSCRIPTION)}`, {
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const state = { text: '' };
      const reading = (async () => {
        for (let part = await reader.read(); !part.done; part = await reader.read()) state.text += new TextDecoder().decode(part.value);
      })().catch(() => undefined);
      const close = async () => {
        await reader.cancel();
        await reading;
      };
      return { state, close };
    };
    const first = await open();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post('before the drop');
    await until(() => first.state.text.includes('before the drop'));
    const id = /\nid: ?(\S+)/.exec(first.state.text)![1]!;
    await first.close();
    await post('while away');
    const resumed = await open(id);
    await until(() => resumed.state.text.includes('while away'));
    await resumed.close();
    expect(resumed.state.text).not.toContain('before the drop');
  });

  it('still refuses a GET that asks for no event stream without a preflight header (CSRF)', async () => {
    const response = await fetch(`${base}/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(response.status).toBe(403);
  });
});

describe("graphql-sse's client", () => {
  for (const singleConnection of [false, true]) {
    it(`subscribes in its ${singleConnection ? 'single-connection' : 'distinct-connections'} mode`, async () => {
      const client = createClient({
        url: `${base}/graphql/stream`,
        singleConnection,
        headers: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      const heard: unknown[] = [];
      const errors: unknown[] = [];
      const dispose = client.subscribe(
        { query: SUBSCRIPTION },
        { next: (value) => void heard.push(value.data), error: (error) => void errors.push(error), complete: () => undefined },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const message = `heard by graphql-sse (${singleConnection ? 'single' : 'distinct'})`;
      await post(message);
      await until(() => heard.length > 0 || errors.length > 0);
      dispose();
      client.dispose();
      expect(errors).toEqual([]);
      expect(heard).toEqual([{ publicEntries: { message } }]);
    });
  }
});
