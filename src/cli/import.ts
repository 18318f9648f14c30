import cliProgress from 'cli-progress';
import { loadConfig } from '../config.ts';
import { usernameKey } from '../domain/accounts.ts';
import { ValidationError } from '../domain/errors.ts';
import { importArchive } from '../imports/archive.ts';
import { closeFitPool } from '../imports/fit-pool.ts';
import { createMediaStore } from '../media/store.ts';
import { parseOptions, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost import <username> <archive.zip>

Imports a zip as the person's entries:
  - a Strava-style bulk export: activities.csv and the FIT, TCX and GPX files it names
    (activities/*.fit.gz, *.gpx, *.tcx, gzipped or not), one workout entry per activity, with the
    name and description of the CSV;
  - a Milepost account export (milepost export, /account/export): every entry made again, with its
    workout, track and photo.
Entries keep their own dates and announce nothing (no webhooks). Run it again after a crash: what
was imported is recognised and skipped, nothing is made twice. Prints what was skipped and why, then
a JSON summary; exits 1 when the archive is refused.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {});
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [username, file] = positionals;
  if (!username || !file || positionals.length !== 2) throw new UsageError(`expected a username and a zip file\n\n${HELP}`);
  const media = createMediaStore(loadConfig().mediaDir);
  return withDatabase(async (database) => {
    const person = await database.prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true } });
    if (!person) {
      console.error(`milepost import: nobody is called "${username}"`);
      return 1;
    }
    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar(
          {
            format: ' importing [{bar}] {percentage}% | {value}/{total} | {created} new, {skipped} skipped',
            hideCursor: true,
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
    let started = false;
    let lastLine = 0;
    try {
      const result = await importArchive({
        database,
        media,
        personId: person.id,
        zipPath: file,
        onProgress: (p) => {
          const counts = { created: p.created, skipped: p.skippedCount };
          if (bar) {
            if (!started) bar.start(p.total, p.processed, counts);
            else bar.update(p.processed, counts);
          } else if (p.processed === p.total || Date.now() - lastLine > 2000) {
            // no terminal (CI, pipes): a line every few seconds instead of a redrawn bar
            console.error(`imported ${p.processed}/${p.total}: ${p.created} new, ${p.duplicates} already there, ${p.skippedCount} skipped`);
            lastLine = Date.now();
          }
          started = true;
        },
      });
      bar?.stop();
      for (const { item, reason } of result.skipped) console.error(`skipped ${item}: ${reason}`);
      if (result.skippedCount > result.skipped.length) console.error(`… and ${result.skippedCount - result.skipped.length} more skipped`);
      const { skipped: _listed, ...summary } = result;
      console.log(JSON.stringify({ imported: username, file, ...summary }));
      return 0;
    } catch (error) {
      bar?.stop();
      if (error instanceof ValidationError) {
        console.error(`milepost import: ${file} ${error.issues[0]?.message ?? error.message}`);
        return 1;
      }
      throw error;
    } finally {
      await closeFitPool();
    }
  });
}
