// The REST layer's pure pieces: extensions, Accept, JSONP, bracketed forms and field names.
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { accepts, prefersHtml, splitExtension } from '../../src/http/negotiation.ts';
import { RestCreateCommentDocument, RestCreateEntryDocument, RestPublicStreamDocument } from '../../src/operations/generated.ts';
import { jsonpBody, validCallback } from '../../src/rest/jsonp.ts';
import { createEntryInput, nestBracketed, restFieldName, variableProblems } from '../../src/rest/params.ts';

describe('splitExtension', () => {
  it.each([
    ['/entries.json', '/entries', 'json'],
    ['/entries', '/entries', null],
    ['/routes/7.gpx', '/routes/7', 'gpx'],
    ['/people/ben.XML', '/people/ben', 'xml'],
    ['/entries/nearby/37.77916,-122.420049', '/entries/nearby/37.77916,-122.420049', null],
    ['/entries/nearby/37.77916,-122.420049.json', '/entries/nearby/37.77916,-122.420049', 'json'],
    ['/entries/nearby/37,-122.json', '/entries/nearby/37,-122', 'json'],
    ['/entries/nearby/37.5,-122.4.atom', '/entries/nearby/37.5,-122.4', 'atom'],
  ])('%s → %s + %s', (input, path, extension) => {
    expect(splitExtension(input)).toEqual({ path, extension });
  });
});

describe('accepts', () => {
  it.each([
    [null, 'application/json', true],
    ['application/json', 'application/json', true],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'application/json', true],
    ['application/*', 'application/json', true],
    ['text/html', 'application/json', false],
    ['application/json;q=0', 'application/json', false],
  ])('%s accepts %s: %s', (header, type, expected) => {
    expect(accepts(header, type)).toBe(expected);
  });
});

