// Data integrity: writes racing on the same rows end in a correct state on both databases, and on
// SQLite an online backup taken during writes restores to a consistent copy.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, provider, type TestDatabase } from '../support/database.ts';
import { createEntry, createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
const tokens: string[] = [];
const ids: number[] = [];

beforeAll(async () => {
  db = await createTestDatabase('integrity');
  api = testApp(db);
  for (let i = 0; i < 8; i++) {
    const person = await createPerson(db.prisma, { username: `racer${i}` });
    ids.push(person.id);
    tokens.push(await createToken(db.prisma, person.id));
  }
});
afterAll(() => db.destroy());

const gql = (token: string, query: string) => api.graphql(query, {}, token);

describe('retries with an Idempotency-Key', () => {
  const comment = (entryId: number, key: string | null, body: string, token = tokens[5]!) =>
    api.fetch(`/entries/${entryId}/comments.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ body }),
    });

  it('a create sent twice with one key is stored once, and both answers are the first one', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    const first = await comment(entry.id, 'retry-1', 'sent twice');
    const again = await comment(entry.id, 'retry-1', 'sent twice');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
    // without a key, a retry is a second comment, as before
    await comment(entry.id, null, 'sent twice');
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(2);
  });

  it('sent four times at once: stored once; the others answer the same or 409 with Retry-After', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    const answers = await Promise.all([1, 2, 3, 4].map(() => comment(entry.id, 'racing-key', 'at once')));
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.headers.get('retry-after')).toBe('1');
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
  });

  it('refuses the same key with another request (422), and keeps keys per person', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    expect((await comment(entry.id, 'reused', 'one')).status).toBe(201);
    const reused = await comment(entry.id, 'reused', 'another');
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect((await comment(entry.id, 'reused', 'another', tokens[6]!)).status).toBe(201);
  });

  it('refuses the same key with another file of the same size (422): the file is part of the request', async () => {
    const gpx = (lat: string) =>
      `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>` +
      `<trkpt lat="${lat}" lon="-122.4"><time>2024-05-01T10:00:00Z</time></trkpt>` +
      `<trkpt lat="37.8" lon="-122.4"><time>2024-05-01T10:10:00Z</time></trkpt></trkseg></trk></gpx>`;
    const upload = async (text: string) => {
      const form = new FormData();
      form.set(
        'operations',
        JSON.stringify({
          query: 'mutation ($file: ActivityFile!) { importActivity(input: { file: $file }) { entry { databaseId } } }',
          variables: { file: null },
        }),
      );
      form.set('map', JSON.stringify({ 0: ['variables.file'] }));
      form.set('0', new Blob([text]), 'ride.gpx');
      const response = await api.fetch('/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[4]}`, 'idempotency-key': 'same-size' },
        body: form,
      });
      return { status: response.status, body: JSON.stringify(await response.json()) };
    };
    expect(gpx('37.7')).toHaveLength(gpx('37.6').length);
    expect((await upload(gpx('37.7'))).body).toMatch(/"databaseId":\d+/);
    expect((await upload(gpx('37.7'))).body).toMatch(/"databaseId":\d+/);
    const other = await upload(gpx('37.6'));
    expect(other.status).toBe(422);
    expect(other.body).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('a token of the same person with fewer scopes is not handed the answer its key once got', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    expect((await comment(entry.id, 'scoped', 'only for writers')).status).toBe(201);
    const readOnly = await createToken(db.prisma, ids[5]!, { scope: 'read' });
    const replayed = await comment(entry.id, 'scoped', 'only for writers', readOnly);
    expect(replayed.status).toBeGreaterThanOrEqual(400);
    expect(await replayed.text()).not.toContain('only for writers');
  });

  it('forgets a key after 24 hours: the same key then makes a new write', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    expect((await comment(entry.id, 'day-old', 'yesterday')).status).toBe(201);
    await db.prisma.idempotencyKey.updateMany({ where: { key: 'day-old' }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    expect((await comment(entry.id, 'day-old', 'today')).status).toBe(201);
    expect((await db.prisma.comment.findMany({ where: { entryId: entry.id }, orderBy: { id: 'asc' } })).map((c) => c.body)).toEqual([
      'yesterday',
      'today',
    ]);
  });

  /** Makes the database refuse to store any answer, as an outage right after the write's commit would. */
  async function answersCannotBeStored(during: () => Promise<void>) {
    if (provider === 'sqlite') {
      await db.prisma.$executeRawUnsafe(
        `CREATE TRIGGER "outage" BEFORE UPDATE OF "response" ON "IdempotencyKey" WHEN NEW."response" IS NOT NULL BEGIN SELECT RAISE(ABORT, 'database went away'); END`,
      );
    } else {
      await db.prisma.$executeRawUnsafe(
        `CREATE FUNCTION outage() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'database went away'; END $$ LANGUAGE plpgsql`,
      );
      await db.prisma.$executeRawUnsafe(
        `CREATE TRIGGER outage BEFORE UPDATE OF "response" ON "IdempotencyKey" FOR EACH ROW WHEN (NEW."response" IS NOT NULL) EXECUTE FUNCTION outage()`,
      );
    }
    try {
      await during();
    } finally {
      await db.prisma.$executeRawUnsafe(provider === 'sqlite' ? 'DROP TRIGGER "outage"' : 'DROP TRIGGER outage ON "IdempotencyKey"');
      if (provider === 'postgresql') await db.prisma.$executeRawUnsafe('DROP FUNCTION outage()');
    }
  }

  it('a write committed whose answer was never stored (a crash, an outage) is replayed on retry, not made twice', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    let first: unknown;
    await answersCannotBeStored(async () => {
      const answer = await comment(entry.id, 'cut-off', 'committed once');
      expect(answer.status).toBe(201);
      first = await answer.json();
    });
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
    // within the minute a first attempt may still be running: the retry is told to wait
    const early = await comment(entry.id, 'cut-off', 'committed once');
    expect(early.status).toBe(409);
    // once that lapses (as after kill -9), the retry answers as the first attempt did, with no second comment
    await db.prisma.idempotencyKey.updateMany({ where: { key: 'cut-off' }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    const retried = await comment(entry.id, 'cut-off', 'committed once');
    expect(retried.status).toBe(201);
    expect(await retried.json()).toEqual(first);
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
    // and that answer is now kept
    expect(await (await comment(entry.id, 'cut-off', 'committed once')).json()).toEqual(first);
  });

  it('a first attempt that committed nothing is run again by the retry', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    expect((await comment(entry.id, 'died-early', 'written by the retry')).status).toBe(201);
    // as if that process had died before its write: the key held, nothing committed, nothing recorded
    await db.prisma.comment.deleteMany({ where: { entryId: entry.id } });
    await db.prisma.idempotencyKey.updateMany({
      where: { key: 'died-early' },
      data: { response: null, phases: null, lockedUntil: new Date(Date.now() - 1000) },
    });
    const retried = await comment(entry.id, 'died-early', 'written by the retry');
    expect(retried.status).toBe(201);
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
  });

  it('works for GraphQL mutations, with the header', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    const send = () =>
      api.app
        .fetch('http://milepost.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[5]}`, 'idempotency-key': 'gql-1' },
          body: JSON.stringify({
            query: `mutation { createComment(input: { entryId: ${entry.id}, body: "once" }) { comment { id: databaseId } } }`,
          }),
        })
        .then((r) => r.json());
    const [first, second] = [await send(), await send()];
    expect(second).toEqual(first);
    expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(1);
  });
});

