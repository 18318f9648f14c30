// `milepost <command>`: one process entry point for operators and scripts.
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, loadDatabaseConfig } from '../config.ts';
import { MigrationError } from '../db/migrate.ts';
import { UsageError } from './args.ts';

const USAGE = `Usage: milepost <command> [options]

Commands:
  serve      start the HTTP server (GraphQL at /graphql)
  migrate    apply pending database migrations and exit
  seed       fill the database with a demo community (--scale N for benchmark-sized data)
  users      create a person who can log in (users create --username U --password P), set a password, delete one, promote a moderator, unsuspend
  export     everything a person owns as a zip (export <username> <file.zip>)
  import     a Strava-style or Milepost export zip as a person's entries (import <username> <archive.zip>)
  apps       register a third-party app (apps create --name N --redirect-uri URL)
  tokens     mint an access token for scripts (tokens create --username U)
  friends    make two people friends (friends add <username> <username>)
  federation block a fediverse server (federation block <host>), unblock it, list the blocked ones
  backup     copy the database (SQLite or PostgreSQL) while the server runs (backup <file>)
  restore    replace the database (SQLite or PostgreSQL) with a backup (restore <file>)

Run \`milepost <command> --help\` for a command's options, \`milepost --version\` for the version.
Configuration comes from the environment: see docs/OPERATIONS.md.`;

/** The version of package.json, two directories up from both src/cli/ and dist/cli/. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

type Command = (argv: string[]) => Promise<number | undefined>;

/** Commands that work on the database alone: they need DATABASE_URL and nothing a server needs. */
const DATABASE_ONLY = new Set(['backup', 'restore', 'migrate']);

const commands: Record<string, () => Promise<{ run: Command }>> = {
  serve: () => import('./serve.ts'),
  migrate: () => import('./migrate.ts'),
  seed: () => import('./seed.ts'),
  users: () => import('./users.ts'),
  export: () => import('./export.ts'),
  import: () => import('./import.ts'),
  apps: () => import('./apps.ts'),
  tokens: () => import('./tokens.ts'),
  friends: () => import('./friends.ts'),
  federation: () => import('./federation.ts'),
  backup: async () => ({ run: (argv: string[]) => import('./backup.ts').then((m) => m.run(argv, 'backup')) }),
  restore: async () => ({ run: (argv: string[]) => import('./backup.ts').then((m) => m.run(argv, 'restore')) }),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(`milepost ${version()}`);
    return 0;
  }
  const load = commands[name];
  if (!load) {
    console.error(`milepost: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    // the config is parsed before anything else, so a bad variable fails fast with its name; the
    // commands that only work on the database ask for nothing else (no SESSION_SECRET)
    if (DATABASE_ONLY.has(name)) loadDatabaseConfig();
    else loadConfig();
    const { run } = await load();
    return (await run(rest)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`milepost ${name}: ${error.message}`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof MigrationError) {
      console.error(`milepost ${name}: ${error.message}`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      const { port, address } = error as { port?: number; address?: string };
      console.error(
        `milepost ${name}: port ${port} on ${address} is taken: another server (a Milepost started before?) listens there. Stop it, or start this one on another port: PORT=${(port ?? 3000) + 1} npm start`,
      );
      return 1;
    }
    if (code === 'EACCES' || code === 'ECONNREFUSED') {
      // the usual operator mistakes: a port taken or forbidden, a database not running
      console.error(`milepost ${name}: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code !== 0) process.exitCode = code;
