// Webhooks: queued in the database, delivered signed to a local receiver, retried, and delivered
// after a restart; only for people who authorized the app.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/db/account-sessions.ts';
import { registerApp } from '../../src/db/oauth-clients.ts';
import { issueAccessToken } from '../../src/db/oauth-tokens.ts';
import { isPublicAddress } from '../../src/webhooks/address-guard.ts';
import { backoffSeconds, relayOutbox, startWebhookWorker, type WebhookWorker } from '../../src/webhooks/deliveries.ts';
import { setWebhook } from '../../src/webhooks/settings.ts';
import { signPayload, verifySignature } from '../../src/webhooks/signature.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let receiver: Server;
let receiverUrl = '';
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
/** Status codes the receiver answers with, in turn; 200 once they run out. */
const answers: number[] = [];
/** How the receiver answers the challenge of a registration: with the value sent, another, or a 404. */
let challengeAnswer: 'echo' | 'wrong' | 'missing' = 'echo';
const challenges: URLSearchParams[] = [];
let secret = '';
let clientId = '';
let authorToken = '';
let otherToken = '';
let worker: WebhookWorker;

beforeAll(async () => {
  db = await createTestDatabase('webhooks');
  api = testApp(db, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_SECONDS: '1' });
  receiver = createServer((req, res) => {
    if (req.method === 'GET') {
      const query = new URL(req.url!, 'http://receiver').searchParams;
      challenges.push(query);
      if (challengeAnswer === 'missing') return res.writeHead(404).end();
      const echoed = challengeAnswer === 'echo' ? query.get('hub.challenge') : 'not the challenge';
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'hub.challenge': echoed }));
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const owner = await createAccount(db.prisma, { username: 'devowner', password: 'a long password', displayName: 'Dev' });
  const app = await registerApp(db.prisma, owner.id, { name: 'Coach', redirectUris: ['https://coach.example/cb'], confidential: true });
  clientId = app.clientId;
  // the receiver listens on loopback, which only a deployment that allows private targets may use
  secret = (await setWebhook(db.prisma, owner.id, clientId, receiverUrl, { allowPrivate: true })).secret!;
  const author = await createPerson(db.prisma, { username: 'hookauthor' });
  authorToken = await issueAccessToken(db.prisma, { clientId: app.id, personId: author.id });
  otherToken = await createToken(db.prisma, (await createPerson(db.prisma, { username: 'hookother' })).id);
  worker = startWebhookWorker(db.prisma, { pollMs: 60_000, retryBaseSeconds: 1, origin: ORIGIN, allowPrivate: true });
});

afterAll(async () => {
  await worker.stop();
  await new Promise((resolve) => receiver.close(resolve));
  await db.destroy();
});

const ORIGIN = 'http://milepost.test';
const queued = () => db.prisma.webhookDelivery.count();
/** What the worker does first on each tick: the outbox's events become deliveries. */
const relay = () => relayOutbox(db.prisma, ORIGIN);

async function post(token: string, message: string): Promise<number> {
  const result = await api.graphql<{ createEntry: { entry: { id: number } } }>(
    'mutation ($m: String) { createEntry(input: { message: $m }) { entry { id: databaseId } } }',
    { m: message },
    token,
  );
  return result.data!.createEntry.entry.id;
}

