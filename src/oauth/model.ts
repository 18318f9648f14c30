// The model @node-oauth/oauth2-server calls, over store.ts. Two variants: at the authorization
// endpoint a client is looked up by id alone; at the token endpoint a confidential client must prove
// its secret (a public client proves possession with PKCE instead, which the library checks).
import { timingSafeEqual } from 'node:crypto';
import type OAuth2Server from '@node-oauth/oauth2-server';
import { generateToken, hashToken } from '../auth/tokens.ts';
import type { Prisma } from '../db/database.ts';
import { findApp, type RegisteredApp } from '../db/oauth-clients.ts';
import {
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  codeIdFor,
  codeWasReplayed,
  consumeCode,
  findUnusedCode,
  issueAccessToken,
  revokeTokensOfCode,
  saveAuthorizationCode,
  type TokenLifetimes,
} from '../db/oauth-tokens.ts';
import { redirectUriMatches } from '../domain/accounts.ts';

export { AUTHORIZATION_CODE_LIFETIME_SECONDS };

/** What the library knows of an app: `id` is the database id, compared when a code is exchanged. */
export interface OAuthClient extends OAuth2Server.Client {
  id: string;
  rowId: number;
  clientId: string;
  name: string;
  confidential: boolean;
  legacyTokens: boolean;
  redirectUris: string[];
  grants: string[];
}

export function toClient(app: RegisteredApp): OAuthClient {
  return {
    id: String(app.id),
    rowId: app.id,
    clientId: app.clientId,
    name: app.name,
    confidential: app.confidential,
    legacyTokens: app.legacyTokens,
    redirectUris: app.redirectUris,
    // the user-agent flow is built beside the library (see authorization.ts), so only the code grant is listed here
    grants: ['authorization_code'],
  };
}

function secretMatches(secretHash: string | null, secret: string): boolean {
  if (!secretHash) return false;
  const expected = Buffer.from(secretHash, 'hex');
  const given = Buffer.from(hashToken(secret), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

type Model = OAuth2Server.AuthorizationCodeModel & { validateRedirectUri(uri: string, client: OAuth2Server.Client): Promise<boolean> };

/** `lifetimes`: how long an app's tokens work; a legacy app's never expire. */
export function createModel(prisma: Prisma, endpoint: 'authorize' | 'token', lifetimes?: TokenLifetimes): Model {
  return {
    async getClient(clientId, clientSecret) {
      const app = await findApp(prisma, clientId);
      if (!app) return false;
      if (endpoint === 'token') {
        if (app.confidential) {
          if (!clientSecret || !secretMatches(app.secretHash, clientSecret)) return false;
        } else if (clientSecret) {
          // a public client has no secret; one that sends a secret is not who it claims
          return false;
        }
      }
      return toClient(app);
    },

    async validateRedirectUri(uri, client) {
      return redirectUriMatches((client as OAuthClient).redirectUris, uri);
    },

    async generateAuthorizationCode() {
      return generateToken();
    },

    async saveAuthorizationCode(code, client, user) {
      await saveAuthorizationCode(prisma, {
        code: code.authorizationCode,
        clientId: (client as OAuthClient).rowId,
        personId: (user as { id: number }).id,
        redirectUri: code.redirectUri,
        scope: code.scope?.join(' ') || null,
        codeChallenge: code.codeChallenge ?? null,
        codeChallengeMethod: code.codeChallenge ? (code.codeChallengeMethod ?? 'S256') : null,
        expiresAt: code.expiresAt,
      });
      return { ...code, client, user };
    },

    getAuthorizationCode: (authorizationCode) => readCode(prisma, authorizationCode),

    async revokeAuthorizationCode(code) {
      return consumeCode(prisma, (code as OAuth2Server.AuthorizationCode & { codeId: number }).codeId);
    },

    async generateAccessToken() {
      return generateToken();
    },

    saveToken: (token, client, user) => saveToken(prisma, lifetimes, token, client as OAuthClient, user),

    async getAccessToken() {
      // resources authenticate through src/auth/tokens.ts, one path for GraphQL and REST
      return false;
    },
  };
}

/** An unused authorization code as the library reads it; false for any other. */
async function readCode(prisma: Prisma, authorizationCode: string): Promise<OAuth2Server.AuthorizationCode | false> {
  const row = await findUnusedCode(prisma, authorizationCode);
  if (!row) return false;
  return {
    authorizationCode,
    codeId: row.id,
    expiresAt: row.expiresAt,
    redirectUri: row.redirectUri,
    scope: row.scope ? row.scope.split(' ') : undefined,
    codeChallenge: row.codeChallenge ?? undefined,
    codeChallengeMethod: row.codeChallengeMethod ?? undefined,
    client: { id: String(row.client.id), grants: ['authorization_code'] },
    user: { id: row.person.id, username: row.person.username },
  };
}

/**
 * Stores an issued access token (hashed): an app's expires, with a refresh token; a legacy app's never
 * does (its client cannot refresh).
 */
async function saveToken(
  prisma: Prisma,
  lifetimes: TokenLifetimes | undefined,
  token: OAuth2Server.Token,
  client: OAuthClient,
  user: OAuth2Server.User,
): Promise<OAuth2Server.Token> {
  const authorizationCodeId = token.authorizationCode ? await codeIdFor(prisma, token.authorizationCode) : null;
  const expiring = lifetimes && !client.legacyTokens ? lifetimes : null;
  const refreshToken = expiring ? generateToken() : undefined;
  await issueAccessToken(
    prisma,
    {
      clientId: client.rowId,
      personId: (user as { id: number }).id,
      scope: token.scope?.join(' ') || null,
      authorizationCodeId,
    },
    token.accessToken,
    expiring ? { lifetimes: expiring, refreshToken } : undefined,
  );
  // a replay that raced this exchange may have revoked before the token existed: look again
  if (authorizationCodeId !== null && (await codeWasReplayed(prisma, authorizationCodeId)))
    await revokeTokensOfCode(prisma, authorizationCodeId);
  // the library's own expiry and refresh token are not kept or shown: these are
  return {
    accessToken: token.accessToken,
    client,
    user,
    scope: token.scope,
    ...(expiring ? { refreshToken, accessTokenExpiresAt: new Date(Date.now() + expiring.accessSeconds * 1000) } : {}),
  };
}
