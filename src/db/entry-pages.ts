// Reads a page of entries, with the parts a GraphQL selection asks for (author, workout, comments
// with their authors, likes with their people, counts). One statement reads the page's ids with their
// revisions; the entries' documents kept at those revisions are used as they are (db/kept-documents.ts),
// and one more statement builds the others as JSON inside the database: json_object/json_group_array
// on SQLite, json_build_object/json_agg on PostgreSQL. Prisma's relation loading costs six statements
// and about 3.5 ms of this process's CPU per page; this costs at most two statements and a
// JSON.parse of what was not kept. Prisma stays the model and the write path; table and column names
// here come from code, values always travel as parameters.

import { cutCircle, type PrivacySettings, type Zone } from '../domain/privacy-zones.ts';
import type { Workout } from '../generated/prisma-sqlite/client.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import {
  ALL_PARTS,
  type EntryParts,
  type LoadedEntry,
  PERSON_COLUMNS,
  type PersonColumn,
  type PersonSummary,
  storedDate,
  type VersionRecorder,
} from './entry-rows.ts';

export { ALL_PARTS, type EntryParts, type LoadedEntry, PERSON_COLUMNS, type PersonColumn, type PersonSummary, storedDate };

/** Which entries: all of them, some authors' (a person's or the friends stream), or these ids. */
export type EntryScope =
  | { kind: 'everyone' }
  | { kind: 'author'; usernameKey: string }
  | { kind: 'authorId'; authorId: number }
  | { kind: 'friendsOf'; personId: number }
  | { kind: 'ids'; ids: readonly number[] };

/** A window of a stream in the time order (see domain/paging.ts), as the SQL applies it. */
export interface EntryRange {
  sinceMs: number | null;
  untilMs: number | null;
  olderThan: { at: number; id: number } | null;
  newerThan: { at: number; id: number } | null;
  direction: 'newest' | 'oldest';
  skip: number;
  limit: number;
  /** Whom the entries are read for: only those this reader may see (domain/visibility.ts); null without a token. */
  reader: EntryReader;
}

/**
 * Who reads entries: the person a token speaks for, and whether it may read what only they see (the
 * scope `read_all`: their only-me entries); null without a token.
 */
export type EntryReader = { readonly id: number; readonly ownPrivate: boolean } | null;

type Dialect = Database['provider'];

const ENTRY_COLUMNS = [
  'id',
  'visibility',
  'authorId',
  'kind',
  'message',
  'lat',
  'lon',
  'placeName',
  'mediaType',
  'mediaUrl',
  'mediaPreviewUrl',
  'createdAt',
];
const WORKOUT_COLUMNS = [
  'entryId',
  'activityType',
  'completedAt',
  'distanceValue',
  'distanceUnits',
  'duration',
  'felt',
  'calories',
  'title',
  'routeId',
];

/**
 * A row as a JSON array of `values`, in the dialect: the names travel once, in the page's layout, not
 * in every row of every page (arrays instead of objects halve the page's JSON: less for the database
 * to build and for this process to parse).
 */
function tuple(dialect: Dialect, values: readonly string[]): string {
  return `${dialect === 'postgresql' ? 'json_build_array' : 'json_array'}(${values.join(', ')})`;
}

const columnsOf = (alias: string, columns: readonly string[]) => columns.map((c) => `${alias}."${c}"`);

/**
 * A JSON array of `element` over `from` (empty array, not null, when there are no rows), in `order`
 * when one is given: an ordered aggregate sorts every row's rows apart, even none (on SQLite a sorter
 * opened and closed per row).
 */
function array(dialect: Dialect, element: string, from: string, order?: string): string {
  const by = order ? ` ORDER BY ${order}` : '';
  return dialect === 'postgresql'
    ? `COALESCE((SELECT json_agg(${element}${by}) ${from}), '[]'::json)`
    : `(SELECT json_group_array(${element}${by}) ${from})`;
}

