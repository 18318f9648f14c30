import cliProgress from 'cli-progress';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { PER_SCALE } from '../seed/community.ts';
import { seed } from '../seed/seed.ts';
import { parseOptions, positiveInteger } from './args.ts';

const HELP = `Usage: milepost seed [--scale N] [--seed S]

Adds a demo community to DATABASE_URL: people and friendships, notes and workouts of every activity
type around a dozen real cities, comments, likes, and routes with GPS tracks.

  --scale N   size multiplier (default 1). Each unit adds ${PER_SCALE.people} people, ${PER_SCALE.entries} entries,
              about ${PER_SCALE.comments} comments and ${PER_SCALE.likes} likes, and ${PER_SCALE.routes} routes.
              --scale 100 is the benchmark's data set; --scale 1000 is a million entries.
  --seed S    random seed (default fixed): the same seed gives the same community.`;

export async function run(argv: string[]) {
  const { values } = parseOptions(argv, { scale: { type: 'string' }, seed: { type: 'string' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const scale = positiveInteger('scale', values.scale, 1);
  const seedValue = positiveInteger('seed', values.seed, 20131116);
  const config = loadConfig();
  const database = await openDatabase(config.database);
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { format: ' {stage} [{bar}] {percentage}% | {value}/{total}', hideCursor: true, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let stage = '';
  let lastLine = 0;
  const started = Date.now();
  try {
    const result = await seed(database, {
      scale,
      seed: seedValue,
      onProgress: (name, done, total) => {
        if (bar) {
          if (name !== stage) {
            if (stage) bar.stop();
            bar.start(total, done, { stage: name.padEnd(11) });
          } else bar.update(done);
        } else if (name !== stage || done === total || Date.now() - lastLine > 2000) {
          // no terminal (CI, pipes): a line every few seconds instead of a redrawn bar
          console.error(`${name}: ${done}/${total}`);
          lastLine = Date.now();
        }
        stage = name;
      },
    });
    bar?.stop();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `seeded ${result.people} people, ${result.friendships} friendships, ${result.routes} routes, ${result.entries} entries, ` +
        `${result.comments} comments, ${result.likes} likes in ${seconds}s`,
    );
    return 0;
  } finally {
    bar?.stop();
    await database.close();
  }
}
