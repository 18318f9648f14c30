// The pair a refresh token was exchanged for, kept so that the same refresh token presented again
// within the reuse window (two tabs refreshing at once, a retry after a lost answer) gets the same
// pair rather than revoking the grant (RFC 9700 4.14.2 allows such a window). Tokens are stored only
// hashed, so the pair is sealed (AES-256-GCM) with a key derived from the refresh token itself: only
// someone holding that refresh token can open it, and the database alone gives nothing. No I/O.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

const keyOf = (refreshToken: string) => createHash('sha256').update(`milepost refresh reuse\0${refreshToken}`).digest();

/** `pair` sealed with `refreshToken`'s key: base64 of IV, tag and ciphertext. */
export function sealPair(refreshToken: string, pair: TokenPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(refreshToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(pair), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The pair `sealed` holds, opened with `refreshToken`; null when it does not open (another token, or damaged). */
export function openPair(refreshToken: string, sealed: string): TokenPair | null {
  try {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(refreshToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const pair = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as TokenPair;
    return typeof pair.accessToken === 'string' && typeof pair.refreshToken === 'string' ? pair : null;
  } catch {
    return null;
  }
}
