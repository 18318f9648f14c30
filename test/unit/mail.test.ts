// The pure parts of mailed notifications: the address rule, the signed links, and what the mails say.
import { describe, expect, it } from 'vitest';
import { parseEmailAddress } from '../../src/domain/email.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { digestLetter, notificationLetter } from '../../src/mail/compose.ts';
import { mailTokens } from '../../src/mail/tokens.ts';

describe('an email address', () => {
  it('is trimmed, its domain lower-cased; blank is none', () => {
    expect(parseEmailAddress('  Jo.Smith+runs@Example.ORG ')).toBe('Jo.Smith+runs@example.org');
    expect(parseEmailAddress('   ')).toBeNull();
    expect(parseEmailAddress(null)).toBeNull();
  });

  it.each([
    'no-at-sign',
    'two@@example.com',
    'me@localhost',
    'spaces in@example.com',
    'me@-example.com',
    'me@example.com\r\nBcc: victim@example.com',
    `${'a'.repeat(250)}@example.com`,
  ])('refuses %j, naming the field', (text) => {
    expect(() => parseEmailAddress(text)).toThrow(ValidationError);
    try {
      parseEmailAddress(text);
    } catch (error) {
      expect((error as ValidationError).issues[0]!.path).toBe('address');
    }
  });
});

describe('the links of mails', () => {
  const tokens = mailTokens('a secret of at least thirty-two characters');
  const now = new Date('2026-11-27T12:00:00Z');

  it('verify the address they were sent to, for three days, and nothing else', () => {
    const token = tokens.verification(7, 'jo@example.com', now);
    expect(tokens.personOfVerification(token)).toBe(7);
    expect(tokens.verifies(token, 7, 'JO@example.com', now)).toBe(true);
    expect(tokens.verifies(token, 7, 'other@example.com', now)).toBe(false);
    expect(tokens.verifies(token, 8, 'jo@example.com', now)).toBe(false);
    expect(tokens.verifies(token, 7, 'jo@example.com', new Date(now.getTime() + 3 * 86_400_000 + 1000))).toBe(false);
    // the address is not readable from the token
    expect(Buffer.from(token.split('.')[0]!, 'base64url').toString()).not.toContain('jo@');
  });

  it('are refused when altered, signed with another secret, or of the other kind', () => {
    const token = tokens.unsubscribe(7);
    expect(tokens.personOfUnsubscribe(token)).toBe(7);
    const [body, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ k: 'unsubscribe', p: 8 })).toString('base64url');
    expect(tokens.personOfUnsubscribe(`${other}.${signature}`)).toBeNull();
    expect(mailTokens('another secret, also thirty-two characters').personOfUnsubscribe(token)).toBeNull();
    expect(tokens.personOfVerification(token)).toBeNull();
    expect(tokens.personOfUnsubscribe(`${body}.${signature}.x`)).toBeNull();
    expect(tokens.personOfUnsubscribe('')).toBeNull();
  });
});

describe('the mails', () => {
  const links = { origin: 'https://milepost.example', unsubscribe: 'https://milepost.example/email/unsubscribe?token=t' };

  it('tell of a notification with its link, and how to stop them', () => {
    const letter = notificationLetter(
      'Jo',
      { text: 'Sam and 4 others liked your entry', url: 'https://milepost.example/entries/3' },
      links,
    );
    expect(letter.subject).toBe('Sam and 4 others liked your entry');
    expect(letter.text).toContain('https://milepost.example/entries/3');
    expect(letter.text).toContain(links.unsubscribe);
  });

  it('gather a digest, saying how many more there are than it lists', () => {
    const told = { text: 'Sam commented on your entry', url: 'https://milepost.example/entries/3' };
    const letter = digestLetter('Jo', [told, told], 25, links);
    expect(letter.subject).toBe('Milepost: 25 things happened since yesterday');
    expect(letter.text).toContain('…and 23 more: https://milepost.example/notifications');
    expect(digestLetter('Jo', [told], 1, links).subject).toBe('Milepost: Sam commented on your entry');
  });
});

describe('Message-IDs', () => {
  it('are the same for one mail however often it is sent, and differ for a mail whose number comes again', async () => {
    const { messageIdOf } = await import('../../src/mail/compose.ts');
    const queued = new Date('2026-11-28T10:00:00Z');
    expect(messageIdOf(7, queued, 'milepost.example')).toBe(messageIdOf(7, new Date(queued), 'milepost.example'));
    // the database was restored or reset: mail 7 is another mail, queued at another moment
    expect(messageIdOf(7, new Date('2026-11-29T08:00:00Z'), 'milepost.example')).not.toBe(messageIdOf(7, queued, 'milepost.example'));
    expect(messageIdOf(7, queued, 'milepost.example')).toMatch(/^<mail-7\.[0-9a-z]+@milepost\.example>$/);
  });
});
