// Opens the configured database for one CLI command and closes it afterwards.
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';

export async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(loadConfig().database);
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}
