// Two Milepost instances on loopback ports, federating with each other over real HTTP with signed
// requests: a follow asked and accepted, public entries delivered (never a friends-only one, never a
// place), an edit, a change away from public, a like and a reply heard back, a server blocked; and
// what an attacker sends an inbox (unsigned, forged, huge, replayed) refused.

import type { Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { signRequest } from '@fedify/fedify';
import { Create, Follow, Like, Note } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { blockHost } from '../../src/db/federation.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/deliveries.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Instance {
  db: TestDatabase;
  app: App;
  server: HttpServer;
  origin: string;
  host: string;
  relay: WebhookWorker;
  queue: { stop(): Promise<void> };
  graphql<T>(query: string, variables: Record<string, unknown>, token: string): Promise<{ data?: T; errors?: unknown[] }>;
}

async function startInstance(label: string, extra: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const db = await createTestDatabase(label);
  const config = testConfig(db.config, {
    FEDERATION: 'true',
    PUBLIC_URL: origin,
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_POLL_MS: '100',
    FEDERATION_RETRY_BASE_SECONDS: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...extra,
  });
  const app = createApp(config, db);
  const server = await listen(app, config);
  const relay = startWebhookWorker(db.prisma, { pollMs: 100, retryBaseSeconds: 1, origin, alsoRelay: app.fediverse!.relay });
  const queue = app.fediverse!.start();
  return {
    db,
    app,
    server,
    origin,
    host: `127.0.0.1:${port}`,
    relay,
    queue,
    async graphql(query, variables, token) {
      const response = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as never;
    },
  };
}

async function stopInstance(instance: Instance) {
  await instance.queue.stop();
  await instance.relay.stop();
  await new Promise((resolve) => instance.server.close(resolve));
  instance.server.closeAllConnections();
  await instance.app.close();
  await instance.db.destroy();
}

