// Hostile and unlucky input: each case is an attack or a fault that once stalled or
// killed the server. Every one runs against the whole service and is bounded in time and memory.
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/app/server.ts';
import { parseGpx } from '../../src/domain/gpx.ts';
import { GRAPHQL_LIMITS } from '../../src/http/graphql-hardening.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';
import { hasRedisServer, startRedis } from '../support/redis.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let owner: { id: number; token: string };

beforeAll(async () => {
  db = await createTestDatabase('abuse');
  api = testApp(db);
  const person = await createPerson(db.prisma, { username: 'owner' });
  owner = { id: person.id, token: await createToken(db.prisma, person.id) };
});
afterAll(() => db.destroy());

describe.skipIf(!hasRedisServer)('a Redis outage', () => {
  it('fails events soft: a write during the outage answers, is stored, and the process lives on', async () => {
    const redis = await startRedis();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const shared = testApp(db, { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `outage-${Date.now()}` });
    try {
      await shared.app.ready();
      const entry = await createEntry(db.prisma, owner.id);
      await redis.stop();
      const result = await shared.graphql<{ createComment: { error: { __typename: string } | null } }>(
        `mutation { createComment(input: { entryId: ${entry.id}, body: "during the outage" }) { error { __typename } } }`,
        {},
        owner.token,
      );
      expect(result.data?.createComment.error).toBeNull();
      expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
      // ioredis gave up on queued commands after its retries (about 10 s) and the rejection killed the process
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(rejections).toEqual([]);
      expect(shared.app.events.failed()).toBeGreaterThan(0);
      expect(await shared.app.metrics.render()).toMatch(/milepost_events_failed_total [1-9]/);
      expect((await shared.fetch('/healthz')).status).toBe(200);
    } finally {
      process.off('unhandledRejection', onRejection);
      await redis.stop();
      await shared.app.close();
    }
  }, 30_000);
});

describe.skipIf(!hasRedisServer)('subscribers while Redis is away', () => {
  it('hear their own process’s writes, before the outage and during it', async () => {
    const redis = await startRedis();
    const shared = testApp(db, { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `heard-${Date.now()}` });
    try {
      await shared.app.ready();
      const entry = await createEntry(db.prisma, owner.id);
      const heard: number[] = [];
      const subscription = shared.app.events.subscribe('commentAdded');
      void (async () => {
        for await (const event of subscription) heard.push(event.commentId);
      })();
      const comment = async (body: string) => {
        const result = await shared.graphql<{ createComment: { comment: { databaseId: number } } }>(
          `mutation { createComment(input: { entryId: ${entry.id}, body: "${body}" }) { comment { databaseId } } }`,
          {},
          owner.token,
        );
        return result.data!.createComment.comment.databaseId;
      };
      const waitFor = async (id: number) => {
        for (let i = 0; i < 50 && !heard.includes(id); i++) await new Promise((resolve) => setTimeout(resolve, 50));
        return heard.includes(id);
      };
      const before = await comment('before the outage');
      expect(await waitFor(before)).toBe(true);
      await redis.stop();
      const during = await comment('during the outage');
      expect(await waitFor(during)).toBe(true);
      // heard once each: an event that crossed Redis is not heard again from it
      expect(heard.filter((id) => id === before)).toHaveLength(1);
      await subscription.return?.();
    } finally {
      await redis.stop();
      await shared.app.close();
    }
  }, 30_000);
});

