// Entries, their comments and likes, and activity files made entries: each route with its OpenAPI operation.
import {
  RestCreateCommentDocument,
  RestCreateEntryDocument,
  RestDeleteEntryDocument,
  RestEntryDocument,
  RestEntryGpxDocument,
  RestImportActivityDocument,
  RestLikeEntryDocument,
} from '../operations/generated.ts';
import { RestError } from './errors.ts';
import { dataOf, entryId, type Handler, outcome, type RestKit } from './kit.ts';
import {
  CREATE_ENTRY,
  CREATE_ERRORS,
  error,
  formatParams,
  formBody,
  ID,
  IDEMPOTENCY_KEY,
  json,
  needs,
  OPTIONAL_TOKEN,
  pathParam,
  pick,
  ref,
} from './openapi-parts.ts';
import { createEntryInput, enumValue, positiveId } from './params.ts';
import { commentJson, entryJson, likeJson } from './shapes.ts';

/** A comment or like of an entry, by its id (where a create's Location points): as the entry shows it. */
const partOfEntry =
  ({ run }: RestKit, part: 'comments' | 'likes', shape: (item: never) => unknown): Handler =>
  async ({ ctx, context }) => {
    const id = entryId(ctx);
    const what = part === 'comments' ? 'comment' : 'like';
    const asked = ctx.params[`${what}Id`];
    const itemId = positiveId(asked);
    const missing = new RestError(404, 'NOT_FOUND', `no ${what} ${asked} on entry ${ctx.params.id}`);
    if (itemId === null) throw missing;
    const data = dataOf(await run(RestEntryDocument, ctx.request, context, { id }));
    const item = (data.entry && (wholeEntry(data.entry)[part].edges as Array<{ node: { id: number } }> | undefined))?.find(
      ({ node }) => node.id === itemId,
    )?.node;
    if (!item) throw missing;
    return { status: 200, body: shape(item as never) };
  };

/** An entry read alone, with its lists up to their maximum page rather than a stream's first page. */
const wholeEntry = <E extends { allComments: unknown; allLikes: unknown }>({ allComments, allLikes, ...entry }: E) => ({
  ...entry,
  comments: allComments,
  likes: allLikes,
});

/** Entries, their comments and likes. */
export function mountEntryRoutes(kit: RestKit): void {
  createEntryRoute(kit);
  importActivityRoute(kit);
  entryRoute(kit);
  deleteEntryRoute(kit);
  createCommentRoute(kit);
  likeEntryRoute(kit);
  commentRoute(kit);
  likeRoute(kit);
}

