import { describe, expect, it } from 'vitest';
import type { LoadedEntry } from '../../src/db/entry-rows.ts';
import { KeptDocuments } from '../../src/db/kept-documents.ts';

const entry = (id: number) =>
  ({ id, message: `entry ${id}`, comments: [{ id: 1, body: 'hi', author: { id: 2, username: 'ana' } }] }) as unknown as LoadedEntry;

/** Keeps a document: the second time it is offered (the first only notes the key). */
function keep(kept: KeptDocuments, key: string, revision: number, people: number, document = entry(1)) {
  kept.keep(key, revision, people, document);
  kept.keep(key, revision, people, document);
}

describe('kept entry documents', () => {
  it('keep a document the second time it is read, not the first', () => {
    const kept = new KeptDocuments(10);
    kept.keep('a:1', 3, 7, entry(1));
    expect(kept.find('a:1', 3, 7)).toBeUndefined();
    expect(kept.size).toBe(0);
    kept.keep('a:1', 3, 7, entry(1));
    expect(kept.find('a:1', 3, 7)?.id).toBe(1);
  });

  it('answer only at the revisions they were read at', () => {
    const kept = new KeptDocuments(10);
    keep(kept, 'a:1', 3, 7);
    expect(kept.find('a:1', 3, 7)?.id).toBe(1);
    expect(kept.find('a:1', 4, 7)).toBeUndefined();
    expect(kept.find('a:1', 3, 8)).toBeUndefined();
    expect(kept.find('b:1', 3, 7)).toBeUndefined();
    // a newer reading of a kept key replaces the older one at once
    kept.keep('a:1', 4, 7, entry(1));
    expect(kept.find('a:1', 3, 7)).toBeUndefined();
    expect(kept.find('a:1', 4, 7)?.id).toBe(1);
    expect(kept.size).toBe(1);
  });

  it('hold at most their capacity, letting the least recently used go first', () => {
    const kept = new KeptDocuments(3);
    for (const id of [1, 2, 3]) keep(kept, `a:${id}`, 0, 0, entry(id));
    // 1 is used again, so 2 is now the oldest
    expect(kept.find('a:1', 0, 0)).toBeDefined();
    keep(kept, 'a:4', 0, 0, entry(4));
    expect(kept.size).toBe(3);
    expect(kept.find('a:2', 0, 0)).toBeUndefined();
    expect([1, 3, 4].map((id) => kept.find(`a:${id}`, 0, 0)?.id)).toEqual([1, 3, 4]);
  });

  it('keep nothing with a capacity of 0', () => {
    const kept = new KeptDocuments(0);
    keep(kept, 'a:1', 0, 0);
    expect(kept.size).toBe(0);
  });

  it('tell which kinds of page lately found their entries kept', () => {
    const kept = new KeptDocuments(10);
    // a kind never seen is taken as kept: its pages read ids first
    expect(kept.likelyKept('person')).toBe(true);
    for (let page = 0; page < 10; page++) kept.record('person', 0, 20);
    expect(kept.likelyKept('person')).toBe(false);
    expect(kept.likelyKept('public')).toBe(true);
    for (let page = 0; page < 10; page++) kept.record('person', 20, 20);
    expect(kept.likelyKept('person')).toBe(true);
    // an empty page says nothing
    for (let page = 0; page < 10; page++) kept.record('public', 0, 0);
    expect(kept.likelyKept('public')).toBe(true);
  });

  it('are frozen all the way down: a request cannot change what the next one is given', () => {
    const kept = new KeptDocuments(10);
    keep(kept, 'a:1', 0, 0);
    const shared = kept.find('a:1', 0, 0)!;
    expect(() => {
      (shared as { message: string | null }).message = 'changed';
    }).toThrow(TypeError);
    expect(() => shared.comments!.push(shared.comments![0]!)).toThrow(TypeError);
    expect(() => {
      (shared.comments![0]!.author as { username: string }).username = 'someone else';
    }).toThrow(TypeError);
    expect(kept.find('a:1', 0, 0)!.comments![0]!.author.username).toBe('ana');
  });

  it('are left as read when freezing is off (production)', () => {
    const kept = new KeptDocuments(10, false);
    keep(kept, 'a:1', 0, 0);
    expect(Object.isFrozen(kept.find('a:1', 0, 0))).toBe(false);
  });
});
