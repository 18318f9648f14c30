// Who may see a piece of gear besides its owner (whoever may see a workout done in it), and the
// defaults that choose it for a workout that names none.
import { type DefaultGear, readDefaultGear } from '../domain/gear.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database, Transaction } from './database.ts';
import { storedDate } from './entry-rows.ts';

export type { Transaction };

import { type EntryReader, visibleCondition } from './entry-conditions.ts';

/** Of `gearIds`, those used in a workout `reader` may see: one statement. */
export async function readSeenGear(
  database: Pick<Database, 'read'>,
  reader: EntryReader,
  gearIds: readonly number[],
): Promise<Set<number>> {
  if (gearIds.length === 0) return new Set();
  const rows = await database.read<{ gearId: number | bigint }>(Sql.sql`SELECT DISTINCT w."gearId" AS "gearId"
    FROM "Workout" w JOIN "Entry" e ON e."id" = w."entryId"
    WHERE w."gearId" IN (${Sql.join(gearIds)}) AND ${visibleCondition(reader)}`);
  return new Set(rows.map((row) => Number(row.gearId)));
}

/**
 * Rewrites the person's defaults (Person.defaultGear) by `change`, in the transaction: their row is
 * taken first, so that two changes of one person's gear at once never lose each other's defaults.
 */
export async function changeDefaults(tx: Transaction, ownerId: number, change: (defaults: DefaultGear) => DefaultGear): Promise<void> {
  await tx.$executeRaw`UPDATE "Person" SET "defaultGear" = "defaultGear" WHERE "id" = ${ownerId}`;
  const { defaultGear } = await tx.person.findUniqueOrThrow({ where: { id: ownerId }, select: { defaultGear: true } });
  const next = JSON.stringify(change(readDefaultGear(defaultGear)));
  if (next !== defaultGear) await tx.person.update({ where: { id: ownerId }, data: { defaultGear: next }, select: { id: true } });
}

export interface GearRow {
  id: number;
  ownerId: number;
  name: string;
  brand: string | null;
  model: string | null;
  kind: string;
  retired: boolean;
  createdAt: Date;
}

/**
 * A person's gear, the pieces in use first, then in the order they were added, at most `limit`: one
 * statement through the reader (an athlete's page asks it on every view, most often of nobody's gear).
 */
export async function readGearOf(
  database: Pick<Database, 'read'>,
  ownerId: number,
  options: { retired: boolean; limit: number },
): Promise<GearRow[]> {
  const rows = await database.read<Omit<GearRow, 'retired' | 'createdAt'> & { retired: boolean | number; createdAt: Date | string }>(
    Sql.sql`SELECT "id", "ownerId", "name", "brand", "model", "kind", "retired", "createdAt" FROM "Gear"
      WHERE "ownerId" = ${ownerId}${options.retired ? Sql.empty : Sql.sql` AND "retired" = ${false}`}
      ORDER BY "retired", "createdAt", "id" LIMIT ${options.limit}`,
  );
  return rows.map((row) => ({
    ...row,
    retired: row.retired === true || row.retired === 1,
    createdAt: row.createdAt instanceof Date ? row.createdAt : storedDate(String(row.createdAt)),
  }));
}