/** POST /entries: Create an entry: a note, a workout, an image and/or a location. */
function createEntryRoute({ route, run }: RestKit): void {
  route(
    'POST',
    '/entries',
    {
      auth: true,
      body: true,
      doc: {
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
    async ({ ctx, context, params }) => {
      const result = await run(RestCreateEntryDocument, ctx.request, context, { input: createEntryInput(params) });
      const entry = outcome(result, 'entry');
      return { status: 201, body: entryJson(entry), headers: { location: entry.url } };
    },
  );
}

/** POST /entries/import: Make a workout entry from an activity file: FIT, TCX or GPX, gzipped or not. */
function importActivityRoute({ route, run }: RestKit): void {
  // a FIT, TCX or GPX file (gzipped or not) as a workout entry; the same file again answers
  // the entry it made the first time, 200 instead of 201
  route(
    'POST',
    '/entries/import',
    {
      auth: true,
      body: true,
      doc: {
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
    async ({ ctx, context, params }) => {
      const file = params.file;
      // the form's File need not be this realm's Blob
      if (typeof file !== 'object' || file === null || typeof (file as Blob).arrayBuffer !== 'function')
        throw new RestError(422, 'VALIDATION_FAILED', 'some parameters are invalid', [
          { field: 'file', message: 'send the activity file as the multipart/form-data part `file`' },
        ]);
      const variables = {
        file,
        ...(typeof params.message === 'string' ? { message: params.message } : {}),
        ...(params.visibility !== undefined && params.visibility !== '' ? { visibility: enumValue(params.visibility) } : {}),
      };
      const imported = await run(RestImportActivityDocument, ctx.request, context, variables);
      const entry = outcome(imported, 'entry');
      return {
        status: imported.data?.result.created ? 201 : 200,
        body: entryJson(entry),
        headers: { location: entry.url },
      };
    },
  );
}

/** GET /entries/:id: An entry. */
function entryRoute({ route, run }: RestKit): void {
  route(
    'GET',
    '/entries/:id',
    {
      formats: ['json', 'gpx'],
      doc: {
        operationId: 'legacyEntry',
        security: OPTIONAL_TOKEN,
        summary: 'An entry.',
        parameters: [ID, ...formatParams],
        responses: { '200': { description: 'The entry.', content: json(ref('Entry')) }, ...pick('304', '400', '404', '405', '406') },
      },
      gpxDoc: {
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
    async ({ ctx, context, format }) => {
      if (format === 'gpx') {
        const data = dataOf(await run(RestEntryGpxDocument, ctx.request, context, { id: entryId(ctx) }));
        if (!data.entry) throw new RestError(404, 'NOT_FOUND', `no entry ${ctx.params.id}`);
        if (!data.entry.track) throw new RestError(404, 'NOT_FOUND', `entry ${ctx.params.id} has no GPS track`);
        return { status: 200, body: null, raw: { contentType: 'application/gpx+xml; charset=utf-8', text: data.entry.track.gpx } };
      }
      const data = dataOf(await run(RestEntryDocument, ctx.request, context, { id: entryId(ctx) }));
      if (!data.entry) throw new RestError(404, 'NOT_FOUND', `no entry ${ctx.params.id}`);
      return { status: 200, body: entryJson(wholeEntry(data.entry)) };
    },
  );
}

/** DELETE /entries/:id: Delete one of your entries, with its comments, likes and track. */
function deleteEntryRoute({ route, run }: RestKit): void {
  route(
    'DELETE',
    '/entries/:id',
    {
      auth: true,
      body: true,
      doc: {
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
    async ({ ctx, context }) => {
      const id = entryId(ctx);
      outcome(await run(RestDeleteEntryDocument, ctx.request, context, { id }), 'deletedEntry');
      return { status: 200, body: { id, deleted: true } };
    },
  );
}

/** POST /entries/:id/comments: Comment on an entry. */
function createCommentRoute({ route, run }: RestKit): void {
  route(
    'POST',
    '/entries/:id/comments',
    {
      auth: true,
      body: true,
      doc: {
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
    async ({ ctx, context, params }) => {
      const id = entryId(ctx);
      // an object or a list is passed as sent, so that GraphQL's coercion names `body` (never "[object Object]")
      const body =
        params.body === undefined || params.body === null
          ? ''
          : typeof params.body === 'number' || typeof params.body === 'boolean'
            ? String(params.body)
            : params.body;
      const comment = outcome(await run(RestCreateCommentDocument, ctx.request, context, { entryId: id, body }), 'comment');
      // clients read the new id off the end of Location (`.*/[0-9]+$`), and a GET there answers the comment
      return { status: 201, body: commentJson(comment), headers: { location: `${context.baseUrl}/entries/${id}/comments/${comment.id}` } };
    },
  );
}

/** POST /entries/:id/likes: Like an entry; liking twice is not an error. */
function likeEntryRoute({ route, run }: RestKit): void {
  route(
    'POST',
    '/entries/:id/likes',
    {
      auth: true,
      body: true,
      doc: {
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
    async ({ ctx, context }) => {
      const id = entryId(ctx);
      const like = outcome(await run(RestLikeEntryDocument, ctx.request, context, { entryId: id }), 'like');
      return { status: 201, body: likeJson(like), headers: { location: `${context.baseUrl}/entries/${id}/likes/${like.id}` } };
    },
  );
}

/** GET /entries/:id/comments/:commentId: One comment of an entry (where its create’s Location points). */
function commentRoute(kit: RestKit): void {
  const { route } = kit;
  route(
    'GET',
    '/entries/:id/comments/:commentId',
    {
      doc: {
        operationId: 'legacyComment',
        security: OPTIONAL_TOKEN,
        summary: 'One comment of an entry (where its create’s Location points).',
        parameters: [ID, pathParam('commentId', { type: 'integer' }, 'The comment’s id.'), ...formatParams],
        responses: { '200': { description: 'The comment.', content: json(ref('Comment')) }, ...pick('304', '400', '404', '405', '406') },
      },
    },
    partOfEntry(kit, 'comments', commentJson),
  );
}

/** GET /entries/:id/likes/:likeId: One like of an entry (where its create’s Location points). */
function likeRoute(kit: RestKit): void {
  const { route } = kit;
  route(
    'GET',
    '/entries/:id/likes/:likeId',
    {
      doc: {
        operationId: 'legacyLike',
        security: OPTIONAL_TOKEN,
        summary: 'One like of an entry (where its create’s Location points).',
        parameters: [ID, pathParam('likeId', { type: 'integer' }, 'The like’s id.'), ...formatParams],
        responses: { '200': { description: 'The like.', content: json(ref('Like')) }, ...pick('304', '400', '404', '405', '406') },
      },
    },
    partOfEntry(kit, 'likes', likeJson),
  );
}