/** Polls `read` until `done` holds of its value (deliveries cross the queue and the network). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let a: Instance;
let b: Instance;
let annToken: string;
let bobToken: string;
let bobId: number;

beforeAll(async () => {
  [a, b] = await Promise.all([startInstance('fed-a', { FEDERATION_RETRY_ATTEMPTS: '2' }), startInstance('fed-b')]);
  const ann = await createPerson(a.db.prisma, { username: 'ann', displayName: 'Ann Runner' });
  const bob = await createPerson(b.db.prisma, { username: 'bob' });
  bobId = bob.id;
  annToken = await createToken(a.db.prisma, ann.id);
  bobToken = await createToken(b.db.prisma, bob.id);
}, 60_000);

afterAll(async () => {
  await Promise.all([a && stopInstance(a), b && stopInstance(b)]);
});

const FOLLOW = 'mutation ($handle: String!) { followFediverseAccount(input: { handle: $handle }) { error { __typename } } }';
const ACCEPT = 'mutation ($handle: String!) { acceptFediverseFollower(input: { handle: $handle }) { error { __typename } } }';
const POST =
  'mutation ($message: String!, $visibility: Visibility) { createEntry(input: { message: $message, visibility: $visibility, lat: 48.8566, lon: 2.3522, placeName: "Jardin secret", workout: { activityType: RUNNING, distance: { value: 10, units: KILOMETERS }, duration: 2700 } }) { entry { id: databaseId url } } }';

/** A browser's log-in on `instance` by its form: the cookie, and a way to read a page's form token. */
async function logInByForm(instance: Instance, username: string) {
  await instance.db.prisma.person.update({
    where: { usernameKey: username },
    data: { passwordHash: await hashPassword('long enough secret') },
  });
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      jar.set(name!, value!);
    }
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const get = async (path: string) =>
    keep(await fetch(`${instance.origin}${path}`, { headers: { accept: 'text/html', cookie: cookie() }, redirect: 'manual' }));
  const post = async (path: string, fields: Record<string, string>) =>
    keep(
      await fetch(`${instance.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(), origin: instance.origin },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      }),
    );
  const login = await (await get('/login')).text();
  const answer = await post('/login', { csrf: csrfOf(login), username, password: 'long enough secret', next: '/settings' });
  expect(answer.headers.get('location')).toBe('/settings');
  return { get, post, csrfOf };
}

const postsOnB = () => b.db.prisma.remotePost.findMany({ orderBy: { id: 'asc' } });

describe('two instances federating', () => {
  it('finds an athlete by WebFinger and answers their actor to ActivityPub, their page to a browser', async () => {
    const finger = await fetch(`${a.origin}/.well-known/webfinger?resource=acct:ANN@${a.host}`);
    expect(finger.status).toBe(200);
    const links = ((await finger.json()) as { links: Array<{ rel: string; href: string }> }).links;
    expect(links.find((link) => link.rel === 'self')?.href).toBe(`${a.origin}/people/ann`);
    const actor = await fetch(`${a.origin}/people/ann`, { headers: { accept: 'application/activity+json' } });
    const body = (await actor.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'Person', preferredUsername: 'ann', name: 'Ann Runner', inbox: `${a.origin}/people/ann/inbox` });
    expect((body.publicKey as { publicKeyPem: string }).publicKeyPem).toContain('BEGIN PUBLIC KEY');
    const page = await fetch(`${a.origin}/people/ann`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    const nodeinfo = (await (await fetch(`${a.origin}/nodeinfo/2.1`)).json()) as { protocols: string[] };
    expect(nodeinfo.protocols).toEqual(['activitypub']);
  });

  it('a follow from the other server waits for the athlete, and public entries go to it once accepted; a friends-only one and the place never do', async () => {
    // by the profile's URL: a handle is looked up over https, which loopback instances do not speak
    expect((await b.graphql(FOLLOW, { handle: `${a.origin}/people/ann` }, bobToken)).data).toEqual({
      followFediverseAccount: { error: null },
    });
    await eventually(
      () => a.db.prisma.remoteFollower.findMany(),
      (rows) => rows.length === 1 && rows[0]!.status === 'pending',
    );
    expect((await a.graphql(ACCEPT, { handle: `bob@${b.host}` }, annToken)).data).toEqual({ acceptFediverseFollower: { error: null } });
    await eventually(
      () => b.db.prisma.remoteFollowing.findMany(),
      (rows) => rows[0]?.status === 'accepted',
    );

    await a.graphql(POST, { message: 'only my friends', visibility: 'FRIENDS' }, annToken);
    const posted = await a.graphql<{ createEntry: { entry: { url: string } } }>(POST, { message: 'tempo by the river' }, annToken);
    const url = posted.data!.createEntry.entry.url;
    const posts = await eventually(postsOnB, (rows) => rows.length >= 1);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ uri: url, url });
    expect(posts[0]!.text).toContain('tempo by the river');
    expect(posts[0]!.text).toMatch(/running · 10 kilometers · 45:00/);
    // no place, no coordinate
    expect(posts[0]!.text).not.toMatch(/Jardin|48\.85|2\.35/);
    const note = (await (await fetch(url, { headers: { accept: 'application/activity+json' } })).text()) as string;
    expect(note).not.toMatch(/Jardin|48\.85|2\.35|location|Place/);

    const stream = await b.graphql<{ fediverseStream: Array<{ text: string; account: { handle: string } }> }>(
      '{ fediverseStream { text account { handle } } }',
      {},
      bobToken,
    );
    expect(stream.data!.fediverseStream).toEqual([expect.objectContaining({ account: { handle: `ann@${a.host}` } })]);
  });

  it('an edit goes out as an update, and a change away from public as a deletion', async () => {
    const [post] = await postsOnB();
    const id = post!.uri.split('/').at(-1);
    await a.graphql(
      'mutation ($id: ID!) { updateEntry(input: { id: $id, message: "tempo by the river, windy" }) { error { __typename } } }',
      { id },
      annToken,
    );
    await eventually(postsOnB, (rows) => rows[0]?.text.includes('windy') === true);
    await a.graphql(
      'mutation ($id: ID!) { updateEntry(input: { id: $id, visibility: ONLY_ME }) { error { __typename } } }',
      { id },
      annToken,
    );
    await eventually(postsOnB, (rows) => rows.length === 0);
  });

  it('a profile change goes out as an Update of the actor, and the other server keeps the new name', async () => {
    await a.graphql('mutation { updateProfile(input: { displayName: "Ann the Fast" }) { error { __typename } } }', {}, annToken);
    await eventually(
      () => b.db.prisma.remoteActor.findFirst({ where: { handle: `ann@${a.host}` }, select: { name: true } }),
      (actor) => actor?.name === 'Ann the Fast',
    );
  });

  it('hears a like and a reply from the other server, once each however often they are sent', async () => {
    const posted = await a.graphql<{ createEntry: { entry: { id: number; url: string } } }>(POST, { message: 'hill repeats' }, annToken);
    const { id, url } = posted.data!.createEntry.entry;
    await eventually(postsOnB, (rows) => rows.some((row) => row.uri === url));
    const ctx = b.app.fediverse!.federation.createContext(new URL(b.origin), undefined);
    const bob = ctx.getActorUri('bob');
    const ann = { id: new URL(`${a.origin}/people/ann`), inboxId: new URL(`${a.origin}/people/ann/inbox`) };
    const like = new Like({ id: new URL(`${bob.href}#likes/1`), actor: bob, object: new URL(url) });
    const reply = new Create({
      id: new URL(`${bob.href}/notes/1#create`),
      actor: bob,
      object: new Note({
        id: new URL(`${bob.href}/notes/1`),
        attribution: bob,
        replyTarget: new URL(url),
        content: '<p>great <b>pace</b>!</p>',
      }),
    });
    for (const activity of [like, like, reply]) await ctx.sendActivity({ identifier: 'bob' }, ann, activity, { immediate: true });
    const reactions = await eventually(
      () =>
        a.graphql<{ entry: { fediverseReactions: Array<{ kind: string; text: string | null; account: { handle: string } }> } }>(
          'query ($id: ID!) { entry(id: $id) { fediverseReactions { kind text account { handle } } } }',
          { id: String(id) },
          annToken,
        ),
      (result) => (result.data?.entry.fediverseReactions.length ?? 0) >= 2,
    );
    expect(reactions.data!.entry.fediverseReactions).toEqual([
      { kind: 'LIKE', text: null, account: { handle: `bob@${b.host}` } },
      { kind: 'REPLY', text: 'great pace!', account: { handle: `bob@${b.host}` } },
    ]);
  });

  it('refuses what an attacker sends an inbox: unsigned, forged, huge', async () => {
    const follow = new Follow({
      id: new URL('http://127.0.0.1:1/evil#follow'),
      actor: new URL(`${b.origin}/people/bob`),
      object: new URL(`${a.origin}/people/ann`),
    });
    const body = JSON.stringify(await follow.toJsonLd());
    const inbox = `${a.origin}/people/ann/inbox`;
    const unsigned = await fetch(inbox, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body });
    expect(unsigned.status).toBe(401);
    // signed with a key of its own, claiming to be bob of the other server
    const { generateCryptoKeyPair } = await import('@fedify/fedify');
    const stranger = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const forged = await signRequest(
      new Request(inbox, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }),
      stranger.privateKey,
      new URL(`${b.origin}/people/bob#main-key`),
    );
    expect((await fetch(forged)).status).toBe(401);
    const huge = await fetch(inbox, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify({ ...JSON.parse(body), padding: 'x'.repeat(300_000) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('TOO_LARGE');
    expect(await a.db.prisma.remoteFollower.count({ where: { followId: 'http://127.0.0.1:1/evil#follow' } })).toBe(0);
  });

  it('answers every malformed request with a 4xx in the service’s error body, naming what was wrong', async () => {
    const AP = { accept: 'application/activity+json' };
    const probes: Array<[string, RequestInit, number, string | undefined]> = [
      ['/.well-known/webfinger?resource=not%20a%20url', {}, 400, 'resource'],
      ['/.well-known/webfinger', {}, 400, 'resource'],
      ['/people/ann/outbox?cursor=not-a-cursor', { headers: AP }, 400, 'cursor'],
      ['/people/ann/inbox', { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: '{not json' }, 400, 'body'],
      ['/people/nobody', { headers: AP }, 404, undefined],
      [`/entries/${'9'.repeat(30)}`, { headers: AP }, 404, undefined],
    ];
    for (const [path, init, status, field] of probes) {
      const response = await fetch(`${a.origin}${path}`, init);
      expect(response.status, path).toBe(status);
      const body = (await response.json()) as { error: { code: string; field?: string } };
      expect(body.error.field, path).toBe(field);
    }
  });

  it('the pages: a settings card to follow and be followed, the handle on the athlete’s page, remote replies on the entry', async () => {
    const browser = await logInByForm(b, 'bob');
    const settings = await (await browser.get('/settings')).text();
    expect(settings).toContain(`@bob@${b.host}`);
    expect(settings).toContain(`@ann@${a.host}`);
    const stream = await (await browser.get('/fediverse')).text();
    expect(stream).toContain('hill repeats');
    expect(stream).toContain(`@ann@${a.host}`);
    // a handle that is no handle is refused on the card, naming what is wrong
    const refused = await browser.post('/settings/fediverse', { csrf: browser.csrfOf(settings), action: 'follow', handle: 'not a handle' });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('must be a fediverse handle');
    const saved = await browser.post('/settings/fediverse', { csrf: browser.csrfOf(settings), action: 'settings', auto_accept: 'yes' });
    expect(saved.status).toBe(303);
    expect(await b.db.prisma.person.findFirst({ where: { username: 'bob' }, select: { fediverseAutoAccept: true } })).toEqual({
      fediverseAutoAccept: true,
    });

    const person = await (await fetch(`${a.origin}/people/ann`, { headers: { accept: 'text/html' } })).text();
    expect(person).toContain(`@ann@${a.host}`);
    const reaction = await a.db.prisma.remoteReaction.findFirstOrThrow({ where: { kind: 'reply' } });
    const entry = await (await fetch(`${a.origin}/entries/${reaction.entryId}`, { headers: { accept: 'text/html' } })).text();
    expect(entry).toContain('From the fediverse');
    expect(entry).toContain('great pace!');
    expect(entry).toContain(`@bob@${b.host}`);
  });

  it('a muted account leaves the stream, and comes back when unmuted', async () => {
    const handle = `ann@${a.host}`;
    const stream = async () =>
      (await b.graphql<{ fediverseStream: unknown[] }>('{ fediverseStream { uri } }', {}, bobToken)).data!.fediverseStream.length;
    expect(await stream()).toBeGreaterThan(0);
    await b.graphql(
      'mutation ($handle: String!) { muteFediverseAccount(input: { handle: $handle }) { error { __typename } } }',
      { handle },
      bobToken,
    );
    expect(await stream()).toBe(0);
    await b.graphql(
      'mutation ($handle: String!) { unmuteFediverseAccount(input: { handle: $handle }) { error { __typename } } }',
      { handle },
      bobToken,
    );
    expect(await stream()).toBeGreaterThan(0);
  });

  it('a dead server is retried and given up, while the living one is delivered to', async () => {
    const dead = await freePort();
    const actor = await a.db.prisma.remoteActor.create({
      data: {
        uri: `http://127.0.0.1:${dead}/users/gone`,
        handle: `gone@127.0.0.1:${dead}`,
        host: `127.0.0.1:${dead}`,
        inbox: `http://127.0.0.1:${dead}/users/gone/inbox`,
      },
    });
    const ann = await a.db.prisma.person.findFirstOrThrow({ where: { username: 'ann' } });
    await a.db.prisma.remoteFollower.create({
      data: { personId: ann.id, actorId: actor.id, followId: `http://127.0.0.1:${dead}/f`, status: 'accepted' },
    });
    const posted = await a.graphql<{ createEntry: { entry: { url: string } } }>(POST, { message: 'easy recovery jog' }, annToken);
    const url = posted.data!.createEntry.entry.url;
    await eventually(postsOnB, (rows) => rows.some((row) => row.uri === url));
    // two attempts, a second apart, then given up: no job is left behind
    await eventually(
      () => a.db.prisma.federationJob.count(),
      (count) => count === 0,
      20_000,
    );
  }, 30_000);

  it('an athlete blocks a remote account: its follow ends (its server is told), its likes and replies go, and what it sends after is refused', async () => {
    const handle = `bob@${b.host}`;
    expect(await a.db.prisma.remoteReaction.count()).toBeGreaterThan(0);
    const blocked = await a.graphql<{ blockFediverseAccount: { error: null } }>(
      'mutation ($handle: String!) { blockFediverseAccount(input: { handle: $handle }) { error { __typename } } }',
      { handle },
      annToken,
    );
    expect(blocked.data).toEqual({ blockFediverseAccount: { error: null } });
    expect(await a.db.prisma.remoteFollower.count()).toBe(1); // the dead server's follower only
    expect(await a.db.prisma.remoteReaction.count()).toBe(0);
    // bob's server hears the Reject: his follow of ann is gone there too
    await eventually(
      () => b.db.prisma.remoteFollowing.count(),
      (count) => count === 0,
    );
    const [entry] = await a.db.prisma.entry.findMany({ where: { visibility: 'everyone' }, orderBy: { id: 'desc' }, take: 1 });
    const ctx = b.app.fediverse!.federation.createContext(new URL(b.origin), undefined);
    const bob = ctx.getActorUri('bob');
    const ann = { id: new URL(`${a.origin}/people/ann`), inboxId: new URL(`${a.origin}/people/ann/inbox`) };
    await ctx.sendActivity(
      { identifier: 'bob' },
      ann,
      new Like({ id: new URL(`${bob.href}#likes/after-block`), actor: bob, object: new URL(`${a.origin}/entries/${entry!.id}`) }),
      {
        immediate: true,
      },
    );
    await ctx.sendActivity(
      { identifier: 'bob' },
      ann,
      new Follow({ id: new URL(`${bob.href}#follows/after-block`), actor: bob, object: ann.id }),
      {
        immediate: true,
      },
    );
    // both were taken in (202) and handled: nothing of them stands
    await eventually(
      () => a.db.prisma.federationJob.count(),
      (count) => count === 0,
    );
    expect(await a.db.prisma.remoteReaction.count()).toBe(0);
    expect(await a.db.prisma.remoteFollower.count({ where: { actor: { handle } } })).toBe(0);
    const kept = await a.graphql<{ me: { fediverseBlocked: Array<{ handle: string }> } }>(
      '{ me { fediverseBlocked { handle } } }',
      {},
      annToken,
    );
    expect(kept.data!.me.fediverseBlocked).toEqual([{ handle }]);
  });

  it('a blocked server loses its followers and is refused', async () => {
    await blockHost(a.db.prisma, '127.0.0.1');
    expect(await a.db.prisma.remoteFollower.count()).toBe(0);
    const ctx = b.app.fediverse!.federation.createContext(new URL(b.origin), undefined);
    const bob = ctx.getActorUri('bob');
    const follow = new Follow({ id: new URL(`${bob.href}#follows/again`), actor: bob, object: new URL(`${a.origin}/people/ann`) });
    const request = await signRequest(
      new Request(`${a.origin}/people/ann/inbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify(await follow.toJsonLd()),
      }),
      (await ctx.getActorKeyPairs('bob'))[0]!.privateKey,
      new URL(`${bob.href}#main-key`),
    );
    expect((await fetch(request)).status).toBe(403);
    expect(bobId).toBeGreaterThan(0);
  });
});