describe('racing writes', () => {
  it('likes from many people at once, twice each: one like per person', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    await Promise.all(
      tokens.flatMap((t) => [
        gql(t, `mutation { likeEntry(input: { entryId: ${entry.id} }) { error { __typename } } }`),
        gql(t, `mutation { likeEntry(input: { entryId: ${entry.id} }) { error { __typename } } }`),
      ]),
    );
    expect(await db.prisma.like.count({ where: { entryId: entry.id } })).toBe(tokens.length);
  });

  it('comments racing a delete: none is left on a deleted entry, and each is either kept or refused', async () => {
    for (let round = 0; round < 5; round++) {
      const entry = await createEntry(db.prisma, ids[0]!);
      const results = await Promise.all([
        ...tokens
          .slice(1)
          .map((t) => gql(t, `mutation { createComment(input: { entryId: ${entry.id}, body: "race" }) { error { __typename } } }`)),
        gql(tokens[0]!, `mutation { deleteEntry(input: { id: ${entry.id} }) { error { __typename } } }`),
      ]);
      for (const r of results) expect(r.errors).toBeUndefined();
      expect(await db.prisma.entry.count({ where: { id: entry.id } })).toBe(0);
      expect(await db.prisma.comment.count({ where: { entryId: entry.id } })).toBe(0);
    }
  });

  it('two people asking each other at once end as friends, both ways, once', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [2 + 2 * round, 3 + 2 * round].map((i) => i % tokens.length);
      await db.prisma.friendship.deleteMany({ where: { OR: [{ personId: ids[a!] }, { friendId: ids[a!] }] } });
      await db.prisma.friendRequest.deleteMany({});
      const results = await Promise.all([
        gql(tokens[a!]!, `mutation { requestFriend(input: { username: "racer${b}" }) { friendship { status } } }`),
        gql(tokens[b!]!, `mutation { requestFriend(input: { username: "racer${a}" }) { friendship { status } } }`),
      ]);
      for (const r of results) expect(r.errors).toBeUndefined();
      // each request is committed before its sender looks again, so at least one sees the other's
      const pairs = await db.prisma.friendship.count({
        where: {
          OR: [
            { personId: ids[a!], friendId: ids[b!] },
            { personId: ids[b!], friendId: ids[a!] },
          ],
        },
      });
      const requests = await db.prisma.friendRequest.count({
        where: {
          OR: [
            { fromId: ids[a!], toId: ids[b!] },
            { fromId: ids[b!], toId: ids[a!] },
          ],
        },
      });
      expect([pairs, requests]).toEqual([2, 0]);
    }
  });

  it('accepting one request several times at once: friends once, no 500', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [0, 1];
      await db.prisma.friendship.deleteMany({ where: { OR: [{ personId: ids[a]! }, { friendId: ids[a]! }] } });
      await db.prisma.friendRequest.deleteMany({});
      await db.prisma.friendRequest.create({ data: { fromId: ids[b]!, toId: ids[a]! } });
      const results = await Promise.all(
        [1, 2, 3, 4].map(() =>
          gql(
            tokens[a]!,
            `mutation { acceptFriend(input: { username: "racer${b}" }) { friendship { __typename status } error { __typename } } }`,
          ),
        ),
      );
      for (const r of results) expect(r.errors).toBeUndefined();
      type Answer = { acceptFriend: { friendship: { __typename: string } | null; error: { __typename: string } | null } };
      const states = results.map((r) => {
        const payload = (r.data as Answer).acceptFriend;
        return (payload.friendship ?? payload.error)!.__typename;
      });
      expect(states).toContain('FriendshipState');
      expect(await db.prisma.friendship.count({ where: { personId: ids[a]!, friendId: ids[b]! } })).toBe(1);
      expect(await db.prisma.friendship.count({ where: { personId: ids[b]!, friendId: ids[a]! } })).toBe(1);
    }
  });

  it('deleting an entry twice at once: one deletes, the other is told it is gone', async () => {
    const entry = await createEntry(db.prisma, ids[0]!);
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        gql(tokens[0]!, `mutation { deleteEntry(input: { id: ${entry.id} }) { deletedEntry { __typename } error { __typename } } }`),
      ),
    );
    type Answer = { deleteEntry: { deletedEntry: { __typename: string } | null; error: { __typename: string } | null } };
    const types = results
      .map((r) => ((r.data as Answer).deleteEntry.deletedEntry ?? (r.data as Answer).deleteEntry.error)!.__typename)
      .sort();
    expect(types.filter((t) => t === 'DeletedEntry')).toHaveLength(1);
    expect(types.filter((t) => t === 'NotFoundError')).toHaveLength(2);
  });
});

