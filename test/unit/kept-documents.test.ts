import { describe, expect, it } from 'vitest';
import type { LoadedEntry } from '../../src/db/entry-pages.ts';
import { KeptDocuments } from '../../src/db/kept-documents.ts';

const entry = (id: number) =>
  ({ id, message: `entry ${id}`, comments: [{ id: 1, body: 'hi', author: { id: 2, username: 'ana' } }] }) as unknown as LoadedEntry;

describe('kept entry documents', () => {
  it('answer only at the revisions they were read at', () => {
    const kept = new KeptDocuments(10);
    kept.keep('a:1', 3, 7, entry(1));
    expect(kept.find('a:1', 3, 7)?.id).toBe(1);
    expect(kept.find('a:1', 4, 7)).toBeUndefined();
    expect(kept.find('a:1', 3, 8)).toBeUndefined();
    expect(kept.find('b:1', 3, 7)).toBeUndefined();
    // a newer reading replaces the older one
    kept.keep('a:1', 4, 7, entry(1));
    expect(kept.find('a:1', 3, 7)).toBeUndefined();
    expect(kept.find('a:1', 4, 7)?.id).toBe(1);
    expect(kept.size).toBe(1);
  });

  it('hold at most their capacity, letting the least recently used go first', () => {
    const kept = new KeptDocuments(3);
    for (const id of [1, 2, 3]) kept.keep(`a:${id}`, 0, 0, entry(id));
    // 1 is used again, so 2 is now the oldest
    expect(kept.find('a:1', 0, 0)).toBeDefined();
    kept.keep('a:4', 0, 0, entry(4));
    expect(kept.size).toBe(3);
    expect(kept.find('a:2', 0, 0)).toBeUndefined();
    expect([1, 3, 4].map((id) => kept.find(`a:${id}`, 0, 0)?.id)).toEqual([1, 3, 4]);
  });

  it('keep nothing with a capacity of 0', () => {
    const kept = new KeptDocuments(0);
    kept.keep('a:1', 0, 0, entry(1));
    expect(kept.size).toBe(0);
  });

  it('are frozen all the way down: a request cannot change what the next one is given', () => {
    const kept = new KeptDocuments(10);
    kept.keep('a:1', 0, 0, entry(1));
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
});