describe('JSONP', () => {
  it.each([
    ['cb', true],
    ['App.handlers.person', true],
    ['$jq_123', true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    ['alert(1)', false],
    ['a..b', false],
    ['1a', false],
    ['a-b', false],
    ['', false],
  ])('callback %s valid: %s', (callback, valid) => {
    expect(validCallback(callback)).toBe(valid);
  });

  it('wraps and escapes line separators', () => {
    expect(jsonpBody('cb', '{"a":"x\u2028y\u2029z"}')).toBe(`/**/ typeof cb === 'function' && cb({"a":"x\\u2028y\\u2029z"});`);
  });
});

describe('bracketed forms', () => {
  it('nest, keep the first of repeated names, and ignore prototype keys', () => {
    expect(
      nestBracketed([
        ['workout[distance][value]', '3'],
        ['workout[activity_type]', 'running'],
        ['workout[activity_type]', 'cycling'],
        ['message', 'hi'],
        ['__proto__[polluted]', 'yes'],
        ['a[]', 'x'],
      ]),
    ).toEqual({ workout: { distance: { value: '3' }, activity_type: 'running' }, message: 'hi' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('become CreateEntryInput with numbers and enums where they parse, as sent where not', () => {
    expect(
      createEntryInput({
        lat: '37.8',
        lon: 'west',
        workout: { activity_type: 'running', duration: '60', distance: { value: '3.1' } },
        media: { type: 'image', url: 'u' },
      }),
    ).toEqual({
      lat: 37.8,
      lon: 'west',
      workout: { activityType: 'RUNNING', duration: 60, distance: { value: 3.1 } },
      media: { type: 'IMAGE', url: 'u' },
    });
  });
});

describe('field names', () => {
  it.each([
    ['lat', 'lat'],
    ['workout.activityType', 'workout[activity_type]'],
    ['input.workout.distance.value', 'workout[distance][value]'],
    ['media.previewUrl', 'media[preview_url]'],
  ])('%s → %s', (path, name) => {
    expect(restFieldName(path)).toBe(name);
  });

  it.each([
    ['a latitude that is not a number', RestCreateEntryDocument, { input: { lat: 'abc', lon: 1 } }, 'lat', 'must be a number: "abc"'],
    [
      'an activity type of no such kind',
      RestCreateEntryDocument,
      { input: { workout: { activityType: 'KAYAKING' } } },
      'workout[activity_type]',
      '"kayaking" is not one of the allowed values',
    ],
    [
      'a workout without its activity type',
      RestCreateEntryDocument,
      { input: { workout: { duration: 60 } } },
      'workout[activity_type]',
      'is required',
    ],
    [
      'a distance value that is not a number',
      RestCreateEntryDocument,
      { input: { workout: { activityType: 'RUNNING', distance: { value: 'far' } } } },
      'workout[distance][value]',
      'must be a number: "far"',
    ],
    ['a page that is not a whole number', RestPublicStreamDocument, { page: 'x' }, 'page', 'must be a whole number: "x"'],
    ['a comment body that is an object', RestCreateCommentDocument, { entryId: 1, body: { a: 1 } }, 'body', 'must be text: {"a":1}'],
    ['a missing required variable', RestCreateCommentDocument, { entryId: 1 }, 'body', 'is required'],
  ])('names %s by the parameter the client sent', (_what, document, variables, field, message) => {
    expect(variableProblems(schema, document, variables)).toEqual([{ field, message }]);
  });

  it('finds nothing wrong with variables that fit', () => {
    expect(
      variableProblems(schema, RestCreateEntryDocument, { input: { lat: 1.5, lon: 2, workout: { activityType: 'RUNNING' } } }),
    ).toEqual([]);
  });
});

describe('prefersHtml', () => {
  it('serves pages to browsers and data to API clients', () => {
    // Chromium and Firefox navigations
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8')).toBe(true);
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    // API clients
    expect(prefersHtml(null)).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json, text/html;q=0.5')).toBe(false);
    expect(prefersHtml('text/html;q=0')).toBe(false);
  });
});

describe('bodyProblem', () => {
  it('finds NUL in strings, keys and nested values, and leaves uploaded bytes alone', async () => {
    const { bodyProblem, hasNul } = await import('../../src/http/body.ts');
    const nul = 'strings may not contain NUL characters';
    expect(bodyProblem({ a: ['x', { b: 'y\u0000' }] })).toBe(nul);
    expect(bodyProblem({ 'k\u0000': 1 })).toBe(nul);
    expect(bodyProblem(Object.assign(Object.create(null) as object, { a: '\u0000' }))).toBe(nul);
    expect(bodyProblem({ a: 'clean', n: 1, z: null })).toBeNull();
    expect(hasNul([['a', 'b\u0000']])).toBe(true);
    expect(hasNul([['a\u0000', 'b']])).toBe(true);
    expect(hasNul([['a', 'b']])).toBe(false);
    // an uploaded file is bytes, not text: it is never walked field by field (a 20 MB buffer cost
    // seconds that way), so a file whose fields cannot be read passes untouched
    const file = new Blob(['<gpx/>']);
    Object.defineProperty(file, 'buffer', {
      enumerable: true,
      get: () => {
        throw new Error('walked into the file');
      },
    });
    expect(bodyProblem({ variables: { gpx: file } })).toBeNull();
  });

  it('refuses a body nested deeper than 64 levels without overflowing the stack, however deep', async () => {
    const { bodyProblem, MAX_JSON_DEPTH } = await import('../../src/http/body.ts');
    const nested = (depth: number, open = '[', close = ']') => JSON.parse(`{"message":${open.repeat(depth)}${close.repeat(depth)}}`);
    expect(bodyProblem(nested(MAX_JSON_DEPTH - 1))).toBeNull();
    expect(bodyProblem(nested(MAX_JSON_DEPTH))).toMatch(/nested deeper than 64 levels/);
    expect(bodyProblem(nested(100_000))).toMatch(/nested deeper than 64 levels/);
    expect(bodyProblem(JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`))).toMatch(/nested deeper/);
  });
});
