// The browser session of a logged-in person: an HttpOnly, SameSite=Lax cookie holding a random
// session token, signed so that forged cookies are turned away without a database look-up. The
// session itself lives in the database (only the token's hash), so logging out ends it for good,
// even for a copy of the cookie taken earlier. Lax, not Strict: an app sends people to
// /oauth/authorize with a top-level link from its own site, and they must arrive logged in.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';

export const SESSION_COOKIE = 'milepost_session';

const SESSION_IN_HEADER = new RegExp(`(^|;)\\s*${SESSION_COOKIE}=`);

/** Whether a Cookie header carries the pages' log-in session (not whether it is valid). */
export const hasSessionCookie = (cookieHeader: string | null | undefined): boolean => SESSION_IN_HEADER.test(cookieHeader ?? '');
export const CSRF_COOKIE = 'milepost_csrf';
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The cookie's value for a session token. */
export function signSessionToken(secret: string, token: string): string {
  return `${token}.${sign(secret, token)}`;
}

/** The session token in a cookie, or null when the cookie is missing, malformed or not signed by us. */
export function readSessionToken(secret: string, value: string | undefined): string | null {
  if (!value) return null;
  const [token, signature] = value.split('.');
  if (!token || !signature || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const expected = Buffer.from(sign(secret, token));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return token;
}

/** The cookies of a `Cookie` header; of a name sent twice, the first (as browsers send the most specific first). */
export function parseCookies(header: string | null): Record<string, string | undefined> {
  return parseCookie(header ?? '');
}

export interface CookieOptions {
  maxAge?: number;
  secure: boolean;
  sameSite?: 'Lax' | 'Strict';
}

/** A `Set-Cookie` value for the whole site, never readable by script. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return stringifySetCookie({
    name,
    value,
    path: '/',
    httpOnly: true,
    secure: options.secure,
    sameSite: options.sameSite === 'Strict' ? 'strict' : 'lax',
    ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {}),
  });
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Double-submit check: the form field must equal the cookie, compared in constant time. */
export function csrfMatches(cookie: string | undefined, field: string | null): boolean {
  if (!cookie || !field || cookie.length !== field.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(field));
}
