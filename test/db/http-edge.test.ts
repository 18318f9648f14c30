// The HTTP edge as a client on a real socket sees it: status lines, compression, the graceful stop,
// and how a client that hangs up is logged.

import { Agent, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp, listen } from '../../src/app/server.ts';
import { createLogger } from '../../src/log.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createEntries, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let app: App;
let server: Server;
let port: number;
let token: string;
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  db = await createTestDatabase('edge');
  const person = await createPerson(db.prisma, { username: 'edgy' });
  await createEntries(db.prisma, person.id, 25);
  token = await createToken(db.prisma, person.id);
  const config = testConfig(db.config, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug' });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = createApp(config, db, { logger: createLogger(config, sink) });
  server = await listen(app, config);
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  await db.destroy();
});

interface Answer {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, statusMessage: res.statusMessage!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('status lines', () => {
  it.each([
    ['/entries.json', 200, 'OK'],
    ['/no/such/path', 404, 'Not Found'],
    ['/graphql', 405, 'Method Not Allowed'],
  ])('%s answers %d %s', async (path, status, phrase) => {
    // twice: the first answer is computed, the second may come from the cache's fast path
    for (let i = 0; i < 2; i++) {
      const answer = await get(path, path === '/graphql' ? { 'x-graphql-yoga-csrf': '1', accept: 'application/json' } : {});
      if (path !== '/graphql') expect(answer.status).toBe(status);
      if (answer.status === status) expect(answer.statusMessage).toBe(phrase);
      else expect(answer.statusMessage.length).toBeGreaterThan(0);
    }
  });
});

/** Sends `raw` on a fresh socket and answers what came back, whole. */
function rawExchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('the Host header', () => {
  it.each(['a b', 'x:99999', '[::1', 'a<b', 'x/metrics?', 'x:0', 'evil.example:80:80'])(
    'answers 400 naming the Host for %j, on every path, with no stack trace, and logs it',
    async (host) => {
      for (const path of ['/healthz', '/entries.json', '/graphql?query=%7B__typename%7D']) {
        const answer = await rawExchange(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; field: string } };
        expect(body.error).toMatchObject({ code: 'BAD_HOST', field: 'Host' });
        expect(answer).not.toMatch(/at .*\.ts|node_modules|milepost_http_requests_total/);
      }
      expect(logLines.some((line) => line.msg === 'request with an invalid Host header')).toBe(true);
    },
  );

  it('serves good hosts: names, ports, IPv4 and IPv6 literals', async () => {
    for (const host of ['milepost.example', 'localhost:3000', '127.0.0.1:8080', '[::1]:3000', 'my_host.local']) {
      const answer = await rawExchange(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    }
  });
});

describe('a client that never finishes its headers', () => {
  it('is cut off at the headers timeout, not up to 30 s later (node checks it every second, not every 30)', async () => {
    const config = testConfig(db.config, { PORT: '0', HOST: '127.0.0.1' });
    const slowApp = createApp(config, db);
    const slow = await listen(slowApp, config, { headersTimeoutMs: 1_000 });
    try {
      const slowPort = (slow.address() as AddressInfo).port;
      const started = Date.now();
      const closedAfter = await new Promise<number>((resolve) => {
        const socket = connect({ port: slowPort, host: '127.0.0.1' }, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '));
        socket.on('data', () => {});
        socket.on('error', () => {});
        socket.on('close', () => resolve(Date.now() - started));
      });
      // the default checking interval (30 s) would have let it hang on for up to 30 s more
      expect(closedAfter).toBeLessThan(10_000);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
      await slowApp.close();
    }
  }, 20_000);
});

describe('bodies nobody reads', () => {
  it.each([
    ['POST', '/nonexistent'],
    ['POST', '/healthz'],
    ['POST', '/routes/1/track.json'],
  ])('%s %s: answered, then the connection is closed instead of reading the rest of an endless body', async (method, path) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const result = await new Promise<{ sent: number; answer: string }>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      let sent = 0;
      let answer = '';
      let open = true;
      socket.on('data', (data: Buffer) => {
        answer += data.toString('latin1');
      });
      socket.on('close', () => {
        open = false;
        resolve({ sent, answer });
      });
      socket.on('error', () => {});
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n`);
      const pump = () => {
        // up to 256 MB: a server that reads on would take it all
        while (open && sent < 256 * 1024 * 1024) {
          sent += framed.length;
          if (!socket.write(framed)) return void socket.once('drain', pump);
        }
        socket.end();
      };
      pump();
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 (404|405|401|413) /);
    expect(result.answer.toLowerCase()).toContain('connection: close');
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('a body over the limit that is still arriving when its answer goes', () => {
  it.each([
    ['/login', 'application/x-www-form-urlencoded'],
    ['/oauth/token', 'application/x-www-form-urlencoded'],
    ['/login', 'multipart/form-data; boundary=edge'],
    ['/oauth/token', 'multipart/form-data; boundary=edge'],
  ])('%s (%s): the client sends the rest, reads its 413, and then the connection closes', async (path, type) => {
    const size = 200 * 1024;
    const half = Buffer.alloc(size / 2, 0x61);
    const result = await new Promise<{ answer: string; closedEarly: boolean; failed: string | null }>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      let answer = '';
      let failed: string | null = null;
      let closedEarly = false;
      socket.on('error', (error: NodeJS.ErrnoException) => (failed ??= error.code ?? error.message));
      socket.on('close', () => setImmediate(() => resolve({ answer, closedEarly, failed })));
      socket.on('data', (data: Buffer) => {
        const first = answer === '';
        answer += data.toString('latin1');
        // the answer came while half the body is still to send, as it does for a browser on a slow link;
        // closed under it (the server's FIN, then a reset for what follows), the client cannot send the rest
        if (first)
          setTimeout(() => {
            closedEarly = socket.readableEnded || socket.destroyed;
            if (!socket.destroyed) socket.end(half, () => undefined);
          }, 100);
      });
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${size}\r\n\r\n`);
      // a multipart form's one field, as big as the whole body
      const head = type.startsWith('multipart') ? '--edge\r\nContent-Disposition: form-data; name="x"\r\n\r\n' : 'x=';
      socket.write(Buffer.concat([Buffer.from(head), half.subarray(head.length)]));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result).toMatchObject({ closedEarly: false, failed: null });
  });
});

