import { loadConfig } from '../config.ts';
import { createAccount, setPassword } from '../db/account-sessions.ts';
import { deleteAccount } from '../db/accounts.ts';
import { usernameKey } from '../domain/accounts.ts';
import { ValidationError } from '../domain/errors.ts';
import { removeImportFiles } from '../imports/jobs.ts';
import { createMediaStore } from '../media/store.ts';
import { parseOptions, reportInvalid, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost users create --username U --password P [--display-name D]
       milepost users set-password --username U --password P
       milepost users delete --username U --yes
       milepost users promote --username U [--demote]
       milepost users unsuspend --username U

create: a person who can log in on the web pages. Prints JSON: {"id": …, "username": …}.
set-password: a new password for an existing person (a reset, or a demo athlete you want to log in
        as); their sessions end. Prints JSON: {"id": …, "username": …}.
delete: the person and everything they own, at once and for good: entries (with the comments others
        left on them), comments, likes, friends, routes, photos, the apps they registered, sessions and
        tokens. --yes confirms. Prints JSON: {"deleted": …, "entries": …, "apps": …, "photos": …}.
promote: makes the person a moderator of the instance (the report queue at /moderation, and the
        GraphQL reports and moderate); --demote makes them a member again. Prints JSON: {"username": …, "role": …}.
unsuspend: lets a suspended person log in and use their tokens again. Prints JSON: {"username": …}.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {
    username: { type: 'string' },
    password: { type: 'string' },
    'display-name': { type: 'string' },
    yes: { type: 'boolean' },
    demote: { type: 'boolean' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const command = positionals.length === 1 ? positionals[0] : undefined;
  if (command !== 'create' && command !== 'set-password' && command !== 'delete' && command !== 'promote' && command !== 'unsuspend')
    throw new UsageError(`expected "users create", "users set-password", "users delete", "users promote" or "users unsuspend"\n\n${HELP}`);
  if (command === 'delete') return deleteUser(values.username, values.yes === true);
  if (command === 'promote' || command === 'unsuspend') {
    if (!values.username) throw new UsageError(`--username is required\n\n${HELP}`);
    return command === 'promote' ? setRole(values.username, values.demote ? 'member' : 'moderator') : unsuspend(values.username);
  }
  if (!values.username || !values.password) throw new UsageError(`--username and --password are required\n\n${HELP}`);
  if (command === 'set-password') return resetPassword(values.username, values.password);
  const input = { username: values.username, password: values.password, displayName: values['display-name'] ?? values.username };
  return withDatabase(async ({ prisma }) => {
    try {
      const account = await createAccount(prisma, input);
      console.log(JSON.stringify({ id: account.id, username: account.username }));
      return 0;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return reportInvalid('users', error);
    }
  });
}

async function resetPassword(username: string, password: string) {
  return withDatabase(async ({ prisma }) => {
    try {
      const account = await setPassword(prisma, username, password);
      if (!account) {
        console.error(`milepost users: --username: nobody is called "${username}"`);
        return 1;
      }
      console.log(JSON.stringify({ id: account.id, username: account.username }));
      return 0;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return reportInvalid('users', error);
    }
  });
}

async function deleteUser(username: string | undefined, confirmed: boolean) {
  if (!username) throw new UsageError(`--username is required\n\n${HELP}`);
  if (!confirmed) throw new UsageError(`deleting @${username} cannot be undone: add --yes to confirm`);
  const media = createMediaStore(loadConfig().mediaDir);
  return withDatabase(async ({ prisma }) => {
    const person = await prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true, username: true } });
    if (!person) {
      console.error(`milepost users: --username: nobody is called "${username}"`);
      return 1;
    }
    const deleted = await deleteAccount(prisma, person.id);
    await media.remove(deleted.unusedMedia);
    await removeImportFiles(media, deleted.importFiles);
    console.log(
      JSON.stringify({ deleted: person.username, entries: deleted.entries, apps: deleted.apps, photos: deleted.unusedMedia.length }),
    );
    return 0;
  });
}

/** A person's role: a moderator of the instance, or a member. */
async function setRole(username: string, role: 'moderator' | 'member') {
  return withDatabase(async ({ prisma }) => {
    const { count } = await prisma.person.updateMany({ where: { usernameKey: usernameKey(username) }, data: { role } });
    if (count === 0) {
      console.error(`milepost users: --username: nobody is called "${username}"`);
      return 1;
    }
    console.log(JSON.stringify({ username, role }));
    return 0;
  });
}

async function unsuspend(username: string) {
  return withDatabase(async ({ prisma }) => {
    const { count } = await prisma.person.updateMany({ where: { usernameKey: usernameKey(username) }, data: { suspendedAt: null } });
    if (count === 0) {
      console.error(`milepost users: --username: nobody is called "${username}"`);
      return 1;
    }
    console.log(JSON.stringify({ username }));
    return 0;
  });
}
