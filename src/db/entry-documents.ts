// An entry's document: its row with the parts a GraphQL selection asks for (author, workout, comments
// with their authors, likes with their people, counts, the author's privacy settings), built as JSON
// inside the database in one statement's column, and read back into a LoadedEntry. Built once per
// dialect and set of parts.
import { cutCircle, type Zone } from '../domain/privacy-zones.ts';
import {
  COMMENT_COLUMNS,
  ENTRY_COLUMNS,
  type EntryParts,
  type EntryRow,
  LIKE_COLUMNS,
  type LoadedEntry,
  type PersonColumn,
  type PersonSummary,
  storedDate,
  WORKOUT_COLUMNS,
} from './entry-rows.ts';
import { Columns, type Dialect, type JsonSql, jsonSql, type Row } from './sql-json.ts';

/** The SQL of one entry's row (`e`) with the parts asked for, and how to read that row back. */
export interface EntryDocument {
  /** Names the parts: documents of different parts are kept apart. */
  key: string;
  sql: string;
  read: (row: Row) => LoadedEntry;
}

const ZONE_COLUMNS = new Columns<never>(['lat', 'lon', 'radiusMeters', 'shiftNorthMeters', 'shiftEastMeters']);
export type ZoneRow = [lat: number, lon: number, radiusMeters: number, shiftNorthMeters: number, shiftEastMeters: number];

/**
 * The privacy zones of the person whose id is `owner`, as ZoneRow tuples (an empty array for none), in
 * no particular order: a place inside any of them is hidden.
 */
export function zonesOf(json: JsonSql, owner: string): string {
  return json.nested(json.array(json.tuple(ZONE_COLUMNS.of('z')), `FROM "PrivacyZone" z WHERE z."personId" = ${owner}`));
}

/** The circles cut (domain/privacy-zones.ts cutCircle), not the zones as their owner set them. */
export const readZones = (rows: ZoneRow[]): Zone[] =>
  rows.map(([lat, lon, radiusMeters, shiftNorthMeters, shiftEastMeters]) =>
    cutCircle({ lat, lon, radiusMeters, shiftNorthMeters, shiftEastMeters }),
  );

/** Each part adds a value to the row and a step to its reading, at the same position. */
type Part = { sql: string; read: (entry: LoadedEntry, value: unknown) => void };

function workoutPart(json: JsonSql): Part {
  return {
    sql: json.nested(`SELECT ${json.tuple(WORKOUT_COLUMNS.of('w'))} FROM "Workout" w WHERE w."entryId" = e."id"`),
    read: (entry, value) => {
      if (value === null) {
        entry.workout = null;
        return;
      }
      const workout = WORKOUT_COLUMNS.read(value as Row);
      if (workout.completedAt) workout.completedAt = storedDate(workout.completedAt as unknown as string);
      entry.workout = workout;
    },
  };
}

/** An entry's comments or likes, oldest first: each row's columns, then its person as a tuple. */
function childrenPart<C extends object, K extends 'author' | 'person'>(
  json: JsonSql,
  table: 'Comment' | 'Like',
  columns: Columns<C>,
  people: { column: string; key: K; columns: Columns<PersonSummary> },
  store: (entry: LoadedEntry, children: Array<C & { entryId: number } & Record<K, PersonSummary>>) => void,
): Part {
  const row = json.tuple([...columns.of('x'), json.tuple(people.columns.of('xp'))]);
  const from = `FROM "${table}" x JOIN "Person" xp ON xp."id" = x."${people.column}" WHERE x."entryId" = e."id"`;
  return {
    sql: json.nested(json.array(row, from, 'x."createdAt", x."id"')),
    read: (entry, value) => {
      const rows = value as Row[];
      store(
        entry,
        rows.map((values) => {
          const child = columns.read(values) as C & { entryId: number; createdAt: unknown } & Record<K, PersonSummary>;
          child.entryId = entry.id;
          child.createdAt = storedDate(child.createdAt as string);
          (child as Record<K, PersonSummary>)[people.key] = people.columns.read(values[columns.names.length] as Row);
          return child;
        }),
      );
    },
  };
}

function countParts(): Part[] {
  return [
    {
      sql: `(SELECT count(*) FROM "Comment" cc WHERE cc."entryId" = e."id")`,
      read: (entry, value) => {
        entry.commentCount = Number(value);
      },
    },
    {
      sql: `(SELECT count(*) FROM "Like" lc WHERE lc."entryId" = e."id")`,
      read: (entry, value) => {
        entry.likeCount = Number(value);
      },
    },
  ];
}

function privacyPart(json: JsonSql): Part {
  return {
    sql: json.tuple([`(SELECT pp."hiddenEndsMeters" FROM "Person" pp WHERE pp."id" = e."authorId")`, zonesOf(json, 'e."authorId"')]),
    read: (entry, value) => {
      const [endsMeters, zones] = value as [number, ZoneRow[]];
      entry.authorPrivacy = { endsMeters, zones: readZones(zones) };
    },
  };
}

function partsOf(json: JsonSql, parts: EntryParts): Part[] {
  const people = new Columns<PersonSummary>([...new Set<PersonColumn>(['id', 'username', ...parts.personColumns])]);
  const chosen: Part[] = [];
  if (parts.author) {
    chosen.push({
      sql: json.nested(`SELECT ${json.tuple(people.of('p'))} FROM "Person" p WHERE p."id" = e."authorId"`),
      read: (entry, value) => {
        entry.author = people.read(value as Row);
      },
    });
  }
  if (parts.workout) chosen.push(workoutPart(json));
  if (parts.comments) {
    chosen.push(
      childrenPart(json, 'Comment', COMMENT_COLUMNS, { column: 'authorId', key: 'author', columns: people }, (entry, comments) => {
        entry.comments = comments;
      }),
    );
  }
  if (parts.likes) {
    chosen.push(
      childrenPart(json, 'Like', LIKE_COLUMNS, { column: 'personId', key: 'person', columns: people }, (entry, likes) => {
        entry.likes = likes;
      }),
    );
  }
  if (parts.counts) chosen.push(...countParts());
  if (parts.privacy) chosen.push(privacyPart(json));
  return chosen;
}

/**
 * An entry's row as the GraphQL Entry type's model: Prisma's Entry less the two columns no field shows
 * (`importHash`, `revision`), which a page does not read.
 */
function readEntry(row: Row): LoadedEntry {
  const entry: EntryRow = ENTRY_COLUMNS.read(row);
  entry.createdAt = storedDate(entry.createdAt as unknown as string);
  return entry as LoadedEntry;
}

function entryDocument(dialect: Dialect, parts: EntryParts, key: string): EntryDocument {
  const json = jsonSql(dialect);
  const chosen = partsOf(json, parts);
  const document = json.tuple([...ENTRY_COLUMNS.of('e'), ...chosen.map((part) => part.sql)]);
  const offset = ENTRY_COLUMNS.names.length;
  return {
    key,
    sql: json.text(document),
    read: (row) => {
      const entry = readEntry(row);
      for (let i = 0; i < chosen.length; i++) chosen[i]!.read(entry, row[offset + i]);
      return entry;
    },
  };
}

const documents = new Map<string, EntryDocument>();

/** An entry's row with `parts`, built once per dialect and parts. */
export function documentOf(dialect: Dialect, parts: EntryParts): EntryDocument {
  const key = `${dialect}:${parts.author}${parts.workout}${parts.comments}${parts.likes}${parts.counts}${parts.privacy}:${parts.personColumns.join()}`;
  let document = documents.get(key);
  if (document === undefined) documents.set(key, (document = entryDocument(dialect, parts, key)));
  return document;
}
