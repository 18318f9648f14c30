// Crash safety: a server killed with SIGKILL in the middle of a write load loses no write it
// acknowledged, and leaves nothing half-written. Looped, because a crash lands somewhere new each time.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

const LOOPS = 20;
const bin = fileURLToPath(new URL('../../bin/milepost.js', import.meta.url));
let db: TestDatabase;
let token = '';
let authorId = 0;

beforeAll(async () => {
  db = await createTestDatabase('crash');
  const person = await createPerson(db.prisma, { username: 'crasher' });
  authorId = person.id;
  token = await createToken(db.prisma, person.id);
});
afterAll(() => db.destroy());

function start(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--no-seed'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.config.url,
      RATE_LIMIT_PER_HOUR: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^/\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1]!.replace('localhost', '127.0.0.1') });
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code, signal) => (signal ? undefined : reject(new Error(`server exited ${code}: ${out}`))));
  });
}

interface Acknowledged {
  entries: Map<number, string>;
  comments: Map<number, number>;
  likes: Set<number>;
  /** Comments sent with an Idempotency-Key whose answer never came (the kill cut it off): key → entry. */
  unanswered: Map<string, number>;
  retried: number;
  committedUnanswered: number;
}

/** Writers that keep writing until the server dies; only answers that arrived count as acknowledged. */
async function load(url: string, acked: Acknowledged, stop: () => boolean, writer: number) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' };
  for (let i = 0; !stop(); i++) {
    try {
      const message = `w${writer}-${i}-${Date.now()}`;
      const created = await fetch(`${url}/entries.json`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({
          message,
          'workout[activity_type]': 'running',
          'workout[distance][value]': '5',
          'workout[duration]': '1500',
        }),
      });
      if (created.status !== 201) continue;
      const entry = (await created.json()) as { id: number };
      acked.entries.set(entry.id, message);
      const key = `${message}-comment`;
      acked.unanswered.set(key, entry.id);
      const comment = await keyedComment(url, entry.id, key);
      acked.unanswered.delete(key);
      if (comment.status === 201) acked.comments.set(Number(comment.headers.get('location')!.split('/comments/')[1]), entry.id);
      const like = await fetch(`${url}/entries/${entry.id}/likes.json`, { method: 'POST', headers });
      if (like.status === 201) acked.likes.add(entry.id);
    } catch {
      return; // the server is gone
    }
  }
}

const keyedComment = (url: string, entryId: number, key: string) =>
  fetch(`${url}/entries/${entryId}/comments.json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
    body: new URLSearchParams({ body: `on ${entryId}` }),
  });

/**
 * The client's side of a cut-off keyed create: the same request again, once the minute in which the first
 * attempt may still be running has passed (moved back here, not waited for). It must make one comment in
 * all: the first attempt's, if it committed before the kill, or its own.
 */
async function retryUnanswered(url: string, acked: Acknowledged) {
  // committed before the kill, with no answer stored: what used to become a second comment
  acked.committedUnanswered += await db.prisma.idempotencyKey.count({
    where: { key: { in: [...acked.unanswered.keys()] }, response: null, phases: { not: null } },
  });
  await db.prisma.idempotencyKey.updateMany({
    where: { key: { in: [...acked.unanswered.keys()] } },
    data: { lockedUntil: new Date(Date.now() - 1000) },
  });
  for (const [key, entryId] of acked.unanswered) {
    const retried = await keyedComment(url, entryId, key);
    expect(retried.status).toBe(201);
    expect(await db.prisma.comment.count({ where: { entryId } })).toBe(1);
    acked.comments.set(Number(retried.headers.get('location')!.split('/comments/')[1]), entryId);
    acked.retried++;
  }
  acked.unanswered.clear();
}

async function verify(acked: Acknowledged) {
  const entries = await db.prisma.entry.findMany({
    where: { id: { in: [...acked.entries.keys()] } },
    select: { id: true, message: true, kind: true, workout: { select: { activityType: true, duration: true } } },
  });
  expect(entries.length).toBe(acked.entries.size);
  for (const entry of entries) {
    expect(entry.message).toBe(acked.entries.get(entry.id));
    expect(entry.workout).toEqual({ activityType: 'running', duration: 1500 });
  }
  expect(await db.prisma.comment.count({ where: { id: { in: [...acked.comments.keys()] } } })).toBe(acked.comments.size);
  expect(await db.prisma.like.count({ where: { entryId: { in: [...acked.likes] }, personId: authorId } })).toBe(acked.likes.size);
  // nothing half-written anywhere: every workout entry has its workout (comments and likes cannot
  // outlive their entry: foreign keys)
  expect(await db.prisma.entry.count({ where: { kind: 'workout', workout: null } })).toBe(0);
}

describe('a server killed with SIGKILL mid-load', () => {
  it(`keeps every acknowledged write, ${LOOPS} times over`, async () => {
    const acked: Acknowledged = {
      entries: new Map(),
      comments: new Map(),
      likes: new Set(),
      unanswered: new Map(),
      retried: 0,
      committedUnanswered: 0,
    };
    let server = await start();
    const started = Date.now();
    for (let loop = 0; loop < LOOPS; loop++) {
      let dead = false;
      const before = acked.entries.size;
      const writers = Promise.all([0, 1, 2].map((w) => load(server.url, acked, () => dead, w)));
      // the kill comes once this round has had a write acknowledged, at a random moment after: a fixed
      // delay meant a busy machine (CI runs many test files at once) could kill before any write landed
      for (const deadline = Date.now() + 30_000; acked.entries.size === before && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 250));
      const exited = new Promise((resolve) => server.child.on('exit', resolve));
      server.child.kill('SIGKILL');
      await exited;
      dead = true;
      await writers;
      server = await start();
      await verify(acked);
      await retryUnanswered(server.url, acked);
    }
    server.child.kill('SIGTERM');
    expect(acked.entries.size).toBeGreaterThan(LOOPS);
    console.log(
      `crash test: ${LOOPS} kills, ${acked.entries.size} entries, ${acked.comments.size} comments, ${acked.likes.size} likes acknowledged and found, ${acked.retried} cut-off keyed comments retried (${acked.committedUnanswered} of them committed before the kill), ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 240_000);
});