/** A subquery's JSON as a value of the query around it. */
function subquery(dialect: Dialect, sql: string): string {
  // SQLite: a JSON value that crosses a subquery is text again; json() marks it as JSON once more
  return dialect === 'postgresql' ? `(${sql})` : `json((${sql}))`;
}

/**
 * The privacy zones of the person whose id is `owner`, as `[lat, lon, radiusMeters, shiftNorth, shiftEast]` tuples (an empty
 * array for none), in no particular order: a place inside any of them is hidden.
 */
function zonesOf(dialect: Dialect, owner: string): string {
  const zone = tuple(dialect, columnsOf('z', ['lat', 'lon', 'radiusMeters', 'shiftNorthMeters', 'shiftEastMeters']));
  return subquery(dialect, array(dialect, zone, `FROM "PrivacyZone" z WHERE z."personId" = ${owner}`));
}

type ZoneRow = [lat: number, lon: number, radiusMeters: number, shiftNorthMeters: number, shiftEastMeters: number];
/** The circles cut (domain/privacy-zones.ts cutCircle), not the zones as their owner set them. */
const readZones = (rows: ZoneRow[]): Zone[] =>
  rows.map(([lat, lon, radiusMeters, shiftNorthMeters, shiftEastMeters]) =>
    cutCircle({ lat, lon, radiusMeters, shiftNorthMeters, shiftEastMeters }),
  );

const COMMENT_COLUMNS = ['id', 'authorId', 'body', 'createdAt'] as const;
const LIKE_COLUMNS = ['id', 'personId', 'createdAt'] as const;

type Row = unknown[];

/** An object of `names` from a row's values, in order. */
function zip<T>(names: readonly string[], values: Row): T {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) object[names[i]!] = values[i];
  return object as T;
}

/** The SQL of one entry's row (`e`) with the parts asked for, and how to read that row back. */
interface EntryDocument {
  /** Names the parts: documents of different parts are kept apart. */
  key: string;
  sql: string;
  read: (row: Row) => LoadedEntry;
}

function entryDocument(dialect: Dialect, parts: EntryParts, key: string): EntryDocument {
  const nested = (sql: string) => subquery(dialect, sql);
  const person = [...new Set<PersonColumn>(['id', 'username', ...parts.personColumns])];
  const values = columnsOf('e', ENTRY_COLUMNS);
  // each part adds a value to the row and a step to its reading, at the same position
  const steps: Array<(entry: LoadedEntry, value: unknown) => void> = [];
  const part = (sql: string, step: (entry: LoadedEntry, value: unknown) => void) => {
    values.push(sql);
    steps.push(step);
  };
  if (parts.author) {
    part(nested(`SELECT ${tuple(dialect, columnsOf('p', person))} FROM "Person" p WHERE p."id" = e."authorId"`), (entry, value) => {
      entry.author = zip(person, value as Row);
    });
  }
  if (parts.workout) {
    part(
      nested(`SELECT ${tuple(dialect, columnsOf('w', WORKOUT_COLUMNS))} FROM "Workout" w WHERE w."entryId" = e."id"`),
      (entry, value) => {
        const workout = value === null ? null : zip<Workout>(WORKOUT_COLUMNS, value as Row);
        if (workout?.completedAt) workout.completedAt = storedDate(workout.completedAt as unknown as string);
        entry.workout = workout;
      },
    );
  }
  /** An entry's comments or likes, oldest first: each row's columns, then its person as a tuple. */
  const children = <T>(table: 'Comment' | 'Like', columns: readonly string[], personColumn: string, personKey: string) => {
    const row = tuple(dialect, [...columnsOf('x', columns), tuple(dialect, columnsOf('xp', person))]);
    const from = `FROM "${table}" x JOIN "Person" xp ON xp."id" = x."${personColumn}" WHERE x."entryId" = e."id"`;
    return {
      sql: nested(array(dialect, row, from, 'x."createdAt", x."id"')),
      read: (entry: LoadedEntry, value: unknown): T[] =>
        (value as Row[]).map((values) => {
          const child = zip<Record<string, unknown>>(columns, values);
          child.entryId = entry.id;
          child.createdAt = storedDate(child.createdAt as string);
          child[personKey] = zip(person, values[columns.length] as Row);
          return child as T;
        }),
    };
  };
  if (parts.comments) {
    const comments = children<NonNullable<LoadedEntry['comments']>[number]>('Comment', COMMENT_COLUMNS, 'authorId', 'author');
    part(comments.sql, (entry, value) => {
      entry.comments = comments.read(entry, value);
    });
  }
  if (parts.likes) {
    const likes = children<NonNullable<LoadedEntry['likes']>[number]>('Like', LIKE_COLUMNS, 'personId', 'person');
    part(likes.sql, (entry, value) => {
      entry.likes = likes.read(entry, value);
    });
  }
  if (parts.counts) {
    part(`(SELECT count(*) FROM "Comment" cc WHERE cc."entryId" = e."id")`, (entry, value) => {
      entry.commentCount = Number(value);
    });
    part(`(SELECT count(*) FROM "Like" lc WHERE lc."entryId" = e."id")`, (entry, value) => {
      entry.likeCount = Number(value);
    });
  }
  if (parts.privacy) {
    const settings = tuple(dialect, [
      `(SELECT pp."hiddenEndsMeters" FROM "Person" pp WHERE pp."id" = e."authorId")`,
      zonesOf(dialect, 'e."authorId"'),
    ]);
    part(settings, (entry, value) => {
      const [endsMeters, zones] = value as [number, ZoneRow[]];
      entry.authorPrivacy = { endsMeters, zones: readZones(zones) };
    });
  }
  const document = tuple(dialect, values);
  return {
    key,
    sql: dialect === 'postgresql' ? `${document}::text` : document,
    read: (row) => {
      const entry = zip<LoadedEntry>(ENTRY_COLUMNS, row);
      entry.createdAt = storedDate(entry.createdAt as unknown as string);
      for (let i = 0; i < steps.length; i++) steps[i]!(entry, row[ENTRY_COLUMNS.length + i]);
      return entry;
    },
  };
}

