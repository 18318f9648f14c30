// The pieces the legacy routes' OpenAPI fragments are made of: the error answers, the common parameters,
// the security of a path, and the bodies several paths share. Each route declares its own operation
// beside its handler (stream-routes.ts, entry-routes.ts, people-routes.ts, course-routes.ts); openapi.ts
// puts the document together.
import { ACTIVITY_TYPES, displayActivityType } from '../domain/activity.ts';
import type { Scope } from '../domain/scopes.ts';

/** An OpenAPI operation object, as the routes declare it. */
export type Operation = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: unknown) => ({ 'application/json': { schema } });
export const error = (description: string) => ({ description, content: json(ref('Error')) });

export const ERRORS = {
  '400': error('A malformed body, an invalid JSONP callback, or two different access tokens in one request.'),
  '401': {
    ...error('No valid access token; `WWW-Authenticate` names the scheme.'),
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
  },
  '403': error('The token is valid, but its person may not do this (e.g. delete another person’s entry).'),
  '404': error('No such entry, person, route or path.'),
  '405': { ...error('The method is not allowed here; `Allow` lists those that are.'), headers: { Allow: { schema: { type: 'string' } } } },
  '406': error('The extension is not `.json` (or `.gpx` where offered), or `Accept` excludes the format.'),
  '409': {
    ...error('A request with the same `Idempotency-Key` is still running; retry after `Retry-After` seconds.'),
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
  },
  '413': error(
    'The body is larger than its limit: 1 MB JSON, 64 KB URL-encoded forms, 20 MB multipart forms (chunked bodies too); a multipart form carries at most 10 files.',
  ),
  '415': error('The body is neither JSON nor a form.'),
  '422': error(
    'Invalid or missing parameters; `error.fields` names each one. Also an `Idempotency-Key` sent before with a different request (`IDEMPOTENCY_KEY_REUSED`).',
  ),
  '304': {
    description: 'Not Modified: the request carried no token and its `If-None-Match` named the current `ETag`.',
    headers: { ETag: { schema: { type: 'string' } } },
  },
};

export const pick = (...codes: Array<keyof typeof ERRORS>) => Object.fromEntries(codes.map((c) => [c, ERRORS[c]]));

export const formatParams = [
  {
    name: 'callback',
    in: 'query',
    required: false,
    description: 'JSONP: wrap the JSON in a call to this function (a dotted identifier, at most 128 characters).',
    schema: { type: 'string', maxLength: 128 },
  },
  {
    name: 'oauth_token',
    in: 'query',
    required: false,
    description: 'The access token; or `Authorization: Bearer …` / `Authorization: OAuth …`, or a form field.',
    schema: { type: 'string' },
  },
];
export const streamParams = [
  { name: 'page', in: 'query', required: false, description: 'Page of 20 entries, from 1.', schema: { type: 'integer', minimum: 1 } },
  {
    name: 'since',
    in: 'query',
    required: false,
    description: 'Only entries with `at` later than this UNIX time: whole seconds, or a decimal floored to its second (`1795102588.0`).',
    schema: { type: 'number', minimum: 0 },
  },
  {
    name: 'until',
    in: 'query',
    required: false,
    description: 'Only entries with `at` at or before this UNIX time: whole seconds, or a decimal floored to its second.',
    schema: { type: 'number', minimum: 0 },
  },
];
/** Activity types as requests may send them: SPEC's spelling, in any case, with spaces or underscores. */
export const ACTIVITY_INPUT = {
  type: 'string',
  description: `One of ${ACTIVITY_TYPES.join(', ')}; in any letter case, with spaces or underscores (\`cc_skiing\`, \`Cc Skiing\`).`,
  examples: ['running', 'cc_skiing', 'Rock Climbing'],
};
/** Activity types as responses give them: the original service's display form. */
export const ACTIVITY_OUTPUT = { enum: ACTIVITY_TYPES.map(displayActivityType) };
export const pathParam = (name: string, schema: unknown, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});
export const ID = pathParam('id', { type: 'integer' }, 'An entry’s or route’s id.');
export const USERNAME = pathParam('username', { type: 'string' }, 'A person’s username, any letter case.');
/** A token with `scope` is needed (domain/scopes.ts). */
export const needs = (scope: Scope) => [{ oauth2: [scope] }, { bearer: [scope] }];
/** A token is optional, and changes the answer (what the person may see). */
export const OPTIONAL_TOKEN = [{}, { oauth2: ['read'] }, { bearer: ['read'] }];
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the create safe to retry: the same key (per person, kept 24 hours) with the same request answers as the first time, without a second write, even when the first attempt was cut off after its commit (its write records its result in the same transaction; a retry a minute later is answered from it).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};
/** What every create may also answer. */
export const CREATE_ERRORS = ['400', '401', '405', '409', '413', '422'] as const;

