// The entries' JSON kept per version (cache/entry-fragments.ts): a page is put together only when every
// entry is kept at the version just read, and what is kept stays within its budget of characters.
import { describe, expect, it } from 'vitest';
import { EntryFragments } from '../../src/cache/entry-fragments.ts';

const ORIGIN = 'https://milepost.example';
const versions = (entries: Record<number, string>) => new Map(Object.entries(entries).map(([id, v]) => [Number(id), v]));

describe('entry fragments', () => {
  it('put a page together only when every entry is kept at the version read', () => {
    const fragments = new EntryFragments();
    fragments.keep(ORIGIN, 1, '4.1', '{"id":1}');
    fragments.keep(ORIGIN, 2, '7.1', '{"id":2}');
    expect(fragments.all(ORIGIN, [2, 1], versions({ 1: '4.1', 2: '7.1' }))).toEqual(['{"id":2}', '{"id":1}']);
    // a comment moved entry 2's revision; the people moved for both
    expect(fragments.all(ORIGIN, [2, 1], versions({ 1: '4.1', 2: '8.1' }))).toBeNull();
    expect(fragments.all(ORIGIN, [1], versions({ 1: '4.2' }))).toBeNull();
    // an entry whose version was not read, and another origin
    expect(fragments.all(ORIGIN, [1, 3], versions({ 1: '4.1' }))).toBeNull();
    expect(fragments.all('http://elsewhere.example', [1], versions({ 1: '4.1' }))).toBeNull();
    expect(fragments.all(ORIGIN, [], versions({}))).toEqual([]);
  });

  it('keep nothing read at no known version', () => {
    const fragments = new EntryFragments();
    fragments.keep(ORIGIN, 1, undefined, '{"id":1}');
    expect(fragments.all(ORIGIN, [1], versions({ 1: 'undefined' }))).toBeNull();
  });

  it('keep at most their budget of characters, least recently used out first', () => {
    const json = (id: number) => JSON.stringify({ id, padding: 'x'.repeat(90) }).slice(0, 100);
    const fragments = new EntryFragments(1_000);
    for (let id = 1; id <= 10; id++) fragments.keep(ORIGIN, id, '1.1', json(id));
    // entry 1 read again: entry 2 is now the least recently used
    expect(fragments.all(ORIGIN, [1], versions({ 1: '1.1' }))).toEqual([json(1)]);
    fragments.keep(ORIGIN, 11, '1.1', json(11));
    expect(fragments.all(ORIGIN, [2], versions({ 2: '1.1' }))).toBeNull();
    expect(fragments.all(ORIGIN, [1, 3, 11], versions({ 1: '1.1', 3: '1.1', 11: '1.1' }))).not.toBeNull();
    // kept again at a new version, an entry counts once
    for (let i = 0; i < 50; i++) fragments.keep(ORIGIN, 11, `${i}.1`, json(11));
    expect(fragments.all(ORIGIN, [1, 3], versions({ 1: '1.1', 3: '1.1' }))).not.toBeNull();
    // larger than the whole budget: not kept, and nothing else pushed out
    fragments.keep(ORIGIN, 12, '1.1', 'x'.repeat(1_001));
    expect(fragments.all(ORIGIN, [12], versions({ 12: '1.1' }))).toBeNull();
    expect(fragments.all(ORIGIN, [1, 3], versions({ 1: '1.1', 3: '1.1' }))).not.toBeNull();
  });
});
