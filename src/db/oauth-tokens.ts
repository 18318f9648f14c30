// Authorization codes, access and refresh tokens, the authorizations people gave apps, and the personal
// tokens people make for themselves. Every code and token is a random 256-bit value stored as its
// SHA-256 digest, so a copy of the tables reveals none of them.
import { randomBytes } from 'node:crypto';
import { generateToken, hashToken } from '../auth/tokens.ts';
import { type FieldIssue, NotFoundError, ValidationError } from '../domain/errors.ts';
import { formatScopes, grantedScopes, PERSONAL_TOKEN_DAYS, parseScopes, type Scope } from '../domain/scopes.ts';
import type { Prisma } from './database.ts';
import { openPair, sealPair } from './refresh-reuse.ts';

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
