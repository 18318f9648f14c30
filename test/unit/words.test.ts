// A text's first words (src/domain/words.ts): what titles and quotes of the pages and notifications show.
import { describe, expect, it } from 'vitest';
import { firstWords } from '../../src/domain/words.ts';

describe('firstWords', () => {
  it('keeps a short text whole, its whitespace made single spaces', () => {
    expect(firstWords('  Hill\n\trepeats  at dawn ', 60)).toBe('Hill repeats at dawn');
    expect(firstWords('', 60)).toBe('');
  });

  it('cuts a long one at a word, with an ellipsis, never past `keep` characters', () => {
    const text = 'Tempo by the river then a long cool-down along the old towpath to the bridge';
    expect(firstWords(text, 30)).toBe('Tempo by the river then a…');
    expect(firstWords(text, 60, 57)).toBe('Tempo by the river then a long cool-down along the old…');
    expect(firstWords(text, 60, 57).length).toBeLessThanOrEqual(58);
  });
});
