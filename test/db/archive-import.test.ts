// Archive import, on both databases: a Strava-style bulk export becomes one workout entry
// per activity with the CSV's name and description; a Milepost export fed back recreates its entries;
// a run cut short and started again makes no duplicates; hostile archives (zip-slip paths, zip bombs,
// not an export at all) are refused before anything is made; `milepost import` prints progress and
// what it skipped.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { accountExport } from '../../src/db/account-export.ts';
import { createAccount } from '../../src/db/account-sessions.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { importArchive } from '../../src/imports/archive.ts';
import { closeFitPool } from '../../src/imports/fit-pool.ts';
import {
  ImportAlreadyQueuedError,
  importsDirectory,
  LEASE_MS,
  MAX_ATTEMPTS,
  queueArchiveImport,
  runNextImportJob,
} from '../../src/imports/jobs.ts';
import { createMediaStore } from '../../src/media/store.ts';
import { fitFile, pointsAlong, tcxFile } from '../support/activity-files.ts';
import { testApp } from '../support/app.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson } from '../support/factories.ts';

let db: TestDatabase;
let dir: string;
const media = () => createMediaStore(path.join(dir, 'media'));

/** Writes a zip of these files and answers its path. */
async function zipOf(name: string, files: Record<string, Buffer | string>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [file, body] of Object.entries(files)) zip.addBuffer(Buffer.from(body), file);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

const CSV_HEADER =
  'Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,Filename,Athlete Weight,Bike Weight,Elapsed Time,Moving Time,Distance';

/** A Strava-style export of `count` activities, alternating FIT.gz, TCX and GPX, plus one typed in by hand (no file) and a broken file. */
function stravaFiles(count: number): Record<string, Buffer | string> {
  const files: Record<string, Buffer | string> = {};
  const rows = [CSV_HEADER];
  for (let i = 0; i < count; i++) {
    const start = new Date(Date.UTC(2024, 0, 1 + i, 6, 30));
    const points = pointsAlong(120, { start, lat: 46 + i * 0.01 });
    const kind = i % 3;
    const filename =
      kind === 0 ? `activities/${1000 + i}.fit.gz` : kind === 1 ? `activities/${1000 + i}.tcx` : `activities/${1000 + i}.gpx`;
    files[filename] =
      kind === 0
        ? gzipSync(fitFile({ points, sport: 'cycling' }))
        : kind === 1
          ? tcxFile({ points, sport: 'Running', stravaPadding: true })
          : `<?xml version="1.0"?><gpx version="1.1" creator="StravaGPX" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>x</name><trkseg>${points
              .map((p) => `<trkpt lat="${p.lat}" lon="${p.lon}"><time>${p.time.toISOString()}</time></trkpt>`)
              .join('')}</trkseg></trk></gpx>`;
    const type = kind === 0 ? 'Ride' : kind === 1 ? 'Run' : 'Hike';
    rows.push(
      `${1000 + i},"Jan ${1 + i}, 2024, 6:30:00 AM","Activity ${i}, the ""best""",${type},"line one\nline two",7200,10.5,170,40,false,,,${filename},,,7200,7000,10500.0`,
    );
  }
  rows.push('9998,"Feb 1, 2024, 7:00:00 AM",Manual yoga,Yoga,,3600,0,,,false,,,,,,3600,3600,0');
  rows.push('9999,"Feb 2, 2024, 7:00:00 AM",Broken,Run,,60,0,,,false,,,activities/9999.fit,,,60,60,0');
  files['activities/9999.fit'] = Buffer.from(fitFile({ points: pointsAlong(30) }).subarray(0, 100));
  files['activities.csv'] = `${rows.join('\n')}\n`;
  return files;
}

beforeAll(async () => {
  db = await createTestDatabase('archive');
  dir = mkdtempSync(path.join(tmpdir(), 'milepost-archive-'));
});

