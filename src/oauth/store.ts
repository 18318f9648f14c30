// Accounts, registered apps, authorization codes and access tokens in the database. Every secret is
// stored as a SHA-256 digest: codes, tokens and client secrets are random 256-bit values, so a fast
// hash suffices and a copy of the tables reveals none of them. Passwords, chosen by people, get scrypt.
import { formatScopes, grantedScopes, type Scope } from '../domain/scopes.ts';
import { randomBytes } from 'node:crypto';
import { generateToken, hashToken } from '../auth/tokens.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Prisma } from '../db/database.ts';
import { usernameKey, validateApp, validateSignUp, type AppInput, type SignUpInput } from '../domain/accounts.ts';
import { httpUrlProblem } from '../domain/entry-input.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { webhookTargetProblem } from '../webhooks/address-guard.ts';
import { newWebhookSecret } from '../webhooks/deliveries.ts';

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
      data: { username: valid.username, usernameKey: usernameKey(valid.username), displayName: valid.displayName, passwordHash },
      select: ACCOUNT,
    });
  } catch (error) {
    // the unique index decides, so two sign-ups racing for one name cannot both win
    if (isUniqueViolation(error)) throw ValidationError.field('username', `"${valid.username}" is taken`);
    throw error;
  }
}

/** The account for these credentials, or null; takes as long for an unknown username as for a wrong password. */
export async function checkPassword(prisma: Prisma, username: string, password: string): Promise<Account | null> {
  const person = await prisma.person.findUnique({
    where: { usernameKey: usernameKey(username) },
    select: { ...ACCOUNT, passwordHash: true },
  });
  const ok = await verifyPassword(password, person?.passwordHash ?? null);
  if (!person || !ok) return null;
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
    select: { revokedAt: true, expiresAt: true, person: { select: ACCOUNT } },
  });
  if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
  return session.person;
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
  /** Legacy flows this app opted in to: the user-agent flow, plain-http callbacks. */
  allowImplicit: boolean;
  allowPlainHttp: boolean;
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
  redirectUris: { select: { uri: true }, orderBy: { id: 'asc' } },
} as const;
type AppRow = {
  id: number;
  clientId: string;
  name: string;
  confidential: boolean;
  allowImplicit: boolean;
  allowPlainHttp: boolean;
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

export async function revokeTokensOfCode(prisma: Prisma, codeId: number): Promise<void> {
  await prisma.oAuthAccessToken.updateMany({ where: { authorizationCodeId: codeId, revokedAt: null }, data: { revokedAt: new Date() } });
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

/** Mints a long-lived access token (SPEC 5: no expiry until revoked) and returns it; only its hash is kept. */
export async function issueAccessToken(
  prisma: Prisma,
  grant: { clientId: number; personId: number; scope?: string | null; authorizationCodeId?: number | null },
  token = generateToken(),
): Promise<string> {
  await prisma.oAuthAccessToken.create({
    data: {
      tokenHash: hashToken(token),
      clientId: grant.clientId,
      personId: grant.personId,
      scope: grant.scope ?? null,
      authorizationCodeId: grant.authorizationCodeId ?? null,
    },
  });
  return token;
}

/** RFC 7009: revokes the token if `clientId` holds it; unknown tokens are not an error. */
export async function revokeToken(prisma: Prisma, token: string, clientId: number): Promise<void> {
  await prisma.oAuthAccessToken.updateMany({
    where: { tokenHash: hashToken(token), clientId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
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
    where: { personId, revokedAt: null },
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

/** Sets (or clears) an owned app's webhook URL; returns the signing secret when one was created. */
/**
 * Sets (or with null clears) an app's webhook URL. It must reach the public internet: loopback,
 * private networks and metadata addresses are refused (SSRF) unless `allowPrivate`.
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
    const problem = httpUrlProblem(target) ?? (options.allowPrivate ? null : await webhookTargetProblem(target));
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