/**
 * `e.id` among `ids`, as one statement text whatever their number on PostgreSQL (an array parameter),
 * so that it is prepared and planned once a connection.
 */
function idIn(dialect: Dialect, ids: readonly number[]): Sql.Sql {
  return dialect === 'postgresql' ? Sql.sql`e."id" = ANY(${ids}::int[])` : Sql.sql`e."id" IN (${Sql.join(ids)})`;
}

function scopeCondition(dialect: Dialect, scope: EntryScope): Sql.Sql {
  switch (scope.kind) {
    case 'everyone':
      return Sql.sql`1 = 1`;
    case 'author':
      return Sql.sql`e."authorId" = (SELECT "id" FROM "Person" WHERE "usernameKey" = ${scope.usernameKey})`;
    case 'authorId':
      return Sql.sql`e."authorId" = ${scope.authorId}`;
    case 'friendsOf':
      // one list of authors, so that both planners read each author's newest entries from the
      // (authorId, createdAt) index; with an OR, PostgreSQL walked the whole stream's index and filtered
      return Sql.sql`e."authorId" IN (SELECT "friendId" FROM "Friendship" WHERE "personId" = ${scope.personId} UNION ALL SELECT ${scope.personId})`;
    case 'ids':
      return scope.ids.length > 0 ? idIn(dialect, scope.ids) : Sql.sql`1 = 0`;
  }
}

/**
 * domain/visibility.ts's maySee as SQL over `e`: every entry for everyone, the viewer's own, and the
 * friends-only entries of the viewer's friends. The read-path test holds the two to the same answers.
 */
export function visibleCondition(reader: EntryReader): Sql.Sql {
  if (reader === null) return Sql.sql`e."visibility" = 'everyone'`;
  // without read_all, a person's own only-me entries are hidden from the app reading for them
  const own = reader.ownPrivate
    ? Sql.sql`e."authorId" = ${reader.id}`
    : Sql.sql`(e."authorId" = ${reader.id} AND e."visibility" <> 'only_me')`;
  return Sql.sql`(e."visibility" = 'everyone' OR ${own}
    OR (e."visibility" = 'friends' AND e."authorId" IN (SELECT "friendId" FROM "Friendship" WHERE "personId" = ${reader.id})))`;
}

