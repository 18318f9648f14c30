import { findAccountByUsername } from '../db/account-sessions.ts';
import { findApp, scriptsApp } from '../db/oauth-clients.ts';
import { issueAccessToken } from '../db/oauth-tokens.ts';
import { ALL_SCOPES, formatScopes, parseScopes, SCOPES } from '../domain/scopes.ts';
import { parseOptions, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost tokens create --username U [--client-id C] [--scope "S ..."]

Mints a long-lived access token for U, held by app C (default: the "Milepost command line" app), and
prints it. Send it as \`Authorization: Bearer <token>\` or \`?oauth_token=<token>\`. The person can
revoke it on their account page. Its scopes are S (${SCOPES.join(', ')}; space- or comma-separated),
by default all of them.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {
    username: { type: 'string' },
    'client-id': { type: 'string' },
    scope: { type: 'string' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals[0] !== 'create' || positionals.length !== 1) throw new UsageError(`expected "tokens create"\n\n${HELP}`);
  if (!values.username) throw new UsageError(`--username is required\n\n${HELP}`);
  const asked = values.scope === undefined ? { scopes: [...ALL_SCOPES] } : parseScopes(values.scope);
  if ('unknown' in asked) throw new UsageError(`--scope: unknown scope ${asked.unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}`);
  return withDatabase(async ({ prisma }) => {
    const person = await findAccountByUsername(prisma, values.username!);
    if (!person) {
      console.error(`milepost tokens: --username: nobody is called "${values.username}"`);
      return 1;
    }
    const app = values['client-id'] ? await findApp(prisma, values['client-id']) : await scriptsApp(prisma);
    if (!app) {
      console.error(`milepost tokens: --client-id: no app has client_id "${values['client-id']}"`);
      return 1;
    }
    console.log(await issueAccessToken(prisma, { clientId: app.id, personId: person.id, scope: formatScopes(asked.scopes) }));
    return 0;
  });
}
