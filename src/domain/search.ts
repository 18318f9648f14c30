// What a search asks for: the words of a query as the full-text indexes match them (each a prefix of a
// word, all of them required), within bounds. Case and accents are the indexes' to ignore (SQLite's
// unicode61 tokenizer without diacritics, PostgreSQL's unaccent), on the words and the query alike.
import { ValidationError } from './errors.ts';

export const QUERY_MAX = 200;
/** Words of a query that count; the rest are left out. */
export const TERMS_MAX = 8;
/** A word shorter than this matches too much to be worth reading: it is left out. */
export const TERM_MIN = 2;
const TERM_MAX = 40;

/**
 * The words of `query`, lower-case, each at most 40 characters, duplicates and one-letter words left
 * out; a query without a word of two letters or digits is refused, naming `field`.
 */
export function searchTerms(query: string, field = 'query'): string[] {
  if (query.length > QUERY_MAX) throw ValidationError.field(field, `must be at most ${QUERY_MAX} characters`);
  const words = query
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((word) => [...word].length >= TERM_MIN)
    .map((word) => [...word].slice(0, TERM_MAX).join(''));
  const terms = [...new Set(words)].slice(0, TERMS_MAX);
  if (terms.length === 0) throw ValidationError.field(field, `needs a word of at least ${TERM_MIN} letters or digits`);
  return terms;
}

/** The terms as an FTS5 query: each a quoted prefix, all required (the quotes hold any character). */
export function ftsMatch(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"*`).join(' AND ');
}

/** The terms for PostgreSQL's tsquery (db/entry-conditions.ts), space-separated; terms hold only letters, digits and marks. */
export function tsTerms(terms: readonly string[]): string {
  return terms.map((term) => term.replace(/[^\p{L}\p{N}\p{M}]/gu, '')).join(' ');
}
