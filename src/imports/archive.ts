// Imports a zip of another service's bulk export, or of a Milepost account export, as entries of one
// person:
// - Strava-style: `activities.csv` (Activity Name, Type, Description, Filename) and the activity
//   files it names (`activities/*.fit.gz|*.gpx|*.tcx`, gzipped or not); one workout entry a row. A row
//   without a file (typed in by hand) is a workout without a track, of the row's time and distance.
// - Milepost: `entries.json` with `tracks/` and `photos/`: every entry made again, notes included.
// The zip is read from disk by random access (yauzl), one file at a time, so memory stays bounded for
// an archive of any size. Each entry carries the hash of what it came from, so a run cut short (a crash,
// a restart) and started again skips what is done and makes no duplicates. Entries keep their own
// dates (an archive is history) and announce nothing to webhooks or subscriptions.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import yauzl from 'yauzl';
import type { Database } from '../db/database.ts';
import { changeDefaults } from '../db/gear.ts';
import { createImportedEntry, importedEntry, insertImportedEntry } from '../db/imports.ts';
import { activityTypeOf, MAX_ACTIVITY_FILE_BYTES } from '../domain/activity-file.ts';
import {
  ARCHIVE_INFLATION_ALLOWANCE,
  checkArchiveFile,
  exportedEntry,
  exportedGear,
  FUTURE_SLACK_MS,
  MAX_ARCHIVE_FILES,
  MAX_ARCHIVE_RATIO,
  MAX_ARCHIVE_UNCOMPRESSED,
  MAX_LINE_BYTES,
  MAX_LIST_BYTES,
  parseExportDate,
} from '../domain/archive.ts';
import { ValidationError } from '../domain/errors.ts';
import { MAX_GEAR, withDefaults } from '../domain/gear.ts';
import { parseGpx } from '../domain/gpx.ts';
import { MAX_IMAGE_BYTES, processImage } from '../media/images.ts';
import type { MediaStore } from '../media/store.ts';
import { openActivityFile, parseActivityFile } from './activity-files.ts';

export interface SkippedItem {
  item: string;
  reason: string;
}

export interface ArchiveProgress {
  /** Activities (or exported entries) the archive lists. */
  total: number;
  processed: number;
  created: number;
  /** Already imported before (this file, or this run before a restart). */
  duplicates: number;
  skippedCount: number;
  /** What was not imported and why; the first 1,000. */
  skipped: SkippedItem[];
}

export interface ArchiveImport {
  database: Pick<Database, 'prisma' | 'provider'>;
  media: MediaStore;
  personId: number;
  zipPath: string;
  onProgress?: (progress: ArchiveProgress) => void | Promise<void>;
  signal?: AbortSignal;
}

const MAX_SKIPPED_LISTED = 1000;

const refuse = (message: string): never => {
  throw ValidationError.field('file', message);
};

/** The archive's files by name, its central directory checked whole before anything is imported. */
async function openArchive(zipPath: string): Promise<{ zip: yauzl.ZipFile; files: Map<string, yauzl.Entry> }> {
  let zip: yauzl.ZipFile;
  try {
    // the file names are checked below (checkArchiveFile), with a reason the person can read
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
  } catch (error) {
    // the disk's failure (the stored file gone, unreadable) is not the archive's
    if (/^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code ?? '')) throw error;
    return refuse(`is not a zip archive (${(error as Error).message.slice(0, 100)})`);
  }
  const files = new Map<string, yauzl.Entry>();
  let uncompressed = 0;
  // the whole archive's inflation is bounded too, not only each file's (yauzl holds every file to its declared size)
  const allowed = Math.min(MAX_ARCHIVE_UNCOMPRESSED, MAX_ARCHIVE_RATIO * (await stat(zipPath)).size + ARCHIVE_INFLATION_ALLOWANCE);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        try {
          if (files.size >= MAX_ARCHIVE_FILES) refuse(`lists more than ${MAX_ARCHIVE_FILES} files`);
          checkArchiveFile(entry.fileName, entry.compressedSize, entry.uncompressedSize);
          uncompressed += entry.uncompressedSize;
          if (uncompressed > allowed)
            refuse(
              `would uncompress to more than ${allowed} bytes (${MAX_ARCHIVE_RATIO} times its size and 256 MB): it is refused as a zip bomb`,
            );
          // two files of one name: which one is meant cannot be known
          if (files.has(entry.fileName)) refuse(`holds two files named "${entry.fileName.slice(0, 100)}"`);
          if (!entry.fileName.endsWith('/')) files.set(entry.fileName, entry);
          zip.readEntry();
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    if (error instanceof ValidationError) throw error;
    // yauzl checks names too: an absolute path or a "../" is zip-slip
    const slip = /^(invalid relative path|absolute path): (.*)$/.exec((error as Error).message);
    if (slip) return refuse(`holds a path that escapes the archive ("${slip[2]!.slice(0, 100)}"): it is refused`);
    return refuse(`is a corrupt zip archive (${(error as Error).message.slice(0, 100)})`);
  }
  return { zip, files };
}

