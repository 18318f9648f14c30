// The fediverse's words, without I/O: handles as people write them, and remote posts made plain text.
import { convert } from 'html-to-text';
import { ValidationError } from './errors.ts';

/** The longest remote text kept (a post, a reply): longer ones are cut, with an ellipsis. */
export const MAX_REMOTE_TEXT = 5_000;

export interface Handle {
  user: string;
  host: string;
}

/** `@ann@example.social` or `ann@example.social`: the account and its server; refused naming `field`. */
export function parseHandle(input: string, field: string): Handle {
  const match = /^@?([A-Za-z0-9_.-]{1,100})@([A-Za-z0-9.-]{1,253}(?::\d{1,5})?)$/.exec(input.trim());
  if (!match) throw ValidationError.field(field, 'must be a fediverse handle such as @ann@example.social');
  return { user: match[1]!, host: match[2]!.toLowerCase() };
}

/**
 * An account as people name it: a handle (see parseHandle), or the URL of its profile or actor
 * (`https://example.social/@ann`); `lookup` is what to look up (`acct:ann@host` or the URL).
 */
export function parseAccount(input: string, field: string): { host: string; lookup: string } {
  const trimmed = input.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw ValidationError.field(field, 'must be a fediverse handle such as @ann@example.social, or the URL of a profile');
    }
    if (trimmed.length > 2_000) throw ValidationError.field(field, 'is too long for a profile URL');
    return { host: url.host.toLowerCase(), lookup: url.href };
  }
  const { user, host } = parseHandle(trimmed, field);
  return { host, lookup: `acct:${user}@${host}` };
}

/** A remote post's HTML as plain text (links as their text), at most MAX_REMOTE_TEXT characters. */
export function plainText(html: string): string {
  const text = convert(html.slice(0, 4 * MAX_REMOTE_TEXT), {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
    ],
  }).trim();
  return text.length > MAX_REMOTE_TEXT ? `${text.slice(0, MAX_REMOTE_TEXT - 1)}…` : text;
}
