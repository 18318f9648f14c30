// The typed documents that codegen.ts generates from the committed schema, used as a client would:
// the result types are checked by `tsc` over this file, and the example client runs against a server.
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicStreamDocument } from '../../examples/generated/graphql.ts';
import { createApp, listen } from '../../src/app/server.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/database.ts';
import { createEntry, createPerson } from '../support/factories.ts';

let db: TestDatabase;
let base = '';
let close: () => Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase('typed');
  const config = { ...testConfig(db.config), port: 0, host: '127.0.0.1' };
  const app = createApp(config, db);
  const server = await listen(app, config);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  };
  const ann = await createPerson(db.prisma, { username: 'ann', displayName: 'Ann Runner' });
  await createEntry(db.prisma, ann.id, {
    message: 'typed hello',
    workout: { activityType: 'running', distanceValue: 5, distanceUnits: 'kilometers', duration: 1500 },
  });
});
afterAll(async () => {
  await close();
  await db.destroy();
});

/** A client's one helper: the document's types flow into the result. */
async function run<Result, Variables>(document: TypedDocumentNode<Result, Variables>, variables: Variables): Promise<Result> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as { data: Result; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe('the generated typed documents', () => {
  it('type the public stream as the schema has it', async () => {
    const data = await run(PublicStreamDocument, { page: 1 });
    // the stream answers its connection itself (no union to switch on), so a normalizing cache reaches it
    const [first] = data.publicStream!.edges;
    // each of these reads is checked by tsc against the generated types
    const workout: { activityType: string; distance?: { value: number; units: string } | null } | null | undefined = first!.node.workout;
    expect(first!.node.message).toBe('typed hello');
    expect(first!.node.author.displayName).toBe('Ann Runner');
    expect(workout).toMatchObject({ activityType: 'RUNNING', distance: { value: 5, units: 'KILOMETERS' } });
  });

  it('drive the example client, which prints the stream', async () => {
    const script = fileURLToPath(new URL('../../examples/feed-client.ts', import.meta.url));
    const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
    const { stdout } = await promisify(execFile)(tsx, [script, base]);
    expect(stdout).toMatch(/Ann Runner\s+running 5 kilometers\s+typed hello/);
  });
});