/** A file of the archive, whole, at most `limit` bytes (its declared size is checked first, then every byte read). */
async function readFile(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of boundedStream(zip, entry, limit)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * A file of the archive as a stream, cut off past `limit` bytes. Bytes that cannot be inflated (a
 * corrupt file) are the file's fault: a ValidationError naming it, never an error to try again.
 */
async function* boundedStream(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): AsyncGenerator<Buffer> {
  if (entry.uncompressedSize > limit) refuse(`"${entry.fileName}" is larger than ${limit} bytes`);
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    return refuse(`"${entry.fileName.slice(0, 100)}" cannot be read: ${(error as Error).message.slice(0, 100)}`);
  }
  let bytes = 0;
  const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await chunks.next();
    } catch (error) {
      stream.destroy();
      return refuse(`"${entry.fileName.slice(0, 100)}" is corrupt: ${(error as Error).message.slice(0, 100)}`);
    }
    if (next.done) return;
    bytes += next.value.length;
    if (bytes > limit) {
      stream.destroy();
      refuse(`"${entry.fileName}" is larger than ${limit} bytes`);
    }
    yield next.value;
  }
}

/** The one file named `name` at the root of the archive or of its single top folder. */
function find(files: Map<string, yauzl.Entry>, name: string): { entry: yauzl.Entry; base: string } | null {
  if (files.has(name)) return { entry: files.get(name)!, base: '' };
  for (const [path, entry] of files) {
    const parts = path.split('/');
    if (parts.length === 2 && parts[1] === name) return { entry, base: `${parts[0]}/` };
  }
  return null;
}

interface StravaRow {
  id: string;
  date: Date | null;
  name: string | null;
  type: string | null;
  description: string | null;
  filename: string | null;
  /** What a row without a file (an activity typed in by hand) is made of: its moving (else elapsed) seconds, metres and calories. */
  seconds: number | null;
  meters: number | null;
  calories: number | null;
  /** The name of the gear it was done in ("Activity Gear"), if any. */
  gear: string | null;
}

/** A figure of activities.csv: a number at least zero, else null. */
function csvFigure(value: string | null): number | null {
  if (value === null) return null;
  const figure = Number(value);
  return Number.isFinite(figure) && figure >= 0 ? figure : null;
}

