// Rate limits (SPEC 8), maintenance, request bounds, TLS and GraphQL hardening.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let token: string;
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.log('[milepost] TEST_REDIS_URL is not set: the shared-Redis rate-limit test is skipped.');

beforeAll(async () => {
  db = await createTestDatabase('limits');
  token = await createToken(db.prisma, (await createPerson(db.prisma)).id);
});
afterAll(() => db.destroy());

const limited = (points: number, extra: Record<string, string> = {}) => testApp(db, { RATE_LIMIT_PER_HOUR: String(points), ...extra });

describe('the rate limit', () => {
  it('lets a GraphQL client read what is left of its budget', async () => {
    const api = limited(10);
    const budget = async () =>
      (
        await api.graphql<{ rateLimit: { limit: number; remaining: number; resetAt: string } }>(
          '{ rateLimit { limit remaining resetAt } }',
          {},
          token,
        )
      ).data!.rateLimit;
    const first = await budget();
    expect(first.limit).toBe(10);
    expect((await budget()).remaining).toBe(first.remaining - 1);
    expect(Date.parse(first.resetAt)).toBeGreaterThan(Date.now());
  });

  it('answers the 1501st request of an hour with 503 and a Retry-After within the window', async () => {
    const api = testApp(db, { RATE_LIMIT_PER_HOUR: '1500' });
    const started = Date.now();
    for (let i = 1; i <= 1500; i++) {
      const response = await api.fetch('/');
      if (response.status !== 200) throw new Error(`request ${i} answered ${response.status}`);
      if (i === 1500) expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      await response.arrayBuffer();
    }
    const refused = await api.fetch('/people/nobody.json');
    expect(refused.status).toBe(503);
    const secondsLeft = 3600 - (Date.now() - started) / 1000;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(secondsLeft));
    expect(await refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringContaining('1500 requests') } });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1500');
    // GraphQL and OAuth count against the same budget; GraphQL answers as GraphQL clients read it
    const graphql = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ me { username } }"}',
    });
    expect(graphql.status).toBe(429);
    expect(await graphql.json()).toEqual({
      errors: [
        {
          message: expect.stringContaining('1500 requests'),
          extensions: { code: 'RATE_LIMITED', retryAfter: Number(graphql.headers.get('retry-after')) },
        },
      ],
    });
    expect((await api.fetch('/oauth/token', { method: 'POST' })).status).toBe(503);
    // probes are never limited
    expect((await api.fetch('/healthz')).status).toBe(200);
  }, 60_000);

  it('counts down exactly under 50 concurrent requests', async () => {
    const api = limited(100);
    const responses = await Promise.all(Array.from({ length: 50 }, () => api.fetch('/')));
    const remaining = responses.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => 50 + i));
    const reset = Number(responses[0]!.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 3601);
  });

  it('counts per token when one is sent, else per address; X-Forwarded-For only behind a trusted proxy', async () => {
    const api = limited(3);
    for (let i = 0; i < 3; i++) await api.fetch('/');
    expect((await api.fetch('/')).status).toBe(503);
    expect((await api.fetch('/', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // an untrusted X-Forwarded-For changes nothing: still the same address
    expect((await api.fetch('/', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(503);
    const proxied = limited(1, { TRUST_PROXY: '1' });
    expect((await proxied.fetch('/', { headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(200);
    expect((await proxied.fetch('/', { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.1' } })).status).toBe(503);
    expect((await proxied.fetch('/', { headers: { 'x-forwarded-for': '203.0.113.2' } })).status).toBe(200);
  });

  it('maintenance answers 503 without Retry-After, so clients can tell it from the limit', async () => {
    const api = testApp(db, { MAINTENANCE: '1' });
    const response = await api.fetch('/entries.json');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await response.json()).toMatchObject({ error: { code: 'MAINTENANCE' } });
    expect((await api.fetch('/healthz')).status).toBe(200);
  });
});

const bin = fileURLToPath(new URL('../../bin/milepost.js', import.meta.url));

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--no-seed'], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.config.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (https?:\/\/[^/\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1]!.replace('localhost', '127.0.0.1') });
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

describe.skipIf(!redisUrl)('with Redis', () => {
  it('two server processes enforce one limit together', async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}`, RATE_LIMIT_PER_HOUR: '10' };
    const servers = await Promise.all([startServer(env), startServer(env)]);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await fetch(`${servers[i % 2]!.url}/`)).status);
      expect(statuses).toEqual([...Array(10).fill(200), 503, 503]);
    } finally {
      for (const { child } of servers) child.kill('SIGTERM');
    }
  }, 60_000);
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!existsSync('/usr/bin/redis-server'))('when Redis goes away', () => {
  it('keeps limiting from memory, with no 500', async () => {
    const port = await freePort();
    const redis = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const api = limited(6, { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: `kill-${randomBytes(4).toString('hex')}` });
    try {
      for (let i = 0; i < 2; i++) expect((await api.fetch('/')).status).toBe(200);
      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.on('exit', resolve));
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await api.fetch('/')).status);
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
      expect(statuses).toContain(503);
    } finally {
      redis.kill('SIGKILL');
      await api.app.close();
    }
  }, 30_000);
});

describe('request bounds and TLS', () => {
  const api = () => testApp(db);

  it('refuses bodies over their type’s limit (413) and overlong URLs (414)', async () => {
    const big = await api().fetch('/entries.json', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(65 * 1024) },
      body: 'x'.repeat(65 * 1024),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'TOO_LARGE' } });
    const json = await api().fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      body: `{"query":"${' '.repeat(2 * 1024 * 1024 - 12)}"}`,
    });
    expect(json.status).toBe(413);
    expect((await api().fetch(`/entries.json?x=${'a'.repeat(9000)}`)).status).toBe(414);
  });

  it('REQUIRE_TLS refuses tokens over plain HTTP, and believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const strict = testApp(db, { REQUIRE_TLS: '1' });
    const plain = await strict.fetch('/people/me.json', { headers: { authorization: `Bearer ${token}` } });
    expect(plain.status).toBe(403);
    expect(await plain.json()).toMatchObject({ error: { code: 'TLS_REQUIRED' } });
    expect(
      (await strict.fetch('/people/me.json', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' } })).status,
    ).toBe(403);
    expect((await strict.fetch('/entries.json')).status).toBe(200);
    const proxied = testApp(db, { REQUIRE_TLS: '1', TRUST_PROXY: '1' });
    expect(
      (await proxied.fetch('/people/me.json', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' } })).status,
    ).toBe(200);
    expect(
      (await proxied.fetch('/people/me.json', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'http' } })).status,
    ).toBe(403);
  });

  it.skipIf(!existsSync('/usr/bin/openssl'))(
    'serves HTTPS directly with TLS_CERT and TLS_KEY',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-tls-'));
      execFileSync(
        '/usr/bin/openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-subj',
          '/CN=localhost',
          '-days',
          '1',
          '-keyout',
          `${dir}/key.pem`,
          '-out',
          `${dir}/cert.pem`,
        ],
        { stdio: 'ignore' },
      );
      const { child, url } = await startServer({ TLS_CERT: `${dir}/cert.pem`, TLS_KEY: `${dir}/key.pem` });
      try {
        expect(url).toMatch(/^https:/);
        const body = await new Promise<string>((resolve, reject) => {
          https
            .get(`${url}/healthz`, { rejectUnauthorized: false }, (res) => {
              let text = '';
              res.on('data', (chunk) => (text += chunk));
              res.on('end', () => resolve(text));
            })
            .on('error', reject);
        });
        expect(JSON.parse(body)).toEqual({ status: 'ok' });
      } finally {
        child.kill('SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );

  it('OAuth pages carry a CSP, frame-ancestors none and no referrer', async () => {
    const page = await api().fetch('/login');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('throttles failed token requests per app and address', async () => {
    const app = testApp(db);
    const attempt = () =>
      app.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=guess&client_id=some-app&client_secret=guess',
      });
    for (let i = 0; i < 20; i++) expect((await attempt()).status).toBeLessThan(429);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('multipart uploads', () => {
  const boundary = 'milepost-test-boundary';
  const part = (name: string, value: string, file?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: application/gpx+xml` : ''}\r\n\r\n${value}\r\n`;
  const operations = (map: object = { 0: ['variables.gpx'] }) =>
    part(
      'operations',
      JSON.stringify({
        query: 'mutation ($gpx: GpxDocument!) { setEntryTrack(input: { entryId: 1, gpx: $gpx }) { error { __typename } } }',
        variables: { gpx: null },
      }),
    ) + part('map', JSON.stringify(map));
  /** A body sent in pieces, as a client streams a file, without a Content-Length; `between` runs after the first piece. */
  const streamed = (pieces: Array<string | Uint8Array>, between?: () => Promise<void>) => {
    const encoder = new TextEncoder();
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1 && between) await between();
        const piece = pieces[sent++];
        if (piece === undefined) controller.close();
        else controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      },
    });
  };
  const post = (body: ReadableStream<Uint8Array> | string, app = testApp(db)) =>
    app.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
      body,
      duplex: 'half',
    } as RequestInit);
  let spool: string;
  let tmpdir: string | undefined;
  /** The temporary files of uploads (a test app's media directory is made there too). */
  const uploads = () => readdirSync(spool).filter((name) => name.startsWith('milepost-upload-'));
  /** The spooled files are removed once the answer is out: waited for as work done (up to 2 s), not a fixed time a loaded machine may miss. */
  const removedUploads = async () => {
    for (let i = 0; i < 200 && uploads().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(uploads()).toEqual([]);
  };
  beforeAll(() => {
    // uploads are written to the system's temporary directory: this file's own, to count them
    tmpdir = process.env.TMPDIR;
    spool = mkdtempSync(path.join(os.tmpdir(), 'milepost-spool-'));
    process.env.TMPDIR = spool;
  });
  afterAll(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    rmSync(spool, { recursive: true, force: true });
  });

  it('writes a file to disk as it arrives, not into memory, and removes it once answered', async () => {
    let whileSending: string[] = [];
    const gpx = '<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>';
    const response = await post(
      streamed(
        [`${operations()}${part('0', gpx, 'run.gpx').slice(0, -60)}`, `${part('0', gpx, 'run.gpx').slice(-60)}--${boundary}--\r\n`],
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          whileSending = uploads();
        },
      ),
    );
    expect(response.status).toBe(200);
    // no entry 1 of this viewer's: the operation ran, with the file
    expect(await response.json()).toMatchObject({ data: { setEntryTrack: { error: { __typename: 'NotFoundError' } } } });
    expect(whileSending).toHaveLength(1);
    await removedUploads();
  });

  it('removes the files of a REST form posted to a path the server tidies first (an old client’s double slash)', async () => {
    const form = new FormData();
    form.append('message', 'with a photo');
    form.append('photo', new Blob([new Uint8Array(2048).fill(7)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await testApp(db).fetch('//entries.json', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    // answered (an entry made; its file spooled to disk on the way in)
    expect(response.status).toBe(201);
    await removedUploads();
  });

  it('refuses a body over the limit that declares no length with 413, keeping nothing of it', async () => {
    const megabyte = new Uint8Array(1024 * 1024).fill(0x20);
    const response = await post(
      streamed([`${operations()}${part('0', '', 'big.gpx').slice(0, -2)}`, ...Array(22).fill(megabyte), `\r\n--${boundary}--\r\n`]),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      errors: [{ message: expect.stringMatching(/larger than \d+ bytes/), extensions: { code: 'TOO_LARGE' } }],
    });
    await removedUploads();
  });

  it('answers a failure to write the temporary file as a fault of the server, and goes on serving', async () => {
    const app = testApp(db);
    process.env.TMPDIR = path.join(spool, 'missing');
    try {
      const response = await post(`${operations()}${part('0', '<gpx/>', 'a.gpx')}--${boundary}--\r\n`, app);
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ errors: [{ message: 'Unexpected error.' }] });
    } finally {
      process.env.TMPDIR = spool;
    }
    expect((await app.fetch('/entries.json')).status).toBe(200);
  });

  it('reads the multipart forms of the REST paths the same way, files and all', async () => {
    const form = new FormData();
    form.set('message', 'Sunrise');
    form.set('media[type]', 'image');
    form.set('media[data]', new Blob(['not a photo'], { type: 'image/jpeg' }), 'sunrise.jpg');
    const response = await testApp(db).fetch('/entries.json', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { fields: [{ field: 'media[data]' }] } });
    await removedUploads();
  });

  it('answers a request that does not follow the multipart request spec with 400 saying why', async () => {
    const cases: Array<[string, RegExp]> = [
      [part('map', '{}'), /"operations" is missing/],
      [part('operations', '{nope'), /"operations" is not valid JSON/],
      [operations({ 1: ['variables.gpx'] }), /names the file "1", which the body does not hold/],
      [`${operations({ 0: ['__proto__.polluted'] })}${part('0', '<gpx/>', 'a.gpx')}`, /path "__proto__.polluted" is not allowed/],
      ['no multipart here', /cannot be read/],
    ];
    for (const [body, message] of cases) {
      const response = await post(`${body}--${boundary}--\r\n`);
      expect(response.status, String(message)).toBe(400);
      expect(await response.json()).toMatchObject({
        errors: [{ message: expect.stringMatching(message), extensions: { code: 'BAD_REQUEST' } }],
      });
    }
    await removedUploads();
  });
});

describe('GraphQL hardening', () => {
  const post = (api: ReturnType<typeof testApp>, query: string) =>
    api
      .fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })
      .then((r) => r.json() as Promise<{ data?: unknown; errors?: Array<{ message: string }> }>);

  it('passes the graphql-http server audits with introspection on', async () => {
    const api = testApp(db);
    const audits = serverAudits({
      url: 'http://milepost.test/graphql',
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => api.app.fetch(String(input), init),
    });
    const results = await Promise.all(audits.map((audit) => audit.fn()));
    // MUST-level audits fail with `error`; SHOULD-level ones only warn
    const failed = results.filter((r) => r.status === 'error').map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);
    expect(failed).toEqual([]);
    expect(results.filter((r) => r.status === 'ok').length).toBeGreaterThan(20);
  });

  it.each([
    ['GET variables', '/graphql?query=%7B__typename%7D&variables=%7B', {}, 'variables'],
    ['GET extensions', '/graphql?query=%7B__typename%7D&extensions=%7B', {}, 'extensions'],
    [
      'a form POST',
      '/graphql',
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=%7B__typename%7D&variables=%7B' },
      'variables',
    ],
  ] as const)('answers %s that are not JSON with 400 naming the field, not 500', async (_what, path, init, field) => {
    const api = testApp(db);
    const response = await api.fetch(path, {
      ...init,
      headers: { ...('headers' in init ? init.headers : {}), 'x-graphql-yoga-csrf': '1' },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ extensions: { code: string; field: string } }> };
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'BAD_REQUEST', field });
  });

  it('refuses deep queries, costly queries and alias bombs', async () => {
    const api = testApp(db);
    const deep = `{ publicStream { edges { node { author { friends(first: 1) { edges { node { friends(first: 1) { edges { node { friends(first: 1) { edges { node { friends(first: 1) { edges { node { username } } } } } } } } } } } } } } } } }`;
    expect((await post(api, deep)).errors?.[0]?.message).toMatch(/depth/i);
    const aliases = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { username }`).join(' ')} }`;
    expect((await post(api, aliases)).errors?.[0]?.message).toMatch(/alias/i);
    const costly = `{ ${Array.from({ length: 12 }, (_, i) => `s${i}: publicStream(first: 100) { ... on EntryConnection { edges { node { comments { edges { node { author { friends { edges { node { username } } } } } } } } } } }`).join(' ')} }`;
    expect((await post(api, costly)).errors?.map((e) => e.message).join(' ')).toMatch(/cost|alias/i);
  });

  it('costs the same document by the variables of each run: a cheap run does not open the way for a costly one', async () => {
    const api = testApp(db);
    const query =
      'query ($n: Int!, $more: Boolean!) { publicStream(first: $n) { ... on EntryConnection { edges { node { id: databaseId comments @include(if: $more) { edges { node { author { friends(first: 50) { edges { node { username displayName } } } } } } } } } } } }';
    const send = (variables: Record<string, unknown>) =>
      api
        .fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })
        .then((r) => r.json() as Promise<{ data?: unknown; errors?: Array<{ message: string }> }>);
    const refused = (answer: { errors?: Array<{ message: string }> }) => /cost/i.test(answer.errors?.map((e) => e.message).join(' ') ?? '');
    for (let round = 0; round < 2; round++) {
      expect(refused(await send({ n: 1, more: false }))).toBe(false);
      expect(refused(await send({ n: 100, more: true }))).toBe(true);
      expect(refused(await send({ n: 1, more: true }))).toBe(false);
      expect(refused(await send({ n: 100, more: false }))).toBe(false);
    }
  });

  it('suggests no field names, and can turn introspection off', async () => {
    const api = testApp(db);
    expect(JSON.stringify(await post(api, '{ publicStrem { __typename } }'))).not.toMatch(/Did you mean/);
    const closed = testApp(db, { INTROSPECTION: 'false' });
    expect((await post(closed, '{ __schema { types { name } } }')).errors?.[0]?.message).toMatch(/introspection/i);
    expect((await post(api, '{ __schema { queryType { name } } }')).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});