describe('compression', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('answers %s when asked, the same JSON, with Vary, on the computed and the cached path', async (encoding, decompress) => {
    const plain = await get('/entries.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    for (let i = 0; i < 2; i++) {
      const packed = await get('/entries.json', { 'accept-encoding': `${encoding}, identity;q=0.5` });
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toMatch(/Accept-Encoding/);
      expect(packed.body.byteLength).toBeLessThan(plain.body.byteLength / 3);
      expect(JSON.parse(decompress(packed.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
      // the tag names the encoding, and still answers 304 to a client holding it
      expect(packed.headers.etag).toMatch(new RegExp(`-${encoding}"$`));
      expect((await get('/entries.json', { 'accept-encoding': encoding, 'if-none-match': packed.headers.etag! })).status).toBe(304);
    }
  });

  it('compresses a computed answer in one piece and sends it with its length', async () => {
    const plain = await get('/entries.json', { authorization: `Bearer ${token}` });
    const packed = await get('/entries.json', { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' });
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers['transfer-encoding']).toBeUndefined();
    expect(Number(packed.headers['content-length'])).toBe(packed.body.byteLength);
    expect(JSON.parse(gunzipSync(packed.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('leaves small answers and unwanted encodings alone', async () => {
    const small = await get('/healthz', { 'accept-encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await get('/entries.json', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('compresses GraphQL answers too', async () => {
    const body = JSON.stringify({
      query:
        '{ publicStream { ... on EntryConnection { edges { node { id: databaseId message author { username displayName url photoUrl } } } } } }',
    });
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          port,
          host: '127.0.0.1',
          path: '/graphql',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode!, statusMessage: res.statusMessage!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(answer.body).toString('utf8')).data.publicStream.edges).toHaveLength(20);
  });
});

describe('client disconnects', () => {
  it('are logged at debug level as aborted requests and counted, not as errors', async () => {
    const before = logLines.length;
    await new Promise<void>((resolve) => {
      // a body promised but never finished: the server is reading it when the client hangs up
      const req = request({
        port,
        host: '127.0.0.1',
        path: '/oauth/token',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('grant_type=');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = logLines.slice(before);
    expect(lines.filter((l) => l.level === 50)).toEqual([]);
    expect(lines.some((l) => l.msg === 'aborted request' && l.level === 20)).toBe(true);
    expect(await app.metrics.render()).toMatch(/milepost_http_requests_aborted_total [1-9]/);
  });
});

describe('a graceful stop', () => {
  it('answers with Connection: close while draining, so keep-alive clients reconnect instead of failing', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await get('/healthz', {}, agent)).headers.connection).toBe('keep-alive');
      app.drain();
      const draining = await get('/healthz', {}, agent);
      expect(draining.status).toBe(200);
      expect(draining.headers.connection).toBe('close');
      // the next request opens a new connection and is answered
      expect((await get('/healthz', {}, agent)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
