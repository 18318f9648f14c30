// An email address as people type it. The rule is the HTML standard's for `<input type="email">`
// (what the pages' browsers check already), with the length SMTP allows. No I/O.
import { ValidationError } from './errors.ts';

/** The WHATWG HTML "valid email address": a local part, `@`, and dot-separated host labels. */
const VALID =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
/** RFC 5321's longest path, less its angle brackets. */
export const ADDRESS_MAX = 254;

/**
 * The address to mail, trimmed and with its domain lower-cased; null for none (blank). A malformed one is
 * a ValidationError naming `field`. A domain without a dot (`me@localhost`) is refused: nothing outside reaches it.
 */
export function parseEmailAddress(text: string | null | undefined, field = 'address'): string | null {
  const address = (text ?? '').trim();
  if (address === '') return null;
  if (address.length > ADDRESS_MAX) throw ValidationError.field(field, `must be at most ${ADDRESS_MAX} characters`);
  if (!VALID.test(address)) throw ValidationError.field(field, 'must be an email address, such as jo@example.com');
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}

/** How often someone's notifications are mailed. */
export const EMAIL_FREQUENCIES = ['off', 'immediate', 'daily'] as const;
export type EmailFrequency = (typeof EMAIL_FREQUENCIES)[number];
