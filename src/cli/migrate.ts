import { loadConfig } from '../config.ts';
import { applyMigrations } from '../db/migrate.ts';
import { parseOptions } from './args.ts';

export async function run(argv: string[]) {
  const { values } = parseOptions(argv, {});
  if (values.help) {
    console.log('Usage: milepost migrate\n\nApplies pending migrations to DATABASE_URL (they also run at every start).');
    return 0;
  }
  const config = loadConfig();
  const applied = await applyMigrations(config.database);
  console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
  return 0;
}
