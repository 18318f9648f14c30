// JSON built inside the database, said once for both dialects: SQLite's json_array/json_group_array and
// PostgreSQL's json_build_array/json_agg. Rows travel as arrays of values whose names the code holds once
// (`Columns`), not as objects: half the JSON for the database to build and for this process to parse.
// Table and column names come from code; values always travel as parameters.

import type { DatabaseConfig } from '../config.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';

export type Dialect = DatabaseConfig['provider'];

/** A row as the database builds it: values in the order of their column list. */
export type Row = unknown[];

/** The SQL of JSON values in one dialect. */
export interface JsonSql {
  /** A JSON array of `values`: one row. */
  tuple(values: readonly string[]): string;
  /** As `tuple`, of values that carry parameters, as JSON text. */
  tupleText(values: readonly Sql.Sql[]): Sql.Sql;
  /**
   * A JSON array of `element` over `from` (an empty array, not null, when there are no rows), in `order`
   * when one is given: an ordered aggregate sorts every row's rows apart, even none.
   */
  array(element: string, from: string, order?: string): string;
  /** The aggregate of `element` over the rows of the query it is in, `[]` for none. */
  aggregate(element: string, order: string): string;
  /** A subquery's JSON as a value of the query around it. */
  nested(sql: string): string;
  /** JSON as text, for the driver to hand over unparsed. */
  text(sql: string): string;
  /** SQL's true. */
  yes: string;
  /** `e.id` among `ids`: one statement text whatever their number on PostgreSQL (an array parameter), prepared and planned once a connection. */
  idIn(ids: readonly number[]): Sql.Sql;
}

const POSTGRESQL: JsonSql = {
  tuple: (values) => `json_build_array(${values.join(', ')})`,
  tupleText: (values) => Sql.sql`json_build_array(${Sql.join(values)})::text`,
  array: (element, from, order) => `COALESCE((SELECT json_agg(${element}${order ? ` ORDER BY ${order}` : ''}) ${from}), '[]'::json)`,
  aggregate: (element, order) => `COALESCE(json_agg(${element} ORDER BY ${order}), '[]'::json)`,
  nested: (sql) => `(${sql})`,
  text: (sql) => `${sql}::text`,
  yes: 'true',
  idIn: (ids) => Sql.sql`e."id" = ANY(${ids}::int[])`,
};

const SQLITE: JsonSql = {
  tuple: (values) => `json_array(${values.join(', ')})`,
  tupleText: (values) => Sql.sql`json_array(${Sql.join(values)})`,
  array: (element, from, order) => `(SELECT json_group_array(${element}${order ? ` ORDER BY ${order}` : ''}) ${from})`,
  aggregate: (element, order) => `json_group_array(${element} ORDER BY ${order})`,
  // a JSON value that crosses a subquery is text again; json() marks it as JSON once more
  nested: (sql) => `json((${sql}))`,
  text: (sql) => sql,
  yes: '1',
  idIn: (ids) => Sql.sql`e."id" IN (${Sql.join(ids)})`,
};

export const jsonSql = (dialect: Dialect): JsonSql => (dialect === 'postgresql' ? POSTGRESQL : SQLITE);

/** A list of columns of a table, and the row type it reads: the names are written once, the type follows from them. */
export class Columns<R> {
  constructor(readonly names: readonly string[]) {}

  /** The columns as SQL, of the table called `alias`. */
  of(alias: string): string[] {
    return this.names.map((name) => `${alias}."${name}"`);
  }

  /** An object of the columns from a row's values, in order. */
  read(values: Row): R {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < this.names.length; i++) object[this.names[i]!] = values[i];
    return object as R;
  }
}

/** Columns of the model `T`: `columnsOf<Workout>()('entryId', 'title')` reads `Pick<Workout, 'entryId' | 'title'>`. */
export const columnsOf =
  <T>() =>
  <const C extends ReadonlyArray<keyof T & string>>(...names: C) =>
    new Columns<Pick<T, C[number]>>(names);
