// Entries near a place: their positions inside a box (the nearby stream checks the distance and the
// authors' privacy zones in this process), read in one statement.

import type { PrivacySettings } from '../domain/privacy-zones.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import { type EntryRange, rangeConditions } from './entry-conditions.ts';
import { readZones, type ZoneRow, zonesOf } from './entry-documents.ts';
import { storedDate } from './entry-rows.ts';
import { jsonSql } from './sql-json.ts';

/** A latitude band and its longitude ranges (two when a box crosses the antimeridian). */
export interface EntryBox {
  minLat: number;
  maxLat: number;
  lonRanges: ReadonlyArray<readonly [number, number]>;
}

/** An entry's position, as the nearby search reads it. */
export interface BoxHit {
  id: number;
  lat: number;
  lon: number;
  authorId: number;
  /** When it was posted (ms), and its id: where a walk in stream order goes on from. */
  at: number;
  /** The author's privacy settings: a place they hide matches no one else's search. */
  privacy: PrivacySettings;
}

/**
 * Entries of `range` near `box`, in stream order, as positions: one statement, and only the ones
 * inside the box cross into this process.
 * - `newest`: of the newest `rows` entries of the range (the time index), the first `hits` inside the
 *   box: the scan stops there, so a busy area costs a few dozen rows, not `rows`. Fewer than `hits`
 *   means those `rows` held no more; `more` then says whether the range goes on past them.
 * - `box`: `rows` entries inside the box (its index), after the first `offset`; `more`: all `rows` came.
 */
export async function readInBox(
  database: Pick<Database, 'read' | 'provider'>,
  range: EntryRange,
  box: EntryBox,
  read: { from: 'newest'; rows: number; hits: number } | { from: 'box'; rows: number; offset: number },
): Promise<{ hits: BoxHit[]; more: boolean }> {
  const json = jsonSql(database.provider);
  const direction = Sql.raw(range.direction === 'newest' ? 'DESC' : 'ASC');
  const inside = (alias: string) =>
    Sql.sql`${Sql.raw(alias)}."lat" BETWEEN ${box.minLat} AND ${box.maxLat} AND (${Sql.join(
      box.lonRanges.map(([west, east]) => Sql.sql`${Sql.raw(alias)}."lon" BETWEEN ${west} AND ${east}`),
      ' OR ',
    )})`;
  const orderOf = (alias: string) => Sql.sql`${Sql.raw(alias)}."createdAt" ${direction}, ${Sql.raw(alias)}."id" ${direction}`;
  const inRange = Sql.join(rangeConditions(range), ' AND ');
  const columns = Sql.raw('e."id", e."lat", e."lon", e."authorId", e."createdAt"');
  // the rows read are a co-routine (a subquery read in its order, never a table of them): the scan
  // of the time index stops as soon as the box has given `hits` (on SQLite 1.44 -> 0.33 ms a probe)
  const rows =
    read.from === 'newest'
      ? Sql.sql`SELECT p.* FROM (SELECT ${columns} FROM "Entry" e WHERE ${inRange} ORDER BY ${orderOf('e')} LIMIT ${read.rows}) p
          WHERE ${inside('p')} ORDER BY ${orderOf('p')} LIMIT ${read.hits}`
      : Sql.sql`SELECT ${columns} FROM "Entry" e WHERE ${inside('e')} AND ${inRange} ORDER BY ${orderOf('e')} LIMIT ${read.rows} OFFSET ${read.offset}`;
  // whether the range goes on past the rows probed: asked only when they ran out
  const goesOn =
    read.from === 'newest'
      ? Sql.sql`CASE WHEN count(*) < ${read.hits} THEN EXISTS (SELECT 1 FROM "Entry" e WHERE ${inRange} ORDER BY ${orderOf('e')} LIMIT 1 OFFSET ${read.rows}) ELSE ${Sql.raw(json.yes)} END`
      : Sql.sql`count(*) = ${read.rows}`;
  const hit = json.tuple([
    'n."id"',
    'n."lat"',
    'n."lon"',
    'n."authorId"',
    zonesOf(json, 'n."authorId"'),
    '(SELECT h."hiddenEndsMeters" FROM "Person" h WHERE h."id" = n."authorId")',
    'n."createdAt"',
  ]);
  const order = `n."createdAt" ${direction.sql}, n."id" ${direction.sql}`;
  const document = json.tupleText([goesOn, Sql.raw(json.aggregate(hit, order))]);
  const [row] = await database.read<{ doc: string }>(Sql.sql`SELECT ${document} AS doc FROM (${rows}) n`);
  const [more, hits] = JSON.parse(row!.doc) as [boolean | number, Array<[number, number, number, number, ZoneRow[], number, string]>];
  return {
    more: Boolean(more),
    hits: hits.map(([id, lat, lon, authorId, zones, endsMeters, at]) => ({
      id,
      lat,
      lon,
      authorId,
      at: storedDate(at).getTime(),
      privacy: { endsMeters: Number(endsMeters ?? 0), zones: readZones(zones) },
    })),
  };
}
