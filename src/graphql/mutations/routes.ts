import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { namesObject, requireDatabaseId } from '../global-ids.ts';
import { parsePackedGpx } from '../../domain/gpx.ts';
import { validateRouteInput } from '../../domain/social.ts';
import { replaceTrack } from '../../db/tracks.ts';
import { prepareUpload } from '../../tracks/pool.ts';
import { builder } from '../builder.ts';
import { requireViewer } from '../context.ts';
import { ActivityTypeEnum } from '../types/enums.ts';
import { gpxStream } from './gpx-source.ts';

builder.mutationFields((t) => ({
  createRoute: t.prismaField({
    type: 'Route',
    description: 'Creates a route owned by the viewer (SPEC 4.7); attach a track with setRouteTrack.',
    errors: { types: [ValidationError, NotAuthorizedError] },
    args: {
      name: t.arg.string({ description: 'At most 100 characters.' }),
      activityType: t.arg({ type: ActivityTypeEnum, description: 'What the route is for.' }),
    },
    resolve: async (query, _root, args, context) => {
      const viewer = requireViewer(context);
      // a transaction of its own, so that a retry under an Idempotency-Key replays it (graphql/idempotency.ts)
      const { id } = await context.prisma.$transaction((tx) =>
        tx.route.create({ data: { ...validateRouteInput(args), ownerId: viewer.id }, select: { id: true } }),
      );
      return context.prisma.route.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),

  setRouteTrack: t.prismaField({
    type: 'Route',
    description: "Creates or replaces the GPS track of one of the viewer's routes from a GPX document.",
    errors: { types: [ValidationError, NotFoundError, NotAuthorizedError] },
    args: {
      routeId: t.arg.id({ required: true, description: namesObject('Route') }),
      gpx: t.arg({ type: 'GpxDocument', required: true, description: 'The GPX document: its text, or a file of a multipart request.' }),
    },
    resolve: async (query, _root, args, context) => {
      const { gpx } = args;
      const viewer = requireViewer(context);
      const routeId = requireDatabaseId(args.routeId, 'Route', 'route');
      const route = await context.prisma.route.findUnique({ where: { id: routeId }, select: { ownerId: true } });
      if (!route) throw new NotFoundError('route', String(routeId));
      if (route.ownerId !== viewer.id) throw new NotAuthorizedError("only the owner may change this route's track");
      await replaceTrack(context.prisma, context.provider, { routeId }, await prepareUpload(await parsePackedGpx(gpxStream(gpx))));
      return context.prisma.route.findUniqueOrThrow({ ...query, where: { id: routeId } });
    },
  }),
}));
