import { findAccountByUsername } from '../db/account-sessions.ts';
import { befriend } from '../db/friendships.ts';
import { parseOptions, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost friends add <username> <username>

Makes two people friends at once, both ways, without a request to accept.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {});
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [verb, a, b, ...extra] = positionals;
  if (verb !== 'add' || !a || !b || extra.length) throw new UsageError(`expected "friends add <username> <username>"\n\n${HELP}`);
  return withDatabase(async ({ prisma }) => {
    const [first, second] = await Promise.all([findAccountByUsername(prisma, a), findAccountByUsername(prisma, b)]);
    for (const [name, found] of [
      [a, first],
      [b, second],
    ] as const) {
      if (!found) {
        console.error(`milepost friends: nobody is called "${name}"`);
        return 1;
      }
    }
    if (first!.id === second!.id) {
      console.error('milepost friends: a person cannot befriend themselves');
      return 1;
    }
    await befriend(prisma, first!.id, second!.id);
    console.log(JSON.stringify({ friends: [first!.username, second!.username] }));
    return 0;
  });
}
