// Accounts, registered apps, authorization codes and access tokens in the database. Every secret is
// stored as a SHA-256 digest: codes, tokens and client secrets are random 256-bit values, so a fast
// hash suffices and a copy of the tables reveals none of them. Passwords, chosen by people, get scrypt.

import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { generateToken, hashToken } from '../auth/tokens.ts';
import {
  type AppInput,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type SignUpInput,
  usernameKey,
  validateApp,
  validateSignUp,
} from '../domain/accounts.ts';
import { httpUrlProblem } from '../domain/entry-input.ts';
import { type FieldIssue, NotFoundError, ValidationError } from '../domain/errors.ts';
import { formatScopes, grantedScopes, PERSONAL_TOKEN_DAYS, parseScopes, type Scope } from '../domain/scopes.ts';
import { webhookTargetProblem } from '../webhooks/address-guard.ts';
import { newWebhookSecret, webhookChallengeProblem } from '../webhooks/deliveries.ts';
import type { Prisma } from './database.ts';
import { isUniqueViolation } from './errors.ts';
import { openPair, sealPair } from './refresh-reuse.ts';

export interface Account {
  id: number;
  username: string;
  displayName: string;
}

const ACCOUNT = { id: true, username: true, displayName: true } as const;

export async function createAccount(prisma: Prisma, input: SignUpInput): Promise<Account> {
  const valid = validateSignUp(input);
  const passwordHash = await hashPassword(valid.password);
  try {
    return await prisma.person.create({
      data: {
        username: valid.username,
        usernameKey: usernameKey(valid.username),
        displayName: valid.displayName,
        passwordHash,
        ...(valid.units && { units: valid.units }),
      },
      select: ACCOUNT,
    });
  } catch (error) {
    // the unique index decides, so two sign-ups racing for one name cannot both win
    if (isUniqueViolation(error)) throw ValidationError.field('username', `"${valid.username}" is taken`);
    throw error;
  }
}

/**
 * Gives an existing person a new password (an operator's reset, or a demo athlete made able to log in)
 * and ends their sessions, so that whoever knew the old one is logged out. Null when nobody has the name.
 */
