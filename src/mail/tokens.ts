// The tokens of the links mails carry: one proves that whoever follows it reads the address it was sent
// to (verification, for three days), the other unsubscribes its person in one click (for good). Both are
// signed, not stored: nothing to look up, nothing to leak from the database. Keyed by the session secret.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const VERIFICATION_DAYS = 3;

type Claims = { k: 'verify'; p: number; a: string; x: number } | { k: 'unsubscribe'; p: number };

export interface MailTokens {
  /** The token of the link that verifies `address` as `personId`'s. */
  verification(personId: number, address: string, now?: Date): string;
  /** Whose address a verification token proves, if it is genuine, unexpired, and the address is still theirs. */
  verifies(token: string, personId: number, address: string, now?: Date): boolean;
  /** The person a verification token names, if it is genuine (expired or not): who to check it against. */
  personOfVerification(token: string): number | null;
  /** The token of a mail's one-click unsubscribe link. */
  unsubscribe(personId: number): string;
  /** The person an unsubscribe token names, if it is genuine. */
  personOfUnsubscribe(token: string): number | null;
}

/** The address as tokens name it: a digest of it, any case, so that a token never shows it. */
const addressDigest = (address: string) => createHash('sha256').update(address.toLowerCase()).digest('base64url').slice(0, 22);

export function mailTokens(secret: string): MailTokens {
  const key = createHmac('sha256', secret).update('milepost mail links').digest();
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  const issue = (claims: Claims) => {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${sign(body)}`;
  };
  const read = (token: string): Claims | null => {
    if (token.length > 400) return null;
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
      return Number.isInteger(claims.p) ? claims : null;
    } catch {
      return null;
    }
  };
  return {
    verification: (personId, address, now = new Date()) =>
      issue({ k: 'verify', p: personId, a: addressDigest(address), x: Math.floor(now.getTime() / 1000) + VERIFICATION_DAYS * 86_400 }),
    verifies(token, personId, address, now = new Date()) {
      const claims = read(token);
      return claims?.k === 'verify' && claims.p === personId && claims.a === addressDigest(address) && claims.x * 1000 > now.getTime();
    },
    personOfVerification: (token) => {
      const claims = read(token);
      return claims?.k === 'verify' ? claims.p : null;
    },
    unsubscribe: (personId) => issue({ k: 'unsubscribe', p: personId }),
    personOfUnsubscribe: (token) => {
      const claims = read(token);
      return claims?.k === 'unsubscribe' ? claims.p : null;
    },
  };
}
