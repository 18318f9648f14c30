// Generated artefacts that are committed must match their source: the GraphQL SDL, the derived
// PostgreSQL Prisma schema, and the migrations of both providers.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pendingSql, scratchPostgres, scratchSqlite } from '../../scripts/lib/schema-diff.ts';
import { printClientCacheFile, printIntrospectionFile, printSchemaFile } from '../../src/graphql/print.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('committed artefacts', () => {
  it('schema/schema.graphql is what the code prints (run `npm run schema:print`)', () => {
    expect(readFileSync(`${root}schema/schema.graphql`, 'utf8')).toBe(printSchemaFile());
  });

  it('schema/client-cache.json and schema/introspection.json are what the code prints (run `npm run schema:print`)', () => {
    expect(readFileSync(`${root}schema/client-cache.json`, 'utf8')).toBe(printClientCacheFile());
    expect(readFileSync(`${root}schema/introspection.json`, 'utf8')).toBe(printIntrospectionFile());
  });

  it('prisma/postgres/schema.prisma is derived from prisma/schema.prisma (run `npm run db:derive`)', () => {
    const result = spawnSync(process.execPath, [`${root}scripts/derive-postgres-schema.mjs`, '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the SQLite migrations hold the whole model (run `npm run db:migration -- <name>`)', async () => {
    const scratch = await scratchSqlite();
    try {
      expect(await pendingSql(scratch)).toBe('');
    } finally {
      await scratch.cleanup();
    }
  });

  it.skipIf(!process.env.TEST_POSTGRES_URL)('the PostgreSQL migrations hold the whole model', async () => {
    const scratch = await scratchPostgres(process.env.TEST_POSTGRES_URL!);
    try {
      expect(await pendingSql(scratch)).toBe('');
    } finally {
      await scratch.cleanup();
    }
  });
});

describe('typed client documents', () => {
  it('examples/generated and src/operations/generated.ts match codegen.ts over the committed schema (run `npm run generate`)', () => {
    const result = spawnSync(
      process.execPath,
      [`${root}node_modules/@graphql-codegen/cli/cjs/bin.js`, '--config', 'codegen.ts', '--check'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(result.stdout + result.stderr).not.toMatch(/would change|modified/i);
    expect(result.status).toBe(0);
  }, 60_000);
});