/** activities.csv's rows. Strava repeats some column names (two "Distance"): the first of each is read. */
async function stravaRows(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<StravaRow[]> {
  const rows: StravaRow[] = [];
  const parser = parseCsv({ columns: false, bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 });
  let header: string[] | null = null;
  const column = (record: string[], name: string, which: 'first' | 'last' = 'first') => {
    const index = which === 'first' ? header!.indexOf(name) : header!.lastIndexOf(name);
    return index >= 0 ? record[index]?.trim() || null : null;
  };
  // Strava's first "Distance" is in kilometres, its second (in newer exports) in metres
  const metersOf = (record: string[]) => {
    const two = header!.indexOf('Distance') !== header!.lastIndexOf('Distance');
    const value = csvFigure(column(record, 'Distance', two ? 'last' : 'first'));
    return value === null ? null : two ? value : value * 1000;
  };
  const reading = (async () => {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = record.map((h) => h.trim());
        if (!header.includes('Filename')) refuse('activities.csv has no "Filename" column: it is not a Strava-style export');
        continue;
      }
      if (rows.length >= MAX_ARCHIVE_FILES) refuse(`activities.csv lists more than ${MAX_ARCHIVE_FILES} activities`);
      rows.push({
        id: column(record, 'Activity ID') ?? String(rows.length + 1),
        date: parseExportDate(column(record, 'Activity Date') ?? undefined),
        name: column(record, 'Activity Name')?.slice(0, 200) ?? null,
        type: column(record, 'Activity Type'),
        description: column(record, 'Activity Description')?.slice(0, 5000) ?? null,
        filename: column(record, 'Filename'),
        seconds: csvFigure(column(record, 'Moving Time')) ?? csvFigure(column(record, 'Elapsed Time')),
        meters: metersOf(record),
        calories: csvFigure(column(record, 'Calories')),
        gear: column(record, 'Activity Gear')?.slice(0, 100) ?? null,
      });
    }
  })();
  // a refusal while the bytes are still being written is awaited below, never left unhandled
  reading.catch(() => undefined);
  try {
    for await (const chunk of boundedStream(zip, entry, MAX_LIST_BYTES)) {
      // the reader may stop first (a refused header): its failure ends the wait for room
      if (!parser.write(chunk)) await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), reading]);
    }
    parser.end();
    await reading;
  } catch (error) {
    parser.destroy();
    await reading.catch(() => undefined);
    if (error instanceof ValidationError) throw error;
    return refuse(`activities.csv cannot be read: ${(error as Error).message.slice(0, 200)}`);
  }
  return rows;
}

/**
 * The lines of entries.json that hold an entry (the export writes one a line), each at most
 * MAX_LINE_BYTES: one line of 512 MB made readline throw `Invalid string length` at 0.8 GB.
 */
async function* exportLines(zip: yauzl.ZipFile, entry: yauzl.Entry): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const line = (bytes: Buffer) => {
    const trimmed = bytes.toString('utf8').trim().replace(/^,/, '').replace(/,$/, '');
    return trimmed.startsWith('{') ? trimmed : null;
  };
  for await (const chunk of boundedStream(zip, entry, MAX_LIST_BYTES)) {
    let from = 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, from)) {
      if (pendingBytes + at - from > MAX_LINE_BYTES) refuse(`entries.json has a line longer than ${MAX_LINE_BYTES} bytes`);
      const text = line(Buffer.concat([...pending, chunk.subarray(from, at)]));
      pending = [];
      pendingBytes = 0;
      if (text) yield text;
      from = at + 1;
    }
    pending.push(chunk.subarray(from));
    pendingBytes += chunk.length - from;
    if (pendingBytes > MAX_LINE_BYTES) refuse(`entries.json has a line longer than ${MAX_LINE_BYTES} bytes`);
  }
  const text = line(Buffer.concat(pending));
  if (text) yield text;
}

/** An import under way: its archive, its tally, and the bounds every item is held to. */
interface Run {
  options: ArchiveImport;
  zip: yauzl.ZipFile;
  files: Map<string, yauzl.Entry>;
  progress: ArchiveProgress;
  /** No entry may be dated after the import (with a little slack for clocks). */
  latest: number;
  skip(item: string, reason: string): void;
  counted(outcome: { created: boolean }): void;
  /**
   * Claims a file of the archive for `item`: null the first time, else the item that had it. A file is
   * read and parsed once however often the archive names it: one 19.6 MB GPX named 3,000 times by
   * activities.csv was 59 GB of parsing, and 30 lines of entries.json naming one track made 30 copies.
   */
  claim(file: string, item: string): string | null;
  /** Photos stored by this run, by their name in the archive. */
  photos: Map<string, { content: string; preview: string }>;
  /** The person's gear by the name a Strava export gives it (null: imported without it). */
  gear: Map<string, number | null>;
  /** One more item done, reported. */
  step(): Promise<void>;
}