afterAll(async () => {
  await closeFitPool();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('a Strava-style export', () => {
  it('one entry per activity, with the name and description of the CSV, dated as the activity; one typed in by hand without a track; skips reported', async () => {
    const person = await createPerson(db.prisma, { username: 'strava_sam', units: 'kilometers' });
    const zip = await zipOf('strava.zip', stravaFiles(6));
    const seen: number[] = [];
    const result = await importArchive({
      database: db,
      media: media(),
      personId: person.id,
      zipPath: zip,
      onProgress: (p) => void seen.push(p.processed),
    });
    expect(result).toMatchObject({ total: 8, processed: 8, created: 7, duplicates: 0, skippedCount: 1 });
    expect(result.skipped).toEqual([
      { item: 'activity 9999 (Broken)', reason: expect.stringMatching(/^activities\/9999\.fit: .*(no usable data|corrupt)/) },
    ]);
    expect(seen.at(-1)).toBe(8);
    const entries = await db.prisma.entry.findMany({
      where: { authorId: person.id },
      orderBy: { createdAt: 'asc' },
      include: { workout: true, track: { select: { pointCount: true } } },
    });
    expect(entries).toHaveLength(7);
    expect(entries[0]).toMatchObject({
      message: 'line one\nline two',
      createdAt: new Date(Date.UTC(2024, 0, 1, 6, 30)),
      workout: { title: 'Activity 0, the "best"', activityType: 'cycling', completedAt: new Date(Date.UTC(2024, 0, 1, 6, 30)) },
      track: { pointCount: 120 },
    });
    expect(entries.map((e) => e.workout!.activityType)).toEqual(['cycling', 'running', 'hiking', 'cycling', 'running', 'hiking', 'yoga']);
    // the hour of yoga typed in by hand (no file): a workout of the row's time, without a track
    expect(entries[6]).toMatchObject({
      createdAt: new Date(Date.UTC(2024, 1, 1, 7, 0)),
      workout: { title: 'Manual yoga', duration: 3600, distanceValue: null, completedAt: new Date(Date.UTC(2024, 1, 1, 7, 0)) },
      track: null,
    });
    // imports announce nothing: no webhook events for a decade of history
    expect(await db.prisma.outboxEvent.count()).toBe(0);
  });

  it('a run cut short and started again completes the archive without a single duplicate', async () => {
    const person = await createPerson(db.prisma, { username: 'crashy' });
    const zip = await zipOf('resume.zip', stravaFiles(9));
    const stop = new AbortController();
    await expect(
      importArchive({
        database: db,
        media: media(),
        personId: person.id,
        zipPath: zip,
        signal: stop.signal,
        onProgress: (p) => {
          if (p.processed === 4) stop.abort();
        },
      }),
    ).rejects.toThrow();
    expect(await db.prisma.entry.count({ where: { authorId: person.id } })).toBe(4);
    const again = await importArchive({ database: db, media: media(), personId: person.id, zipPath: zip });
    expect(again).toMatchObject({ total: 11, created: 6, duplicates: 4, skippedCount: 1 });
    expect(await db.prisma.entry.count({ where: { authorId: person.id } })).toBe(10);
  });
});

describe('hostile archives are refused whole, before anything is made', () => {
  const refusal = async (zipPath: string): Promise<string> => {
    const person = await createPerson(db.prisma);
    try {
      await importArchive({ database: db, media: media(), personId: person.id, zipPath });
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect(await db.prisma.entry.count({ where: { authorId: person.id } })).toBe(0);
      return (error as ValidationError).issues[0]!.message;
    }
    throw new Error('expected a refusal');
  };

  it('a zip-slip path', async () => {
    const files = stravaFiles(2);
    files['xx/evil.gpx'] = 'owned';
    const zip = await zipOf('slip.zip', files);
    // yazl will not write "../": the name is changed in the finished bytes (same length, both headers)
    const bytes = readFileSync(zip);
    writeFileSync(zip, Buffer.from(bytes.toString('latin1').replaceAll('xx/evil.gpx', '../evil.gpx'), 'latin1'));
    expect(await refusal(zip)).toMatch(/holds a path that escapes the archive \("\.\.\/evil\.gpx"\)/);
  });

  it('a zip bomb', async () => {
    const files = stravaFiles(1);
    files['activities/bomb.gpx'] = Buffer.alloc(64 * 1024 * 1024, 0x20);
    expect(await refusal(await zipOf('bomb.zip', files))).toMatch(/inflates \d+ times over: a zip bomb is refused/);
  });

  it('not a zip, or a zip that is no export', async () => {
    writeFileSync(path.join(dir, 'not.zip'), 'this is not a zip');
    expect(await refusal(path.join(dir, 'not.zip'))).toMatch(/is not a zip archive/);
    expect(await refusal(await zipOf('other.zip', { 'notes.txt': 'hello' }))).toMatch(/neither a Strava-style export/);
    expect(await refusal(await zipOf('nocsv.zip', { 'activities.csv': 'a,b\n1,2\n' }))).toMatch(/no "Filename" column/);
  });
});

describe('a Milepost export fed back', () => {
  it('recreates the same entries: notes, workouts, tracks and places; twice makes nothing new', async () => {
    const from = await createPerson(db.prisma, { username: 'leaver' });
    const to = await createPerson(db.prisma, { username: 'arriver' });
    await importArchive({ database: db, media: media(), personId: from.id, zipPath: await zipOf('seed.zip', stravaFiles(3)) });
    await db.prisma.entry.create({
      data: { authorId: from.id, message: 'a note from the lake', lat: 47.36, lon: 8.55, placeName: 'Zürich', visibility: 'friends' },
    });
    const exported = await accountExport(db.prisma, media(), from.id);
    exported!.end();
    const chunks: Buffer[] = [];
    for await (const chunk of exported!.outputStream) chunks.push(chunk as Buffer);
    const file = path.join(dir, 'export.zip');
    writeFileSync(file, Buffer.concat(chunks));

    const result = await importArchive({ database: db, media: media(), personId: to.id, zipPath: file });
    expect(result).toMatchObject({ total: 5, created: 5, skippedCount: 0 });
    const shape = (authorId: number) =>
      db.prisma.entry
        .findMany({
          where: { authorId },
          orderBy: { createdAt: 'asc' },
          select: {
            kind: true,
            message: true,
            lat: true,
            lon: true,
            placeName: true,
            visibility: true,
            createdAt: true,
            workout: {
              select: { activityType: true, completedAt: true, distanceValue: true, distanceUnits: true, duration: true, title: true },
            },
            track: { select: { pointCount: true, distanceMeters: true } },
          },
        })
        .then((entries) =>
          entries.map((e) => ({ ...e, track: e.track && { ...e.track, distanceMeters: Math.round(e.track.distanceMeters) } })),
        );
    expect(await shape(to.id)).toEqual(await shape(from.id));
    const again = await importArchive({ database: db, media: media(), personId: to.id, zipPath: file });
    expect(again).toMatchObject({ created: 0, duplicates: 5 });
  });
});

describe('the account page', () => {
  it('uploads an archive that a background job imports, and shows its progress and what it skipped', async () => {
    const mediaDir = path.join(dir, 'page-media');
    const api = testApp(db, { MEDIA_DIR: mediaDir });
    const account = await createAccount(db.prisma, { username: 'paige', password: 'a long enough password', displayName: 'Paige' });
    const browser = new TestBrowser(api.fetch);
    await browser.logIn('paige', 'a long enough password');
    const page = await (await browser.get('/account')).text();
    expect(page).toContain('action="/account/import" enctype="multipart/form-data"');
    const bytes = readFileSync(await zipOf('page.zip', stravaFiles(3)));
    const uploaded = await browser.postMultipart('/account/import', {}, { archive: { name: 'export_123.zip', bytes } });
    expect(uploaded.status).toBe(302);
    expect(uploaded.headers.get('location')).toBe('/account#import-heading');
    const waiting = await (await browser.get('/account')).text();
    expect(waiting).toMatch(/export_123\.zip.*waiting to start/s);
    // the page looks again by itself while an import waits or runs (no script needed)
    expect(waiting).toContain('<meta http-equiv="refresh" content="5; url=/account#import-heading">');
    // a second archive while the first waits is refused
    const second = await browser.postMultipart('/account/import', {}, { archive: { name: 'again.zip', bytes } });
    expect(second.status).toBe(429);
    // a forged form (no CSRF token) writes nothing
    const forged = await api.fetch('/account/import', {
      method: 'POST',
      body: (() => {
        const f = new FormData();
        f.set('archive', new Blob([bytes]));
        return f;
      })(),
    });
    expect([302, 303, 403]).toContain(forged.status);

    expect(await runNextImportJob(db, createMediaStore(mediaDir))).toBe(true);
    const done = await (await browser.get('/account')).text();
    expect(done).toMatch(/export_123\.zip.*done: 4 new entries, 0 already here, 1 skipped/s);
    expect(done).not.toContain('http-equiv="refresh"');
    expect(done).toContain('activity 9999 (Broken): activities/9999.fit');
    expect(await db.prisma.entry.count({ where: { authorId: account.id } })).toBe(4);
    // the stored archive is gone once imported
    expect(readdirSync(path.join(mediaDir, 'imports'))).toEqual([]);
    expect(await runNextImportJob(db, createMediaStore(mediaDir))).toBe(false);

    // a single GPX file put in the archive field is refused at once: nothing is queued to fail later,
    // and the next good archive is not held up behind it
    const gpx = readFileSync(new URL('../fixtures/gpx/garmin-forerunner.gpx', import.meta.url));
    const wrong = await browser.postMultipart('/account/import', {}, { archive: { name: 'morning.gpx', bytes: gpx } });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('is not a zip archive');
    expect(await db.prisma.importJob.count({ where: { personId: account.id, status: { in: ['queued', 'running'] } } })).toBe(0);
    expect(readdirSync(path.join(mediaDir, 'imports'))).toEqual([]);
    const next = await browser.postMultipart('/account/import', {}, { archive: { name: 'export_124.zip', bytes } });
    expect(next.status).toBe(302);
    expect(await runNextImportJob(db, createMediaStore(mediaDir))).toBe(true);
  });
});

describe('milepost import', () => {
  it('imports with progress, lists what it skipped, and exits 1 for a refused archive', async () => {
    await createPerson(db.prisma, { username: 'cli_cat' });
    const zip = await zipOf('cli.zip', stravaFiles(2));
    const env = { DATABASE_URL: db.config.url, MEDIA_DIR: path.join(dir, 'media') };
    const result = await runCli(['import', 'cli_cat', zip], env);
    expect(result.stderr).toMatch(/imported 4\/4: 3 new, 0 already there, 1 skipped/);
    expect(result.stderr).toMatch(/skipped activity 9999 \(Broken\): activities\/9999\.fit/);
    expect(JSON.parse(result.stdout)).toMatchObject({ imported: 'cli_cat', total: 4, created: 3, skippedCount: 1 });
    expect(result.code).toBe(0);
    const refused = await runCli(['import', 'cli_cat', await zipOf('cli-other.zip', { 'a.txt': 'x' })], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/neither a Strava-style export/);
  });
});

/** A Milepost-export-shaped archive: entries.json with one note a line, and `extra` lines or files. */
const exportOf = (notes: number, extra: { lines?: string[]; files?: Record<string, Buffer | string> } = {}) => ({
  'README.txt': 'A Milepost export',
  'entries.json': `[\n${[
    ...Array.from({ length: notes }, (_, i) =>
      JSON.stringify({ message: `note ${i} ${'x'.repeat(40)}`, createdAt: '2024-03-01T08:00:00Z' }),
    ),
    ...(extra.lines ?? []),
  ].join(',\n')}\n]\n`,
  ...extra.files,
});

/** The zip at `file` with 64 bytes flipped in the middle of the deflated `name`. */
function corrupted(file: string, name: string): string {
  const bytes = readFileSync(file);
  const header = bytes.indexOf(Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1')]), 0);
  let at = header;
  while (at >= 0) {
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    const compressed = bytes.readUInt32LE(at + 18);
    if (bytes.toString('latin1', at + 30, at + 30 + nameLength) === name) {
      const data = at + 30 + nameLength + extraLength;
      for (let i = 0; i < 64; i++) bytes[data + Math.floor(compressed / 2) + i] = bytes[data + Math.floor(compressed / 2) + i]! ^ 0x5a;
      break;
    }
    at = bytes.indexOf(Buffer.from('PK\u0003\u0004', 'latin1'), at + 30 + nameLength + extraLength + compressed);
  }
  const out = file.replace(/\.zip$/, '-corrupt.zip');
  writeFileSync(out, bytes);
  return out;
}

describe('the import queue', () => {
  const queue = async (personId: number, zip: string) => {
    const store = media();
    const copy = path.join(dir, `upload-${Math.random().toString(36).slice(2)}.zip`);
    writeFileSync(copy, readFileSync(zip));
    return queueArchiveImport(db, store, personId, path.basename(zip), copy);
  };
  const job = (id: number) => db.prisma.importJob.findUniqueOrThrow({ where: { id } });

  it('fails a corrupt archive at once, for its athlete to see, and goes on with everyone else’s', async () => {
    const mallory = await createPerson(db.prisma);
    const alice = await createPerson(db.prisma);
    const bad = await queue(mallory.id, corrupted(await zipOf('corrupt-src.zip', exportOf(3000)), 'entries.json'));
    const good = await queue(alice.id, await zipOf('good.zip', exportOf(5)));
    expect(await runNextImportJob(db, media())).toBe(true);
    expect(await job(bad)).toMatchObject({
      status: 'failed',
      attempts: 1,
      activeFor: null,
      error: expect.stringMatching(/entries\.json.*corrupt|invalid|too many/),
    });
    expect(await runNextImportJob(db, media())).toBe(true);
    expect(await job(good)).toMatchObject({ status: 'done', created: 5 });
    expect(await runNextImportJob(db, media())).toBe(false);
    // the athlete may upload again
    expect(await queue(mallory.id, await zipOf('again.zip', exportOf(1)))).toBeGreaterThan(0);
    await runNextImportJob(db, media());
  });

  it('tries an unexpected failure again later, with a backoff, without holding the queue; fails it after MAX_ATTEMPTS', async () => {
    const unlucky = await createPerson(db.prisma);
    const other = await createPerson(db.prisma);
    const stuck = await queue(unlucky.id, await zipOf('gone.zip', exportOf(2)));
    // the stored zip vanishes (a disk failure): not the archive's fault, so it is tried again
    await rm(path.join(importsDirectory(media().directory), (await job(stuck)).storedName));
    const next = await queue(other.id, await zipOf('next.zip', exportOf(2)));
    expect(await runNextImportJob(db, media())).toBe(true);
    const waiting = await job(stuck);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, activeFor: unlucky.id });
    expect(waiting.runAfter.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // meanwhile the next athlete's job runs
    expect(await runNextImportJob(db, media())).toBe(true);
    expect(await job(next)).toMatchObject({ status: 'done' });
    expect(await runNextImportJob(db, media())).toBe(false);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      await db.prisma.importJob.update({ where: { id: stuck }, data: { runAfter: new Date(0) } });
      expect(await runNextImportJob(db, media())).toBe(true);
    }
    expect(await job(stuck)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      activeFor: null,
      error: expect.stringMatching(/after 4 attempts/),
    });
  });

  it('gives a job to one runner of several, and takes up a job whose runner stopped once its lease ran out', async () => {
    const person = await createPerson(db.prisma);
    const id = await queue(person.id, await zipOf('claimed.zip', exportOf(30)));
    const ran = await Promise.all([runNextImportJob(db, media()), runNextImportJob(db, media()), runNextImportJob(db, media())]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(await job(id)).toMatchObject({ status: 'done', created: 30, attempts: 1 });
    expect(await db.prisma.entry.count({ where: { authorId: person.id } })).toBe(30);
    // a job left running by a process that stopped: taken up only after its lease
    const other = await createPerson(db.prisma);
    const left = await queue(other.id, await zipOf('left.zip', exportOf(3)));
    await db.prisma.importJob.update({ where: { id: left }, data: { status: 'running', leaseUntil: new Date(Date.now() + LEASE_MS) } });
    expect(await runNextImportJob(db, media())).toBe(false);
    await db.prisma.importJob.update({ where: { id: left }, data: { leaseUntil: new Date(Date.now() - 1) } });
    expect(await runNextImportJob(db, media())).toBe(true);
    expect(await job(left)).toMatchObject({ status: 'done', created: 3 });
  });

  it('a big import gives way after its time slice: another athlete’s import queued behind it runs, then it resumes', async () => {
    const big = await createPerson(db.prisma);
    const small = await createPerson(db.prisma);
    const first = await queue(big.id, await zipOf('big.zip', exportOf(400)));
    const second = await queue(small.id, await zipOf('small.zip', exportOf(2)));
    // a slice too short for the big one
    expect(await runNextImportJob(db, media(), undefined, undefined, 1)).toBe(true);
    expect(await job(first)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await runNextImportJob(db, media())).toBe(true);
    expect(await job(second)).toMatchObject({ status: 'done', created: 2 });
    expect(await runNextImportJob(db, media())).toBe(true);
    expect(await job(first)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await db.prisma.entry.count({ where: { authorId: big.id } })).toBe(400);
  });

  it('queues one import a person however many uploads race', async () => {
    const person = await createPerson(db.prisma);
    const zip = await zipOf('race.zip', exportOf(1));
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => queue(person.id, zip)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof ImportAlreadyQueuedError),
    ).toBe(true);
    expect(await db.prisma.importJob.count({ where: { personId: person.id } })).toBe(1);
    // only the one stored zip is kept
    expect(readdirSync(importsDirectory(media().directory)).filter((f) => f.endsWith('.zip'))).toHaveLength(1);
    await runNextImportJob(db, media());
  });
});