describe.skipIf(!hasRedisServer)('a Redis that stops answering (SIGSTOP)', () => {
  it('costs requests no more than the command timeout: reads and writes answer, and /readyz says degraded', async () => {
    const redis = await startRedis();
    const shared = testApp(db, { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `hung-${Date.now()}` });
    try {
      await shared.app.ready();
      const entry = await createEntry(db.prisma, owner.id);
      process.kill(redis.pid, 'SIGSTOP');
      // the connection stays open and every command waits: each answer below came within the command timeout
      for (let i = 0; i < 3; i++) expect((await shared.fetch('/entries.json')).status).toBe(200);
      const result = await shared.graphql<{ createComment: { error: { __typename: string } | null } }>(
        `mutation { createComment(input: { entryId: ${entry.id}, body: "while Redis is hung" }) { error { __typename } } }`,
        {},
        owner.token,
      );
      expect(result.data?.createComment.error).toBeNull();
      const ready = await shared.fetch('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'degraded', database: 'ok', redis: 'unavailable' });
    } finally {
      await redis.stop();
      await shared.app.close();
    }
  }, 20_000);
});

describe('GPX uploads', () => {
  const nested = (depth: number) => `<gpx xmlns="http://www.topografix.com/GPX/1/1">${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}</gpx>`;

  it('refuses deep nesting at once: 50,000 levels took 20 s of a held event loop', async () => {
    // refused at the 33rd level: the rest of the 50,000 is never read (its time is the benchmark's)
    const result = await parseGpx(nested(50_000)).catch((error: Error) => error);
    expect((result as Error).message).toMatch(/more than 32 levels deep/);
  });

  it('parses a large body of unknown elements in linear time without holding the event loop', async () => {
    const junk = `<gpx xmlns="http://www.topografix.com/GPX/1/1">${'<a><b>text</b></a>'.repeat(600_000)}<trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>`;
    const body = Buffer.from(junk);
    // the parser's first document compiles its code (a one-off 50–100 ms here, whatever the size):
    // what is measured is how long the large one holds the loop
    await parseGpx(Buffer.from('<gpx xmlns="http://www.topografix.com/GPX/1/1"><a><b>t</b></a></gpx>'));
    const heapBefore = process.memoryUsage().heapUsed;
    // the work, not the time (a loaded machine stretches both): the loop takes a turn after every 64 KiB
    // slice, where a whole 11 MB body parsed in one go gave it none
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const result = await parseGpx(body);
    counting = false;
    expect(result.points).toHaveLength(1);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(body.length / (64 * 1024)) / 2);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('answers a deeply nested upload through REST with 422 naming gpx', async () => {
    const route = await db.prisma.route.create({ data: { ownerId: owner.id, name: 'nested' } });
    const response = await api.fetch(`/routes/${route.id}/track.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/gpx+xml' },
      body: nested(20_000),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { fields: [{ field: 'gpx' }] } });
  });

  it.each([
    ['an elevation of 1e308', '<trkpt lat="1" lon="2"><ele>1e308</ele></trkpt>', /ele .* is outside/],
    [
      'a heart rate of -5',
      '<trkpt lat="1" lon="2"><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>-5</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>',
      /negative/,
    ],
    ['a time in the year 275760', '<trkpt lat="1" lon="2"><time>+275760-01-01T00:00:00Z</time></trkpt>', /time/],
  ])('refuses %s with 422 and stores nothing', async (_name, point, message) => {
    const route = await db.prisma.route.create({ data: { ownerId: owner.id, name: 'absurd' } });
    const gpx = `<gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><trkseg>${point}</trkseg></trk></gpx>`;
    const response = await api.fetch(`/routes/${route.id}/track.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/gpx+xml' },
      body: gpx,
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { fields: Array<{ field: string; message: string }> } };
    expect(body.error.fields[0]).toMatchObject({ field: 'gpx', message: expect.stringMatching(message) });
    expect(await db.prisma.track.count({ where: { route: { id: route.id } } })).toBe(0);
  });
});

describe('absurd numbers', () => {
  it('answers a forged cursor holding a huge time with a ValidationError naming after, not a 500', async () => {
    const forged = Buffer.from('9999999999999999:1').toString('base64url');
    const result = await api.graphql<{ publicStream: null }>(`{ publicStream(after: "${forged}") { edges { cursor } } }`);
    expect(result.status).toBe(200);
    expect(result.data?.publicStream).toBeNull();
    expect(result.errors?.[0]?.extensions).toMatchObject({ type: 'ValidationError', issues: [{ path: 'after' }] });
  });
});

describe('GraphQL amplification', () => {
  let community: string[];

  beforeAll(async () => {
    // a dense community: 60 people, every one a friend of every other
    const people = await Promise.all(Array.from({ length: 60 }, (_, i) => createPerson(db.prisma, { username: `dense${i}` })));
    community = people.map((p) => p.username);
    const rows = people.flatMap((a) => people.filter((b) => b.id !== a.id).map((b) => ({ personId: a.id, friendId: b.id })));
    await db.prisma.friendship.createMany({ data: rows });
  });

  const post = (query: string) => api.graphql(query);
  const friendsOf = (levels: number, first?: number) => {
    const args = first ? `(first: ${first})` : '';
    let selection = 'username';
    for (let i = 0; i < levels; i++) selection = `friends${args} { edges { node { ${selection} } } }`;
    return `{ person(username: "${community[0]}") { ${selection} } }`;
  };

  it('pages friends: 20 by default, at most 50, with cursors', async () => {
    const first = await post(
      `{ person(username: "${community[0]}") { friends { edges { node { username } } pageInfo { hasNextPage endCursor } } } }`,
    );
    const page = (first.data as { person: { friends: { edges: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string } } } }).person
      .friends;
    expect(page.edges).toHaveLength(20);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const next = await post(
      `{ person(username: "${community[0]}") { friends(first: 50, after: "${page.pageInfo.endCursor}") { edges { node { username } } } } }`,
    );
    expect((next.data as { person: { friends: { edges: unknown[] } } }).person.friends.edges).toHaveLength(39);
    // more than the maximum is refused by name, not cut short in silence
    const over = await post(`{ person(username: "${community[0]}") { friends(first: 500) { totalCount } } }`);
    expect(over.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'first', message: 'must be at most 50' }],
    });
  });

  it('refuses friends of friends of friends at full pages: the cost counts every list by its size', async () => {
    const refused = await post(friendsOf(3, 50));
    expect(refused.errors?.[0]?.message).toMatch(/cost \d+ is over the limit of 50000/);
    // six levels: 8.6 MB in 2.8 s before; now refused before anything runs (by depth, too)
    const six = await post(friendsOf(6));
    expect(six.data).toBeUndefined();
    expect(six.errors?.[0]?.message).toMatch(/cost|depth/);
    // aliases do not multiply past the limit either
    const aliased = await post(
      `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: person(username: "${community[0]}") { friends(first: 50) { edges { node { friends(first: 50) { edges { node { username } } } } } } }`).join(' ')} }`,
    );
    expect(aliased.errors?.[0]?.message).toMatch(/cost/);
  });

  it('answers the worst allowed query quickly and without holding the event loop long', async () => {
    // the largest fan-out under the limit: three levels at 25 friends is 15,625 people (cost 48,176)
    const worst = friendsOf(3, 25);
    // the work is bounded by the cost limit and the answer's size; its time is the benchmark's
    const result = await api
      .fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: worst }) })
      .then((r) => r.text());
    expect(JSON.parse(result).errors).toBeUndefined();
    expect(result.length).toBeLessThan(2 * 1024 * 1024);
    expect(GRAPHQL_LIMITS.maxCost).toBe(50_000);
  });
});

describe('refused bodies over a real connection', () => {
  let server: Server;
  let port: number;
  let token: string;
  let routeId: number;

  beforeAll(async () => {
    const config = testConfig(db.config, { PORT: '0', HOST: '127.0.0.1' });
    server = await listen(api.app, config);
    port = (server.address() as AddressInfo).port;
    token = owner.token;
    routeId = (await db.prisma.route.create({ data: { ownerId: owner.id, name: 'socket' } })).id;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends `body` in 64 KiB writes, as a client uploading a file would, and reads the whole answer. */
  function send(agent: Agent, method: string, path: string, headers: Record<string, string>, body: Buffer, chunked = false) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method,
          path,
          agent,
          headers: { ...headers, ...(chunked ? {} : { 'content-length': String(body.length) }) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      let at = 0;
      const pump = () => {
        while (at < body.length) {
          const more = req.write(body.subarray(at, at + 65_536));
          at += 65_536;
          if (!more) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
  }

  it.each([
    ['a DOCTYPE', Buffer.from(`<!DOCTYPE gpx><gpx>${' '.repeat(3_000_000)}</gpx>`), false, 422],
    ['a non-GPX root', Buffer.from(`<foo>${' '.repeat(3_000_000)}</foo>`), true, 422],
    ['a chunked body over 20 MB', Buffer.alloc(21 * 1024 * 1024, 32), true, 413],
    ['a declared body over 20 MB', Buffer.alloc(21 * 1024 * 1024, 32), false, 413],
  ])(
    'answers %s with its status and JSON body, and the connection stays usable',
    async (_name, body, chunked, status) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/gpx+xml' };
        const refused = await send(agent, 'PUT', `/routes/${routeId}/track.json`, headers, body, chunked);
        expect(refused.status).toBe(status);
        expect(JSON.parse(refused.body)).toMatchObject({ error: { code: expect.any(String) } });
        const next = await send(agent, 'GET', '/healthz', {}, Buffer.alloc(0));
        expect(next.status).toBe(200);
      } finally {
        agent.destroy();
      }
    },
    30_000,
  );

  it('stops reading a chunked form at 64 KB and answers 413, with memory flat', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = process.memoryUsage().rss;
      const response = await send(
        agent,
        'POST',
        '/oauth/token',
        { 'content-type': 'application/x-www-form-urlencoded' },
        Buffer.alloc(8 * 1024 * 1024, 'a'),
        true,
      );
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'TOO_LARGE' } });
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    } finally {
      agent.destroy();
    }
  }, 30_000);
});
