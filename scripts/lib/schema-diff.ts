// Prisma's schema diff, run by the schema engine compiled to WebAssembly (@prisma/schema-engine-wasm,
// pinned to the engine version of the installed prisma CLI): the native engine cannot be downloaded
// offline. Each provider's diff runs against a scratch database that holds exactly the committed
// migrations: a temporary SQLite file, or a temporary schema on a PostgreSQL server.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { type DatabaseConfig, parseDatabaseUrl } from '../../src/config.ts';
import { applyMigrations } from '../../src/db/migrate.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

interface Engine {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}

let panicMessage = '';
// the engine reports a Rust panic's message through this global before it throws
(globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = { set_message: (m: string) => (panicMessage = m) };

let engineModule: Promise<{ SchemaEngine: { new: (o: unknown, cb: unknown, a: unknown) => Promise<Engine> } }> | undefined;
function loadEngineModule() {
  engineModule ??= instantiateEngine();
  return engineModule;
}

async function instantiateEngine() {
  const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bindings = await import(bgPath);
  const bytes = readFileSync(path.join(path.dirname(bgPath), 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bindings });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  return bindings;
}

export interface Scratch {
  database: DatabaseConfig;
  adapter: ReturnType<typeof bindMigrationAwareSqlAdapterFactory>;
  schemaPath: string;
  cleanup(): Promise<void>;
}

export async function scratchSqlite(): Promise<Scratch> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'milepost-migrate-'));
  const database = parseDatabaseUrl(`file:${path.join(dir, 'scratch.db')}`);
  const file = (database as { file: string }).file;
  return {
    database,
    adapter: bindMigrationAwareSqlAdapterFactory(
      new PrismaBetterSqlite3({ url: file }, { shadowDatabaseUrl: path.join(dir, 'shadow.db') }),
    ),
    schemaPath: path.join(root, 'prisma/schema.prisma'),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

// adapter-pg cannot represent PostgreSQL's internal one-byte "char" type (OID 18), which the engine's
// catalog queries return (pg_class.relkind and the like); report it as text, which is what it holds.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };
function patchCharFields(result: QueryResultLike | QueryResultLike[]) {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const field of r?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  }
  return result;
}
class CatalogFriendlyClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query has a dozen overloads; this forwards them all
  override query(...args: any[]): any {
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (err: Error | null, result: QueryResultLike) => last(err, result && patchCharFields(result));
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const pending = (super.query as (...a: unknown[]) => unknown)(...args);
    return pending instanceof Promise ? pending.then(patchCharFields) : pending;
  }
}

export async function scratchPostgres(base: string): Promise<Scratch> {
  const schema = `milepost_migrate_${process.pid}_${Date.now()}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  const database = parseDatabaseUrl(url.toString());
  const { connectionString } = database as { connectionString: string };
  const pool = new pg.Pool({ connectionString, options: `-c search_path=${schema}`, Client: CatalogFriendlyClient });
  return {
    database,
    adapter: bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool, { schema })),
    schemaPath: path.join(root, 'prisma/postgres/schema.prisma'),
    cleanup: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

/** The full-text tables of SQLite's search, and the shadow tables FTS5 keeps beside each. */
const SEARCH_TABLES = ['PersonSearch', 'EntrySearch'].flatMap((table) =>
  ['', '_data', '_idx', '_content', '_docsize', '_config'].map((suffix) => `${table}${suffix}`),
);

/** SQL that takes the committed migrations to the schema file; empty when they agree. */
export async function pendingSql(scratch: Scratch): Promise<string> {
  await applyMigrations(scratch.database);
  const { SchemaEngine } = await loadEngineModule();
  const content = readFileSync(scratch.schemaPath, 'utf8');
  const files = [{ path: scratch.schemaPath, content }];
  const logs: string[] = [];
  const engine = await SchemaEngine.new({ datamodels: [[scratch.schemaPath, content]] }, (log: string) => logs.push(log), scratch.adapter);
  try {
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: root },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: true,
      // the search indexes are SQLite FTS5 tables that Prisma cannot describe (migration 20261127120000_search)
      filters: { externalTables: scratch.database.provider === 'sqlite' ? SEARCH_TABLES : [], externalEnums: [] },
    });
    const sql = (result.stdout ?? '').trim();
    return sql === '-- This is an empty migration.' ? '' : sql;
  } catch (error) {
    throw new Error(`schema engine failed: ${panicMessage || String(error)}\n${logs.join('\n')}`);
  } finally {
    engine.free();
  }
}
