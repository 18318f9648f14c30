import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../config.ts';
import { accountExport } from '../db/account-export.ts';
import { usernameKey } from '../domain/accounts.ts';
import { createMediaStore } from '../media/store.ts';
import { parseOptions, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost export <username> <file.zip>

Writes everything the person owns to a zip: profile, entries with workouts, the comments and likes
they gave, friends and routes as JSON, every track as GPX 1.1, their photos, and a README of the
layout (the same as /account/export). Written as it is read: memory stays flat.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {});
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [username, file] = positionals;
  if (!username || !file || positionals.length !== 2) throw new UsageError(`expected a username and a file\n\n${HELP}`);
  const media = createMediaStore(loadConfig().mediaDir);
  return withDatabase(async ({ prisma }) => {
    const person = await prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true } });
    if (!person) {
      console.error(`milepost export: nobody is called "${username}"`);
      return 1;
    }
    const zip = await accountExport(prisma, media, person.id);
    // written beside the target and renamed: a failed export never leaves half a zip under its name
    const partial = `${file}.partial`;
    try {
      await pipeline(zip!.outputStream, createWriteStream(partial));
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    console.log(JSON.stringify({ exported: username, file }));
    return 0;
  });
}
