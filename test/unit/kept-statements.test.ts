// The writer's SQLite statements are prepared once and run with each call's own arguments
// (src/db/kept-statements.ts), as Prisma's adapter uses them: `prepare(sql).bind(args)`, then `run`,
// `columns` or `raw().all()`.
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepStatements } from '../../src/db/kept-statements.ts';

let connection: BetterSqlite3.Database;
let prepared: string[];

beforeEach(() => {
  connection = new BetterSqlite3(':memory:');
  connection.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  prepared = [];
  const prepare = connection.prepare.bind(connection);
  connection.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof connection.prepare;
  keepStatements(connection, 2);
});
afterEach(() => connection.close());

/** As the adapter runs a statement. */
function adapterRun(sql: string, args: unknown[]) {
  const statement = connection.prepare(sql).bind(args);
  if (!statement.reader) return statement.run();
  return { columns: statement.columns().map((column) => column.name), values: statement.raw().all() };
}

describe('kept SQLite statements', () => {
  it('prepares a text once and binds each run its own arguments', () => {
    adapterRun('INSERT INTO t (name) VALUES (?)', ['ann']);
    adapterRun('INSERT INTO t (name) VALUES (?)', ['bob']);
    expect(adapterRun('SELECT id, name FROM t WHERE name = ?', ['ann'])).toEqual({ columns: ['id', 'name'], values: [[1, 'ann']] });
    expect(adapterRun('SELECT id, name FROM t WHERE name = ?', ['bob'])).toEqual({ columns: ['id', 'name'], values: [[2, 'bob']] });
    expect(prepared).toEqual(['INSERT INTO t (name) VALUES (?)', 'SELECT id, name FROM t WHERE name = ?']);
  });

  it('leaves a kept statement in its own row mode for anyone else, and passes the rest through', () => {
    adapterRun('INSERT INTO t (name) VALUES (?)', ['ann']);
    adapterRun('SELECT id, name FROM t WHERE name = ?', ['ann']);
    expect(connection.prepare('SELECT id, name FROM t WHERE name = ?').all('ann')).toEqual([{ id: 1, name: 'ann' }]);
    expect(connection.prepare('SELECT count(*) AS n FROM t').pluck().get()).toBe(1);
  });

  it('keeps only the most recently used texts', () => {
    for (const name of ['a', 'b', 'c']) adapterRun(`SELECT '${name}' AS x`, []);
    adapterRun(`SELECT 'a' AS x`, []);
    expect(prepared).toEqual([`SELECT 'a' AS x`, `SELECT 'b' AS x`, `SELECT 'c' AS x`, `SELECT 'a' AS x`]);
  });
});
