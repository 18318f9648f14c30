// Who a request's token speaks for, read from the database: the token's row and its person in one
// statement on the hot read path, before every request with a token. The token's own rules (its form,
// its digest, where a request may carry it) are auth/tokens.ts's.
import { LRUCache } from 'lru-cache';
import { hashToken, InvalidTokenError, tokenFromRequest } from '../auth/tokens.ts';
import type { Viewer } from '../auth/viewer.ts';
import { grantedScopes } from '../domain/scopes.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Database, Prisma } from './database.ts';

/** Where tokens are looked up: the hot read path, and Prisma for the hourly last-used stamp. */
export type TokenStore = Pick<Database, 'prisma' | 'read'>;

const LAST_USED_PRECISION_MS = 3_600_000;

/**
 * The viewer of a request: null without a token. Two different tokens throw TokenConflictError, an
 * unknown or revoked one InvalidTokenError; each edge (GraphQL, REST) answers those in its own form.
 */
export async function viewerOfRequest(database: TokenStore, request: Request, formToken?: string | null): Promise<Viewer | null> {
  const token = tokenFromRequest(request, formToken);
  if (!token) return null;
  const viewer = await viewerForToken(database, token);
  if (!viewer) throw new InvalidTokenError();
  return viewer;
}

/** The viewer a token speaks for, or null when it is unknown or revoked. */
export async function viewerForToken({ prisma, read }: TokenStore, token: string): Promise<Viewer | null> {
  // one statement for the token and its person, on the hot read path: it runs before every request
  // with a token (Prisma would load the person with a second one)
  const [row] = await read<{
    id: number;
    revokedAt: unknown;
    lastUsedAt: unknown;
    clientId: number;
    scope: string | null;
    expiresAt: unknown;
    personId: number;
    username: string;
    keptApart: number;
    suspendedAt: unknown;
  }>(
    Sql.sql`SELECT t."id", t."revokedAt", t."lastUsedAt", t."clientId", t."scope", t."expiresAt", p."id" AS "personId", p."username",
      p."keptApart", p."suspendedAt"
    FROM "OAuthAccessToken" t JOIN "Person" p ON p."id" = t."personId"
    WHERE t."tokenHash" = ${hashToken(token)}`,
  );
  // a suspended account's tokens stop working at once (a moderator's suspension)
  if (!row || row.revokedAt !== null || row.suspendedAt !== null) return null;
  // an app's token stops working when it expires (its refresh token gets the next one)
  if (row.expiresAt !== null && !(storedTime(row.expiresAt) > Date.now())) return null;
  // the account page shows when an app last acted; an hour's precision spares a write per request
  const lastUsed = row.lastUsedAt === null ? null : new Date(row.lastUsedAt as string | number | Date).getTime();
  if (lastUsed === null || Number.isNaN(lastUsed) || Date.now() - lastUsed > LAST_USED_PRECISION_MS) {
    await prisma.oAuthAccessToken.update({ where: { id: Number(row.id) }, data: { lastUsedAt: new Date() } });
  }
  return {
    id: Number(row.personId),
    username: row.username,
    clientId: Number(row.clientId),
    scopes: grantedScopes(row.scope),
    keptApart: Number(row.keptApart) !== 0,
  };
}

/** A time as the hot read gives it back: a Date (PostgreSQL), or milliseconds or text (SQLite). */
function storedTime(value: unknown): number {
  return new Date(value as string | number | Date).getTime();
}

/** How long a token seen valid is believed valid for counting its requests (not for authorizing them). */
const RECOGNIZED_FOR_MS = 60_000;
const RECOGNIZED_MAX = 50_000;

/**
 * Whether a token is one we issued (and not revoked), for choosing whose budget a request spends
 * before the request runs. A made-up token must not open a fresh budget of its own: its requests
 * count under the client's address. Recent answers are remembered, so a real app's requests cost
 * no extra statement; authorization itself always checks the database.
 */
export function createTokenRecognizer(prisma: Prisma): (token: string) => Promise<boolean> {
  const recognized = new LRUCache<string, true>({ max: RECOGNIZED_MAX, ttl: RECOGNIZED_FOR_MS, updateAgeOnGet: false });
  return async (token) => {
    const hash = hashToken(token);
    if (recognized.get(hash)) return true;
    const row = await prisma.oAuthAccessToken.findUnique({ where: { tokenHash: hash }, select: { revokedAt: true } });
    const known = row !== null && row.revokedAt === null;
    if (known) recognized.set(hash, true);
    return known;
  };
}
