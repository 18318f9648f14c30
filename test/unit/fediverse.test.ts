import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { MAX_REMOTE_TEXT, parseAccount, parseHandle, plainText } from '../../src/domain/fediverse.ts';
import { noteHtml } from '../../src/federation/notes.ts';

describe('fediverse handles', () => {
  it('reads a handle with or without its @, any case of host', () => {
    expect(parseHandle('@ann@Example.Social', 'handle')).toEqual({ user: 'ann', host: 'example.social' });
    expect(parseHandle(' ann@example.social:8443 ', 'handle')).toEqual({ user: 'ann', host: 'example.social:8443' });
    expect(parseAccount('@ann@example.social', 'handle')).toEqual({ host: 'example.social', lookup: 'acct:ann@example.social' });
    expect(parseAccount('https://example.social/@ann', 'handle')).toEqual({
      host: 'example.social',
      lookup: 'https://example.social/@ann',
    });
  });

  it('refuses what is no handle, naming the field', () => {
    for (const input of ['ann', '@ann', 'ann@', 'a b@example.social', 'ann@exa mple.social', 'javascript:alert(1)']) {
      const refusal = (() => {
        try {
          parseAccount(input, 'handle');
        } catch (error) {
          return error;
        }
      })();
      expect(refusal, input).toBeInstanceOf(ValidationError);
      expect((refusal as ValidationError).issues[0]!.path).toBe('handle');
    }
  });
});

describe('remote text', () => {
  it('keeps the words of remote HTML, never its markup', () => {
    expect(plainText('<p>great <b>pace</b>!</p><script>alert(1)</script><img src=x onerror=alert(1)>')).not.toMatch(/[<>]|onerror/);
    expect(plainText('<p>great <b>pace</b>!</p>')).toBe('great pace!');
  });

  it('cuts a long post', () => {
    expect(plainText(`<p>${'a'.repeat(MAX_REMOTE_TEXT * 3)}</p>`)).toHaveLength(MAX_REMOTE_TEXT);
  });
});

describe('a Note of an entry', () => {
  const entry = {
    id: 7,
    url: 'https://milepost.example/entries/7',
    at: '2026-11-01T08:00:00Z',
    message: 'tempo <with> "friends"',
    media: [],
    author: { username: 'ann', fediverseHandle: 'ann@milepost.example' },
    workout: { activityType: 'RUNNING', title: null, distance: { value: 10.004, units: 'KILOMETERS' }, duration: 2700 },
  } as never;

  it('says the message and the workout in words, escaped, with a link to the entry', () => {
    expect(noteHtml(entry)).toBe(
      '<p>tempo &lt;with&gt; &quot;friends&quot;</p><p>running · 10 kilometers · 45:00</p><p><a href="https://milepost.example/entries/7">https://milepost.example/entries/7</a></p>',
    );
  });
});
