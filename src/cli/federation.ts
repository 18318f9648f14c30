import { blockHost, listBlockedHosts, unblockHost } from '../db/federation.ts';
import { parseOptions, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost federation block <host> | unblock <host> | blocked

Blocks a whole fediverse server (and its subdomains, on any port): nothing from it is taken in, nothing
is sent to it, and its accounts' follows, posts, likes and replies here are removed. "unblock" lifts a
block (what was removed stays removed); "blocked" lists the blocked servers as JSON.`;

const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {});
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [verb, host, ...extra] = positionals;
  if (verb === 'blocked' && !host)
    return withDatabase(async ({ prisma }) => void console.log(JSON.stringify(await listBlockedHosts(prisma))));
  if ((verb !== 'block' && verb !== 'unblock') || !host || extra.length)
    throw new UsageError(`expected "federation block <host>"\n\n${HELP}`);
  if (!HOST.test(host) || host.length > 253) throw new UsageError(`"${host}" is not a host name (example.social, without scheme or port)`);
  return withDatabase(async ({ prisma }) => {
    if (verb === 'block') await blockHost(prisma, host);
    else if (!(await unblockHost(prisma, host))) {
      console.error(`milepost federation: ${host} is not blocked`);
      return 1;
    }
    console.log(JSON.stringify({ [verb === 'block' ? 'blocked' : 'unblocked']: host.toLowerCase() }));
    return 0;
  });
}
