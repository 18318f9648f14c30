import { replaceTrack } from '../../db/tracks.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { parsePackedGpx } from '../../domain/gpx.ts';
import { validateRouteInput } from '../../domain/social.ts';
import { prepareUpload } from '../../tracks/pool.ts';
import { type Context, requireViewer } from '../context.ts';
import { namesObject, requireDatabaseId, requireOwnRow } from '../global-ids.ts';
import { ActivityTypeEnum } from '../types/enums.ts';
import { listCursor } from '../types/lists.ts';
import { RouteEdge } from '../types/route.ts';
import { gpxStream } from './gpx-source.ts';
import { ofResult, type PayloadFieldBuilder, payloadMutation, readAfter } from './payload.ts';

/** A payload's route, read after the write with what the operation asks of it. */
function routeField<Result extends { routeId: number }>(t: PayloadFieldBuilder<Result>, description: string) {
  return t.prismaField({
    type: 'Route',
    nullable: true,
    description: `${description} Null when the mutation failed.`,
    resolve: (query, payload, _args, context) =>
      readAfter(payload, query, (result, selection) => context.prisma.route.findUnique({ ...selection, where: { id: result.routeId } })),
  });
}

payloadMutation('createRoute', {
  description: 'Creates a route owned by the viewer (SPEC 4.7); attach a track with setRouteTrack.',
  input: {
    description: 'The new route.',
    fields: (t) => ({
      name: t.string({ description: 'At most 100 characters.' }),
      activityType: t.field({ type: ActivityTypeEnum, description: 'What the route is for.' }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    // a transaction of its own, so that a retry under an Idempotency-Key replays it (graphql/idempotency.ts)
    const { id } = await context.prisma.$transaction((tx) =>
      tx.route.create({ data: { ...validateRouteInput(input), ownerId: viewer.id }, select: { id: true } }),
    );
    return { routeId: id, ownerId: viewer.id };
  },
  payload: {
    description: 'The new route, and its edge.',
    fields: (t) => ({
      route: routeField(t, 'The new route.'),
      routeEdge: t.field({
        type: RouteEdge,
        nullable: true,
        description:
          'The new route as an edge of `Person.routes` (newest first): for Relay’s `@prependEdge`. Null when the mutation failed.',
        resolve: async (payload, _args, context) => {
          if (!payload.result) return null;
          const node = await context.prisma.route.findUnique({ where: { id: payload.result.routeId } });
          if (!node) return null;
          // its cursor names it (graphql/types/lists.ts)
          return { cursor: listCursor([node.createdAt.getTime(), node.id]), node };
        },
      }),
    }),
  },
});

payloadMutation('setRouteTrack', {
  description: "Creates or replaces the GPS track of one of the viewer's routes from a GPX document.",
  input: {
    description: 'The route, and its track.',
    fields: (t) => ({
      routeId: t.id({ required: true, description: namesObject('Route') }),
      gpx: t.field({ type: 'GpxDocument', required: true, description: 'The GPX document: its text, or a file of a multipart request.' }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const routeId = requireDatabaseId(input.routeId, 'Route', 'route');
    const route = await context.prisma.route.findUnique({ where: { id: routeId }, select: { ownerId: true } });
    if (!route) throw new NotFoundError('route', String(input.routeId));
    if (route.ownerId !== viewer.id) throw new NotAuthorizedError("only the owner may change this route's track");
    await replaceTrack(context.prisma, context.provider, { routeId }, await prepareUpload(await parsePackedGpx(gpxStream(input.gpx))));
    return { routeId };
  },
  payload: { description: 'The route with its new track.', fields: (t) => ({ route: routeField(t, 'The route with its new track.') }) },
});

/** One of the viewer's routes by the id the client sent: missing is NotFound, another's NotAuthorized. */
const ownRoute = (context: Context, id: string | number, action: string) =>
  requireOwnRow(context, id, 'Route', 'route', action, (row) =>
    context.prisma.route.findUnique({ where: { id: row }, select: { ownerId: true } }),
  );

payloadMutation('updateRoute', {
  description: "Renames one of the viewer's routes, or changes what it is for.",
  input: {
    description: 'The route, and what changes of it; a field left out stays as it is.',
    fields: (t) => ({
      id: t.id({ required: true, description: namesObject('Route') }),
      name: t.string({ description: 'At most 100 characters; null or empty clears it.' }),
      activityType: t.field({ type: ActivityTypeEnum, description: 'What the route is for; null clears it.' }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const routeId = await ownRoute(context, input.id, 'change');
    const valid = validateRouteInput({ name: input.name, activityType: input.activityType });
    const data = {
      ...(input.name !== undefined && { name: valid.name }),
      ...(input.activityType !== undefined && { activityType: valid.activityType }),
    };
    if (Object.keys(data).length > 0) await context.prisma.route.update({ where: { id: routeId }, data, select: { id: true } });
    return { routeId };
  },
  payload: { description: 'The route as it is now.', fields: (t) => ({ route: routeField(t, 'The route as it is now.') }) },
});

payloadMutation('deleteRoute', {
  description: "Deletes one of the viewer's routes with its track; workouts that followed it keep their figures and lose the link.",
  input: { description: 'The route to delete.', fields: (t) => ({ id: t.id({ required: true, description: namesObject('Route') }) }) },
  scope: 'entries:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const routeId = await ownRoute(context, input.id, 'delete');
    const { count } = await context.prisma.route.deleteMany({ where: { id: routeId, ownerId: requireViewer(context).id } });
    if (count === 0) throw new NotFoundError('route', String(input.id));
    return { routeId };
  },
  payload: {
    description: 'The deleted route’s id.',
    fields: (t) => ({
      deletedRouteId: t.globalID({
        nullable: true,
        description: 'The deleted route’s global id, for Relay’s `@deleteRecord`. Null when the mutation failed.',
        resolve: ofResult((result: { routeId: number }) => ({ type: 'Route', id: result.routeId })),
      }),
    }),
  },
});
