// Archive imports uploaded from the account page run as background jobs (ImportJob rows): the zip waits
// in MEDIA_DIR/imports, one process (the one that also backfills records) takes the jobs in order, and
// the page reads their progress. A job that was running when the process stopped is taken up again at
// the next start; the entries' import hashes make that a resume, not a second import.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { ValidationError } from '../domain/errors.ts';
import type { MediaStore } from '../media/store.ts';
import { type ArchiveProgress, importArchive } from './archive.ts';

/** How often a running job writes its progress. */
const PROGRESS_EVERY_MS = 1000;
/** How often the runner looks for new jobs when nobody woke it. */
const POLL_MS = 2000;
/** After an unexpected failure (the database away), a job is tried again this much later. */
const RETRY_MS = 30_000;

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
  await rename(uploadedPath, path.join(directory, storedName));
  const job = await database.prisma.importJob.create({
    data: { personId, fileName: fileName.slice(0, 200) || 'archive.zip', storedName },
    select: { id: true },
  });
  return job.id;
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

/** Runs the oldest unfinished job, if any; answers whether there was one. */
export async function runNextImportJob(database: Database, media: MediaStore, logger?: Logger, signal?: AbortSignal): Promise<boolean> {
  const { prisma } = database;
  const job = await prisma.importJob.findFirst({
    where: { status: { in: ['queued', 'running'] } },
    orderBy: { id: 'asc' },
    select: { id: true, personId: true, storedName: true },
  });
  if (!job) return false;
  const zipPath = path.join(importsDirectory(media.directory), job.storedName);
  await prisma.importJob.update({ where: { id: job.id }, data: { status: 'running', updatedAt: new Date() } });
  let written = 0;
  try {
    const result = await importArchive({
      database,
      media,
      personId: job.personId,
      zipPath,
      signal,
      onProgress: async (progress) => {
        if (Date.now() - written < PROGRESS_EVERY_MS && progress.processed !== progress.total) return;
        written = Date.now();
        await prisma.importJob.update({ where: { id: job.id }, data: progressColumns(progress) });
      },
    });
    await prisma.importJob.update({ where: { id: job.id }, data: { ...progressColumns(result), status: 'done' } });
    logger?.info({ job: job.id, created: result.created, skipped: result.skippedCount }, 'archive imported');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    await prisma.importJob.update({
      where: { id: job.id },
      data: { status: 'failed', error: error.issues[0]?.message ?? error.message, updatedAt: new Date() },
    });
  }
  // done or refused: the zip has served (a job whose person was deleted is gone with its row)
  await rm(zipPath, { force: true });
  return true;
}

/** Takes jobs in order until stopped; `wake` starts the next one at once (a new upload in this process). */
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
        // the database or the disk failed: the job stays "running" and is taken up again later
        if (!stopped) logger.error({ err: error }, 'an archive import stopped; it is tried again shortly');
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
