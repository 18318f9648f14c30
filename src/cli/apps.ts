import { loadConfig } from '../config.ts';
import { findAccountByUsername } from '../db/account-sessions.ts';
import { registerApp } from '../db/oauth-clients.ts';
import { ValidationError } from '../domain/errors.ts';
import { setWebhook } from '../webhooks/settings.ts';
import { parseOptions, reportInvalid, UsageError } from './args.ts';
import { withDatabase } from './database-command.ts';

const HELP = `Usage: milepost apps create --name N --redirect-uri URL [--redirect-uri URL …] [--owner USER] [--public] [--webhook-url URL]
                            [--legacy-implicit] [--legacy-http] [--legacy-tokens]

Registers a third-party app and prints JSON {"client_id": …, "client_secret": …}. The secret is shown
only this once and stored hashed. --public registers a public client (native or browser app): it has
no secret and must use PKCE (S256). --webhook-url makes Milepost POST signed events there (entries,
comments, likes of people who authorized the app); the JSON then also holds "webhook_secret".
Legacy flows, off by default (RFC 9700), for clients of the original service that need them:
--legacy-implicit allows the user-agent flow (response_type=token), --legacy-http allows plain
http:// callbacks on hosts other than loopback, and --legacy-tokens gives tokens that never expire and
no refresh tokens (always so with --legacy-implicit). Other apps' tokens expire (ACCESS_TOKEN_TTL_SECONDS)
and come with a refresh token.`;

export async function run(argv: string[]) {
  const { values, positionals } = parseOptions(argv, {
    name: { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    owner: { type: 'string' },
    public: { type: 'boolean' },
    'webhook-url': { type: 'string' },
    'legacy-implicit': { type: 'boolean' },
    'legacy-http': { type: 'boolean' },
    'legacy-tokens': { type: 'boolean' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals[0] !== 'create' || positionals.length !== 1) throw new UsageError(`expected "apps create"\n\n${HELP}`);
  if (!values.name || !values['redirect-uri']?.length) throw new UsageError(`--name and --redirect-uri are required\n\n${HELP}`);
  return withDatabase(async ({ prisma }) => {
    let ownerId: number | null = null;
    if (values.owner) {
      const owner = await findAccountByUsername(prisma, values.owner);
      if (!owner) {
        console.error(`milepost apps: --owner: nobody is called "${values.owner}"`);
        return 1;
      }
      ownerId = owner.id;
    }
    try {
      const app = await registerApp(prisma, ownerId, {
        name: values.name!,
        redirectUris: values['redirect-uri']!,
        confidential: !values.public,
        allowImplicit: values['legacy-implicit'] ?? false,
        allowPlainHttp: values['legacy-http'] ?? false,
        legacyTokens: values['legacy-tokens'] ?? false,
      });
      const webhook = values['webhook-url']
        ? await setWebhook(prisma, null, app.clientId, values['webhook-url'], { allowPrivate: loadConfig().webhooks.allowPrivate })
        : null;
      console.log(
        JSON.stringify({
          client_id: app.clientId,
          client_secret: app.clientSecret,
          ...(webhook ? { webhook_secret: webhook.secret } : {}),
        }),
      );
      return 0;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return reportInvalid('apps', error);
    }
  });
}