function rangeConditions(range: EntryRange): Sql.Sql[] {
  const where: Sql.Sql[] = [visibleCondition(range.reader)];
  if (range.sinceMs !== null) where.push(Sql.sql`e."createdAt" >= ${new Date(range.sinceMs)}`);
  if (range.untilMs !== null) where.push(Sql.sql`e."createdAt" < ${new Date(range.untilMs)}`);
  if (range.olderThan) {
    const at = new Date(range.olderThan.at);
    where.push(Sql.sql`(e."createdAt" < ${at} OR (e."createdAt" = ${at} AND e."id" < ${range.olderThan.id}))`);
  }
  if (range.newerThan) {
    const at = new Date(range.newerThan.at);
    where.push(Sql.sql`(e."createdAt" > ${at} OR (e."createdAt" = ${at} AND e."id" > ${range.newerThan.id}))`);
  }
  return where;
}

const documents = new Map<string, EntryDocument>();

/** An entry's row with `parts`, built once per dialect and parts. */
function documentOf(provider: Dialect, parts: EntryParts): EntryDocument {
  const key = `${provider}:${parts.author}${parts.workout}${parts.comments}${parts.likes}${parts.counts}${parts.privacy}:${parts.personColumns.join()}`;
  let document = documents.get(key);
  if (document === undefined) documents.set(key, (document = entryDocument(provider, parts, key)));
  return document;
}

/**
 * What a page is read from: the hot reads' statements, and the documents kept of earlier pages.
 * `versionRecorder`, when given, gets the version each entry of the page was read at (versionOf): its
 * revision and the people revision, which together move whenever anything its document shows changes.
 */
export type PageSource = Pick<Database, 'read' | 'provider' | 'documents'> & { versionRecorder?: VersionRecorder };

/** The revision of every person's columns a page shows (one row; null if it is missing). */
const PEOPLE_REVISION = Sql.sql`(SELECT "revision" FROM "PeopleRevision" WHERE "id" = 1)`;

type Revisions = { revision: number; people: number | null };

/**
 * An entry's version for the viewer of `range`: the same string means the same document, seen by the
 * same side. Its author sees its places where everyone else may not (Entry.geo, privacy zones): a
 * version read by the author never matches one read by anyone else.
 */
const versionOf = (revision: number, people: number, entry: { authorId: number }, range: EntryRange) =>
  entry.authorId === range.reader?.id && range.reader.ownPrivate ? `${revision}.${people}.own` : `${revision}.${people}`;

/**
 * The entries of `scope` inside `range`, in stream order, with `parts`. One statement reads the
 * page's ids with their revisions (db/kept-documents.ts); the documents kept at those revisions are
 * used as they are, and a second statement reads the others, only when there are any. Where such
 * pages lately found few of their entries kept (a person stream of one person after another, deep
 * pages), the second statement would mostly be a second trip: their documents then come with the ids,
 * in one statement, and are kept for next time.
 */
