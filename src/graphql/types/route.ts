import { ACTIVITY_TYPES, UNIT_PREFERENCES, storedValue } from '../../domain/activity.ts';
import { fromMeters } from '../../domain/units.ts';
import { builder } from '../builder.ts';
import { ActivityTypeEnum } from './enums.ts';
import { DistanceRef } from './workout.ts';

builder.prismaObject('Route', {
  description: 'A named route, optionally with a GPS track (SPEC 2.4, 4.7).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name', { nullable: true }),
    activityType: t.field({
      type: ActivityTypeEnum,
      nullable: true,
      resolve: (r) => (r.activityType === null ? null : storedValue(ACTIVITY_TYPES, r.activityType, 'Route.activityType')),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    owner: t.relation('owner'),
    track: t.relation('track', { nullable: true }),
    distance: t.field({
      type: DistanceRef,
      nullable: true,
      description: "Length of the track in the owner's preferred units; null without a track.",
      select: { owner: { select: { units: true } }, track: { select: { distanceMeters: true } } },
      resolve: (route) => {
        if (!route.track) return null;
        const units = storedValue(UNIT_PREFERENCES, route.owner.units, 'Person.units');
        return { value: Math.round(fromMeters(route.track.distanceMeters, units) * 10_000) / 10_000, units };
      },
    }),
    gpxUrl: t.string({
      description: 'Where to download the route as GPX 1.1.',
      resolve: (route, _args, context) => `${context.baseUrl}/routes/${route.id}.gpx`,
    }),
  }),
});

builder.prismaObject('TrackPoint', {
  fields: (t) => ({
    lat: t.exposeFloat('lat'),
    lon: t.exposeFloat('lon'),
    elevation: t.exposeFloat('elevation', { nullable: true, description: 'Meters above sea level.' }),
    time: t.expose('time', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObject('Track', {
  description: 'A GPS track of a workout entry or a route.',
  fields: (t) => ({
    pointCount: t.exposeInt('pointCount'),
    distanceMeters: t.exposeFloat('distanceMeters'),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    points: t.relation('points', {
      description: 'The points in order; `first` bounds how many come back.',
      args: { first: t.arg.int({ required: false, defaultValue: 10_000 }) },
      query: (args) => ({ orderBy: { seq: 'asc' }, take: Math.max(0, Math.min(args.first ?? 10_000, 100_000)) }),
    }),
  }),
});
