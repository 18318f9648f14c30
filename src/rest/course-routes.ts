// Routes (the saved courses of SPEC 4.7) and the GPS tracks of entries and routes: each with its OpenAPI operation.
import type { ExecutionResult } from 'graphql';
import { DEFAULT_MAX_GPX_BYTES } from '../domain/gpx.ts';
import { drainedOnCancel } from '../http/body.ts';
import {
  RestCreateRouteDocument,
  RestRouteDocument,
  RestRouteGpxDocument,
  RestSetEntryTrackDocument,
  type RestSetEntryTrackMutation,
  RestSetRouteTrackDocument,
  type RestSetRouteTrackMutation,
} from '../operations/generated.ts';
import { RestError } from './errors.ts';
import { dataOf, type Handler, outcome, type RestKit } from './kit.ts';
import {
  ACTIVITY_INPUT,
  CREATE_ERRORS,
  formBody,
  ID,
  IDEMPOTENCY_KEY,
  json,
  needs,
  OPTIONAL_TOKEN,
  pick,
  ref,
  trackDoc,
} from './openapi-parts.ts';
import { enumValue, positiveId } from './params.ts';
import { routeJson, trackJson } from './shapes.ts';

/** Routes and tracks (SPEC 4.7). */
export function mountCourseRoutes(kit: RestKit): void {
  createRouteRoute(kit);
  routeGpxRoute(kit);
  setEntryTrackRoute(kit);
  setRouteTrackRoute(kit);
}

/** POST /routes: Create a route; attach a track with PUT /routes/{id}/track.json. */
function createRouteRoute({ route, run }: RestKit): void {
  route(
    'POST',
    '/routes',
    {
      auth: true,
      body: true,
      doc: {
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
    async ({ ctx, context, params }) => {
      const variables: Record<string, unknown> = {};
      if (params.name !== undefined) variables.name = typeof params.name === 'string' ? params.name : String(params.name);
      if (params.activity_type !== undefined && params.activity_type !== '') {
        variables.activityType = enumValue(params.activity_type);
      }
      const created = outcome(await run(RestCreateRouteDocument, ctx.request, context, variables), 'route');
      return { status: 201, body: routeJson(created), headers: { location: `${context.baseUrl}/routes/${created.id}.gpx` } };
    },
  );
}

/** GET /routes/:id: A route as GPX 1.1 (also `/routes/{id}.json` for its JSON summary). */
function routeGpxRoute({ route, run }: RestKit): void {
  route(
    'GET',
    '/routes/:id',
    {
      formats: ['gpx', 'json'],
      doc: {
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
    async ({ ctx, context, format }) => {
      const id = positiveId(ctx.params.id);
      const missing = new RestError(404, 'NOT_FOUND', `no route ${ctx.params.id}`);
      if (id === null) throw missing;
      if (format === 'json') {
        const data = dataOf(await run(RestRouteDocument, ctx.request, context, { id }));
        if (!data.route) throw missing;
        return { status: 200, body: routeJson(data.route) };
      }
      const data = dataOf(await run(RestRouteGpxDocument, ctx.request, context, { id }));
      if (!data.route) throw missing;
      const gpx = data.route.track?.gpx ?? emptyGpx(data.route.name);
      return { status: 200, body: null, raw: { contentType: 'application/gpx+xml; charset=utf-8', text: gpx } };
    },
  );
}

/** PUT /entries/:id/track: Create or replace the GPS track of one of your workouts. */
function setEntryTrackRoute(kit: RestKit): void {
  const { route } = kit;
  route(
    'PUT',
    '/entries/:id/track',
    { auth: true, doc: trackDoc('legacySetEntryTrack', 'Create or replace the GPS track of one of your workouts.') },
    trackUpload(kit, RestSetEntryTrackDocument, 'entry'),
  );
}

/** PUT /routes/:id/track: Create or replace the GPS track of one of your routes. */
function setRouteTrackRoute(kit: RestKit): void {
  const { route } = kit;
  route(
    'PUT',
    '/routes/:id/track',
    { auth: true, doc: trackDoc('legacySetRouteTrack', 'Create or replace the GPS track of one of your routes.') },
    trackUpload(kit, RestSetRouteTrackDocument, 'route'),
  );
}

/** A GPX document as the raw body, streamed into the track of an entry or a route. */
const trackUpload =
  ({ run }: RestKit, operation: typeof RestSetEntryTrackDocument | typeof RestSetRouteTrackDocument, what: 'entry' | 'route'): Handler =>
  async ({ ctx, context }) => {
    const id = positiveId(ctx.params.id);
    if (id === null) throw new RestError(404, 'NOT_FOUND', `no ${what} ${ctx.params.id}`);
    const type = (ctx.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/gpx+xml')
      throw new RestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the GPX document as the raw body with Content-Type: application/gpx+xml');
    if (Number(ctx.request.headers.get('content-length') ?? 0) > DEFAULT_MAX_GPX_BYTES) {
      throw new RestError(413, 'TOO_LARGE', `GPX documents may be at most ${DEFAULT_MAX_GPX_BYTES} bytes`);
    }
    // the body streams into the parser, which stops at the size limit
    const gpx = { stream: () => (ctx.request.body ? drainedOnCancel(ctx.request.body) : new Blob([]).stream()) };
    const data = await run<RestSetEntryTrackMutation | RestSetRouteTrackMutation>(operation, ctx.request, context, { id, gpx });
    const result =
      what === 'entry'
        ? outcome(data as ExecutionResult<RestSetEntryTrackMutation>, 'entry')
        : outcome(data as ExecutionResult<RestSetRouteTrackMutation>, 'route');
    return { status: 200, body: { id: result.id, track: trackJson(result.track!) } };
  };

function emptyGpx(name: string | null): string {
  const escaped = name?.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Milepost" xmlns="http://www.topografix.com/GPX/1/1">\n${escaped ? `  <metadata><name>${escaped}</name></metadata>\n` : ''}</gpx>\n`;
}