export async function readEntryPage(database: PageSource, scope: EntryScope, range: EntryRange, parts: EntryParts): Promise<LoadedEntry[]> {
  const direction = range.direction === 'newest' ? 'DESC' : 'ASC';
  const where = Sql.join([scopeCondition(database.provider, scope), ...rangeConditions(range)], ' AND ');
  const page = scope.kind === 'ids' ? Sql.empty : Sql.sql`LIMIT ${range.limit} OFFSET ${range.skip}`;
  const document = documentOf(database.provider, parts);
  const kept = database.documents;
  const keyOf = (id: number) => `${document.key}:${id}`;
  const kind = `${document.key}:${scope.kind}`;
  const order = (table: string) => Sql.raw(`${table}."createdAt" ${direction}, ${table}."id" ${direction}`);
  const inOrder = Sql.sql`SELECT e."id", e."createdAt" FROM "Entry" e WHERE ${where} ORDER BY ${order('e')} ${page}`;
  if (!kept.likelyKept(kind)) {
    // the page's ids first, its documents after: where the order needs a sort (the friends stream merges
    // several authors), a single level would build every candidate's document before the LIMIT
    const rows = await database.read<Revisions & { doc: string }>(
      Sql.sql`SELECT e."revision" AS revision, ${PEOPLE_REVISION} AS people, ${Sql.raw(document.sql)} AS doc
        FROM (${inOrder}) p JOIN "Entry" e ON e."id" = p."id" ORDER BY ${order('p')}`,
    );
    let found = 0;
    const entries = rows.map(({ revision, people, doc }) => {
      const entry = document.read(JSON.parse(doc) as Row);
      if (people === null) return entry;
      database.versionRecorder?.record(entry.id, versionOf(revision, people, entry, range));
      const known = kept.find(keyOf(entry.id), revision, people);
      if (known) {
        found += 1;
        return known;
      }
      kept.keep(keyOf(entry.id), revision, people, entry);
      return entry;
    });
    kept.record(kind, found, rows.length);
    return entries;
  }
  const ids = await database.read<Revisions & { id: number }>(
    Sql.sql`SELECT e."id" AS id, e."revision" AS revision, ${PEOPLE_REVISION} AS people FROM "Entry" e WHERE ${where} ORDER BY ${order('e')} ${page}`,
  );
  const entries = new Map<number, LoadedEntry>();
  const missing: number[] = [];
  for (const { id, revision, people } of ids) {
    const known = people === null ? undefined : kept.find(keyOf(id), revision, people);
    if (known) {
      entries.set(id, known);
      database.versionRecorder?.record(id, versionOf(revision, people!, known, range));
    } else missing.push(id);
  }
  kept.record(kind, ids.length - missing.length, ids.length);
  if (missing.length > 0) {
    // revisions read with the documents, in the same snapshot: a write in between is seen as a change
    const rows = await database.read<Revisions & { doc: string }>(
      Sql.sql`SELECT e."revision" AS revision, ${PEOPLE_REVISION} AS people, ${Sql.raw(document.sql)} AS doc
        FROM "Entry" e WHERE ${idIn(database.provider, missing)}`,
    );
    for (const { revision, people, doc } of rows) {
      const entry = document.read(JSON.parse(doc) as Row);
      if (people !== null) {
        kept.keep(keyOf(entry.id), revision, people, entry);
        database.versionRecorder?.record(entry.id, versionOf(revision, people, entry, range));
      }
      entries.set(entry.id, entry);
    }
  }
  // an entry deleted between the two statements is left out
  return ids.flatMap(({ id }) => entries.get(id) ?? []);
}