export const streamDoc = (
  operationId: string,
  summary: string,
  extra: unknown[] = [],
  secured = false,
  description?: string,
  order = 'newest first',
) => ({
  operationId,
  summary,
  ...(description ? { description } : {}),
  parameters: [...extra, ...streamParams, ...formatParams],
  security: secured ? needs('read') : OPTIONAL_TOKEN,
  responses: {
    '200': { description: `At most 20 entries, ${order}; \`{"entries": []}\` past the last page.`, content: json(ref('EntryList')) },
    ...pick('304', '400', '401', '404', '405', '406', '422'),
  },
});

export const formBody = (schema: unknown) => ({
  required: false,
  content: {
    'application/x-www-form-urlencoded': { schema },
    'multipart/form-data': { schema },
    'application/json': { schema },
  },
});

export const CREATE_ENTRY = {
  type: 'object',
  description: 'Form fields use brackets (`workout[distance][value]`); JSON uses nested objects.',
  properties: {
    message: { type: 'string', maxLength: 5000 },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 180 },
    location: { type: 'string', description: 'A place name for the location.' },
    visibility: {
      enum: ['everyone', 'friends', 'only_me'],
      description:
        'Who sees the entry: everyone, the author’s friends, or only the author. Default: the person’s default (set in GraphQL `updateProfile`), `everyone` until they choose. To anyone else a hidden entry is a 404 everywhere.',
    },
    workout: {
      type: 'object',
      required: ['activity_type'],
      properties: {
        activity_type: ACTIVITY_INPUT,
        completed_at: { type: 'string', format: 'date-time' },
        distance: {
          type: 'object',
          properties: { value: { type: 'number', minimum: 0 }, units: { enum: ['miles', 'kilometers', 'yards', 'meters'] } },
        },
        duration: { type: 'integer', minimum: 0, description: 'Seconds.' },
        felt: { enum: ['great', 'good', 'alright', 'blah', 'tired', 'injured'] },
        calories: { type: 'integer', minimum: 0 },
        title: { type: 'string', maxLength: 200 },
        route_id: { type: 'integer', description: 'One of your routes.' },
        gear_id: {
          type: 'integer',
          description:
            'One of your gear (shoes, bike…: GraphQL’s `createGear`, or the settings page). Left out: the gear you chose for the activity, if any.',
        },
      },
    },
    media: {
      type: 'object',
      required: ['type'],
      description:
        'A photo: its `url`, or the photo itself as `media[data]`, a file of a multipart form. An upload is judged by its bytes (JPEG, PNG, WebP or GIF; at most 10 MB and 40 million pixels), stored, served at `/media/…` with a 320-pixel JPEG preview, upright and without EXIF data (no GPS position); anything else is a 422 naming `media[data]`.',
      properties: {
        type: { const: 'image' },
        url: { type: 'string', format: 'uri', description: 'An http(s) URL of the photo; not with `data`.' },
        preview_url: { type: 'string', format: 'uri', description: 'An http(s) URL of a smaller version; not with `data`.' },
        data: { type: 'string', format: 'binary', contentMediaType: 'image/*', description: 'The photo (multipart forms only).' },
      },
    },
    oauth_token: { type: 'string' },
  },
};

export const GPX_BODY = {
  required: true,
  content: {
    'application/gpx+xml': { schema: { type: 'string', description: 'A GPX 1.0 or 1.1 document, at most 20 MB, without a DOCTYPE.' } },
  },
};

export const trackDoc = (operationId: string, summary: string) => ({
  operationId,
  summary,
  security: needs('entries:write'),
  parameters: [ID],
  requestBody: GPX_BODY,
  responses: {
    '200': { description: 'The stored track’s summary.', content: json(ref('TrackUpload')) },
    ...pick('401', '403', '404', '405', '422'),
    '413': error('The document is larger than 20 MB.'),
    '415': error('The body is not `application/gpx+xml`.'),
  },
});