describe('webhooks', () => {
  it('deliver an event, signed, to the apps the person authorized', async () => {
    const before = await queued();
    const entryId = await post(authorToken, 'hello hooks');
    await relay();
    expect(await queued()).toBe(before + 1);
    await worker.tick();
    const delivery = received.at(-1)!;
    expect(delivery.headers['x-milepost-event']).toBe('entry.created');
    expect(verifySignature(secret, String(delivery.headers['x-milepost-signature']), delivery.body)).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({
      id: delivery.headers['webhook-id'],
      event: 'entry.created',
      data: {
        entry_id: entryId,
        // the global id GraphQL and /api/v1 answer, beside the number
        entry_node_id: Buffer.from(`Entry:${entryId}`).toString('base64'),
        author_id: expect.any(Number),
        author_node_id: expect.any(String),
        entry_url: expect.stringContaining(`/entries/${entryId}`),
      },
    });
    // Standard Webhooks: the receiver's own library verifies it with the secret the app was given
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+$/);
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(delivery.headers[name])]),
    );
    expect(new Webhook(secret).verify(delivery.body, headers)).toMatchObject({ event: 'entry.created' });
    expect(() => new Webhook(secret).verify(`${delivery.body} `, headers)).toThrow();
    expect(await db.prisma.webhookDelivery.findFirstOrThrow({ orderBy: { id: 'desc' } })).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it('send nothing for people who never authorized the app', async () => {
    const before = await queued();
    await post(otherToken, 'not for the app');
    await relay();
    expect(await queued()).toBe(before);
  });

  it('tell an app only what its token may read: no only-me entry without read_all, no position its person hides', async () => {
    const author = await db.prisma.person.findFirstOrThrow({ where: { username: 'hookauthor' } });
    await db.prisma.privacyZone.create({ data: { personId: author.id, lat: 51.5, lon: -0.12, radiusMeters: 500 } });
    const create = (input: string) =>
      api.graphql<{ createEntry: { entry: { id: number } } }>(
        `mutation { createEntry(input: { ${input} }) { entry { id: databaseId } } }`,
        {},
        authorToken,
      );
    const before = await db.prisma.webhookDelivery.findMany({ select: { id: true } });
    const hidden = (await create('message: "only for me", visibility: ONLY_ME')).data!.createEntry.entry.id;
    const atHome = (await create('message: "at home", lat: 51.5, lon: -0.12')).data!.createEntry.entry.id;
    const outside = (await create('message: "in town", lat: 51.52, lon: -0.2')).data!.createEntry.entry.id;
    await api.graphql(
      `mutation { createComment(input: { entryId: ${hidden}, body: "a note to self" }) { error { __typename } } }`,
      {},
      authorToken,
    );
    await api.graphql(`mutation { deleteEntry(input: { id: ${hidden} }) { error { __typename } } }`, {}, authorToken);
    await relay();
    const sent = await db.prisma.webhookDelivery.findMany({ where: { id: { notIn: before.map((d) => d.id) } }, orderBy: { id: 'asc' } });
    const bodies = sent.map((delivery) => JSON.parse(delivery.payload) as { event: string; data: Record<string, unknown> });
    // nothing of the only-me entry: not its creation, its comment, nor its deletion
    expect(bodies.map((body) => body.data.entry_id)).toEqual([atHome, outside]);
    expect(bodies[0]!.data).toMatchObject({ lat: null, lon: null });
    expect(bodies[1]!.data).toMatchObject({ lat: 51.52, lon: -0.2 });
    // the person's own app holding read_all is told everything, as it reads everything
    const app = await db.prisma.oAuthClient.findFirstOrThrow({ where: { clientId } });
    await db.prisma.oAuthAccessToken.updateMany({
      where: { clientId: app.id, personId: author.id },
      data: { scope: 'read read_all entries:write' },
    });
    const since = await db.prisma.webhookDelivery.findMany({ select: { id: true } });
    await create('message: "home, all mine", lat: 51.5, lon: -0.12, visibility: ONLY_ME');
    await relay();
    const mine = await db.prisma.webhookDelivery.findMany({ where: { id: { notIn: since.map((d) => d.id) } } });
    expect(mine.map((delivery) => JSON.parse(delivery.payload).data)).toEqual([expect.objectContaining({ lat: 51.5, lon: -0.12 })]);
    await db.prisma.oAuthAccessToken.updateMany({ where: { clientId: app.id, personId: author.id }, data: { scope: null } });
    await db.prisma.privacyZone.deleteMany({ where: { personId: author.id } });
    await worker.tick();
  });

  it('queue each event once, in order, when relays race (on PostgreSQL two connections at once)', async () => {
    const before = await db.prisma.webhookDelivery.findMany({ select: { id: true } });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await post(authorToken, `race ${i}`));
    const relayed = await Promise.all([relay(), relay(), relay()]);
    expect(relayed.reduce((a, b) => a + b, 0)).toBe(6);
    const queuedNow = await db.prisma.webhookDelivery.findMany({
      where: { id: { notIn: before.map((d) => d.id) } },
      orderBy: { id: 'asc' },
      select: { payload: true },
    });
    expect(queuedNow.map((d) => (JSON.parse(d.payload) as { data: { entry_id: number } }).data.entry_id)).toEqual(ids);
    expect(await db.prisma.outboxEvent.count()).toBe(0);
    // delivered, so that the tests after this one find only their own deliveries due
    await worker.tick();
    expect(await db.prisma.webhookDelivery.count({ where: { status: 'pending' } })).toBe(0);
  });

  it('retry a failed delivery with backoff, then deliver it', async () => {
    answers.push(500);
    const before = await queued();
    await post(authorToken, 'retry me');
    await relay();
    expect(await queued()).toBe(before + 1);
    await worker.tick();
    const failed = await db.prisma.webhookDelivery.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'the receiver answered 500' });
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    await worker.tick();
    expect((await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).attempts).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await worker.tick();
    expect(await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
    expect(backoffSeconds(1, 10)).toBe(10);
    expect(backoffSeconds(3, 10)).toBe(160);
    expect(backoffSeconds(20, 10)).toBe(3600);
  });

  it('lose no event to a crash between the commit and the queueing: the outbox is in the write’s transaction', async () => {
    const before = await queued();
    // the write commits; the process dies before any worker ran (nothing relayed, nothing queued)
    const entryId = await post(authorToken, 'committed, then the crash');
    expect(await queued()).toBe(before);
    expect(await db.prisma.outboxEvent.count()).toBe(1);
    const count = received.length;
    const next = startWebhookWorker(db.prisma, { pollMs: 60_000, retryBaseSeconds: 1, origin: ORIGIN, allowPrivate: true });
    await next.tick();
    await next.stop();
    expect(received.length).toBe(count + 1);
    expect(JSON.parse(received.at(-1)!.body).data.entry_id).toBe(entryId);
    expect(await db.prisma.outboxEvent.count()).toBe(0);
  });

  it('survive a restart: what a dead process queued or was sending is delivered by the next', async () => {
    const entryId = await post(authorToken, 'before the crash');
    await relay();
    expect(await db.prisma.webhookDelivery.count({ where: { status: 'pending' } })).toBe(1);
    // a process that claimed the delivery and died mid-send leaves it locked, with a lock that passes
    await db.prisma.webhookDelivery.updateMany({
      where: { status: 'pending' },
      data: { status: 'sending', lockedUntil: new Date(Date.now() - 1000) },
    });
    await db.prisma.webhookDelivery.create({
      data: {
        clientId: (await db.prisma.oAuthClient.findUniqueOrThrow({ where: { clientId } })).id,
        event: 'like.created',
        payload: '{"event":"like.created","data":{}}',
      },
    });
    const count = received.length;
    const restarted = startWebhookWorker(db.prisma, { pollMs: 60_000, retryBaseSeconds: 1, origin: ORIGIN, allowPrivate: true });
    await restarted.tick();
    await restarted.stop();
    expect(received.length).toBe(count + 2);
    expect(
      received
        .slice(-2)
        .map((r) => JSON.parse(r.body).event)
        .sort(),
    ).toEqual(['entry.created', 'like.created']);
    expect(
      JSON.parse(received.find((r) => r.body.includes('before the crash') || r.body.includes(`"entry_id":${entryId}`))!.body).data.entry_id,
    ).toBe(entryId);
    expect(await db.prisma.webhookDelivery.count({ where: { status: { not: 'delivered' } } })).toBe(0);
  });

  it('comments and likes on the person’s entries are events too', async () => {
    const entryId = await post(authorToken, 'comment on me');
    await api.graphql(`mutation { createComment(input: { entryId: ${entryId}, body: "nice" }) { error { __typename } } }`, {}, otherToken);
    await api.graphql(`mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`, {}, otherToken);
    await relay();
    expect(await db.prisma.webhookDelivery.count({ where: { status: 'pending' } })).toBe(3);
    await worker.tick();
    expect(received.slice(-3).map((r) => r.headers['x-milepost-event'])).toEqual(['entry.created', 'comment.created', 'like.created']);
  });

  it('relay a batch in the same few statements however many events it holds', async () => {
    await worker.tick();
    // events of people no app hears of (entries, comments, likes), and one comment on the author's entry
    const round = async (events: number) => {
      const authorEntry = await post(authorToken, 'a batch');
      await api.graphql(
        `mutation { createComment(input: { entryId: ${authorEntry}, body: "in a batch" }) { error { __typename } } }`,
        {},
        otherToken,
      );
      for (let i = 0; i < events; i++) {
        const entryId = await post(otherToken, `quiet ${i}`);
        await api.graphql(
          `mutation { createComment(input: { entryId: ${entryId}, body: "quiet" }) { error { __typename } } }`,
          {},
          authorToken,
        );
        await api.graphql(`mutation { likeEntry(input: { entryId: ${entryId} }) { error { __typename } } }`, {}, authorToken);
      }
      const before = db.queryCount();
      const pendingBefore = await db.prisma.webhookDelivery.count({ where: { status: 'pending' } });
      expect(await relay()).toBe(2 + 3 * events);
      const statements = db.queryCount() - before - 1;
      // the author's two events, and only those, became deliveries
      expect(await db.prisma.webhookDelivery.count({ where: { status: 'pending' } })).toBe(pendingBefore + 2);
      await worker.tick();
      return statements;
    };
    const few = await round(1);
    expect(await round(12)).toBe(few);
  });

  it('the owner reads the delivery log; nobody else does', async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('devowner', 'a long password');
    const page = await browser.get(`/developers/apps/${clientId}/deliveries`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('entry.created');
    // the retried delivery: delivered on its second attempt
    expect(html).toMatch(/<td>entry\.created<\/td><td>delivered<\/td>\s*<td>2<\/td>/);
    await createAccount(db.prisma, { username: 'nosy', password: 'a long password', displayName: 'N' });
    const nosy = new TestBrowser(api.fetch);
    await nosy.logIn('nosy', 'a long password');
    expect((await nosy.get(`/developers/apps/${clientId}/deliveries`)).status).toBe(404);
  });
});

