// Multi-row INSERTs for bulk loading (the seed). Prisma's createMany costs about ten times as much per
// row through the query compiler; a plain parameterised INSERT through the same driver adapter keeps
// a million-entry seed in minutes. Table and column names come from code, never from input.
import type { Database, Prisma } from './database.ts';

/** Parameters per statement: under SQLite's 32766 and PostgreSQL's 65535. */
const MAX_PARAMETERS = 30_000;

/** Where to write: the database's client, or the client of a transaction in progress. */
export interface BulkTarget {
  provider: Database['provider'];
  client: Pick<Prisma, '$executeRawUnsafe'>;
}

export async function bulkInsert(target: BulkTarget, table: string, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const values = rows as ReadonlyArray<Record<string, unknown>>;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const head = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES `;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = values.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const slots = columns.map((column) => {
        params.push(row[column] ?? null);
        return target.provider === 'postgresql' ? `$${params.length}` : '?';
      });
      return `(${slots.join(', ')})`;
    });
    await target.client.$executeRawUnsafe(head + tuples.join(', '), ...params);
  }
}
