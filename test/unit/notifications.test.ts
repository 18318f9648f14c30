// What notifications say and group by, and whom a message mentions (and how the pages link them).
import { describe, expect, it } from 'vitest';
import { groupKey, MENTIONS_MAX, mentionedUsernames, notificationText } from '../../src/domain/notifications.ts';
import { withMentions } from '../../src/web/entry-card.ts';

describe('mentions', () => {
  it('are @usernames after a start or a non-word character, each once, lower-case, at most ten', () => {
    expect(mentionedUsernames('Thanks @Ben and @dov, @ben again; mail me@home.org')).toEqual(['ben', 'dov']);
    expect(mentionedUsernames('@a is too short, @@ben is not one')).toEqual([]);
    expect(mentionedUsernames(Array.from({ length: 15 }, (_, i) => `@user${i}`).join(' '))).toHaveLength(MENTIONS_MAX);
    expect(mentionedUsernames(null)).toEqual([]);
  });

  it('are linked on the pages, the rest of the text escaped', () => {
    expect(String(withMentions('Hi @Ben <b>'))).toBe('Hi <a href="/people/ben">@Ben</a> &lt;b&gt;');
  });
});

describe('notifications', () => {
  it('group entry kinds by entry, friendships by person', () => {
    expect(groupKey('like', 7, 1)).toBe(groupKey('like', 7, 2));
    expect(groupKey('like', 7, 1)).not.toBe(groupKey('comment', 7, 1));
    expect(groupKey('friend_request', null, 1)).not.toBe(groupKey('friend_request', null, 2));
  });

  it('say who did what, and how many others', () => {
    expect(notificationText('like', 'Jo', 1)).toBe('Jo liked your entry');
    expect(notificationText('like', 'Jo', 2)).toBe('Jo and 1 other liked your entry');
    expect(notificationText('comment', 'Jo', 500)).toBe('Jo and 499 others commented on your entry');
  });
});