describe('webhooks on the developer page', () => {
  const owner = async () => {
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('devowner', 'a long password');
    return browser;
  };
  const log = () => `/developers/apps/${clientId}/deliveries`;

  it('a URL must answer the challenge to be registered; a refused one leaves the old URL in place', async () => {
    const browser = await owner();
    const elsewhere = receiverUrl.replace('/hooks', '/elsewhere');
    for (const [mode, problem] of [
      ['wrong', /did not echo hub\.challenge/],
      ['missing', /answered the challenge with status 404/],
    ] as const) {
      challengeAnswer = mode;
      const refused = await browser.post('/developers/apps/webhook', { client_id: clientId, webhook_url: elsewhere });
      expect(refused.status).toBe(422);
      expect(await refused.text()).toMatch(problem);
    }
    challengeAnswer = 'echo';
    // nothing listens on the port any more
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hooks`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(setWebhook(db.prisma, null, clientId, deadUrl, { allowPrivate: true })).rejects.toMatchObject({
      issues: [{ path: 'webhook_url', message: expect.stringMatching(/did not answer the challenge: could not connect/) }],
    });
    expect((await db.prisma.oAuthClient.findUniqueOrThrow({ where: { clientId } })).webhookUrl).toBe(receiverUrl);
    // answered: saved, and the challenge was a fresh random value with hub.mode=subscribe
    const before = challenges.length;
    const saved = await browser.post('/developers/apps/webhook', { client_id: clientId, webhook_url: receiverUrl });
    expect(saved.status).toBe(200);
    const challenge = challenges.at(-1)!;
    expect(challenges.length).toBe(before + 1);
    expect(challenge.get('hub.mode')).toBe('subscribe');
    expect(challenge.get('hub.challenge')).toMatch(/^[0-9a-f]{32}$/);
    expect(challenges.slice(0, -1).map((c) => c.get('hub.challenge'))).not.toContain(challenge.get('hub.challenge'));
  });

  it('the owner sends a signed test event and sees at once how it went', async () => {
    const browser = await owner();
    const count = received.length;
    const sent = await browser.post(`${log()}/test`, {});
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toMatch(new RegExp(`^${log()}\\?sent=\\d+$`));
    expect(received.length).toBe(count + 1);
    const ping = received.at(-1)!;
    expect(ping.headers['x-milepost-event']).toBe('ping');
    expect(verifySignature(secret, String(ping.headers['x-milepost-signature']), ping.body)).toBe(true);
    expect(JSON.parse(ping.body)).toMatchObject({ event: 'ping', data: { client_id: clientId } });
    const page = await (await browser.get(sent.headers.get('location')!)).text();
    expect(page).toMatch(/role="status"><p>Delivery \d+ \(<code>ping<\/code>\) delivered: the receiver answered 200/);
  });

  it('a failed delivery is sent again, same body, as a new delivery; the failed one stays in the log', async () => {
    const browser = await owner();
    answers.push(503);
    await browser.post(`${log()}/test`, {});
    const failed = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { event: 'ping' }, orderBy: { id: 'desc' } });
    expect(failed).toMatchObject({ attempts: 1, lastStatusCode: 503 });
    // still being retried: not yet for the page to send again
    const early = await browser.post(`${log()}/${failed.id}/redeliver`, {});
    expect(early.status).toBe(422);
    expect(await early.text()).toContain('still being tried');
    await db.prisma.webhookDelivery.update({ where: { id: failed.id }, data: { status: 'failed' } });
    const failedPage = await (await browser.get(log())).text();
    expect(failedPage).toContain(`action="${log()}/${failed.id}/redeliver"`);
    const count = received.length;
    const again = await browser.post(`${log()}/${failed.id}/redeliver`, {});
    expect(again.status).toBe(302);
    expect(received.length).toBe(count + 1);
    expect(received.at(-1)!.body).toBe(failed.payload);
    // a redelivery is the same event to a receiver deduplicating by webhook-id, with a signature of its own
    const first = received.at(-2)!;
    expect(received.at(-1)!.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(String(received.at(-1)!.headers['webhook-id'])).toMatch(/^msg_/);
    const newId = Number(new URL(again.headers.get('location')!, 'http://x').searchParams.get('sent'));
    expect(newId).toBeGreaterThan(failed.id);
    expect(received.at(-1)!.headers['x-milepost-delivery']).toBe(String(newId));
    expect(await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({ status: 'failed' });
    expect(await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: newId } })).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('nobody else sends or redelivers for the app, and a form without its CSRF token does nothing', async () => {
    const delivery = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { status: 'delivered' } });
    const nosy = new TestBrowser(api.fetch);
    await nosy.logIn('nosy', 'a long password');
    const count = received.length;
    expect((await nosy.post(`${log()}/test`, {})).status).toBe(404);
    expect((await nosy.post(`${log()}/${delivery.id}/redeliver`, {})).status).toBe(404);
    const browser = await owner();
    expect((await browser.post(`${log()}/${delivery.id}/redeliver`, { csrf: 'forged' })).status).toBe(403);
    expect((await browser.post(`${log()}/not-a-number/redeliver`, {})).status).toBe(404);
    expect(received.length).toBe(count);
  });
});

describe('webhook targets (SSRF)', () => {
  it.each([
    'http://127.0.0.1:9/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/',
    'http://192.168.1.1/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://localhost/',
    'http://0.0.0.0/',
  ])('refuses %s at registration', async (url) => {
    await expect(setWebhook(db.prisma, null, clientId, url)).rejects.toMatchObject({
      issues: [{ path: 'webhook_url', message: expect.stringMatching(/not a public internet address/) }],
    });
  });

  it('refuses at delivery a name that resolves to a private address now, and sends nothing', async () => {
    const app = await registerApp(db.prisma, null, { name: 'Rebinder', redirectUris: ['https://rebind.example/cb'], confidential: true });
    const author = await createPerson(db.prisma, { username: 'rebound' });
    const token = await issueAccessToken(db.prisma, { clientId: app.id, personId: author.id });
    // registered when the name still pointed elsewhere; now it resolves to loopback
    await db.prisma.oAuthClient.update({
      where: { id: app.id },
      data: { webhookUrl: receiverUrl.replace('127.0.0.1', 'localhost'), webhookSecret: 'whsec_test' },
    });
    await post(token, 'to a rebound name');
    const count = received.length;
    const guarded = startWebhookWorker(db.prisma, { pollMs: 60_000, retryBaseSeconds: 1, origin: ORIGIN });
    await guarded.tick();
    await guarded.stop();
    expect(received.length).toBe(count);
    const delivery = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { clientId: app.id } });
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringMatching(/^refused: .*not a public internet address/),
    });
  });

  it('tells public from private addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34', '::ffff:808:808'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::127.0.0.1',
      '::a9fe:a9fe',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '224.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('signatures', () => {
  it('verify, and refuse a changed body, another secret or a stale time', () => {
    const now = Date.now();
    const header = signPayload('whsec_x', Math.floor(now / 1000), '{"a":1}');
    expect(verifySignature('whsec_x', header, '{"a":1}', 300, now)).toBe(true);
    expect(verifySignature('whsec_x', header, '{"a":2}', 300, now)).toBe(false);
    expect(verifySignature('whsec_y', header, '{"a":1}', 300, now)).toBe(false);
    expect(verifySignature('whsec_x', header, '{"a":1}', 300, now + 301_000)).toBe(false);
  });
});