/** Entries by id with `parts`, keyed by id: one statement; an id with no entry is absent. */
export async function readEntriesById(
  database: PageSource,
  ids: readonly number[],
  parts: EntryParts,
  reader: EntryReader,
): Promise<Map<number, LoadedEntry>> {
  if (ids.length === 0) return new Map();
  const all = {
    sinceMs: null,
    untilMs: null,
    olderThan: null,
    newerThan: null,
    direction: 'newest',
    skip: 0,
    limit: ids.length,
    reader,
  } as const;
  const rows = await readEntryPage(database, { kind: 'ids', ids: [...new Set(ids)] }, all, parts);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The popular stream's ranking (domain/paging.ts, popularWindow): the ids of the entries posted from
 * `fromMs` until `asOfMs`, most liked and commented first by what they had received until `asOfMs`,
 * ties newest first. One statement; a page then reads its entries by id.
 */
export async function readPopularRanking(database: Pick<Database, 'read'>, window: { fromMs: number; asOfMs: number }): Promise<number[]> {
  const from = new Date(window.fromMs);
  const asOf = new Date(window.asOfMs);
  const score = Sql.sql`(SELECT count(*) FROM "Like" pl WHERE pl."entryId" = e."id" AND pl."createdAt" < ${asOf})
    + (SELECT count(*) FROM "Comment" pc WHERE pc."entryId" = e."id" AND pc."createdAt" < ${asOf})`;
  // one ranking serves every viewer: it ranks the entries everyone may see
  const rows = await database.read<{ id: number }>(Sql.sql`SELECT e."id" FROM "Entry" e
    WHERE e."createdAt" >= ${from} AND e."createdAt" < ${asOf} AND ${visibleCondition(null)}
    ORDER BY ${score} DESC, e."createdAt" DESC, e."id" DESC`);
  return rows.map((row) => Number(row.id));
}

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
  const dialect = database.provider;
  const direction = Sql.raw(range.direction === 'newest' ? 'DESC' : 'ASC');
  const inside = (alias: string) =>
    Sql.sql`${Sql.raw(alias)}."lat" BETWEEN ${box.minLat} AND ${box.maxLat} AND (${Sql.join(
      box.lonRanges.map(([west, east]) => Sql.sql`${Sql.raw(alias)}."lon" BETWEEN ${west} AND ${east}`),
      ' OR ',
    )})`;
  const orderOf = (alias: string) => Sql.sql`${Sql.raw(alias)}."createdAt" ${direction}, ${Sql.raw(alias)}."id" ${direction}`;
  const inRange = Sql.join(rangeConditions(range), ' AND ');
  const columns = Sql.raw(columnsOf('e', ['id', 'lat', 'lon', 'authorId', 'createdAt']).join(', '));
  // the rows read are a co-routine (a subquery read in its order, never a table of them): the scan
  // of the time index stops as soon as the box has given `hits` (on SQLite 1.44 -> 0.33 ms a probe)
  const rows =
    read.from === 'newest'
      ? Sql.sql`SELECT p.* FROM (SELECT ${columns} FROM "Entry" e WHERE ${inRange} ORDER BY ${orderOf('e')} LIMIT ${read.rows}) p
          WHERE ${inside('p')} ORDER BY ${orderOf('p')} LIMIT ${read.hits}`
      : Sql.sql`SELECT ${columns} FROM "Entry" e WHERE ${inside('e')} AND ${inRange} ORDER BY ${orderOf('e')} LIMIT ${read.rows} OFFSET ${read.offset}`;
  const yes = Sql.raw(dialect === 'postgresql' ? 'true' : '1');
  // whether the range goes on past the rows probed: asked only when they ran out
  const more =
    read.from === 'newest'
      ? Sql.sql`CASE WHEN count(*) < ${read.hits} THEN EXISTS (SELECT 1 FROM "Entry" e WHERE ${inRange} ORDER BY ${orderOf('e')} LIMIT 1 OFFSET ${read.rows}) ELSE ${yes} END`
      : Sql.sql`count(*) = ${read.rows}`;
  const hit = tuple(dialect, [
    ...columnsOf('n', ['id', 'lat', 'lon', 'authorId']),
    zonesOf(dialect, 'n."authorId"'),
    '(SELECT h."hiddenEndsMeters" FROM "Person" h WHERE h."id" = n."authorId")',
  ]);
  const hits = Sql.sql`${Sql.raw(dialect === 'postgresql' ? 'json_agg' : 'json_group_array')}(${Sql.raw(hit)} ORDER BY ${orderOf('n')})`;
  const document =
    dialect === 'postgresql'
      ? Sql.sql`json_build_object('more', ${more}, 'hits', COALESCE(${hits}, '[]'::json))::text`
      : Sql.sql`json_object('more', ${more}, 'hits', ${hits})`;
  const [row] = await database.read<{ doc: string }>(Sql.sql`SELECT ${document} AS doc FROM (${rows}) n`);
  const result = JSON.parse(row!.doc) as {
    more: boolean | number;
    hits: Array<[number, number, number, number, ZoneRow[], number]>;
  };
  return {
    more: Boolean(result.more),
    hits: result.hits.map(([id, lat, lon, authorId, zones, endsMeters]) => ({
      id,
      lat,
      lon,
      authorId,
      privacy: { endsMeters: Number(endsMeters ?? 0), zones: readZones(zones) },
    })),
  };
}