/** Imports the archive at `zipPath`; refusals of the archive as a whole are ValidationErrors on `file`. */
export async function importArchive(options: ArchiveImport): Promise<ArchiveProgress> {
  const { zip, files } = await openArchive(options.zipPath);
  const progress: ArchiveProgress = { total: 0, processed: 0, created: 0, duplicates: 0, skippedCount: 0, skipped: [] };
  const claimed = new Map<string, string>();
  const run: Run = {
    options,
    zip,
    files,
    progress,
    latest: Date.now() + FUTURE_SLACK_MS,
    skip(item, reason) {
      progress.skippedCount += 1;
      if (progress.skipped.length < MAX_SKIPPED_LISTED) progress.skipped.push({ item: item.slice(0, 200), reason: reason.slice(0, 300) });
    },
    counted(outcome) {
      if (outcome.created) progress.created += 1;
      else progress.duplicates += 1;
    },
    photos: new Map(),
    gear: new Map(),
    claim(file, item) {
      const holder = claimed.get(file);
      if (holder !== undefined) return holder;
      claimed.set(file, item);
      return null;
    },
    async step() {
      progress.processed += 1;
      await options.onProgress?.(progress);
    },
  };
  try {
    const csv = find(files, 'activities.csv');
    if (csv) return await importStravaExport(run, csv);
    const exported = find(files, 'entries.json');
    if (exported) return await importMilepostExport(run, exported);
    return refuse('is neither a Strava-style export (activities.csv with activities/) nor a Milepost export (entries.json)');
  } finally {
    zip.close();
  }
}

/** What an item's refusal says in the list of skipped items; null for an error that is not the item's fault. */
function refusalOf(error: unknown): string | null {
  if (error instanceof ValidationError) return error.issues[0]?.message ?? error.message;
  if (error instanceof Error && /larger than/.test(error.message)) return error.message;
  return null;
}

/** What gear of a Strava export is, by the activity it was first used for. */
function gearKindOf(activityType: string): 'shoes' | 'bike' | 'other' {
  if (['cycling', 'spinning', 'commute'].includes(activityType)) return 'bike';
  if (['running', 'walking', 'hiking'].includes(activityType)) return 'shoes';
  return 'other';
}

/**
 * The person's gear a Strava row names ("Activity Gear"), found by its name among theirs or made (of
 * the kind its first activity suggests); null for none, or past MAX_GEAR (said once).
 */
async function stravaGear(run: Run, row: StravaRow): Promise<number | null> {
  if (!row.gear) return null;
  const known = run.gear.get(row.gear);
  if (known !== undefined) return known;
  const { prisma } = run.options.database;
  const ownerId = run.options.personId;
  const found = await prisma.gear.findFirst({ where: { ownerId, name: row.gear }, orderBy: { id: 'asc' }, select: { id: true } });
  let id: number | null = found?.id ?? null;
  if (id === null) {
    if ((await prisma.gear.count({ where: { ownerId } })) >= MAX_GEAR) {
      run.skip(`gear "${row.gear}"`, `you keep ${MAX_GEAR} pieces of gear already: its activities are imported without it`);
    } else {
      const kind = gearKindOf(activityTypeOf(row.type));
      id = (await prisma.gear.create({ data: { ownerId, name: row.gear, kind }, select: { id: true } })).id;
    }
  }
  run.gear.set(row.gear, id);
  return id;
}

/** A Strava-style export: each row of activities.csv with its activity file. */
async function importStravaExport(run: Run, csv: { entry: yauzl.Entry; base: string }): Promise<ArchiveProgress> {
  const rows = await stravaRows(run.zip, csv.entry);
  run.progress.total = rows.length;
  await run.options.onProgress?.(run.progress);
  for (const row of rows) {
    run.options.signal?.throwIfAborted();
    const label = `activity ${row.id}${row.name ? ` (${row.name})` : ''}`;
    const file = row.filename ? run.files.get(`${csv.base}${row.filename}`) : undefined;
    if (!row.filename) await importManualActivity(run, row, label);
    else if (!file) run.skip(label, `${row.filename} is not in the archive`);
    else {
      const holder = run.claim(row.filename, label);
      if (holder !== null) run.skip(label, `${row.filename} was named before, by ${holder}`);
      else {
        try {
          await importStravaActivity(run, row, file, label);
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal === null) throw error;
          run.skip(label, `${row.filename}: ${refusal}`);
        }
      }
    }
    await run.step();
  }
  return run.progress;
}

/**
 * An activity typed in by hand (a treadmill run, a class): no file, so a workout without a track from
 * the row's own figures. Known again by the row itself: the same export imported twice makes it once.
 */
