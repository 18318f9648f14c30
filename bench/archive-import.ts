// Bench of the archive import: a Strava-style zip of 1,000 activities of 1,800 points (half
// FIT, half TCX, gzipped) imported for one person, then imported again (every activity already there).
// npx tsx bench/archive-import.ts [DATABASE_URL]   (default: a new SQLite file in a temporary folder)
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import yazl from 'yazl';
import { parseDatabaseUrl } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { importArchive } from '../src/imports/archive.ts';
import { closeFitPool } from '../src/imports/fit-pool.ts';
import { createMediaStore } from '../src/media/store.ts';
import { fitFile, pointsAlong, tcxFile } from '../test/support/activity-files.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'archive-bench-'));
const N = 1000;
const zip = new yazl.ZipFile();
const rows = ['Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Filename'];
for (let i = 0; i < N; i++) {
  const start = new Date(Date.UTC(2020, 0, 1) + i * 86400000);
  const points = pointsAlong(1800, { start, lat: 46 + (i % 50) * 0.01 });
  const name = i % 2 ? `activities/${i}.fit.gz` : `activities/${i}.tcx.gz`;
  zip.addBuffer(i % 2 ? gzipSync(fitFile({ points, sport: 'running' })) : gzipSync(tcxFile({ points, sport: 'Biking' })), name);
  rows.push(`${i},"Jan 1, 2020, 6:00:00 AM",Run ${i},Run,,${name}`);
}
zip.addBuffer(Buffer.from(rows.join('\n')), 'activities.csv');
zip.end();
const chunks: Buffer[] = [];
for await (const c of zip.outputStream) chunks.push(c as Buffer);
const file = path.join(dir, 'a.zip');
writeFileSync(file, Buffer.concat(chunks));
console.log('archive', (statSync(file).size / 1e6).toFixed(1), 'MB,', N, 'activities of 1,800 points');
const url = process.argv[2] ?? `file:${path.join(dir, 'db.sqlite')}`;
const database = await openDatabase(parseDatabaseUrl(url));
const person = await database.prisma.person.create({
  data: { username: `bench${Date.now()}`, usernameKey: `bench${Date.now()}`, displayName: 'Bench' },
});
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
const t = Date.now();
const result = await importArchive({ database, media: createMediaStore(path.join(dir, 'media')), personId: person.id, zipPath: file });
const ms = Date.now() - t;
clearInterval(timer);
console.log(
  database.provider,
  { created: result.created, skipped: result.skippedCount },
  (ms / 1000).toFixed(1),
  's,',
  (N / (ms / 1000)).toFixed(1),
  'activities/s, peak RSS',
  (peak / 1e6).toFixed(0),
  'MB',
);
const t2 = Date.now();
const again = await importArchive({ database, media: createMediaStore(path.join(dir, 'media')), personId: person.id, zipPath: file });
console.log('again (all duplicates):', again.duplicates, ((Date.now() - t2) / 1000).toFixed(1), 's');
await closeFitPool();
await database.close();
