// Archive imports uploaded from the account page run as background jobs (ImportJob rows): the zip waits
// in MEDIA_DIR/imports, each server process runs a runner, and the page reads their progress. The rows
// are a queue that any number of processes share:
// - a runner claims a job with one conditional update (queued and due, or running with its lease run
//   out), so two processes never run the same job; it renews the lease while it works, and a job whose
//   process stopped is taken up by the next runner once its lease ends (the entries' import hashes make
//   that a resume, not a second import);
// - an archive that cannot be read fails at once, shown to its athlete; any other failure (the database
//   away) is tried again later, at most MAX_ATTEMPTS times with a growing backoff, and the job waits
//   without holding the queue: every other athlete's jobs go on meanwhile;
// - a person has one active job at a time (activeFor, unique), however many uploads race.
// Archive imports uploaded from the account page run as background jobs (ImportJob rows): the zip waits
// in MEDIA_DIR/imports, one process (the one that also backfills records) takes the jobs in order, and
// the page reads their progress. A job that was running when the process stopped is taken up again at
// the next start; the entries' import hashes make that a resume, not a second import.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ValidationError } from '../domain/errors.ts';
import type { MediaStore } from '../media/store.ts';
import { type ArchiveProgress, importArchive } from './archive.ts';

/** How often a running job writes its progress (and renews its lease). */
const PROGRESS_EVERY_MS = 1000;
/** How often the runner looks for new jobs when nobody woke it. */
const POLL_MS = 2000;
/** After an unexpected failure of the runner itself (the database away), it looks again this much later. */
const RETRY_MS = 30_000;
/** A claimed job is the runner's for this long, renewed as it works. */
export const LEASE_MS = 120_000;
/** Times a job is taken up before an unexpected failure fails it for good. */
export const MAX_ATTEMPTS = 4;
/** The first retry's wait; each later one waits four times longer (30 s, 2 min, 8 min). */
export const BACKOFF_MS = 30_000;
/**
 * How long one job runs before it gives way: it goes back to the queue, behind the others waiting,
 * and resumes where it stopped (what it made is known by its hash). Two big uploads once kept a third
 * athlete's small import queued until they were deleted.
 */
export const SLICE_MS = 60_000;

export class ImportAlreadyQueuedError extends Error {
  override name = 'ImportAlreadyQueuedError';
}

export const importsDirectory = (mediaDir: string) => path.join(mediaDir, 'imports');

/** Moves an uploaded zip into the imports directory and queues its job; answers the job's id. */
export async function queueArchiveImport(
  database: Pick<Database, 'prisma'>,
  media: MediaStore,
  personId: number,
  fileName: string,
  uploadedPath: string,
): Promise<number> {
  const directory = importsDirectory(media.directory);
  await mkdir(directory, { recursive: true });
  const storedName = `${randomBytes(16).toString('hex')}.zip`;
  const stored = path.join(directory, storedName);
  await rename(uploadedPath, stored);
  try {
    const job = await database.prisma.importJob.create({
      data: { personId, fileName: fileName.slice(0, 200) || 'archive.zip', storedName, activeFor: personId, runAfter: new Date() },
      select: { id: true },
    });
    return job.id;
  } catch (error) {
    await rm(stored, { force: true });
    // another upload of theirs won the race: one import at a time
    if (isUniqueViolation(error)) throw new ImportAlreadyQueuedError('an import of yours is still queued or running');
    throw error;
  }
}

const progressColumns = (progress: ArchiveProgress) => ({
  total: progress.total,
  processed: progress.processed,
  created: progress.created,
  duplicates: progress.duplicates,
  skippedCount: progress.skippedCount,
  skipped: JSON.stringify(progress.skipped),
  updatedAt: new Date(),
});

/** Whether an error is the archive's (its bytes cannot be read), so that trying again cannot help. */
function archiveFault(error: unknown): boolean {
  if (error instanceof ValidationError) return true;
  const code = (error as NodeJS.ErrnoException | null)?.code ?? '';
  // zlib's (a corrupt deflate stream), yauzl's own checks, and a file too big to hold as a string
  return (
    /^Z_|^ERR_BUFFER_TOO_LARGE|^ERR_STRING_TOO_LONG/.test(code) ||
    /too many bytes|invalid (stored|distance|code|block)|Invalid string length|unexpected EOF|bad (deflate|header)/i.test(
      (error as Error | null)?.message ?? '',
    )
  );
}

const messageOf = (error: unknown) =>
  (error instanceof ValidationError
    ? (error.issues[0]?.message ?? error.message)
    : error instanceof Error
      ? error.message
      : String(error)
  ).slice(0, 500);

/**
 * Claims the next job due: queued with its backoff over, or running with its lease run out, oldest
 * first. One conditional update: of runners racing for it, one wins and the others look again.
 */