async function importManualActivity(run: Run, row: StravaRow, label: string): Promise<void> {
  const { prisma, provider } = run.options.database;
  const personId = run.options.personId;
  if (!row.date) return run.skip(label, 'has no activity file and no date');
  if (row.date.getTime() > run.latest) return run.skip(label, `is dated ${row.date.toISOString()}, after the import: a clock was wrong`);
  const hash = createHash('sha256')
    .update('strava-manual\n')
    .update(JSON.stringify([row.id, row.date.toISOString(), row.name, row.type, row.seconds, row.meters]))
    .digest('hex');
  const known = await importedEntry(prisma, personId, hash);
  if (known) return run.counted(known);
  const activity = {
    format: 'gpx' as const,
    activityType: activityTypeOf(row.type),
    startedAt: row.date,
    distanceMeters: row.meters && row.meters > 0 ? row.meters : null,
    durationSeconds: row.seconds && row.seconds > 0 ? row.seconds : null,
    calories: row.calories === null ? null : Math.round(row.calories),
    name: row.name,
    notes: null,
    points: [],
    waypoints: [],
    repairs: [],
    recorded: null,
  };
  const outcome = await createImportedEntry(prisma, provider, activity, {
    authorId: personId,
    hash,
    title: row.name,
    message: row.description,
    createdAt: row.date,
    announce: false,
    gearId: await stravaGear(run, row),
  });
  run.counted(outcome);
}

async function importStravaActivity(run: Run, row: StravaRow, file: yauzl.Entry, label: string): Promise<void> {
  const { prisma, provider } = run.options.database;
  const personId = run.options.personId;
  const { plain, hash } = await openActivityFile(await readFile(run.zip, file, MAX_ACTIVITY_FILE_BYTES));
  // imported before (a second run, a resume): known by its hash, not parsed again
  const known = await importedEntry(prisma, personId, hash);
  if (known) return run.counted(known);
  const activity = await parseActivityFile(plain);
  const typed = activityTypeOf(row.type);
  const dated = activity.startedAt ?? row.date;
  if (dated && dated.getTime() > run.latest) return run.skip(label, `is dated ${dated.toISOString()}, after the import: a clock was wrong`);
  const outcome = await createImportedEntry(
    prisma,
    provider,
    { ...activity, activityType: typed !== 'fitness' ? typed : activity.activityType, startedAt: activity.startedAt ?? row.date },
    {
      authorId: personId,
      hash,
      title: row.name,
      message: row.description,
      createdAt: activity.startedAt ?? row.date ?? new Date(),
      announce: false,
      gearId: await stravaGear(run, row),
    },
  );
  run.counted(outcome);
}

/** A Milepost export: each line of entries.json, with its track and photo. */
async function importMilepostExport(run: Run, exported: { entry: yauzl.Entry; base: string }): Promise<ArchiveProgress> {
  const { prisma } = run.options.database;
  const person = await prisma.person.findUniqueOrThrow({ where: { id: run.options.personId }, select: { defaultVisibility: true } });
  const gear = await restoreGear(run, exported.base);
  for await (const _ of exportLines(run.zip, exported.entry)) run.progress.total += 1;
  await run.options.onProgress?.(run.progress);
  let line = 0;
  for await (const text of exportLines(run.zip, exported.entry)) {
    run.options.signal?.throwIfAborted();
    line += 1;
    const label = `entry ${line}`;
    try {
      await importExportedLine(run, text, { label, base: exported.base, defaultVisibility: person.defaultVisibility, gear });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === null) throw error;
      run.skip(label, refusal);
    }
    await run.step();
  }
  return run.progress;
}

/** gear.json is a list of at most MAX_GEAR short rows. */
const MAX_GEAR_LIST_BYTES = 1024 * 1024;

/**
 * The export's gear (gear.json), made again for the person, or found among theirs (the same name, kind,
 * brand and model: an export imported twice makes it once), by the id the export's workouts name it
 * by. Its defaults are taken for the activities the person has no default of yet.
 */
