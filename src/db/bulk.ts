// Bulk loading (the seed, GPS tracks): rows travel as one JSON parameter per statement and the
// database unpacks them (json_each on SQLite, jsonb_array_elements on PostgreSQL). Prisma's createMany,
// or an INSERT with a placeholder per value, spends most of its time handling parameters one by one;
// this path stores a 200,000-point track in about a second. Table and column names come from code,
// and their types from the Prisma model, never from input.

import { getDatamodel } from '../generated/pothos-types.ts';
import type { Database, Prisma } from './database.ts';

/** Where to write: the database's client, or the client of a transaction in progress. */
export interface BulkTarget {
  provider: Database['provider'];
  client: Pick<Prisma, '$executeRawUnsafe'>;
}

/** Rows per statement: keeps each JSON parameter to a few megabytes. */
const ROWS_PER_STATEMENT = 20_000;

type ScalarType = 'Int' | 'Float' | 'String' | 'DateTime' | 'Boolean';
const models = getDatamodel().datamodel.models as unknown as Record<
  string,
  { fields: ReadonlyArray<{ name: string; type: string; kind: string }> }
>;

function columnTypes(table: string, columns: string[]): ScalarType[] {
  const fields = models[table]?.fields;
  if (!fields) throw new Error(`bulkInsert: no model ${table}`);
  return columns.map((column) => {
    const field = fields.find((f) => f.name === column && f.kind === 'scalar');
    if (!field) throw new Error(`bulkInsert: ${table} has no column ${column}`);
    return field.type as ScalarType;
  });
}

const POSTGRES_CAST: Record<ScalarType, string> = {
  Int: 'integer',
  Float: 'double precision',
  String: 'text',
  Boolean: 'boolean',
  // Prisma keeps PostgreSQL DateTime as timestamp(3) in UTC
  DateTime: 'timestamptz',
};

/** Prisma's own text form of a DateTime in SQLite, so that rows read back as Prisma wrote them. */
const sqliteDate = (date: Date) => date.toISOString().replace('Z', '+00:00');

export async function bulkInsert(target: BulkTarget, table: string, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows as ReadonlyArray<Record<string, unknown>>;
  const columns = Object.keys(values[0]!);
  const types = columnTypes(table, columns);
  const list = columns.map((c) => `"${c}"`).join(', ');
  const sql =
    target.provider === 'postgresql'
      ? `INSERT INTO "${table}" (${list}) SELECT ${types
          .map((type, i) => (type === 'DateTime' ? `((e->>${i})::timestamptz AT TIME ZONE 'UTC')` : `(e->>${i})::${POSTGRES_CAST[type]}`))
          .join(', ')} FROM jsonb_array_elements($1::jsonb) AS e`
      : `INSERT INTO "${table}" (${list}) SELECT ${types
          .map((type, i) => (type === 'Boolean' ? `(json_extract(value, '$[${i}]') = 1)` : `json_extract(value, '$[${i}]')`))
          .join(', ')} FROM json_each(?)`;
  const toDate = target.provider === 'postgresql' ? (d: Date) => d.toISOString() : sqliteDate;
  for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
    const chunk = values.slice(start, start + ROWS_PER_STATEMENT);
    const payload = JSON.stringify(
      chunk.map((row) =>
        columns.map((c, i) => {
          const value = row[c] ?? null;
          if (value instanceof Date) return toDate(value);
          if (types[i] === 'Boolean' && typeof value === 'boolean' && target.provider === 'sqlite') return value ? 1 : 0;
          return value;
        }),
      ),
    );
    await target.client.$executeRawUnsafe(sql, payload);
  }
}