describe('files an archive names again and again', () => {
  it('an activity file named by many rows of activities.csv is read and parsed once', async () => {
    const person = await createPerson(db.prisma);
    const files = stravaFiles(1);
    const rows = Array.from(
      { length: 40 },
      (_, i) => `${2000 + i},"Jan 1, 2024, 6:30:00 AM",Again,Ride,,7200,10.5,,,false,,,activities/1000.fit.gz,,,7200,7000,10500.0`,
    );
    files['activities.csv'] = `${[CSV_HEADER, ...rows].join('\n')}\n`;
    const result = await importArchive({
      database: db,
      media: media(),
      personId: person.id,
      zipPath: await zipOf('named-again.zip', files),
    });
    expect(result).toMatchObject({ total: 40, created: 1, skippedCount: 39 });
    expect(result.skipped[0]).toEqual({
      item: expect.stringMatching(/^activity 2001 /),
      reason: expect.stringMatching(/^activities\/1000\.fit\.gz was named before, by activity 2000 /),
    });
  });

  it('a track named by many lines of entries.json is stored once, with the first of them', async () => {
    const person = await createPerson(db.prisma);
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${pointsAlong(
      50,
    )
      .map((p) => `<trkpt lat="${p.lat}" lon="${p.lon}"><time>${p.time.toISOString()}</time></trkpt>`)
      .join('')}</trkseg></trk></gpx>`;
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ message: `copy ${i}`, createdAt: '2024-03-01T08:00:00Z', track: 'tracks/one.gpx' }),
    );
    const zip = await zipOf('one-track.zip', exportOf(0, { lines, files: { 'tracks/one.gpx': gpx } }));
    const result = await importArchive({ database: db, media: media(), personId: person.id, zipPath: zip });
    expect(result).toMatchObject({ total: 30, created: 1, skippedCount: 29 });
    expect(result.skipped[0]!.reason).toBe('its track tracks/one.gpx belongs to entry 1');
    expect(await db.prisma.track.count({ where: { entry: { authorId: person.id } } })).toBe(1);
  });
});

describe('archive bounds', () => {
  const refusal = async (zipPath: string): Promise<string> => {
    const person = await createPerson(db.prisma);
    const error = await importArchive({ database: db, media: media(), personId: person.id, zipPath }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues[0]!.message;
  };

  it('refuses a line of entries.json over 1 MB as it reads it, never holding the line', async () => {
    // random letters: a line of one letter would be refused first as a zip bomb
    const long = JSON.stringify({ message: randomBytes(2 * 1024 * 1024).toString('base64') });
    expect(await refusal(await zipOf('longline.zip', exportOf(2, { lines: [long] })))).toMatch(/a line longer than 1048576 bytes/);
  });

  it('refuses an archive that would inflate more than 50 times its size overall, though each file is within its bound', async () => {
    // 400 files that each claim 1 MiB from 6 KB (175 times over, within each file's bound): the claims
    // are judged before anything is inflated, so the sizes are written into the directory by hand
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 400; i++) files[`activities/${i}.gpx`] = randomBytes(6000);
    const zip = await zipOf('many-bombs.zip', { ...stravaFiles(1), ...files });
    const bytes = readFileSync(zip);
    for (let at = bytes.indexOf('PK\u0001\u0002', 0, 'latin1'); at >= 0; at = bytes.indexOf('PK\u0001\u0002', at + 46, 'latin1')) {
      const name = bytes.toString('latin1', at + 46, at + 46 + bytes.readUInt16LE(at + 28));
      if (/^activities\/\d+\.gpx$/.test(name) && Number(name.match(/\d+/)![0]) < 400) bytes.writeUInt32LE(1024 * 1024, at + 24);
    }
    writeFileSync(zip, bytes);
    expect(await refusal(zip)).toMatch(/as a zip bomb/);
  });

  it('refuses two files of one name', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('a'), 'entries.json');
    zip.addBuffer(Buffer.from('b'), 'entries.json');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const file = path.join(dir, 'twice.zip');
    writeFileSync(file, Buffer.concat(chunks));
    expect(await refusal(file)).toMatch(/two files named "entries.json"/);
  });

  it('skips entries dated after the import, so none sits atop the streams for years', async () => {
    const person = await createPerson(db.prisma);
    const future = JSON.stringify({ message: 'from 2199', createdAt: '2199-01-01T00:00:00Z' });
    const result = await importArchive({
      database: db,
      media: media(),
      personId: person.id,
      zipPath: await zipOf('future.zip', exportOf(2, { lines: [future] })),
    });
    expect(result).toMatchObject({ created: 2, skippedCount: 1 });
    expect(result.skipped[0]!.reason).toMatch(/dated 2199-01-01T00:00:00.000Z, after the import/);
  });
});
