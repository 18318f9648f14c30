import { loadDatabaseConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { applyMigrations } from '../db/migrate.ts';
import { backfillTrackRecords } from '../db/track-records.ts';
import { parseOptions } from './args.ts';

export async function run(argv: string[]) {
  const { values } = parseOptions(argv, {});
  if (values.help) {
    console.log(
      'Usage: milepost migrate\n\nApplies pending migrations to DATABASE_URL (they also run at every start), then computes what\nthey leave to code (the records of stored tracks; a server does that in the background).',
    );
    return 0;
  }
  const database = loadDatabaseConfig();
  const applied = await applyMigrations(database, undefined, (name, ms) => console.log(`applied migration ${name} (${ms} ms)`));
  if (applied.length === 0) console.log('database is up to date');
  // what a migration cannot compute in SQL: the records of stored tracks (the server does it in the background)
  const opened = await openDatabase(database, { migrate: false });
  try {
    const tracks = await backfillTrackRecords(opened.prisma);
    if (tracks) console.log(`computed the records of ${tracks} stored tracks`);
  } finally {
    await opened.close();
  }
  return 0;
}
