// The browser session of a logged-in person: a signed, HttpOnly, SameSite=Lax cookie holding the
// person's id and when they logged in. Lax, not Strict: an app sends people to /oauth/authorize with
// a top-level link from its own site, and they must arrive logged in.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'milepost_session';
export const CSRF_COOKIE = 'milepost_csrf';
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

export interface Session {
  personId: number;
  /** epoch seconds */
  issuedAt: number;
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function encodeSession(secret: string, session: Session): string {
  const payload = Buffer.from(JSON.stringify([session.personId, session.issuedAt])).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export function decodeSession(secret: string, value: string | undefined, now = Date.now()): Session | null {
  if (!value) return null;
  const [payload, signature] = value.split('.');
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const [personId, issuedAt] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [unknown, unknown];
    if (!Number.isSafeInteger(personId) || !Number.isSafeInteger(issuedAt)) return null;
    if ((issuedAt as number) + SESSION_MAX_AGE_SECONDS < now / 1000) return null;
    return { personId: personId as number, issuedAt: issuedAt as number };
  } catch {
    return null;
  }
}

export function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in cookies) continue;
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // a malformed escape (`a=%`), perhaps a sibling domain's cookie: not ours, so ignored
    }
  }
  return cookies;
}

export interface CookieOptions {
  maxAge?: number;
  secure: boolean;
  sameSite?: 'Lax' | 'Strict';
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', `SameSite=${options.sameSite ?? 'Lax'}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Double-submit check: the form field must equal the cookie, compared in constant time. */
export function csrfMatches(cookie: string | undefined, field: string | null): boolean {
  if (!cookie || !field || cookie.length !== field.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(field));
}
