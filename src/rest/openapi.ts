// The OpenAPI 3.1 description of the legacy REST paths and of the generated API at /api/v1, served at
// /openapi.json and rendered at /docs.
// The test suite checks that the document validates and that every response it sees conforms to it.

import { ACTIVITY_TYPES, displayActivityType } from '../domain/activity.ts';
import { POPULAR_DAYS } from '../domain/paging.ts';
import { SCOPE_DESCRIPTIONS, type Scope } from '../domain/scopes.ts';
import { API_BASE, API_TAG, type GeneratedDescription, LEFT_OUT_NOTES } from './generated-api.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('Error')) });

const ERRORS = {
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

const pick = (...codes: Array<keyof typeof ERRORS>) => Object.fromEntries(codes.map((c) => [c, ERRORS[c]]));

const formatParams = [
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
const streamParams = [
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
const ACTIVITY_INPUT = {
  type: 'string',
  description: `One of ${ACTIVITY_TYPES.join(', ')}; in any letter case, with spaces or underscores (\`cc_skiing\`, \`Cc Skiing\`).`,
  examples: ['running', 'cc_skiing', 'Rock Climbing'],
};
/** Activity types as responses give them: the original service's display form. */
const ACTIVITY_OUTPUT = { enum: ACTIVITY_TYPES.map(displayActivityType) };
const pathParam = (name: string, schema: unknown, description: string) => ({ name, in: 'path', required: true, description, schema });
const ID = pathParam('id', { type: 'integer' }, 'An entry’s or route’s id.');
const USERNAME = pathParam('username', { type: 'string' }, 'A person’s username, any letter case.');
/** A token with `scope` is needed (domain/scopes.ts). */
const needs = (scope: Scope) => [{ oauth2: [scope] }, { bearer: [scope] }];
/** A token is optional, and changes the answer (what the person may see). */
const OPTIONAL_TOKEN = [{}, { oauth2: ['read'] }, { bearer: ['read'] }];
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the create safe to retry: the same key (per person, kept 24 hours) with the same request answers as the first time, without a second write, even when the first attempt was cut off after its commit (its write records its result in the same transaction; a retry a minute later is answered from it).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};
/** What every create may also answer. */
const CREATE_ERRORS = ['400', '401', '405', '409', '413', '422'] as const;

const stream = (
  operationId: string,
  summary: string,
  extra: unknown[] = [],
  secured = false,
  description?: string,
  order = 'newest first',
) => ({
  get: {
    operationId,
    summary,
    ...(description ? { description } : {}),
    parameters: [...extra, ...streamParams, ...formatParams],
    security: secured ? needs('read') : OPTIONAL_TOKEN,
    responses: {
      '200': { description: `At most 20 entries, ${order}; \`{"entries": []}\` past the last page.`, content: json(ref('EntryList')) },
      ...pick('304', '400', '401', '404', '405', '406', '422'),
    },
  },
});

const formBody = (schema: unknown) => ({
  required: false,
  content: {
    'application/x-www-form-urlencoded': { schema },
    'multipart/form-data': { schema },
    'application/json': { schema },
  },
});

const CREATE_ENTRY = {
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

const GPX_BODY = {
  required: true,
  content: {
    'application/gpx+xml': { schema: { type: 'string', description: 'A GPX 1.0 or 1.1 document, at most 20 MB, without a DOCTYPE.' } },
  },
};

const trackUpload = (operationId: string, summary: string) => ({
  put: {
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
  },
});

const user = {
  type: 'object',
  required: ['username', 'display_name', 'photo_url', 'url'],
  additionalProperties: false,
  properties: {
    username: { type: 'string' },
    display_name: { type: 'string' },
    photo_url: { type: 'string', format: 'uri' },
    url: { type: 'string', format: 'uri' },
  },
};
const timestamp = {
  type: 'string',
  pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$',
  description: 'ISO 8601 in UTC, whole seconds.',
};
const geo = {
  type: 'object',
  required: ['type', 'coordinates'],
  properties: {
    type: { const: 'Point' },
    coordinates: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2, description: '`[longitude, latitude]` as strings.' },
  },
};
const distance = {
  type: 'object',
  required: ['value', 'units'],
  properties: { value: { type: 'number' }, units: { enum: ['miles', 'kilometers', 'yards', 'meters'] } },
};

/** Component names of the generated API's types: `v1.Entry`, apart from the legacy shapes. */
const V1 = 'v1.';

/** A sofa schema in OpenAPI 3.1 terms: its refs to our names, and a property GraphQL may answer null for as nullable. */
function v1Schema(schema: unknown): unknown {
  const renamed = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"#/components/schemas/${V1}`)) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  if (!renamed.properties) return renamed;
  for (const [name, property] of Object.entries(renamed.properties)) {
    if (renamed.required?.includes(name)) continue;
    const { description, ...rest } = property;
    renamed.properties[name] = { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  return renamed;
}

const firstSentence = (text: string) => text.split(/(?<=\.)\s/)[0] ?? text;

/** The generated API's paths and component schemas, from sofa's document and what the schema says of each operation. */
function generatedPaths({ document, operations }: GeneratedDescription) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const template = operation.path.replace(/:(\w+)/g, '{$1}');
    const method = operation.method.toLowerCase();
    const generated = document.paths[template]?.[method];
    if (!generated) throw new Error(`sofa wrote no ${operation.method} ${template}`);
    const success = generated.responses[String(operation.status)]?.content?.['application/json']?.schema ?? {};
    const results = (success.oneOf ?? [success]).filter((member) => !operation.failures.some((name) => member.$ref?.endsWith(`/${name}`)));
    const pathParams = (generated.parameters ?? []).filter((parameter) => operation.method === 'GET' || parameter.in === 'path');
    const sent = generated.requestBody?.content['application/json']?.schema;
    // a mutation's body is its input's fields (`{ "input": {…} }` is taken too)
    const body = operation.takesInput ? (sent?.properties?.input ?? sent) : sent;
    const codes: Array<keyof typeof ERRORS> = ['400', '401'];
    if (operation.failures.includes('NotAuthorizedError')) codes.push('403');
    if (operation.failures.includes('NotFoundError') || (operation.nullable && operation.hasArgs)) codes.push('404');
    if (operation.method === 'POST') codes.push('409', '413', '415');
    // a parameter of the wrong type, or a failed validation
    if (operation.hasArgs || operation.failures.includes('ValidationError')) codes.push('422');
    paths[`${API_BASE}${template}`] = {
      [method]: {
        operationId: operation.field,
        tags: [API_TAG],
        summary: firstSentence(operation.description) || `The ${operation.kind} ${operation.field}.`,
        description: `${operation.description}\n\nGraphQL: \`${operation.kind === 'query' ? 'Query' : 'Mutation'}.${operation.field}\`.`,
        // the token is optional where the operation answers anyone
        security:
          operation.kind === 'mutation' || operation.failures.includes('NotAuthorizedError') || !operation.hasArgs
            ? needs(operation.scope ?? 'read')
            : OPTIONAL_TOKEN,
        parameters: [
          ...pathParams.map((parameter) => ({ ...parameter, schema: v1Schema(parameter.schema) })),
          ...(operation.method === 'POST' ? [IDEMPOTENCY_KEY] : []),
        ],
        ...(body
          ? {
              requestBody: {
                required: true,
                ...(operation.uploads
                  ? {
                      description:
                        'A file goes in a multipart body: each field a part, a file a part named by its field or by a dotted path into one (`media.data`).',
                    }
                  : {}),
                content: {
                  'application/json': { schema: v1Schema(body) },
                  'application/x-www-form-urlencoded': { schema: v1Schema(body) },
                  ...(operation.uploads ? { 'multipart/form-data': { schema: v1Schema(body) } } : {}),
                },
              },
            }
          : {}),
        responses: {
          [String(operation.status)]: {
            description: operation.status === 201 ? 'Created.' : 'The result.',
            content: json(v1Schema(results.length === 1 ? results[0] : { oneOf: results })),
          },
          ...pick(...codes),
        },
      },
    };
  }
  const schemas = Object.fromEntries(
    Object.entries(document.components.schemas)
      .filter(([name]) => name !== 'Query' && name !== 'Mutation')
      .map(([name, schema]) => [`${V1}${name}`, v1Schema(name.endsWith('Payload') ? withoutError(schema) : schema)]),
  );
  return { paths, schemas };
}

/** A payload as /api/v1 answers it: a typed error is the answer's status and error body, never a field. */
function withoutError(schema: unknown) {
  const payload = schema as { properties?: Record<string, unknown> };
  const { error: _error, ...properties } = payload.properties ?? {};
  return { ...payload, properties };
}

/** The component schemas the document refers to, directly or through one another; sofa writes one for every type. */
function referenced(users: unknown, schemas: Record<string, unknown>): Record<string, unknown> {
  const kept = new Set<string>();
  const visit = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (kept.has(name!) || !(name! in schemas)) continue;
      kept.add(name!);
      visit(schemas[name!]);
    }
  };
  visit(users);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
}

