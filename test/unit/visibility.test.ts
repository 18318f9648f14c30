// The visibility rule (src/domain/visibility.ts): who may see an entry, with no I/O.
import { describe, expect, it } from 'vitest';
import { friendshipMatters, maySee } from '../../src/domain/visibility.ts';

const AUTHOR = 1;
const FRIEND = 2;
const STRANGER = 3;

describe('maySee', () => {
  it.each([
    // visibility, viewer, are they friends, may see
    ['everyone', null, false, true],
    ['everyone', STRANGER, false, true],
    ['friends', null, false, false],
    ['friends', STRANGER, false, false],
    ['friends', FRIEND, true, true],
    ['friends', AUTHOR, false, true],
    ['only_me', FRIEND, true, false],
    ['only_me', AUTHOR, false, true],
    ['only_me', null, false, false],
    // a value this code does not know fails closed: the author only
    ['secret', FRIEND, true, false],
    ['secret', AUTHOR, false, true],
  ] as const)('%s entry, viewer %s (friends: %s): %s', (visibility, viewer, friends, expected) => {
    expect(maySee({ authorId: AUTHOR, visibility }, viewer, friends)).toBe(expected);
  });

  it('asks about a friendship only when the answer depends on it', () => {
    expect(friendshipMatters({ authorId: AUTHOR, visibility: 'friends' }, FRIEND)).toBe(true);
    expect(friendshipMatters({ authorId: AUTHOR, visibility: 'friends' }, AUTHOR)).toBe(false);
    expect(friendshipMatters({ authorId: AUTHOR, visibility: 'friends' }, null)).toBe(false);
    expect(friendshipMatters({ authorId: AUTHOR, visibility: 'everyone' }, FRIEND)).toBe(false);
    expect(friendshipMatters({ authorId: AUTHOR, visibility: 'only_me' }, FRIEND)).toBe(false);
  });
});
