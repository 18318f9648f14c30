import { ValidationError } from '../domain/errors.ts';
import { createAccount } from '../oauth/store.ts';
import { parseOptions, reportInvalid, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost users create --username U --password P [--display-name D]

Creates a person who can log in on the web pages. Prints JSON: {"id": …, "username": …}.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {
    username: { type: 'string' },
    password: { type: 'string' },
    'display-name': { type: 'string' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals[0] !== 'create' || positionals.length !== 1) throw new UsageError(`expected "users create"\n\n${HELP}`);
  if (!values.username || !values.password) throw new UsageError(`--username and --password are required\n\n${HELP}`);
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