describe.skipIf(provider !== 'postgresql')('restore (PostgreSQL)', () => {
  it('is refused while a server holds the schema', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-restore-pg-'));
    try {
      const file = path.join(dir, 'dump.pgdump');
      writeFileSync(file, 'not read: the refusal comes first');
      // this process serves the schema (its connections carry the service's name)
      await api.graphql('{ publicStream { __typename } }');
      const refused = await runCli(['restore', file], { DATABASE_URL: db.config.url });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/in use .*stop every server first/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(provider !== 'sqlite')('online backup (SQLite)', () => {
  it('taken while writes run, restores to a consistent copy of what was acknowledged', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-backup-'));
    const env = { DATABASE_URL: db.config.url };
    try {
      let writing = true;
      const acknowledged: number[] = [];
      const writer = (async () => {
        while (writing) {
          const result = await api.graphql<{ createEntry: { entry: { id: number } } }>(
            'mutation { createEntry(input: { message: "during backup" }) { entry { id: databaseId } } }',
            {},
            tokens[1],
          );
          acknowledged.push(result.data!.createEntry.entry.id);
          // in-process SQLite answers in microtasks only: let timers and the child process's I/O run
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = acknowledged.length;
      const backup = await runCli(['backup', path.join(dir, 'snapshot.db')], env);
      writing = false;
      await writer;
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      // one file, nothing left beside it (no .partial, -wal or -shm)
      expect(readdirSync(dir)).toEqual(['snapshot.db']);
      // the server (this process) still holds the live database: a restore would be written under it
      const refused = await runCli(['restore', path.join(dir, 'snapshot.db')], env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/in use .*stop every server first/);
      expect((await api.graphql('{ publicStream { __typename } }')).errors).toBeUndefined();

      const snapshot = new Sqlite(path.join(dir, 'snapshot.db'), { readonly: true });
      const saved = (
        snapshot.prepare("SELECT id FROM Entry WHERE message = 'during backup' ORDER BY id").all() as Array<{ id: number }>
      ).map((r) => r.id);
      expect((snapshot.pragma('integrity_check') as Array<{ integrity_check: string }>)[0]!.integrity_check).toBe('ok');
      snapshot.close();
      // everything acknowledged before the backup began is in it, and what it holds is a prefix
      expect(saved.length).toBeGreaterThanOrEqual(before);
      expect(saved).toEqual(acknowledged.slice(0, saved.length));

      const restoredUrl = `file:${path.join(dir, 'restored.db')}`;
      const restore = await runCli(['restore', path.join(dir, 'snapshot.db')], { DATABASE_URL: restoredUrl });
      expect(restore.code).toBe(0);
      const restored = new Sqlite(path.join(dir, 'restored.db'), { readonly: true });
      const back = (
        restored.prepare("SELECT id FROM Entry WHERE message = 'during backup' ORDER BY id").all() as Array<{ id: number }>
      ).map((r) => r.id);
      restored.close();
      expect(back).toEqual(saved);
      expect((await runCli(['backup', path.join(dir, 'snapshot.db')], env)).stderr).toContain('exists');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses to restore a file that is not a Milepost database', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-restore-'));
    try {
      const other = new Sqlite(path.join(dir, 'other.db'));
      other.exec('CREATE TABLE t (x)');
      other.close();
      const result = await runCli(['restore', path.join(dir, 'other.db')], { DATABASE_URL: `file:${path.join(dir, 'target.db')}` });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('not a Milepost database');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(provider !== 'postgresql' || !existsSync('/usr/bin/pg_dump'))(
  'backup and restore (PostgreSQL, through pg_dump and pg_restore)',
  () => {
    it('backs up the service’s schema and restores it, undoing what came after', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-pgbackup-'));
      // a schema of its own, let go of before the restore: a restore is refused while a server holds it
      const own = await createTestDatabase('pg_restore');
      const env = { DATABASE_URL: own.config.url };
      const person = await createPerson(own.prisma);
      try {
        const kept = await createEntry(own.prisma, person.id, { message: 'before the backup' });
        const backup = await runCli(['backup', path.join(dir, 'snapshot.dump')], env);
        expect(backup.stderr).toBe('');
        expect(backup.code).toBe(0);
        const later = await createEntry(own.prisma, person.id, { message: 'after the backup' });
        await own.prisma.entry.delete({ where: { id: kept.id } });
        await own.close();
        // a Milepost server of another database on the same PostgreSQL server, under the same schema
        // name, is no reason to refuse: only this database's servers are
        const elsewhere = new URL(process.env.TEST_POSTGRES_URL!);
        elsewhere.pathname = '/postgres';
        const otherServer = new pg.Client({
          connectionString: elsewhere.toString(),
          application_name: `milepost/${new URL(own.config.url).searchParams.get('schema')}`.slice(0, 63),
        });
        await otherServer.connect();
        const restore = await runCli(['restore', path.join(dir, 'snapshot.dump')], env).finally(() => otherServer.end());
        expect(restore.stderr).toBe('');
        expect(restore.code).toBe(0);
        const check = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
        await check.connect();
        const schema = new URL(own.config.url).searchParams.get('schema')!;
        const ids = (await check.query<{ id: number }>(`SELECT id FROM "${schema}"."Entry" ORDER BY id`)).rows.map((r) => r.id);
        await check.end();
        expect(ids).toContain(kept.id);
        expect(ids).not.toContain(later.id);
        // the backup refuses to overwrite a file
        expect((await runCli(['backup', path.join(dir, 'snapshot.dump')], env)).code).toBe(2);
      } finally {
        await own.destroy().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  },
);

describe.skipIf(provider !== 'postgresql')('lost PostgreSQL connections', () => {
  it('cut reads off mid-load: they are tried again, and no read answers an error', async () => {
    const schema = new URL(db.config.url).searchParams.get('schema')!;
    const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await createEntry(db.prisma, ids[0]!, { message: 'read under fire' });
      const ours = [`milepost/${schema}`];
      const failures: unknown[] = [];
      for (let round = 0; round < 5; round++) {
        // the reads wait behind a lock, so that the connections die while the reads are in flight
        await admin.query('BEGIN');
        await admin.query(`LOCK TABLE "${schema}"."Entry" IN ACCESS EXCLUSIVE MODE`);
        const reads = [1, 2, 3, 4].map(() =>
          api.graphql(`{ publicStream { ... on EntryConnection { edges { node { id: databaseId author { username } } } } } }`),
        );
        for (let i = 0; i < 200; i++) {
          const waiting = await admin.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
            ours,
          );
          if (waiting.rows[0].n >= 1) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // only this file's connections: other suites share the server
        const cut = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', ours);
        expect(cut.rowCount).toBeGreaterThan(0);
        await admin.query('COMMIT');
        for (const result of await Promise.all(reads)) if (result.errors) failures.push(result.errors);
      }
      expect(failures).toEqual([]);
    } finally {
      await admin.end();
    }
  }, 60_000);

  it('cut writes off mid-load: each answers done, or 503 with Retry-After; never an unexpected error', async () => {
    const schema = new URL(db.config.url).searchParams.get('schema')!;
    const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const entry = await createEntry(db.prisma, ids[0]!, { message: 'written under fire' });
      const answers: Array<{ status: number; code: unknown }> = [];
      let writing = true;
      const writer = async (n: number) => {
        for (let i = 0; writing; i++) {
          const graphql = i % 2 === 0;
          const response = graphql
            ? await api.fetch('/graphql', {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[n]}` },
                body: JSON.stringify({
                  query: `mutation { createComment(input: { entryId: ${entry.id}, body: "w${n}-${i}" }) { error { __typename } } }`,
                }),
              })
            : await api.fetch(`/entries/${entry.id}/comments.json`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[n]}` },
                body: JSON.stringify({ body: `r${n}-${i}` }),
              });
          const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: unknown } }>; error?: { code?: unknown } };
          answers.push({ status: response.status, code: body.errors?.[0]?.extensions?.code ?? body.error?.code ?? null });
          if (response.status === 503) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      };
      const writers = [1, 2, 3, 4].map(writer);
      for (let round = 0; round < 15; round++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`milepost/${schema}`]);
      }
      writing = false;
      await Promise.all(writers);
      expect(answers.length).toBeGreaterThan(15);
      const unexpected = answers.filter((a) => !((a.status === 200 || a.status === 201) && a.code === null) && a.status !== 503);
      expect(unexpected).toEqual([]);
    } finally {
      await admin.end();
    }
  }, 60_000);
});
