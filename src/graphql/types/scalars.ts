import { GraphQLError, Kind } from 'graphql';
import { LRUCache } from 'lru-cache';
import { builder } from '../builder.ts';

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const DAY_MS = 86_400_000;
/** The date part of the days formatted lately: a page's timestamps share a few days. */
const DAY_TEXTS = 4096;
const dayTexts = new LRUCache<number, string>({ max: DAY_TEXTS });

/**
 * ISO 8601 in UTC with second precision: `2013-09-16T00:30:39Z` (some clients reject fractions).
 * This runs for every timestamp of every page: `toISOString` costs about 0.45 µs, so it runs once a
 * day of the calendar and the time of day is put together from a table (about 0.06 µs).
 */
export function formatTimestamp(date: Date): string {
  const ms = date.getTime();
  const day = Math.floor(ms / DAY_MS);
  let dayText = dayTexts.get(day);
  if (dayText === undefined) {
    const iso = date.toISOString();
    // years before 0 or after 9999 carry a sign and six digits: rare enough to take the long way
    if (iso.length !== 24) return iso.replace(/\.\d{3}Z$/, 'Z');
    dayText = iso.slice(0, 10);
    dayTexts.set(day, dayText);
  }
  const second = Math.floor((ms - day * DAY_MS) / 1000);
  return `${dayText}T${TWO_DIGITS[Math.floor(second / 3600)]}:${TWO_DIGITS[Math.floor(second / 60) % 60]}:${TWO_DIGITS[second % 60]}Z`;
}

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime()) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(value as string)) {
    throw new GraphQLError('DateTime must be an ISO 8601 timestamp with a time zone, e.g. 2013-09-16T00:30:39Z');
  }
  return date;
}

builder.scalarType('DateTime', {
  description: 'A UTC timestamp in ISO 8601 with second precision, e.g. `2013-09-16T00:30:39Z`.',
  serialize: (value) => formatTimestamp(value),
  parseValue: parseDateTime,
  // one parameter: graphql-js's default also takes the variables, which graphql-jit warns about on every literal
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : null),
});

/**
 * A UNIX time as clients send it: whole seconds, or a decimal (Python's `time.mktime()` gives
 * `1795102588.0`), floored to its second. Anything but a finite number is refused; the range is the
 * streams' to check (`since: -5` names the field).
 */
function unixTime(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new GraphQLError('UnixTime must be a number of seconds');
  return Math.floor(value);
}

builder.scalarType('UnixTime', {
  description:
    'Seconds since 1970-01-01T00:00:00Z (a UNIX timestamp), as used by `since` and `until`. A decimal is accepted and floored to its whole second.',
  serialize: (value) => value,
  parseValue: unixTime,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.FLOAT) throw new GraphQLError('UnixTime must be a number of seconds');
    return unixTime(Number(ast.value));
  },
});

builder.scalarType('GpxDocument', {
  description:
    'A GPX 1.0 or 1.1 document: its text as a string, or a file in a multipart request (GraphQL multipart request spec). ' +
    'At most 20 MB; a DOCTYPE is refused.',
  serialize: () => {
    throw new GraphQLError('GpxDocument is input only');
  },
  parseValue: (value) => {
    // uploads arrive as the server's File implementation, which need not be this realm's Blob
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null && typeof (value as Blob).stream === 'function') return value as Blob;
    throw new GraphQLError('GpxDocument must be the document text or an uploaded file');
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('GpxDocument must be the document text or an uploaded file');
    return ast.value;
  },
});

builder.scalarType('ActivityFile', {
  description:
    'A FIT, TCX or GPX activity file, gzipped or not (`.fit.gz`), told by its content rather than its name: a file in a multipart ' +
    'request (GraphQL multipart request spec), or the text of a TCX or GPX document as a string. At most 20 MB uncompressed.',
  serialize: () => {
    throw new GraphQLError('ActivityFile is input only');
  },
  parseValue: (value) => {
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null && typeof (value as Blob).arrayBuffer === 'function') return value as Blob;
    throw new GraphQLError('ActivityFile must be an uploaded file or the text of a TCX or GPX document');
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('ActivityFile must be an uploaded file or the text of a TCX or GPX document');
    return ast.value;
  },
});

builder.scalarType('ImageFile', {
  description: `A photo uploaded in a multipart request (GraphQL multipart request spec): JPEG, PNG, WebP or GIF, judged by its bytes; at most 10 MB and 40 million pixels.`,
  serialize: () => {
    throw new GraphQLError('ImageFile is input only');
  },
  parseValue: (value) => {
    // uploads arrive as the server's File implementation, which need not be this realm's Blob
    if (typeof value === 'object' && value !== null && typeof (value as Blob).arrayBuffer === 'function') return value as Blob;
    throw new GraphQLError('ImageFile must be a file of a multipart request');
  },
  parseLiteral: () => {
    throw new GraphQLError('ImageFile must be a file of a multipart request, given as a variable');
  },
});
