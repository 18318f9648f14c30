// The words of a search query, at their bounds, and as each index's query language reads them.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { ftsMatch, searchTerms, tsTerms } from '../../src/domain/search.ts';

describe('searchTerms', () => {
  it('keeps words of two letters or digits or more, lower-case, once each, in order', () => {
    expect(searchTerms('Tempo  run, TEMPO a 10k!')).toEqual(['tempo', 'run', '10k']);
    expect(searchTerms('Zoë Álvarez')).toEqual(['zoë', 'álvarez']);
    // decomposed accents stay with their letter
    expect(searchTerms('Zoe\u0308')).toEqual(['zoë']);
  });

  it('keeps eight words of at most 40 characters', () => {
    expect(searchTerms('aa bb cc dd ee ff gg hh ii jj')).toHaveLength(8);
    expect(searchTerms('x'.repeat(60))[0]).toHaveLength(40);
  });

  it.each([[''], ['a'], ['" * ( )'], ['w'.repeat(201)]])('refuses %j, naming the field', (query) => {
    expect(() => searchTerms(query)).toThrow(ValidationError);
    try {
      searchTerms(query, 'q');
    } catch (error) {
      expect((error as ValidationError).issues[0]!.path).toBe('q');
    }
  });
});

describe('the index queries', () => {
  it('quotes each term for FTS5, a prefix each, all required', () => {
    expect(ftsMatch(['tempo', 'río'])).toBe('"tempo"* AND "río"*');
  });

  it('gives PostgreSQL the terms space-separated, with nothing but letters, digits and marks', () => {
    expect(tsTerms(['tempo', '10k', 'aː'])).toBe('tempo 10k aː');
    expect(tsTerms(["o'k", 'a:*'])).toBe('ok a');
  });
});