export async function setPassword(prisma: Prisma, username: string, password: string): Promise<Account | null> {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    throw ValidationError.field('password', `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  const person = await prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: ACCOUNT });
  if (!person) return null;
  const passwordHash = await hashPassword(password);
  await prisma.$transaction([
    prisma.person.update({ where: { id: person.id }, data: { passwordHash } }),
    prisma.session.updateMany({ where: { personId: person.id, revokedAt: null }, data: { revokedAt: new Date() } }),
  ]);
  return person;
}

/** The account for these credentials, or null; takes as long for an unknown username as for a wrong password. */
export async function checkPassword(prisma: Prisma, username: string, password: string): Promise<Account | null> {
  const person = await prisma.person.findUnique({
    where: { usernameKey: usernameKey(username) },
    select: { ...ACCOUNT, passwordHash: true, suspendedAt: true },
  });
  const ok = await verifyPassword(password, person?.passwordHash ?? null);
  // a suspended account does not log in
  if (!person || !ok || person.suspendedAt) return null;
  return { id: person.id, username: person.username, displayName: person.displayName };
}

export async function findAccount(prisma: Prisma, id: number): Promise<Account | null> {
  return prisma.person.findUnique({ where: { id }, select: ACCOUNT });
}

/** Starts a browser session for `personId`; only the token's hash is kept. */
export async function createSession(prisma: Prisma, personId: number, token: string, maxAgeSeconds: number): Promise<void> {
  await prisma.session.create({ data: { tokenHash: hashToken(token), personId, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) } });
}

/** The account of a live session (not ended, not expired), or null. */
export async function accountOfSession(prisma: Prisma, token: string): Promise<Account | null> {
  const session = await prisma.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { revokedAt: true, expiresAt: true, person: { select: { ...ACCOUNT, suspendedAt: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
  // a suspended account's sessions end at once
  if (session.person.suspendedAt) return null;
  const { suspendedAt: _suspended, ...account } = session.person;
  return account;
}

export async function endSession(prisma: Prisma, token: string): Promise<void> {
  await prisma.session.updateMany({ where: { tokenHash: hashToken(token), revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function findAccountByUsername(prisma: Prisma, username: string): Promise<Account | null> {
  return prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: ACCOUNT });
}

export interface RegisteredApp {
  id: number;
  clientId: string;
  name: string;
  confidential: boolean;
  redirectUris: string[];
  /** Legacy flows this app opted in to: the user-agent flow, plain-http callbacks, tokens that never expire. */
  allowImplicit: boolean;
  allowPlainHttp: boolean;
  legacyTokens: boolean;
}

export interface CreatedApp extends RegisteredApp {
  /** Shown once; only its hash is kept. Null for public clients, which have none. */
  clientSecret: string | null;
}

const APP = {
  id: true,
  clientId: true,
  name: true,
  confidential: true,
  allowImplicit: true,
  allowPlainHttp: true,
  legacyTokens: true,
  redirectUris: { select: { uri: true }, orderBy: { id: 'asc' } },
} as const;
type AppRow = {
  id: number;
  clientId: string;
  name: string;
  confidential: boolean;
  allowImplicit: boolean;
  allowPlainHttp: boolean;
  legacyTokens: boolean;
  redirectUris: Array<{ uri: string }>;
};
const toApp = (row: AppRow): RegisteredApp => ({ ...row, redirectUris: row.redirectUris.map((r) => r.uri) });

/**
 * A client_id: 20 base64url characters that never begin with `-`. One in 64 did, and such an id
 * cannot follow an option on a command line (`--client-id -x…` reads as another option): the cause
 * of a CLI test that failed once in a while.
 */
export function newClientId(): string {
  for (;;) {
    const id = randomBytes(15).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export async function createApp(prisma: Prisma, ownerId: number | null, input: AppInput): Promise<CreatedApp> {
  const valid = validateApp(input);
  const clientId = newClientId();
  const clientSecret = valid.confidential ? randomBytes(32).toString('base64url') : null;
  const row = await prisma.oAuthClient.create({
    data: {
      clientId,
      name: valid.name,
      confidential: valid.confidential,
      allowImplicit: valid.allowImplicit ?? false,
      allowPlainHttp: valid.allowPlainHttp ?? false,
      legacyTokens: valid.legacyTokens ?? false,
      secretHash: clientSecret ? hashToken(clientSecret) : null,
      ownerId,
      redirectUris: { create: valid.redirectUris.map((uri) => ({ uri })) },
    },
    select: APP,
  });
  return { ...toApp(row), clientSecret };
}

export async function findApp(prisma: Prisma, clientId: string): Promise<(RegisteredApp & { secretHash: string | null }) | null> {
  const row = await prisma.oAuthClient.findUnique({ where: { clientId }, select: { ...APP, secretHash: true } });
  return row ? { ...toApp(row), secretHash: row.secretHash } : null;
}

export async function appsOwnedBy(prisma: Prisma, ownerId: number): Promise<Array<RegisteredApp & { webhookUrl: string | null }>> {
  const rows = await prisma.oAuthClient.findMany({ where: { ownerId }, select: { ...APP, webhookUrl: true }, orderBy: { id: 'asc' } });
  return rows.map((row) => ({ ...toApp(row), webhookUrl: row.webhookUrl }));
}

export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 600;

export interface CodeGrant {
  code: string;
  clientId: number;
  personId: number;
  redirectUri: string;
  scope: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: Date;
}

export async function saveAuthorizationCode(prisma: Prisma, grant: CodeGrant): Promise<void> {
  await prisma.oAuthAuthorizationCode.create({
    data: {
      codeHash: hashToken(grant.code),
      clientId: grant.clientId,
      personId: grant.personId,
      redirectUri: grant.redirectUri,
      scope: grant.scope,
      codeChallenge: grant.codeChallenge,
      codeChallengeMethod: grant.codeChallengeMethod,
      expiresAt: grant.expiresAt,
    },
  });
}

export interface StoredCode {
  id: number;
  client: { id: number; clientId: string };
  person: { id: number; username: string };
  redirectUri: string;
  scope: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: Date;
}

/**
 * The unused code, or null. A code presented a second time is a replay (RFC 6749 4.1.2): the
 * tokens it produced are revoked, since whoever holds the code may hold them too.
 */
export async function findUnusedCode(prisma: Prisma, code: string): Promise<StoredCode | null> {
  const row = await prisma.oAuthAuthorizationCode.findUnique({
    where: { codeHash: hashToken(code) },
    select: {
      id: true,
      usedAt: true,
      redirectUri: true,
      scope: true,
      codeChallenge: true,
      codeChallengeMethod: true,
      expiresAt: true,
      client: { select: { id: true, clientId: true } },
      person: { select: { id: true, username: true } },
    },
  });
  if (!row) return null;
  if (row.usedAt) {
    await prisma.oAuthAuthorizationCode.update({ where: { id: row.id }, data: { replayedAt: new Date() } });
    await revokeTokensOfCode(prisma, row.id);
    return null;
  }
  const { usedAt: _used, ...code_ } = row;
  return code_;
}

/** Marks the code used; false when another request got there first. */
export async function consumeCode(prisma: Prisma, codeId: number): Promise<boolean> {
  const { count } = await prisma.oAuthAuthorizationCode.updateMany({ where: { id: codeId, usedAt: null }, data: { usedAt: new Date() } });
  if (count === 1) return true;
  // lost the race to an exchange running at the same moment: a replay (RFC 6749 4.1.2). Mark the
  // code first, then revoke; the winner checks the mark after saving its token, so whichever order
  // the two run in, the token does not survive.
  await prisma.oAuthAuthorizationCode.updateMany({ where: { id: codeId }, data: { replayedAt: new Date() } });
  await revokeTokensOfCode(prisma, codeId);
  return false;
}

/**
 * Revokes every token issued from the code (RFC 6749 §4.1.2): those it was exchanged for, and every
 * token refreshed from them since (their refresh family), which carry no mark of the code themselves.
 */
export async function revokeTokensOfCode(prisma: Prisma, codeId: number): Promise<void> {
  const issued = await prisma.oAuthAccessToken.findMany({ where: { authorizationCodeId: codeId }, select: { familyId: true } });
  const families = [...new Set(issued.flatMap((row) => (row.familyId ? [row.familyId] : [])))];
  await prisma.oAuthAccessToken.updateMany({
    where: { OR: [{ authorizationCodeId: codeId }, { familyId: { in: families } }], revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** Whether a replay of the code was seen (after its token was saved: see consumeCode). */
export async function codeWasReplayed(prisma: Prisma, codeId: number): Promise<boolean> {
  const row = await prisma.oAuthAuthorizationCode.findUnique({ where: { id: codeId }, select: { replayedAt: true } });
  return row?.replayedAt != null;
}

export async function codeIdFor(prisma: Prisma, code: string): Promise<number | null> {
  const row = await prisma.oAuthAuthorizationCode.findUnique({ where: { codeHash: hashToken(code) }, select: { id: true } });
  return row?.id ?? null;
}

/**
 * How long an app's tokens work (config: ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS), and how
 * long a used refresh token answers the pair it was exchanged for again (REFRESH_REUSE_SECONDS).
 */
export interface TokenLifetimes {
  accessSeconds: number;
  refreshSeconds: number;
  reuseSeconds?: number;
}

/**
 * Mints an access token and returns it; only its hash is kept. With `refresh` it expires, and comes
 * with a refresh token (returned too) that starts a family, or continues `refresh.familyId`'s; without,
 * it never expires (a legacy app's, the operator's CLI's: SPEC 5).
 */
export async function issueAccessToken(
  prisma: Prisma,
  grant: { clientId: number; personId: number; scope?: string | null; authorizationCodeId?: number | null },
  token = generateToken(),
  refresh?: { lifetimes: TokenLifetimes; familyId?: string; refreshToken?: string },
): Promise<string> {
  await prisma.oAuthAccessToken.create({ data: { ...tokenRow(grant, token, refresh) } });
  return token;
}

function tokenRow(
  grant: { clientId: number; personId: number; scope?: string | null; authorizationCodeId?: number | null },
  token: string,
  refresh?: { lifetimes: TokenLifetimes; familyId?: string; refreshToken?: string },
) {
  const now = Date.now();
  return {
    tokenHash: hashToken(token),
    clientId: grant.clientId,
    personId: grant.personId,
    scope: grant.scope ?? null,
    authorizationCodeId: grant.authorizationCodeId ?? null,
    ...(refresh
      ? {
          expiresAt: new Date(now + refresh.lifetimes.accessSeconds * 1000),
          refreshTokenHash: hashToken(refresh.refreshToken ?? generateToken()),
          refreshExpiresAt: new Date(now + refresh.lifetimes.refreshSeconds * 1000),
          familyId: refresh.familyId ?? randomBytes(16).toString('hex'),
        }
      : {}),
  };
}

export type RefreshOutcome =
  | { kind: 'ok'; accessToken: string; refreshToken: string; scope: string | null; expiresIn: number }
  /** unknown, expired, revoked, or another app's */
  | { kind: 'invalid' }
  /** used already: the whole family was revoked (RFC 9700 4.14.2) */
  | { kind: 'replayed' }
  | { kind: 'wider-scope' };

/**
 * Uses a refresh token: the next pair of its family is issued, with the same scopes or fewer (`scope`).
 * The access token it came with works on until it expires (a tab still using it is not cut off). The
 * same refresh token presented again within the reuse window (two tabs refreshing at once) answers the
 * same new pair; after it, it is a replay (stolen, or the app's copy of an old one), and every token of
 * its family is revoked, the newest included.
 */
export async function rotateRefreshToken(
  prisma: Prisma,
  input: { refreshToken: string; clientId: number; scope: readonly Scope[] | null; lifetimes: TokenLifetimes },
): Promise<RefreshOutcome> {
  const read = () =>
    prisma.oAuthAccessToken.findUnique({
      where: { refreshTokenHash: hashToken(input.refreshToken) },
      select: {
        id: true,
        clientId: true,
        personId: true,
        scope: true,
        familyId: true,
        revokedAt: true,
        refreshedAt: true,
        refreshExpiresAt: true,
        reissue: true,
        person: { select: { suspendedAt: true } },
      },
    });
  const row = await read();
  // a suspended person's apps get no new tokens (their live ones stop working too: auth/viewer.ts)
  if (!row || row.clientId !== input.clientId || row.person.suspendedAt !== null) return { kind: 'invalid' };
  const now = new Date();
  /** A refresh token used before: within the window, the pair it was exchanged for; else a replay. */
  const usedAgain = async (used: { refreshedAt: Date | null; reissue: string | null }): Promise<RefreshOutcome> => {
    const windowMs = (input.lifetimes.reuseSeconds ?? 0) * 1000;
    const pair =
      used.reissue && now.getTime() - used.refreshedAt!.getTime() <= windowMs ? openPair(input.refreshToken, used.reissue) : null;
    const issued =
      pair &&
      (await prisma.oAuthAccessToken.findFirst({
        where: { tokenHash: hashToken(pair.accessToken), revokedAt: null },
        select: { scope: true, expiresAt: true },
      }));
    if (pair && issued?.expiresAt) {
      const expiresIn = Math.max(0, Math.round((issued.expiresAt.getTime() - now.getTime()) / 1000));
      return { kind: 'ok', ...pair, scope: issued.scope, expiresIn };
    }
    await prisma.oAuthAccessToken.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: now } });
    return { kind: 'replayed' };
  };
  if (row.refreshedAt !== null) return usedAgain(row);
  if (row.revokedAt !== null || row.refreshExpiresAt === null || row.refreshExpiresAt <= now) return { kind: 'invalid' };
  const granted = grantedScopes(row.scope);
  if (input.scope?.some((scope) => !granted.has(scope))) return { kind: 'wider-scope' };
  const scope = input.scope ? formatScopes(input.scope) : row.scope;
  const accessToken = generateToken();
  const refreshToken = generateToken();
  const used = await prisma.$transaction(async (tx) => {
    // the row is the lock: of two refreshes at once, one claims it; the other is answered its pair
    const { count } = await tx.oAuthAccessToken.updateMany({
      where: { id: row.id, refreshedAt: null },
      data: { refreshedAt: now, reissue: sealPair(input.refreshToken, { accessToken, refreshToken }) },
    });
    if (count === 0) return false;
    await tx.oAuthAccessToken.create({
      data: tokenRow({ clientId: row.clientId, personId: row.personId, scope }, accessToken, {
        lifetimes: input.lifetimes,
        familyId: row.familyId ?? undefined,
        refreshToken,
      }),
    });
    return true;
  });
  if (!used) {
    const claimed = await read();
    return claimed ? usedAgain(claimed) : { kind: 'invalid' };
  }
  return { kind: 'ok', accessToken, refreshToken, scope, expiresIn: input.lifetimes.accessSeconds };
}

/** RFC 7009: revokes the token (an access or a refresh token) if `clientId` holds it; unknown tokens are not an error. */
export async function revokeToken(prisma: Prisma, token: string, clientId: number): Promise<void> {
  const hash = hashToken(token);
  await prisma.oAuthAccessToken.updateMany({
    where: { OR: [{ tokenHash: hash }, { refreshTokenHash: hash }], clientId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** RFC 7662: what an app's token is, for that app; null when it is not one of its live tokens. */
export async function introspectToken(
  prisma: Prisma,
  token: string,
  clientId: number,
): Promise<{ scope: string; username: string; clientId: string; exp: number | null; iat: number; refresh: boolean } | null> {
  const hash = hashToken(token);
  const row = await prisma.oAuthAccessToken.findFirst({
    where: { OR: [{ tokenHash: hash }, { refreshTokenHash: hash }], clientId, revokedAt: null },
    select: {
      tokenHash: true,
      scope: true,
      createdAt: true,
      expiresAt: true,
      refreshExpiresAt: true,
      person: { select: { username: true, suspendedAt: true } },
      client: { select: { clientId: true } },
    },
  });
  // a suspended person's tokens answer nothing, so introspection says they are not active
  if (!row || row.person.suspendedAt !== null) return null;
  const refresh = row.tokenHash !== hash;
  const expires = refresh ? row.refreshExpiresAt : row.expiresAt;
  if (expires !== null && expires.getTime() <= Date.now()) return null;
  return {
    scope: formatScopes(grantedScopes(row.scope)),
    username: row.person.username,
    clientId: row.client.clientId,
    exp: expires === null ? null : Math.floor(expires.getTime() / 1000),
    iat: Math.floor(row.createdAt.getTime() / 1000),
    refresh,
  };
}

export interface Authorization {
  client: { id: number; clientId: string; name: string };
  grantedAt: Date;
  lastUsedAt: Date | null;
  tokens: number;
  /** What its live tokens may do, together (domain/scopes.ts). */
  scopes: Scope[];
}

/** The apps holding live tokens for a person, for the page where they revoke them. */
export async function authorizationsOf(prisma: Prisma, personId: number): Promise<Authorization[]> {
  const tokens = await prisma.oAuthAccessToken.findMany({
    // a personal token is listed on its own (personalTokensOf)
    where: { personId, revokedAt: null, name: null },
    select: { createdAt: true, lastUsedAt: true, scope: true, client: { select: { id: true, clientId: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const byClient = new Map<number, Authorization>();
  for (const t of tokens) {
    const granted = [...grantedScopes(t.scope)];
    const current = byClient.get(t.client.id);
    if (!current)
      byClient.set(t.client.id, { client: t.client, grantedAt: t.createdAt, lastUsedAt: t.lastUsedAt, tokens: 1, scopes: granted });
    else {
      current.tokens += 1;
      current.scopes = formatScopes([...current.scopes, ...granted]).split(' ') as Scope[];
      if (t.lastUsedAt && (!current.lastUsedAt || t.lastUsedAt > current.lastUsedAt)) current.lastUsedAt = t.lastUsedAt;
    }
  }
  return [...byClient.values()];
}

/** Revokes every token a person granted to one app. */
export async function revokeAuthorization(prisma: Prisma, personId: number, clientId: string): Promise<number> {
  const client = await prisma.oAuthClient.findUnique({ where: { clientId }, select: { id: true } });
  if (!client) throw new NotFoundError('app', clientId);
  const { count } = await prisma.oAuthAccessToken.updateMany({
    where: { personId, clientId: client.id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}

/** The app scripts' tokens belong to when no client is named: created on first use. */
export async function scriptsApp(prisma: Prisma): Promise<{ id: number; clientId: string }> {
  const clientId = 'milepost-cli';
  return prisma.oAuthClient.upsert({
    where: { clientId },
    create: { clientId, name: 'Milepost command line', confidential: false },
    update: {},
    select: { id: true, clientId: true },
  });
}

/**
 * Sets (or with null clears) an app's webhook URL; answers the signing secret when one was created. The URL
 * must reach the public internet (loopback, private networks and metadata addresses are refused, against
 * SSRF, unless `allowPrivate`), and must answer the challenge that proves its owner controls it.
 */
export async function setWebhook(
  prisma: Prisma,
  ownerId: number | null,
  clientId: string,
  url: string | null,
  options: { allowPrivate?: boolean } = {},
): Promise<{ secret: string | null }> {
  const app = await prisma.oAuthClient.findFirst({
    where: { clientId, ...(ownerId === null ? {} : { ownerId }) },
    select: { id: true, webhookSecret: true },
  });
  if (!app) throw new NotFoundError('app', clientId);
  const target = url?.trim() || null;
  if (target) {
    const problem =
      httpUrlProblem(target) ??
      (options.allowPrivate ? null : await webhookTargetProblem(target)) ??
      (await webhookChallengeProblem(target, { allowPrivate: options.allowPrivate ?? false }));
    if (problem) throw ValidationError.field('webhook_url', problem);
  }
  const secret = target && !app.webhookSecret ? newWebhookSecret() : null;
  await prisma.oAuthClient.update({ where: { id: app.id }, data: { webhookUrl: target, ...(secret ? { webhookSecret: secret } : {}) } });
  return { secret };
}

export interface DeliveryRow {
  id: number;
  event: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
}

/** The delivery log of an owned app, newest first. */
export async function deliveriesOf(
  prisma: Prisma,
  ownerId: number,
  clientId: string,
  take = 50,
): Promise<{ app: RegisteredApp & { webhookUrl: string | null }; deliveries: DeliveryRow[] }> {
  const app = await prisma.oAuthClient.findFirst({ where: { clientId, ownerId }, select: { ...APP, webhookUrl: true } });
  if (!app) throw new NotFoundError('app', clientId);
  const deliveries = await prisma.webhookDelivery.findMany({
    where: { clientId: app.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
    select: {
      id: true,
      event: true,
      status: true,
      attempts: true,
      lastStatusCode: true,
      lastError: true,
      createdAt: true,
      deliveredAt: true,
      nextAttemptAt: true,
    },
  });
  return { app: { ...toApp(app), webhookUrl: app.webhookUrl }, deliveries };
}

/** The app that holds the tokens people make for themselves on their account page. */
async function personalTokensApp(prisma: Prisma): Promise<{ id: number }> {
  const clientId = 'milepost-personal';
  return prisma.oAuthClient.upsert({
    where: { clientId },
    create: { clientId, name: 'Personal access tokens', confidential: false, legacyTokens: true },
    update: {},
    select: { id: true },
  });
}

export interface PersonalToken {
  id: number;
  name: string;
  scopes: Scope[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/**
 * Makes a personal access token: named, with the scopes its person chose, and an optional expiry.
 * Returned once; only its hash is kept.
 */
export async function createPersonalToken(
  prisma: Prisma,
  personId: number,
  input: { name: string; scopes: readonly string[]; days: number | null },
): Promise<string> {
  const issues: FieldIssue[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) issues.push({ path: 'name', message: 'must be 1 to 80 characters' });
  const scopes = parseScopes(input.scopes.join(' '));
  if ('unknown' in scopes) issues.push({ path: 'scope', message: `unknown scope ${scopes.unknown.join(', ')}` });
  if (input.days !== null && !(PERSONAL_TOKEN_DAYS as readonly number[]).includes(input.days))
    issues.push({ path: 'expires', message: `must be ${PERSONAL_TOKEN_DAYS.join(', ')} days, or never` });
  if (issues.length > 0 || 'unknown' in scopes) throw new ValidationError(issues);
  if ((await prisma.oAuthAccessToken.count({ where: { personId, name: { not: null }, revokedAt: null } })) >= 50)
    throw ValidationError.field('name', 'at most 50 personal tokens; revoke one first');
  const token = generateToken();
  await prisma.oAuthAccessToken.create({
    data: {
      tokenHash: hashToken(token),
      clientId: (await personalTokensApp(prisma)).id,
      personId,
      name,
      scope: formatScopes(scopes.scopes),
      expiresAt: input.days === null ? null : new Date(Date.now() + input.days * 86_400_000),
    },
  });
  return token;
}

/** A person's live personal tokens, newest first. */
export async function personalTokensOf(prisma: Prisma, personId: number): Promise<PersonalToken[]> {
  const rows = await prisma.oAuthAccessToken.findMany({
    where: { personId, name: { not: null }, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: { id: true, name: true, scope: true, createdAt: true, expiresAt: true, lastUsedAt: true },
    orderBy: { id: 'desc' },
  });
  return rows.map((row) => ({ ...row, name: row.name!, scopes: [...grantedScopes(row.scope)] }));
}

/** Revokes one of a person's personal tokens; another's, or none, is not an error (nothing happens). */
export async function revokePersonalToken(prisma: Prisma, personId: number, id: number): Promise<void> {
  await prisma.oAuthAccessToken.updateMany({
    where: { id, personId, name: { not: null }, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