async function claimJob(database: Database): Promise<{ id: number; personId: number; storedName: string; attempts: number } | null> {
  const { prisma } = database;
  for (let tries = 0; tries < 5; tries++) {
    const now = new Date();
    const due = {
      OR: [
        { status: 'queued', runAfter: { lte: now } },
        { status: 'running', OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
      ],
    };
    // the one that waited longest: a job that gave way (SLICE_MS) waits behind those queued meanwhile
    const candidate = await prisma.importJob.findFirst({
      where: due,
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    if (!candidate) return null;
    const lease = new Date(now.getTime() + LEASE_MS);
    const claimed = await prisma.importJob.updateMany({
      where: { id: candidate.id, ...due },
      data: { status: 'running', leaseUntil: lease, attempts: { increment: 1 }, updatedAt: now },
    });
    if (claimed.count === 1)
      return prisma.importJob.findUniqueOrThrow({
        where: { id: candidate.id },
        select: { id: true, personId: true, storedName: true, attempts: true },
      });
  }
  return null;
}

/**
 * Runs the next job due, if any; answers whether there was one. An unexpected failure is recorded on
 * the job (tried again after its backoff, or failed after MAX_ATTEMPTS), never left to block the queue.
 */
export async function runNextImportJob(
  database: Database,
  media: MediaStore,
  logger?: Logger,
  signal?: AbortSignal,
  sliceMs = SLICE_MS,
): Promise<boolean> {
  const { prisma } = database;
  const job = await claimJob(database);
  if (!job) return false;
  const slice = AbortSignal.timeout(sliceMs);
  const zipPath = path.join(importsDirectory(media.directory), job.storedName);
  let written = 0;
  const finish = async (data: Record<string, unknown>) => {
    await prisma.importJob.updateMany({
      where: { id: job.id },
      data: { ...data, activeFor: null, leaseUntil: null, updatedAt: new Date() },
    });
    // done or failed: the zip has served (a job whose person was deleted is gone with its row)
    await rm(zipPath, { force: true });
  };
  try {
    const result = await importArchive({
      database,
      media,
      personId: job.personId,
      zipPath,
      signal: signal ? AbortSignal.any([signal, slice]) : slice,
      onProgress: async (progress) => {
        if (Date.now() - written < PROGRESS_EVERY_MS && progress.processed !== progress.total) return;
        written = Date.now();
        // the lease is renewed with the progress: a runner at work keeps its job
        await prisma.importJob.update({
          where: { id: job.id },
          data: { ...progressColumns(progress), leaseUntil: new Date(Date.now() + LEASE_MS) },
        });
      },
    });
    await finish({ ...progressColumns(result), status: 'done', error: null });
    logger?.info({ job: job.id, created: result.created, skipped: result.skippedCount }, 'archive imported');
  } catch (error) {
    // stopping cuts a job short: its lease runs out and the next runner resumes it
    if (signal?.aborted) throw error;
    if (slice.aborted) {
      // its time is up: back to the queue, behind the jobs waiting (updatedAt), not counted as an attempt
      await prisma.importJob.updateMany({
        where: { id: job.id },
        data: { status: 'queued', runAfter: new Date(), leaseUntil: null, attempts: { decrement: 1 }, updatedAt: new Date() },
      });
      logger?.info({ job: job.id }, 'archive import gave way to the others queued; it resumes after them');
      return true;
    }
    if (archiveFault(error)) {
      await finish({ status: 'failed', error: messageOf(error) });
      logger?.info({ job: job.id, reason: messageOf(error) }, 'archive refused');
    } else if (job.attempts >= MAX_ATTEMPTS) {
      await finish({ status: 'failed', error: `could not be imported after ${MAX_ATTEMPTS} attempts: ${messageOf(error)}` });
      logger?.error({ err: error, job: job.id }, 'archive import failed for good');
    } else {
      const wait = BACKOFF_MS * 4 ** (job.attempts - 1);
      await prisma.importJob.updateMany({
        where: { id: job.id },
        data: { status: 'queued', runAfter: new Date(Date.now() + wait), leaseUntil: null, updatedAt: new Date() },
      });
      logger?.warn({ err: error, job: job.id, attempt: job.attempts, retryInMs: wait }, 'archive import failed; it is tried again later');
    }
  }
  return true;
}

/** Takes jobs as they come due until stopped; `wake` starts the next one at once (a new upload in this process). */
export function startImportJobs(database: Database, media: MediaStore, logger: Logger) {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  // stopping cuts a job short: it stays "running" and the next start resumes it
  const stopping = new AbortController();
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = null;
    if (running || stopped) return;
    running = (async () => {
      try {
        while (!stopped && (await runNextImportJob(database, media, logger, stopping.signal))) {}
        schedule(POLL_MS);
      } catch (error) {
        // the database failed while claiming or recording: the job's lease runs out and it is taken up again
        if (!stopped) logger.error({ err: error }, 'the archive import runner stopped; it looks again shortly');
        schedule(RETRY_MS);
      } finally {
        running = null;
      }
    })();
  };
  schedule(0);
  return {
    wake: () => schedule(0),
    stop: async () => {
      stopped = true;
      stopping.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** Removes the stored archives of a deleted person's jobs. */
export async function removeImportFiles(media: MediaStore, storedNames: readonly string[]): Promise<void> {
  for (const name of storedNames) {
    if (/^[0-9a-f]{32}\.zip$/.test(name)) await rm(path.join(importsDirectory(media.directory), name), { force: true });
  }
}
