// Reads a page of entries, with the parts a GraphQL selection asks for. One statement reads the page's
// ids with their revisions; the entries' documents kept at those revisions are used as they are
// (db/kept-documents.ts), and one more statement builds the others as JSON inside the database
// (db/entry-documents.ts). Prisma's relation loading costs six statements and about 3.5 ms of this
// process's CPU per page; this costs at most two statements and a JSON.parse of what was not kept.
// Prisma stays the model and the write path.
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database } from './database.ts';
import { type EntryRange, type EntryReader, type EntryScope, rangeConditions, scopeCondition } from './entry-conditions.ts';
import { documentOf } from './entry-documents.ts';
import type { EntryParts, LoadedEntry, VersionRecorder } from './entry-rows.ts';
import { jsonSql, type Row } from './sql-json.ts';

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
  // the page found by its ids alone (the time index holds what the conditions ask: a deep page skips
  // the entries before it there, PostgreSQL in an index-only scan), its rows' revisions read after
  const ids = await database.read<Revisions & { id: number }>(
    Sql.sql`SELECT e."id" AS id, e."revision" AS revision, ${PEOPLE_REVISION} AS people
      FROM (${inOrder}) p JOIN "Entry" e ON e."id" = p."id" ORDER BY ${order('p')}`,
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
        FROM "Entry" e WHERE ${jsonSql(database.provider).idIn(missing)}`,
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
