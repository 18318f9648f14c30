import { loadConfig } from '../config.ts';
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
  const config = loadConfig();
  const applied = await applyMigrations(config.database);
  console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
  // what a migration cannot compute in SQL: the records of stored tracks (the server does it in the background)
  const database = await openDatabase(config.database, { migrate: false });
  try {
    const tracks = await backfillTrackRecords(database.prisma);
    if (tracks) console.log(`computed the records of ${tracks} stored tracks`);
  } finally {
    await database.close();
  }
  return 0;
}
