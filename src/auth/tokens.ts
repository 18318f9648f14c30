// Access tokens: how a request presents one, and how a stored one is found. Tokens are stored as
// SHA-256 digests: they are random 256-bit values, so a fast hash is enough and a leaked table is useless.

import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Database, Prisma } from '../db/database.ts';
import { grantedScopes } from '../domain/scopes.ts';
import { Prisma as Sql } from '../generated/prisma-sqlite/client.ts';
import type { Viewer } from './viewer.ts';

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export class TokenConflictError extends Error {
  override name = 'TokenConflictError';
  constructor() {
    super('the request carries two different access tokens; send one');
  }
}

/** The token of an `Authorization: Bearer <t>` or `Authorization: OAuth <t>` header. */
export function tokenFromHeader(header: string | null | undefined): string | null {
  return (header ? /^(?:Bearer|OAuth)\s+(\S+)\s*$/i.exec(header)?.[1] : null) ?? null;
}

/**
 * The token a request carries: `Authorization: Bearer <t>` or `Authorization: OAuth <t>` (older
 * clients) or the `oauth_token` query parameter (SPEC 5.3). The same token in two places is fine;
 * two different tokens are refused.
 */
export function tokenFromRequest(request: Request, formToken?: string | null): string | null {
  const found = new Set<string>();
  const fromHeader = tokenFromHeader(request.headers.get('authorization'));
  if (fromHeader) found.add(fromHeader);
  const query = new URL(request.url).searchParams.get('oauth_token');
  if (query) found.add(query);
  if (formToken) found.add(formToken);
  if (found.size > 1) throw new TokenConflictError();
  return found.values().next().value ?? null;
}

/** Where tokens are looked up: the hot read path, and Prisma for the hourly last-used stamp. */
export type TokenStore = Pick<Database, 'prisma' | 'read'>;

const LAST_USED_PRECISION_MS = 3_600_000;

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
  constructor() {
    super('the access token is not valid (unknown or revoked)');
  }
}

/**
 * The viewer of a request: null without a token. Two different tokens throw TokenConflictError, an
 * unknown or revoked one InvalidTokenError; each edge (GraphQL, REST) answers those in its own form.
 */
export async function viewerOfRequest(database: TokenStore, request: Request, formToken?: string | null): Promise<Viewer | null> {
  const token = tokenFromRequest(request, formToken);
  if (!token) return null;
  const viewer = await viewerForToken(database, token);
  if (!viewer) throw new InvalidTokenError();
  if (viewer.clientId !== null) clientsOfRequests.set(request, viewer.clientId);
  return viewer;
}

const clientsOfRequests = new WeakMap<Request, number>();

/** The app whose token a request carried, once the token was checked (for the request log). */
export function clientOfRequest(request: Request): number | undefined {
  return clientsOfRequests.get(request);
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

/** Why a request's token is refused, in the terms every transport answers with. */
export interface TokenRefusal {
  status: 400 | 401;
  code: 'TOKEN_CONFLICT' | 'INVALID_TOKEN';
  message: string;
  headers: Record<string, string>;
}

/** The refusal for a token error, or null when `error` is not one. */
export function tokenRefusal(error: unknown): TokenRefusal | null {
  if (error instanceof TokenConflictError) return { status: 400, code: 'TOKEN_CONFLICT', message: error.message, headers: {} };
  if (error instanceof InvalidTokenError) {
    return {
      status: 401,
      code: 'INVALID_TOKEN',
      message: error.message,
      headers: { 'www-authenticate': 'Bearer realm="milepost", error="invalid_token"' },
    };
  }
  return null;
}