export function openApiDocument(baseUrl: string, generated: GeneratedDescription) {
  const document = describe(baseUrl, generatedPaths(generated));
  const { schemas, ...others } = document.components;
  return { ...document, components: { ...others, schemas: referenced({ ...document, components: others }, schemas) } };
}

function describe(baseUrl: string, v1: ReturnType<typeof generatedPaths>) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Milepost legacy REST API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The REST paths of the original workout-sharing service, kept for existing integrations. Every path also answers without `.json`. ' +
        'Write requests take URL-encoded or multipart forms with bracketed names, or JSON. Every GET JSON path takes `callback` (JSONP). ' +
        'A method a path does not list gets 405 with `Allow` and the error body. Errors always have the `Error` shape. ' +
        'Answers to requests without a token carry an `ETag`; send it back in `If-None-Match` to get 304 while nothing changed. ' +
        'Every answer carries `X-Request-Id` (yours, if you sent one) and the `X-RateLimit-*` headers. ' +
        'A browser (an `Accept` header naming `text/html`) at `/`, `/entries/{id}`, `/people/{username}` or `/routes/{id}` gets the web page instead of JSON. ' +
        'Any path may answer 503 with `Retry-After`: past the rate limit (`RATE_LIMITED`), in maintenance (`MAINTENANCE`, no `Retry-After`), or while the database is unavailable (`DATABASE_UNAVAILABLE`). ' +
        'A `Host` header that is not a host name or address with an optional port is a 400 `BAD_HOST`. ' +
        'New integrations may prefer GraphQL at `/graphql`.',
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}/oauth/authorize`,
              tokenUrl: `${baseUrl}/oauth/token`,
              scopes: SCOPE_DESCRIPTIONS,
            },
            implicit: { authorizationUrl: `${baseUrl}/oauth/authorize`, scopes: SCOPE_DESCRIPTIONS },
          },
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: '`Authorization: Bearer <token>`; `Authorization: OAuth <token>` and `?oauth_token=` work too.',
        },
      },
      schemas: {
        ...v1.schemas,
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', examples: ['VALIDATION_FAILED', 'NOT_FOUND', 'NOT_AUTHORIZED'] },
                message: { type: 'string' },
                fields: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['field', 'message'],
                    properties: { field: { type: 'string', examples: ['workout[distance][value]'] }, message: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
        User: user,
        Person: {
          type: 'object',
          description: 'Always the six keys below; `goal` only when the person set one.',
          required: ['username', 'display_name', 'url', 'location', 'time_zone', 'photo_url'],
          properties: {
            username: { type: 'string' },
            display_name: { type: 'string' },
            url: { type: 'string' },
            location: { type: ['string', 'null'], description: 'A place name; `null` when the person gave none.' },
            time_zone: {
              type: 'string',
              description: 'A time zone name; `UTC` when the person chose none.',
              examples: ['Pacific Time (US & Canada)'],
            },
            photo_url: { type: 'string' },
            goal: { type: 'string' },
          },
        },
        Comment: {
          type: 'object',
          required: ['body', 'created_at', 'user'],
          additionalProperties: false,
          properties: { body: { type: 'string' }, created_at: timestamp, user: ref('User') },
        },
        Like: {
          type: 'object',
          required: ['created_at', 'user'],
          additionalProperties: false,
          properties: { created_at: timestamp, user: ref('User') },
        },
        Entry: {
          type: 'object',
          required: ['id', 'url', 'at', 'comments', 'likes', 'user'],
          additionalProperties: false,
          properties: {
            id: { type: 'integer' },
            url: { type: 'string' },
            at: timestamp,
            message: { type: 'string' },
            comments: { type: 'array', items: ref('Comment') },
            likes: { type: 'array', items: ref('Like') },
            location: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            geo,
            user: ref('User'),
            workout: {
              type: 'object',
              required: ['activity_type'],
              additionalProperties: false,
              properties: {
                activity_type: ACTIVITY_OUTPUT,
                distance,
                duration: { type: 'integer' },
                felt: { type: 'string' },
                title: { type: 'string' },
                calories: { type: 'integer' },
                route_id: { type: 'integer' },
              },
            },
            media: {
              type: 'array',
              items: {
                type: 'object',
                required: ['content'],
                properties: {
                  content: { type: 'object', properties: { type: { const: 'image' }, url: { type: 'string' } } },
                  preview: { type: 'object' },
                },
              },
            },
          },
        },
        EntryList: {
          type: 'object',
          required: ['entries'],
          additionalProperties: false,
          properties: { entries: { type: 'array', maxItems: 20, items: ref('Entry') } },
        },
        Friend: {
          type: 'object',
          required: ['username', 'display_name', 'photo_url', 'url', 'location'],
          additionalProperties: false,
          properties: {
            ...user.properties,
            location: { type: ['string', 'null'], description: '`null` when the person gave none.' },
          },
        },
        Friendship: {
          type: 'object',
          required: ['status', 'person'],
          additionalProperties: false,
          properties: {
            status: { enum: ['requested', 'friends', 'none', 'incoming'], description: '`requested`: waiting for the person to accept.' },
            person: ref('Friend'),
          },
        },
        Route: {
          type: 'object',
          required: ['id'],
          additionalProperties: false,
          properties: {
            id: { type: 'integer' },
            name: { type: 'string' },
            activity_type: ACTIVITY_OUTPUT,
            distance,
            geo,
            encoded_samples: { type: 'string', description: 'Google encoded polyline of the track.' },
          },
        },
        TrackUpload: {
          type: 'object',
          required: ['id', 'track'],
          properties: {
            id: { type: 'integer' },
            track: {
              type: 'object',
              required: ['points', 'distance', 'elevation_gain', 'encoded_samples'],
              properties: {
                points: { type: 'integer' },
                distance,
                elevation_gain: { type: 'number' },
                started_at: timestamp,
                ended_at: timestamp,
                encoded_samples: { type: 'string' },
                repairs: {
                  type: 'array',
                  items: { type: 'string' },
                  description:
                    'What was dropped to read the file, one sentence each (point times outside 1970..2199, kept untimed); absent for a clean file.',
                },
              },
            },
          },
        },
      },
    },
    paths: {
      '/entries.json': {
        ...stream('legacyPublicStream', 'Public stream: everyone’s entries.'),
        post: {
          operationId: 'legacyCreateEntry',
          summary: 'Create an entry: a note, a workout, an image and/or a location.',
          security: needs('entries:write'),
          parameters: [IDEMPOTENCY_KEY],
          requestBody: formBody(CREATE_ENTRY),
          responses: {
            '201': {
              description: 'Created; `Location` is the entry’s URL.',
              headers: { Location: { schema: { type: 'string' } } },
              content: json(ref('Entry')),
            },
            ...pick(...CREATE_ERRORS, '406'),
          },
        },
      },
      '/entries/import.json': {
        post: {
          operationId: 'legacyImportActivity',
          summary: 'Make a workout entry from an activity file: FIT, TCX or GPX, gzipped or not.',
          description: [
            'The format is told by the file’s content, never its name. The entry’s workout takes its type from the sport the file names,',
            'the start as `completed_at`, the distance (in your units), the moving time and the calories when the file has them; the',
            'track keeps time, elevation, heart rate, cadence and power. Entry, workout and track are made together or not at all.',
            'The same file imported again (gzipped or not) answers the entry it made the first time, with 200 instead of 201.',
            'One file at a time per person: a second while the first is read is 429 with `Retry-After`.',
          ].join(' '),
          security: needs('entries:write'),
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: {
                    file: { type: 'string', format: 'binary', description: 'The activity file; at most 20 MB uncompressed.' },
                    message: { type: 'string', maxLength: 5000, description: 'The entry’s note; default: the file’s own notes (TCX).' },
                    visibility: { enum: ['everyone', 'friends', 'only_me'], description: 'Default: your default visibility.' },
                  },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'Created; `Location` is the entry’s URL.',
              headers: { Location: { schema: { type: 'string' } } },
              content: json(ref('Entry')),
            },
            '200': {
              description: 'You had imported this very file before: the entry it made then. Nothing new is made.',
              headers: { Location: { schema: { type: 'string' } } },
              content: json(ref('Entry')),
            },
            ...pick('400', '401', '422'),
            '413': error('The form is larger than 20 MB.'),
            '429': {
              ...error('Another file of yours is being imported; retry after `Retry-After` seconds.'),
              headers: { 'Retry-After': { schema: { type: 'integer' } } },
            },
          },
        },
      },
      '/entries/popular.json': stream(
        'legacyPopularStream',
        'Popular stream: the week’s most liked and commented entries.',
        [],
        false,
        [
          `The entries posted in the ${POPULAR_DAYS} days before a moment, ranked by the likes and comments they had received by then (each counts one), most first; ties newest first.`,
          'The moment is `until` when given, else the start of the current hour: pages read within the hour (or with the same `until`) rank alike, so paging neither repeats nor skips entries while likes arrive. Entries of the current hour appear from the next one.',
          '`since` keeps only entries posted after it.',
        ].join(' '),
        'most popular first',
      ),
      '/entries/friends.json': stream('legacyFriendsStream', 'The viewer’s and their friends’ entries.', [], true),
      '/entries/nearby/{lat},{lon}.json': stream('legacyNearbyStream', 'Entries posted near a point.', [
        pathParam('lat', { type: 'number', minimum: -90, maximum: 90 }, 'Latitude.'),
        pathParam('lon', { type: 'number', minimum: -180, maximum: 180 }, 'Longitude.'),
        {
          name: 'radius',
          in: 'query',
          required: false,
          description: 'Miles, default 50, at most 500.',
          schema: { type: 'number', exclusiveMinimum: 0, maximum: 500, default: 50 },
        },
      ]),
      '/people/{username}/entries.json': stream('legacyPersonStream', 'A person’s entries.', [USERNAME]),
      '/entries/{id}.json': {
        get: {
          operationId: 'legacyEntry',
          security: OPTIONAL_TOKEN,
          summary: 'An entry.',
          parameters: [ID, ...formatParams],
          responses: { '200': { description: 'The entry.', content: json(ref('Entry')) }, ...pick('304', '400', '404', '405', '406') },
        },
        delete: {
          operationId: 'legacyDeleteEntry',
          summary: 'Delete one of your entries, with its comments, likes and track.',
          security: needs('entries:write'),
          parameters: [ID],
          responses: {
            '200': {
              description: 'Deleted.',
              content: json({
                type: 'object',
                required: ['id', 'deleted'],
                properties: { id: { type: 'integer' }, deleted: { const: true } },
              }),
            },
            ...pick('401', '403', '404', '405'),
          },
        },
      },
      '/entries/{id}/comments.json': {
        post: {
          operationId: 'legacyCreateComment',
          summary: 'Comment on an entry.',
          security: needs('entries:write'),
          parameters: [ID, IDEMPOTENCY_KEY],
          requestBody: formBody({
            type: 'object',
            required: ['body'],
            properties: { body: { type: 'string', minLength: 1, maxLength: 510 } },
          }),
          responses: {
            '201': {
              description: 'Created.',
              headers: {
                Location: {
                  description: 'The comment’s URL, ending in its id: `/entries/{id}/comments/{commentId}`.',
                  schema: { type: 'string' },
                },
              },
              content: json(ref('Comment')),
            },
            ...pick(...CREATE_ERRORS, '404'),
          },
        },
      },
      '/entries/{id}/comments/{commentId}.json': {
        get: {
          operationId: 'legacyComment',
          security: OPTIONAL_TOKEN,
          summary: 'One comment of an entry (where its create’s Location points).',
          parameters: [ID, pathParam('commentId', { type: 'integer' }, 'The comment’s id.'), ...formatParams],
          responses: { '200': { description: 'The comment.', content: json(ref('Comment')) }, ...pick('304', '400', '404', '405', '406') },
        },
      },
      '/entries/{id}/likes/{likeId}.json': {
        get: {
          operationId: 'legacyLike',
          security: OPTIONAL_TOKEN,
          summary: 'One like of an entry (where its create’s Location points).',
          parameters: [ID, pathParam('likeId', { type: 'integer' }, 'The like’s id.'), ...formatParams],
          responses: { '200': { description: 'The like.', content: json(ref('Like')) }, ...pick('304', '400', '404', '405', '406') },
        },
      },
      '/entries/{id}/likes.json': {
        post: {
          operationId: 'legacyLikeEntry',
          summary: 'Like an entry; liking twice is not an error.',
          security: needs('entries:write'),
          parameters: [ID, IDEMPOTENCY_KEY],
          responses: {
            '201': {
              description: 'The like (the first one, when the viewer liked the entry before).',
              headers: {
                Location: { description: 'The like’s URL, ending in its id: `/entries/{id}/likes/{likeId}`.', schema: { type: 'string' } },
              },
              content: json(ref('Like')),
            },
            ...pick(...CREATE_ERRORS, '404'),
          },
        },
      },
      '/entries/{id}/track.json': trackUpload('legacySetEntryTrack', 'Create or replace the GPS track of one of your workouts.'),
      '/media/{name}': {
        get: {
          operationId: 'mediaFile',
          security: OPTIONAL_TOKEN,
          summary: 'An uploaded photo or its preview, as an entry’s `media` links it.',
          description:
            'Served to those who may see an entry that shows it (by the token, or a browser’s log-in); to anyone else a 404, as for a photo that never was. ' +
            'Names are digests of the bytes, so a photo never changes under its name: a photo of an entry for everyone is `Cache-Control: public, max-age=31536000, immutable`; any other is `private, no-cache`, asked again each time (304 while allowed).',
          parameters: [pathParam('name', { type: 'string', pattern: '^[0-9a-f]{64}\\.(jpg|png|webp|gif)$' }, 'The file’s name.')],
          responses: {
            '200': {
              description: 'The photo.',
              content: Object.fromEntries(
                ['image/jpeg', 'image/png', 'image/webp', 'image/gif'].map((type) => [
                  type,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            },
            '304': { description: 'Not modified (If-None-Match).' },
            ...pick('404'),
          },
        },
      },
      '/people/{username}.json': {
        get: {
          operationId: 'legacyPerson',
          security: OPTIONAL_TOKEN,
          summary: 'A person.',
          parameters: [USERNAME, ...formatParams],
          responses: { '200': { description: 'The person.', content: json(ref('Person')) }, ...pick('304', '400', '404', '405', '406') },
        },
      },
      '/people/me.json': {
        get: {
          operationId: 'legacyMe',
          summary: 'The person who authorized the token.',
          security: needs('read'),
          parameters: formatParams,
          responses: { '200': { description: 'The person.', content: json(ref('Person')) }, ...pick('400', '401', '405', '406') },
        },
      },
      '/people/{username}/friends.json': {
        get: {
          operationId: 'legacyFriends',
          security: OPTIONAL_TOKEN,
          summary: 'A person’s friends: the 50 longest-standing (GraphQL `Person.friends` pages through all of them).',
          description: '`me` stands for the person who authorized the token, and needs one (401 without).',
          parameters: [USERNAME, ...formatParams],
          responses: {
            '200': {
              description: 'The friends.',
              content: json({ type: 'object', required: ['friends'], properties: { friends: { type: 'array', items: ref('Friend') } } }),
            },
            ...pick('304', '400', '401', '404', '405', '406'),
          },
        },
        post: {
          operationId: 'legacyRequestFriend',
          summary: 'Ask a person to be friends; when they already asked you, you become friends at once.',
          description: 'Asking again is not an error. `me` or your own username is a 422 naming `username`.',
          security: needs('profile:write'),
          parameters: [USERNAME, IDEMPOTENCY_KEY],
          responses: {
            '201': {
              description: 'Where you stand with the person now.',
              headers: { Location: { description: 'The person’s URL.', schema: { type: 'string' } } },
              content: json(ref('Friendship')),
            },
            ...pick(...CREATE_ERRORS, '404'),
          },
        },
        delete: {
          operationId: 'legacyRemoveFriend',
          summary: 'End a friendship, or withdraw your own request. Not being friends is not an error.',
          security: needs('profile:write'),
          parameters: [USERNAME],
          responses: {
            '200': { description: 'Where you stand with the person now (`none`).', content: json(ref('Friendship')) },
            ...pick(...CREATE_ERRORS, '404'),
          },
        },
      },
      '/people/{username}/routes.json': {
        get: {
          operationId: 'legacyPersonRoutes',
          security: OPTIONAL_TOKEN,
          summary: 'A person’s routes.',
          description: '`me` stands for the person who authorized the token, and needs one (401 without).',
          parameters: [USERNAME, ...formatParams],
          responses: {
            '200': {
              description: 'The routes.',
              content: json({ type: 'object', required: ['routes'], properties: { routes: { type: 'array', items: ref('Route') } } }),
            },
            ...pick('304', '400', '401', '404', '405', '406'),
          },
        },
      },
      '/routes.json': {
        post: {
          operationId: 'legacyCreateRoute',
          summary: 'Create a route; attach a track with PUT /routes/{id}/track.json.',
          security: needs('entries:write'),
          parameters: [IDEMPOTENCY_KEY],
          requestBody: formBody({
            type: 'object',
            properties: {
              name: { type: 'string', maxLength: 100 },
              activity_type: ACTIVITY_INPUT,
            },
          }),
          responses: {
            '201': {
              description: 'Created; `Location` is its GPX download.',
              headers: { Location: { schema: { type: 'string' } } },
              content: json(ref('Route')),
            },
            ...pick(...CREATE_ERRORS),
          },
        },
      },
      '/routes/{id}.gpx': {
        get: {
          operationId: 'legacyRouteGpx',
          security: OPTIONAL_TOKEN,
          summary: 'A route as GPX 1.1 (also `/routes/{id}.json` for its JSON summary).',
          parameters: [ID],
          responses: {
            '200': { description: 'The GPX document.', content: { 'application/gpx+xml': { schema: { type: 'string' } } } },
            ...pick('304', '404', '405', '406'),
          },
        },
      },
      '/routes/{id}/track.json': trackUpload('legacySetRouteTrack', 'Create or replace the GPS track of one of your routes.'),
      '/entries/{id}.gpx': {
        get: {
          operationId: 'legacyEntryGpx',
          security: OPTIONAL_TOKEN,
          summary: 'A workout’s GPS track as GPX 1.1: to anyone but its author, without what their privacy zones hide.',
          parameters: [ID],
          responses: {
            '200': { description: 'The GPX document.', content: { 'application/gpx+xml': { schema: { type: 'string' } } } },
            ...pick('304', '404', '405', '406'),
          },
        },
      },
      ...v1.paths,
    },
    tags: [
      {
        name: API_TAG,
        description:
          `Every GraphQL query and mutation as a REST operation, generated from the schema: queries are GET with their arguments as query parameters, mutations POST with a JSON, form or multipart body. ` +
          'Tokens, limits and errors are those of `/graphql`; failures answer with the `Error` body and a status (422 names each field). ' +
          `Nested people are summaries; left out: ${LEFT_OUT_NOTES.join('; ')}.`,
      },
    ],
  };
}
