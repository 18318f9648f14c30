// Operators' view: one JSON log line per request with no credential in it, and Prometheus metrics.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/server.ts';
import { createLogger } from '../../src/log.ts';
import { BASE } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let token: string;
const lines: string[] = [];

function logged(): Array<Record<string, unknown>> {
  return lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  db = await createTestDatabase('observability');
  const person = await createPerson(db.prisma, { username: 'watched' });
  token = await createToken(db.prisma, person.id);
  await createEntry(db.prisma, person.id, { message: 'hello' });
});
afterAll(() => db.destroy());

describe('the request log', () => {
  it('writes one line per request and never a token, code, secret or password', async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createApp(testConfig(db.config, { LOG_LEVEL: 'info' }), db, {
      logger: createLogger({ env: 'test', logLevel: 'info' }, sink),
    });
    const secrets = { clientSecret: 'cs_' + 'x'.repeat(30), code: 'code_' + 'y'.repeat(30), password: 'correct horse battery staple' };
    const send = (path: string, init?: RequestInit) => app.fetch(`${BASE}${path}`, init);
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

    expect((await send(`/people/me.json?oauth_token=${token}`)).status).toBe(200);
    expect((await send('/people/me.json', { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-42' } })).status).toBe(200);
    expect((await send('/entries.json', form({ oauth_token: token, message: 'posted' }))).status).toBe(201);
    await send(`/entries.json?access_token=${token}&callback=cb`);
    await send(
      '/oauth/token',
      form({
        grant_type: 'authorization_code',
        code: secrets.code,
        client_id: 'nobody',
        client_secret: secrets.clientSecret,
        redirect_uri: 'http://127.0.0.1/cb',
      }),
    );
    await send('/login', form({ username: 'watched', password: secrets.password }));
    await send(`/oauth/authorize?response_type=code&client_id=nobody&code=${secrets.code}`);
    await app.close();

    const text = lines.join('');
    for (const secret of [token, secrets.clientSecret, secrets.code, secrets.password]) expect(text).not.toContain(secret);
    const requests = logged().filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(7);
    const me = requests.find((line) => line.reqId === 'trace-42')!;
    expect(me).toMatchObject({ method: 'GET', route: '/people/me', path: '/people/me.json', status: 200 });
    expect(me.client).toBeTypeOf('number');
    expect(me.ms).toBeTypeOf('number');
    expect(requests.find((line) => line.method === 'POST' && line.route === '/entries')).toMatchObject({ status: 201 });
    // every line has its own request id
    expect(new Set(requests.map((line) => line.reqId)).size).toBe(7);
  });

  it('censors credential-named fields in any object it logs', () => {
    const chunks: string[] = [];
    const logger = createLogger(
      { env: 'test', logLevel: 'info' },
      new Writable({
        write: (c, _e, done) => {
          chunks.push(String(c));
          done();
        },
      }),
    );
    logger.info(
      { body: { oauth_token: 'T1', client_secret: 'S1', password: 'P1' }, headers: { authorization: 'Bearer T2' }, code: 'C1' },
      'something',
    );
    const text = chunks.join('');
    for (const secret of ['T1', 'S1', 'P1', 'T2', 'C1']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});

describe('/metrics', () => {
  it('exposes request, GraphQL, database, rate-limit and cache figures after traffic', async () => {
    const app = createApp(testConfig(db.config, { RATE_LIMIT_PER_HOUR: '12' }), db);
    const send = (path: string, init?: RequestInit) => app.fetch(`${BASE}${path}`, init);
    for (let i = 0; i < 3; i++) expect((await send('/entries.json')).status).toBe(200);
    await send('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ person(username: "watched") { displayName } }' }),
    });
    await send('/entries/999999.json');
    for (let i = 0; i < 10; i++) await send('/people/watched.json');
    const response = await send('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/milepost_http_requests_total\{method="GET",route="\/entries",status="200"\} 3\b/);
    expect(text).toMatch(/milepost_http_requests_total\{method="GET",route="\/entries\/:id",status="404"\} 1\b/);
    expect(text).toMatch(/milepost_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/entries",status="200"\} \d+/);
    expect(text).toMatch(/milepost_rate_limit_rejections_total [1-9]/);
    expect(text).toMatch(/milepost_db_queries_total [1-9]/);
    expect(text).toMatch(/milepost_db_query_duration_seconds_count [1-9]/);
    expect(text).toMatch(/milepost_response_cache_hits [1-9]/);
    expect(text).toMatch(/graphql_envelop_phase_execute_count\{[^}]*operationType="query"[^}]*\} [1-9]/);
    expect(text).toMatch(/milepost_process_resident_memory_bytes \d+/);
    await app.close();
  });

  it('asks for METRICS_TOKEN when one is configured', async () => {
    const app = createApp(testConfig(db.config, { METRICS_TOKEN: 'metrics-secret' }), db);
    expect((await app.fetch(`${BASE}/metrics`)).status).toBe(401);
    expect((await app.fetch(`${BASE}/metrics`, { headers: { authorization: 'Bearer metrics-secret' } })).status).toBe(200);
    await app.close();
  });

  it('is closed in production unless configured: its counts would time when people post, hidden entries included', async () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) };
    const closed = createApp(testConfig(db.config, production), db);
    const refused = await closed.fetch(`${BASE}/metrics`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/METRICS_TOKEN/);
    await closed.close();
    const opened = createApp(testConfig(db.config, { ...production, METRICS_PUBLIC: 'true' }), db);
    expect((await opened.fetch(`${BASE}/metrics`)).status).toBe(200);
    await opened.close();
  });
});
