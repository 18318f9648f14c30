// The OpenAPI 3.1 description of the legacy REST paths and of the generated API at /api/v1, served at
// /openapi.json and rendered at /docs. The legacy routes declare their operations beside their handlers
// (src/rest/*-routes.ts); this puts them together with the shapes they answer in (COMPAT.md).
// The test suite checks that the document validates and that every response it sees conforms to it.

import { SCOPE_DESCRIPTIONS } from '../domain/scopes.ts';
import { API_BASE, API_TAG, type GeneratedDescription, LEFT_OUT_NOTES } from './generated-api.ts';
import type { LegacyPaths } from './kit.ts';
import { ACTIVITY_OUTPUT, type ERRORS, IDEMPOTENCY_KEY, json, needs, OPTIONAL_TOKEN, pathParam, pick, ref } from './openapi-parts.ts';

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

/** The JSON the legacy paths answer with (COMPAT.md), as the routes' operations refer to them. */
const SHAPES = {
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
          gear_id: { type: 'integer', description: 'The gear it was done in: `GET /api/v1/gear/{id}`.' },
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

export function openApiDocument(baseUrl: string, legacy: LegacyPaths, generated: GeneratedDescription) {
  const document = describe(baseUrl, legacy, generatedPaths(generated));
  const { schemas, ...others } = document.components;
  return { ...document, components: { ...others, schemas: referenced({ ...document, components: others }, schemas) } };
}

function describe(baseUrl: string, legacy: LegacyPaths, v1: ReturnType<typeof generatedPaths>) {
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
      schemas: { ...v1.schemas, ...SHAPES },
    },
    paths: {
      ...legacy,
      // the service's own path, beside the legacy ones (src/app/dispatch.ts serves it)
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
