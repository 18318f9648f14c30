// Access tokens: how a request presents one, and how they are made and refused. Tokens are stored as
// SHA-256 digests: they are random 256-bit values, so a fast hash is enough and a leaked table is useless.
// Who a stored token speaks for is read in db/token-viewers.ts.

import { createHash, randomBytes } from 'node:crypto';

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

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
  constructor() {
    super('the access token is not valid (unknown or revoked)');
  }
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