async function restoreGear(run: Run, base: string): Promise<Map<number, number>> {
  const restored = new Map<number, number>();
  const file = run.files.get(`${base}gear.json`);
  if (!file) return restored;
  let value: unknown;
  try {
    value = JSON.parse((await readFile(run.zip, file, MAX_GEAR_LIST_BYTES)).toString('utf8'));
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === null && !(error instanceof SyntaxError)) throw error;
    run.skip('gear.json', refusal ?? 'is not JSON');
    return restored;
  }
  const { prisma } = run.options.database;
  const ownerId = run.options.personId;
  const kept = await prisma.gear.findMany({ where: { ownerId }, select: { id: true, name: true, brand: true, model: true, kind: true } });
  for (const gear of exportedGear(value)) {
    const { id: exportedId, defaultFor, ...fields } = gear;
    let id = kept.find((g) => g.name === fields.name && g.kind === fields.kind && g.brand === fields.brand && g.model === fields.model)?.id;
    if (id === undefined) {
      if (kept.length >= MAX_GEAR) {
        run.skip(`gear "${fields.name}"`, `you keep ${MAX_GEAR} pieces of gear already`);
        continue;
      }
      const made = await prisma.gear.create({ data: { ...fields, ownerId }, select: { id: true } });
      kept.push({ ...fields, id: made.id });
      id = made.id;
    }
    restored.set(exportedId, id);
    const madeId = id;
    if (defaultFor.length > 0)
      await prisma.$transaction((tx) =>
        changeDefaults(tx, ownerId, (defaults) =>
          withDefaults(defaults, madeId, [
            ...Object.entries(defaults).flatMap(([type, gearId]) => (gearId === madeId ? [type as (typeof defaultFor)[number]] : [])),
            ...defaultFor.filter((type) => defaults[type] === undefined),
          ]),
        ),
      );
  }
  return restored;
}

async function importExportedLine(
  run: Run,
  text: string,
  at: { label: string; base: string; defaultVisibility: string; gear: Map<number, number> },
): Promise<void> {
  const { prisma, provider } = run.options.database;
  const { label, base } = at;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  const restored = exportedEntry(value, at.defaultVisibility);
  if (!restored) return run.skip(label, 'is not an entry of a Milepost export');
  if (restored.row.workout) restored.row.workout.gearId = (restored.gear !== null && at.gear.get(restored.gear)) || null;
  // it would sit at the top of every stream for years
  if (restored.row.createdAt && restored.row.createdAt.getTime() > run.latest)
    return run.skip(label, `is dated ${restored.row.createdAt.toISOString()}, after the import`);
  // the entry as exported is its identity: the same export imported again makes nothing new
  const hash = createHash('sha256').update('milepost-export\n').update(text).digest('hex');
  const existing = await importedEntry(prisma, run.options.personId, hash);
  if (existing) return run.counted(existing);
  const trackFile = restored.track ? run.files.get(`${base}${restored.track}`) : undefined;
  const trackHolder = trackFile && restored.track ? run.claim(restored.track, label) : null;
  if (trackHolder !== null) return run.skip(label, `its track ${restored.track} belongs to ${trackHolder}`);
  const parsed = trackFile ? await parseGpx(await readFile(run.zip, trackFile, MAX_ACTIVITY_FILE_BYTES), MAX_ACTIVITY_FILE_BYTES) : null;
  // the laps and thresholds its device recorded travel beside the GPX, which cannot carry them
  const track = parsed && { ...parsed, recorded: restored.recorded };
  const photoFile = restored.photo ? run.files.get(`${base}${restored.photo}`) : undefined;
  if (photoFile && restored.photo) {
    // entries may show one photo (an export names it once for all of them): it is processed once
    let stored = run.photos.get(restored.photo);
    if (!stored) {
      const bytes = await readFile(run.zip, photoFile, MAX_IMAGE_BYTES);
      stored = await run.options.media.save(await processImage(new Blob([bytes as Uint8Array<ArrayBuffer>])));
      run.photos.set(restored.photo, stored);
    }
    restored.row.mediaType = 'image';
    restored.row.mediaUrl = stored.content;
    restored.row.mediaPreviewUrl = stored.preview;
  }
  if (!restored.row.message && !restored.row.workout && !restored.row.mediaUrl && restored.row.lat == null)
    return run.skip(label, 'has nothing to post: no message, workout, photo or place');
  run.counted(await insertImportedEntry(prisma, provider, run.options.personId, hash, restored.row, track, false));
}
