// One activity file, as uploaded or as found in an archive: uncompressed if gzipped (under a bound, so
// a gzip bomb costs nothing), its format told by its bytes, parsed, and hashed so that importing it
// twice finds the first import.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  activityTypeOf,
  detectFormat,
  type ImportedActivity,
  isGzip,
  MAX_ACTIVITY_FILE_BYTES,
  requireUsable,
} from '../domain/activity-file.ts';
import { ValidationError } from '../domain/errors.ts';
import { parseGpx } from '../domain/gpx.ts';
import { parseTcx } from '../domain/tcx.ts';
import { decodeFitOffThread, type ReadActivity } from './fit-pool.ts';

const gunzipAsync = promisify(gunzip);

export interface OpenedActivity {
  activity: ReadActivity;
  /** SHA-256 of the uncompressed file: the same activity gzipped or not is the same import. */
  hash: string;
}

const fileError = (message: string) => ValidationError.field('file', message);

/** The file's bytes, uncompressed when they are gzip, at most MAX_ACTIVITY_FILE_BYTES. */
export async function uncompressed(bytes: Uint8Array, limit = MAX_ACTIVITY_FILE_BYTES): Promise<Buffer> {
  if (!isGzip(bytes)) {
    if (bytes.byteLength > limit) throw fileError(`is larger than ${limit} bytes`);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  try {
    // the bound applies while inflating: a bomb stops at the limit, never allocates past it
    return await gunzipAsync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw fileError(`uncompresses to more than ${limit} bytes`);
    throw fileError('is a corrupt or truncated gzip file');
  }
}

/** A file's uncompressed bytes and their hash: enough to tell whether it was imported before, without parsing it. */
export async function openActivityFile(bytes: Uint8Array): Promise<{ plain: Buffer; hash: string }> {
  if (bytes.byteLength === 0) throw fileError('is empty');
  const plain = await uncompressed(bytes);
  return { plain, hash: createHash('sha256').update(plain).digest('hex') };
}

/** Reads one FIT, TCX or GPX file (gzipped or not); every refusal is a ValidationError on `file`. */
export async function readActivityFile(bytes: Uint8Array): Promise<OpenedActivity> {
  const { plain, hash } = await openActivityFile(bytes);
  return { activity: await parseActivityFile(plain), hash };
}

/** Parses an opened (uncompressed) activity file. */
export async function parseActivityFile(plain: Buffer): Promise<ReadActivity> {
  const format = detectFormat(plain);
  if (format === null) throw fileError('is not a FIT, TCX or GPX activity file (judged by its content, not its name)');
  const activity: ReadActivity =
    format === 'fit' ? await decodeFitOffThread(plain) : format === 'tcx' ? await parseTcx(plain) : await gpxActivity(plain);
  return requireUsable(activity, activity.prepared ? activity.prepared.data.pointCount : activity.points.length);
}

async function gpxActivity(bytes: Uint8Array): Promise<ImportedActivity> {
  try {
    const gpx = await parseGpx(bytes, MAX_ACTIVITY_FILE_BYTES);
    return {
      format: 'gpx',
      activityType: activityTypeOf(gpx.type),
      startedAt: gpx.points.find((p) => p.time)?.time ?? null,
      // from the track, when the entry is made (the same figures a GPX upload gives)
      distanceMeters: null,
      durationSeconds: null,
      calories: null,
      name: gpx.name,
      notes: null,
      points: gpx.points,
      waypoints: gpx.waypoints,
      repairs: gpx.repairs,
      recorded: null,
    };
  } catch (error) {
    // the GPX parser names its own field; here the document is the file
    if (error instanceof ValidationError) throw fileError(error.issues[0]?.message ?? error.message);
    throw error;
  }
}
