// Stream paging rules (SPEC 4.2) as pure data.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { decodeCursor, encodeCursor, PAGE_SIZE, pageFromRows, streamWindow } from '../../src/domain/paging.ts';

describe('streamWindow', () => {
  it('defaults to the 20 newest', () => {
    expect(streamWindow({})).toMatchObject({ skip: 0, take: PAGE_SIZE, direction: 'newest', sinceMs: null, untilMs: null });
    expect(PAGE_SIZE).toBe(20);
  });

  it('turns page N into an offset of 20 × (N − 1)', () => {
    expect(streamWindow({ page: 3 })).toMatchObject({ skip: 40, take: 20 });
  });

  it('compares in whole seconds: until is inclusive, since exclusive', () => {
    // until = 100 keeps everything before 101.000 s; since = 100 keeps from 101.000 s on
    expect(streamWindow({ until: 100, since: 100 })).toMatchObject({ untilMs: 101_000, sinceMs: 101_000 });
  });

  it('names every invalid argument at once', () => {
    try {
      streamWindow({ page: 0, since: 1.5, first: 500 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['page', 'since', 'first']);
    }
  });

  it('refuses page together with cursors, and first together with last', () => {
    expect(() => streamWindow({ page: 2, after: encodeCursor({ at: 1, id: 1 }) })).toThrow(/page: cannot be combined/);
    expect(() => streamWindow({ first: 2, last: 2 })).toThrow(/last: cannot be combined with first/);
  });
});

describe('cursors', () => {
  it('refuse forged positions a database cannot hold: a huge time, a huge id, a negative time', () => {
    for (const forged of ['9999999999999999:1', '1700000000000:99999999999', '-5:1'])
      expect(decodeCursor(Buffer.from(forged).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from('253402300799999:2147483647').toString('base64url'))).toEqual({ at: 253402300799999, id: 2147483647 });
  });

  it('round-trip a position', () => {
    const position = { at: 1_700_000_000_123, id: 42 };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each(['', 'abc', Buffer.from('1:x').toString('base64url'), Buffer.from('1:2:3').toString('base64url')])('reject %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});

describe('pageFromRows', () => {
  it('keeps `take` rows and reports that more follow', () => {
    const window = streamWindow({ first: 2 });
    expect(pageFromRows([1, 2, 3], window)).toEqual({ items: [1, 2], hasNextPage: true, hasPreviousPage: false });
    expect(pageFromRows([1, 2], window)).toEqual({ items: [1, 2], hasNextPage: false, hasPreviousPage: false });
  });

  it('puts a backwards page (last/before) newest first again', () => {
    const window = streamWindow({ last: 2, before: encodeCursor({ at: 10, id: 1 }) });
    expect(pageFromRows(['older', 'oldest', 'beyond'], window)).toEqual({
      items: ['oldest', 'older'],
      hasNextPage: true,
      hasPreviousPage: true,
    });
  });
});
